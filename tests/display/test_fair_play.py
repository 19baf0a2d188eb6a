"""Fair play on the main screen, for every registered game (issue 23, docs/design.md: "the main
screen is drawn from public views and public events only").

Seeded playouts of every game between computer players, through the real session and
controls.  At points along each, every seat presses every button (each press on a copy
of the session): a press that leaves the public view and the public events as they were
(a refusal, a draft pick held by the controls, a cursor in a hidden collection) changes
only hidden state, so the main screen, drawn by the real renderer, must stay
byte-identical and the LED bars must not move.  Across seeds, two moments with the same
public view and events but other hands are held to the same.  The first test puts the
issue's fault back (a refusal written on the main screen) and sees it caught.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pygame
import pytest

from display.models import PlayScreen, StationLook
from display.renderer import Renderer
from firmware_py.games import registry
from firmware_py.runtime.computer_players import ComputerPlayers, QueuedHands
from firmware_py.runtime.session import GameSession
from games import registry as games_registry
from games.levels import Level
from hal.events import Button, ButtonEvent

SEEDS = (11, 12)
STEP_US = 50_000
STEPS = 400
"""20 s of each playout (or to its end), a step every 50 ms."""
CHECK_EVERY = 10
"""Every seat presses every button at every 10th step (half a second of play)."""
LOOKS = tuple(
    StationLook(name, color)
    for name, color in (
        ("Red", (220, 60, 60)),
        ("Blue", (60, 110, 230)),
        ("Green", (60, 180, 90)),
        ("Gold", (230, 180, 40)),
    )
)


class NullStore:
    """Records nothing: a copied session must not write to its original's store."""

    def begin_game(self, *_args: Any) -> int:
        return 1

    def note_time_base(self, *_args: Any) -> None:
        pass

    def commit_action(self, *_args: Any) -> None:
        pass

    def probe(self) -> None:
        pass

    def abandon_game(self, *_args: Any) -> bool:
        return True


@dataclass
class Findings:
    unfair: list[str] = field(default_factory=list)
    refused: int = 0
    """Presses refused and held to the rule (the test is not vacuous)."""
    hidden_only: int = 0
    """Presses that changed hidden state only (a refusal shown privately, a held pick)."""
    rendered: int = 0
    twins: int = 0
    """Moments of two seeds with the same public view and other hidden state."""


def public(screen: PlayScreen) -> tuple[Any, ...]:
    """What the main screen may depend on: the public view and events, time, a pause."""
    return (screen.view, screen.events, screen.now_us, screen.paused)


def frame(renderer: Renderer, screen: PlayScreen) -> bytes:
    return pygame.image.tobytes(renderer.draw(screen), "RGB")


def hidden(session: GameSession) -> str:
    """Everything a seat may know that the others may not: the engine's whole state, the
    controls' held choices, the refusals on the private displays."""
    return repr((session.engine.to_dict(), vars(session.controls), session.refusals))


def playout(game: str, players: int, seed: int, steps: int = STEPS) -> Iterator[tuple[int, GameSession, int]]:
    """(step, session, cabinet time) along a game between computer players, ``steps`` long at most."""
    controls = registry.controls_type(game)()
    values = {item.field: item.choices[0][0] for item in controls.options_menu}
    seats = tuple(range(players))
    session = GameSession.start(
        controls,
        controls.make_options(values),
        seats,
        LOOKS[:players],
        seed,
        NullStore(),
        0,
        0,  # type: ignore[arg-type]
    )
    hands = QueuedHands()
    levels = {seat: list(Level)[(seed + seat) % len(Level)] for seat in seats}
    computers = ComputerPlayers(controls, levels, hands, random.Random(seed), seed)
    now = 0
    for step in range(steps):
        now += STEP_US
        for ev in hands.due(now):
            session.handle(ev, now)
        session.tick(now)
        computers.act(session, now)
        yield step, session, now
        session.frame_shown(now, now)
        if session.over:
            return


def press_everything(renderer: Renderer, session: GameSession, now: int, where: str, found: Findings) -> None:
    base = session.screen(now)
    base_frame: bytes | None = None
    for seat, station in enumerate(session.seats):
        for button in Button:
            twin = copy.deepcopy(session)
            twin.handle(ButtonEvent(station, button, True, now), now)
            twin.tick(now)
            screen = twin.screen(now)
            if public(screen) != public(base):
                continue  # a move everyone may see
            if hidden(twin) == hidden(session):
                continue  # nothing happened
            found.hidden_only += 1
            refused = twin.refusal(seat)
            found.refused += bool(refused) and refused != session.refusal(seat)
            label = f"{where}: seat {seat} pressed {button.value}" + (f" (refused: {refused!r})" if refused else "")
            if twin.led_levels() != session.led_levels():
                found.unfair.append(f"{label}: LED bars {session.led_levels()} became {twin.led_levels()}")
            if screen != base or found.rendered == 0:
                base_frame = base_frame or frame(renderer, base)
                found.rendered += 1
                if frame(renderer, screen) != base_frame:
                    found.unfair.append(f"{label}: the main screen changed")


def fair_play(game: str, renderer: Renderer) -> Findings:
    found = Findings()
    spec = games_registry.engine_type(game).spec
    for players in sorted({spec.min_players, min(spec.max_players, len(LOOKS))}):
        seen: dict[tuple[int, str], tuple[str, PlayScreen, dict[int, float]]] = {}
        for seed in SEEDS:
            for step, session, now in playout(game, players, seed):
                where = f"{game} {players}p seed {seed} at {now / 1e6:.2f} s"
                screen = session.screen(now)
                key = (step, repr(public(screen)))
                secret = hidden(session)
                if key in seen and seen[key][0] != secret:
                    found.twins += 1
                    _secret, other, leds = seen[key]
                    if screen != other and frame(renderer, screen) != frame(renderer, other):
                        found.unfair.append(f"{where}: same public view as seed {SEEDS[0]}, other main screen")
                    if session.led_levels() != leds:
                        found.unfair.append(f"{where}: same public view as seed {SEEDS[0]}, other LED bars")
                seen.setdefault(key, (secret, screen, session.led_levels()))
                if step % CHECK_EVERY == 0:
                    press_everything(renderer, session, now, where, found)
    return found


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def test_a_refusal_written_on_the_main_screen_is_caught(renderer: Renderer, monkeypatch) -> None:
    """The issue's fault put back: the session's refusals written into the main screen's
    model (as its title, drawn in the title bar) make the main screen tell what a boxer
    does not hold."""
    real = GameSession.screen

    def telling(self: GameSession, now_us: int) -> PlayScreen:
        screen = real(self, now_us)
        said = "; ".join(text for _until, text in self.refusals.values())
        return replace(screen, title=f"{screen.title} {said}") if said else screen

    monkeypatch.setattr(GameSession, "screen", telling)
    found = fair_play("punch", renderer)
    assert any("You have no" in line and "the main screen changed" in line for line in found.unfair), found.unfair[:5]


@pytest.mark.parametrize("game", games_registry.names())
def test_the_main_screen_and_led_bars_show_only_public_information(game: str, renderer: Renderer) -> None:
    found = fair_play(game, renderer)
    assert found.unfair == [], "\n".join(found.unfair[:10])
    assert found.hidden_only > 0 and found.rendered > 0, "no press changed hidden state only: the test saw nothing"
    assert found.twins > 0, "no two seeds met at one public view: the cross-seed check saw nothing"
    assert found.refused > 0, "no press was refused: the test did not try what the issue saw"
