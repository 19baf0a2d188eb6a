"""Representative screens of every scene and every registered game, for the layout test
and the contact sheet: the menus (attract, select, join, options, result, service), each
game in play along random playouts (with its banners up, a pause, as a demo,
its result), and every frame model the shipped HIL scenarios put on screen.

Nothing here knows a game's rules: games come from ``games.registry``, their moves from
a random bot, their screens from ``display.games.registry``.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from display.models import (
    AttractBoard,
    DemoScreen,
    PlayScreen,
    StationLook,
)
from display.playout import playout
from firmware_py.games import registry as controls_registry
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.calibration_scene import CalibrationScene
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scenes import Attract, Join, Options, Play, Result, Select
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store
from games import registry
from games.protocol import Engine
from hal.clock import ManualClock
from hal.config import load_config
from hal.events import Button, ButtonEvent
from hal.sim import SimCabinet

Named = tuple[str, Any]
FOUR = load_config("hal/data/cabinet-4.toml")
LOOKS = tuple(StationLook(station.name, station.color) for station in FOUR.stations)
"""The 4-station cabinet's stations as it names them (Red, Blue, Green, Gold)."""
HIL = Path(__file__).resolve().parents[1] / "hil"
HIL_GAMES = registry.names()
"""Every offered game: its scenarios in ``tests/hil/<name>/`` are the ones whose frames are
sampled (the padboard ones replay the same screens slower, in real time)."""


def live_context(data_dir: Path | None = None) -> CabinetContext:
    """A 4-station cabinet's context on a throwaway store: the menus below are its own
    scenes' screens, made by the code the live cabinet runs (issue 30: hand-made models
    showed a service menu and words the cabinet no longer has)."""
    config = FOUR if data_dir is None else replace(FOUR, data_dir=data_dir)
    clock = ManualClock(1_000_000)
    store = Store(None)
    for game, winner, reason, slap in (  # the attract card's news, as the store tells it
        ("punch", 1, "match_wins", None),
        ("karate_fight", 0, "karate_master", 212_400),
        ("big_time_boxing", None, "draw", None),
    ):
        game_id = store.begin_game(game, {}, 2, 1, (0, 1))
        records = [("reaction", 1, slap, "")] if slap is not None else []
        store.commit_action(game_id, 0, {}, records, (winner, reason))
    cabinet = Cabinet(config, SimCabinet(config, clock), clock, store, log=lambda _line: None, seed=1)
    return cabinet.ctx


def menu_screens() -> Iterator[Named]:
    ctx = live_context()
    now = 2_000_000
    titles = tuple(spec.title for spec in registry.specs())
    board = AttractBoard(
        title="Punch Cards leaders",
        header=("#", "name", "pts", "cards"),
        rows=tuple(
            (str(i + 1), name, str(20 - i), str(9 - i)) for i, name in enumerate(("Ada", "Grace", "Edsger", "Barbara"))
        ),
        note="sign in at any cabinet",
    )
    attract = Attract(ctx, now)
    title_card = attract.screen(now)
    yield "attract", title_card
    yield "attract-board", replace(title_card, featured=len(titles) - 1, board=board)
    select = Select(ctx, now, host=0)
    select.cursor = len(titles) - 1
    yield "select", select.screen(now)
    for i, controls in enumerate(controls_registry.offered()):
        if controls_registry.entrance(controls.spec.name).has_lobby:
            continue  # its own way in (Punch Cards' lobby): no join screen, its screens come from its play
        join = Join(ctx, now, controls(), host=i % len(LOOKS))
        join.joined[(i + 1) % len(LOOKS)] = True
        yield f"join-{controls.spec.name}", join.screen(now)
        if join.controls.offers_computer():
            seated = Join(ctx, now, controls(), host=0)
            seated.on_input(ButtonEvent(station=0, button=Button.B, pressed=True, t_us=now), now)
            yield f"join-computer-{controls.spec.name}", seated.screen(now)
        options = Options(ctx, now, controls(), (0, 1), host=1)
        if options.controls.options_menu:  # every game's own options, as the cabinet lists them
            options.cursor = len(options.controls.options_menu) // 2
            yield f"options-{controls.spec.name}", options.screen(now)
    yield "service", ServiceMenu(ctx, now, attract, calibration=CalibrationScene).screen(now)


def playout_screens(samples: int = 6, seed: int = 1) -> Iterator[Named]:
    """Every registered game at every player count its screen shows, at ``samples``
    points of a random playout, each drawn just after its newest event."""
    yield from _playout_screens(samples, seed, registry.engines())


@functools.cache
def _playout_screens(samples: int, seed: int, engines: tuple[type[Engine], ...]) -> tuple[Named, ...]:
    """Played once a process for each ``samples``, ``seed`` and set of games: the playouts
    are seeded, the models frozen, and the layout, readability and frame checks read the
    same ones at both sizes (about 3 s of play a pass, six passes in test_layout alone)."""
    return tuple(_played_playout_screens(samples, seed, engines))


def _played_playout_screens(samples: int, seed: int, engines: tuple[type[Engine], ...]) -> Iterator[Named]:
    for engine_type in engines:
        spec = engine_type.spec
        for players in sorted({spec.min_players, spec.max_players}):
            engine: Engine = engine_type(spec.options_type(), players, seed)
            frames = list(playout(engine, seed))
            step = max(1, len(frames) // samples)
            chosen = frames[::step][: samples - 1] + frames[-1:]
            looks = LOOKS[:players]
            for i, (view, events, now) in enumerate(chosen):
                screen = PlayScreen(game=spec.name, title=spec.title, seats=looks, view=view, events=events, now_us=now)
                yield f"{spec.name}-{players}p-{i}", screen
            view, events, now = chosen[len(chosen) // 2]
            first = PlayScreen(game=spec.name, title=spec.title, seats=looks, view=view, events=events, now_us=now)
            yield (
                f"{spec.name}-{players}p-paused",
                PlayScreen(
                    game=spec.name,
                    title=spec.title,
                    seats=looks,
                    view=first.view,
                    events=first.events,
                    now_us=first.now_us,
                    paused="Slap pad 2 unplugged: plug it in",
                ),
            )
            yield f"{spec.name}-{players}p-demo", DemoScreen(first, spec.title, True)
            view, events, now = chosen[-1]
            last = PlayScreen(game=spec.name, title=spec.title, seats=looks, view=view, events=events, now_us=now)
            yield f"{spec.name}-{players}p-result", live_result(engine, looks, last)


def live_result(engine: Engine, looks: tuple[StationLook, ...], final: PlayScreen) -> Any:
    """``engine``'s finished game's result screen, made by the cabinet's own Play scene as
    it makes it when a game ends (issue 30: the sheets showed a result the game no longer
    has, "The fight in numbers / 327 actions"), over ``final``, the game's last frame drawn.
    A throwaway data folder takes what the scene keeps (Big Time Boxing's score sheet)."""
    controls = controls_registry.controls_type(engine.spec.name)()
    seats = tuple(range(engine.players))
    with tempfile.TemporaryDirectory(prefix="ringside-sheet-") as tmp:
        ctx = live_context(Path(tmp))
        played = engine.to_dict()
        game_id = ctx.store.begin_game(played["game"], played["options"], engine.players, engine.seed, seats)
        session = GameSession(controls, engine, seats, looks, ctx.store, game_id)
        result = Play(ctx, final.now_us, session)._result(final.now_us)
    assert isinstance(result, Result)
    return replace(result.model, final=final)


def hil_screens(per_scenario: int = 12) -> Iterator[Named]:
    """The screen models the cabinet drew while running each shipped game scenario on the
    sim backend, ``per_scenario`` of them spread over the run (every distinct scene)."""
    yield from _hil_screens(per_scenario)


@functools.cache
def _hil_screens(per_scenario: int) -> tuple[Named, ...]:
    """Played once a process: the scenarios and the cabinet are fixed, the models frozen,
    and every check at every size reads the same ones (about 12 s of play a pass)."""
    return tuple(_played_hil_screens(per_scenario))


def _played_hil_screens(per_scenario: int) -> Iterator[Named]:
    from display.renderer import Renderer
    from firmware_py.hil.scenario import load_scenario
    from firmware_py.hil.sim_backend import SimRun

    original = Renderer.draw
    for folder in HIL_GAMES:
        for path in sorted((HIL / folder).glob("*.toml")):
            drawn: list[Any] = []

            def spy(self: Renderer, screen: Any, record: Any = None, _drawn: list = drawn) -> Any:
                if not _drawn or screen != _drawn[-1]:
                    _drawn.append(screen)
                return original(self, screen, record)

            Renderer.draw = spy  # type: ignore[method-assign]
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    SimRun(load_scenario(path), Path(tmp), window=False).run()
            finally:
                Renderer.draw = original  # type: ignore[method-assign]
            kinds: dict[str, Any] = {}
            for screen in drawn:
                kinds.setdefault(type(screen).__name__, screen)
            step = max(1, len(drawn) // per_scenario)
            picked = list(kinds.values()) + drawn[::step]
            for i, screen in enumerate(picked):
                yield f"hil-{folder}-{path.stem}-{i}", screen


def every_screen(hil: bool = True) -> Iterator[Named]:
    yield from menu_screens()
    yield from playout_screens()
    if hil:
        yield from hil_screens()
