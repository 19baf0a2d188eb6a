"""Representative screens of every scene and every registered game, for the layout test
and the contact sheet: the menus (attract, select, join, options, result, service), each
game in play along random playouts (with its banners up, a pause, as a demo,
its result), and every frame model the shipped HIL scenarios put on screen.

Nothing here knows a game's rules: games come from ``games.registry``, their moves from
a random bot, their screens from ``display.games.registry``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from display.models import (
    AttractBoard,
    AttractScreen,
    DemoScreen,
    JoinScreen,
    OptionsScreen,
    PlayScreen,
    ResultScreen,
    SelectScreen,
    ServiceScreen,
    StationLook,
)
from firmware_py.games import registry as controls_registry
from firmware_py.runtime.computer_players import computer_look
from games import registry
from games.bots import RandomBot
from games.levels import Level
from games.protocol import Engine

Named = tuple[str, Any]
LOOKS = (
    StationLook("Red", (229, 57, 53)),
    StationLook("Blue", (30, 136, 229)),
    StationLook("Green", (67, 160, 71)),
    StationLook("Yellow", (251, 192, 45)),
)
HIL = Path(__file__).resolve().parents[1] / "hil"
HIL_GAMES = registry.names()
"""Every offered game: its scenarios in ``tests/hil/<name>/`` are the ones whose frames are
sampled (the padboard ones replay the same screens slower, in real time)."""
STEP_US = 400_000
"""Playout events are stamped this far apart: the newest event's banner is still up."""


def menu_screens() -> Iterator[Named]:
    titles = tuple(spec.title for spec in registry.specs())
    blurbs = tuple(f"{t}: a fight for two to four" for t in titles)
    red, blue = LOOKS[0], LOOKS[1]
    board = AttractBoard(
        title="Punch Cards leaders",
        header=("#", "name", "pts", "cards"),
        rows=tuple(
            (str(i + 1), name, str(20 - i), str(9 - i)) for i, name in enumerate(("Ada", "Grace", "Edsger", "Barbara"))
        ),
        note="sign in at any cabinet",
    )
    recent = ("Punch!: Blue won (3-1)", "Karate Fight: Red is Karate Master", "Big Time Boxing: a draw")
    yield "attract", AttractScreen(games=titles, featured=1, stations=LOOKS, recent=recent, blink=True)
    yield (
        "attract-board",
        AttractScreen(games=titles, featured=3, stations=LOOKS[:2], recent=recent, blink=False, board=board),
    )
    yield "select", SelectScreen(games=titles, blurbs=blurbs, cursor=len(titles) - 1, host=red)
    yield (
        "join-2",
        JoinScreen(game=titles[0], stations=(red, blue), joined=(True, False), min_players=2, max_players=2, host=red),
    )
    yield (
        "join-4",
        JoinScreen(
            game=titles[1], stations=LOOKS, joined=(True, True, False, False), min_players=2, max_players=4, host=red
        ),
    )
    computer = computer_look(blue, Level.NORMAL, None)  # the name tag the cabinet gives it
    yield (
        "join-computer",
        JoinScreen(
            game=titles[2],
            stations=(red, computer),
            joined=(True, True),
            min_players=2,
            max_players=2,
            host=red,
            computers=(False, True),
            offers_computer=True,
        ),
    )
    yield (
        "options-2",
        OptionsScreen(game=titles[0], items=(("Hands", "Dealt"), ("No Mercy", "Off")), cursor=1, host=red),
    )
    for controls in controls_registry.offered():  # every game's own options, as the cabinet lists them
        if controls.options_menu:
            items = tuple((item.label, item.choices[0][1]) for item in controls.options_menu)
            name = f"options-{controls.spec.name}"
            yield name, OptionsScreen(game=controls.spec.title, items=items, cursor=len(items) // 2, host=blue)
    lines = ("Matches Red 1 – 3 Blue", "Best reaction 212.4 ms (Blue)", "Cards played 48")
    yield "result", ResultScreen(game=titles[0], winner=blue, headline="BLUE WINS!", lines=lines)
    yield "result-draw", ResultScreen(game=titles[1], winner=None, headline="A DRAW", lines=())
    body = tuple(f"  game {i}: {i * 3} finished, {i} abandoned" for i in range(22))
    yield (
        "service",
        ServiceScreen(
            title="Stats",
            items=("Stats", "Input test", "Calibrate", "Settings", "Shut down"),
            cursor=0,
            body=body,
            footer="SERVICE key: back",
        ),
    )


def _stamp(action: Any, counter: int) -> int:
    return getattr(action, "t_us", None) or counter * STEP_US


def playout_screens(samples: int = 6, seed: int = 1) -> Iterator[Named]:
    """Every registered game at every player count its screen shows, at ``samples``
    points of a random playout, each drawn just after its newest event."""
    for engine_type in registry.engines():
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
            winner = getattr(engine.outcome(), "winner", None)
            yield (
                f"{spec.name}-{players}p-result",
                ResultScreen(
                    game=spec.title,
                    winner=None if winner is None else looks[winner],
                    headline="A DRAW" if winner is None else f"{looks[winner].name.upper()} WINS!",
                    lines=("The fight in numbers", f"{len(engine.journal)} actions"),
                    final=last,
                ),
            )


def playout(engine: Engine, seed: int) -> Iterator[tuple[Any, tuple, int]]:
    """A random playout: after each action that changed the game, its public view, the
    newest 40 events with their µs, and a moment just after the newest."""
    bots: dict[int, RandomBot] = {}
    events: list[tuple[int, Any]] = []
    last = 0
    for n in range(20_000):
        if engine.over:
            break
        acting = sorted(engine.to_act())
        player = acting[n % len(acting)]
        action = bots.setdefault(player, RandomBot(seed * 31 + player)).choose(engine, player)
        stamp = max(last, _stamp(action, n + 1))
        new = engine.apply(action)
        if not new:
            continue
        last = stamp
        events += [(stamp, e) for e in new]
        yield engine.public_view(), tuple(events[-40:]), stamp + 100_000


def hil_screens(per_scenario: int = 12) -> Iterator[Named]:
    """The screen models the cabinet drew while running each shipped game scenario on the
    sim backend, ``per_scenario`` of them spread over the run (every distinct scene)."""
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
