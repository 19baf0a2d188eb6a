"""The frame check (display.frame_check) over every frame of every shipped HIL scenario
and the attract mode's demos, and each fault issue 23 names put back once and caught:
Punch!'s card-flip block, a refusal on the main screen, the Karate card-win slabs over
the winner's count, the cut photo-finish line; and a banner up for one frame."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from display import compose, draw
from display.canvas import Canvas
from display.frame_check import Shown, check_frames, runs
from display.games import registry
from display.layout import LayoutRecord
from display.models import PlayScreen
from display.renderer import Renderer
from display.text import TextCache
from display.widgets import banner, panel
from firmware_py.runtime.session import GameSession
from tests.cabinet_driving import press, start_game
from tests.display import story_order
from tests.display.frame_sources import attract_frames, flipped, hil_frames, scenarios
from tests.display.screen_states import LOOKS, playout_screens
from tests.firmware_py.test_cabinet_punch import button_for, missing_card, play_exchange, settle_redeals

PLANTED = "planted_frames"
HIL = Path(__file__).resolve().parents[1] / "hil"


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


# -- each named fault, put back -----------------------------------------------------------------
def test_the_card_flip_block_is_caught_when_the_clamp_is_taken_away(monkeypatch, renderer: Renderer) -> None:
    """The frames of the scenario the issue watched (every_pairing), as the cabinet
    flipped them: clean with draw.rect's clamp, a ~236 px block at each reveal without it."""
    shown = hil_frames(HIL / "punch" / "every_pairing.toml")[:120]  # the first reveals
    assert not [f for f in check_frames(shown, renderer) if "paint outside" in f]
    monkeypatch.setattr(draw, "fit_rect", lambda box, width, radius: (box, width, radius))
    monkeypatch.setattr(compose, "rounded_rect", pygame.draw.rect)  # pygame's own, unclamped: its block
    found = [f for f in check_frames(shown, renderer) if "paint outside" in f]
    # The block: a card a few units wide painted some 236 wide, at every reveal.
    blocks = [
        f for f in found if re.search(r"a rect asked for \(\d+, \d+, [1-8], \d+\) painted \(\d+, \d+, 2\d\d, ", f)
    ]
    assert len(blocks) >= 2, found


def test_a_refusal_on_the_main_screen_is_caught(monkeypatch, cabinet, sim, renderer: Renderer) -> None:
    """A Punch! boxer presses a card they do not hold: the frames while their display
    says so are clean; with the issue's fault put back (the refusal written under the
    main screen's title) the check finds the words on the main screen."""
    fault = [False]
    real = GameSession.screen

    def telling(self: GameSession, now_us: int) -> PlayScreen:
        screen = real(self, now_us)
        said = "; ".join(text for _until, text in self.refusals.values())
        return replace(screen, title=f"{screen.title}  {said}") if fault[0] and said else screen

    monkeypatch.setattr(GameSession, "screen", telling)
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)
    while (absent := missing_card(play, 0)) is None:
        play_exchange(cabinet, sim, play)

    def refused() -> list[str]:
        with flipped(lambda i: f"punch frame {i}") as drawn:
            press(cabinet, sim, 0, button_for(absent))
        assert any(secrets for _n, _s, secrets in drawn), "no refusal was shown while frames were drawn"
        return [f for f in check_frames(runs(drawn), renderer) if "hidden words" in f]

    assert refused() == []
    fault[0] = True
    found = refused()
    assert found and f"'You have no {absent.label} left'" in found[0], found


@pytest.fixture
def planted() -> Iterator[list[Callable[[Canvas, TextCache], None]]]:
    """A test game whose play screen draws the real screens, or whatever the test plants."""
    plan: list[Callable[[Canvas, TextCache], None]] = []

    def play(surf: Canvas, text: TextCache, s: PlayScreen) -> None:
        surf.fill((0, 0, 0))
        if s.view is not None:  # a real game's screen to draw first
            registry.screens(s.view[0]).play(surf, text, s.view[1])
        for step in plan:
            step(surf, text)

    registry.register(PLANTED, registry.GameScreens(play=play, private=lambda _s, size: None))  # type: ignore[arg-type, return-value]
    yield plan
    registry.unregister(PLANTED)


def planted_screen(over: PlayScreen | None = None, now_us: int = 0) -> PlayScreen:
    view = None if over is None else (over.game, over)
    return PlayScreen(game=PLANTED, title="Planted", seats=LOOKS[:2], view=view, events=(), now_us=now_us)


def test_slabs_flying_over_the_winners_count_are_caught(planted: list[Any], renderer: Renderer) -> None:
    """The old card-win animation put back over a real Karate Fight screen: the taken
    cards slide from the centre pile into the winner's panel, over their count."""
    karate = next(s for name, s in playout_screens() if name.startswith("karate_fight-2p-") and s.view.centre)
    record = LayoutRecord()
    renderer.draw(planted_screen(karate), record)
    count = next(
        t for t in record.texts if t.what.isdigit() and any(live.rect.contains(t.rect) for live in record.lives)
    )
    found: list[str] = []
    for i, k in enumerate((0.0, 0.5, 0.9)):  # three frames of the slide, each shown twice
        slab = pygame.Rect(0, 0, 110, 150)
        slab.center = (round(640 + (count.rect.centerx - 640) * k), round(300 + (count.rect.centery - 300) * k))
        planted[:] = [lambda s, t, r=slab: draw.rect(s, (160, 40, 40), r, border_radius=12)]
        found += check_frames([Shown(name=f"slab {i}", screen=planted_screen(karate, now_us=i), flips=2)], renderer)
    assert any(f"live state covered: {count.what!r}" in f for f in found), found
    planted[:] = []
    assert check_frames([Shown(name="karate", screen=planted_screen(karate))], renderer) == []


def test_a_cut_photo_finish_line_with_room_below_is_caught(planted: list[Any], renderer: Renderer) -> None:
    """The dead heat's headline as it was: 42 px in the 416 units of the photo-finish
    panel, cut short while the panel's lower half stood empty."""
    box = pygame.Rect(800, 152, 460, 330)
    words = "DEAD HEAT: 0 µs · RED won the Jan Ken"
    panel_only = [lambda s, t: panel(s, box, (30, 32, 48), (250, 200, 40))]
    headline = [lambda s, t: t.draw_fitted(s, words, 42, (230, 60, 60), (816, 217), 416, "midleft", True)]
    planted[:] = [*panel_only, *headline]
    found = check_frames([Shown(name="photo finish", screen=planted_screen())], renderer)
    assert any(f"text cut short with room below: {words!r}" in f for f in found), found
    # With the panel full under it there is no room: a cut name in a full table is not a fault.
    planted[:] = [*panel_only, *headline, lambda s, t: draw.rect(s, (90, 90, 90), box.inflate(-12, -100).move(0, 40))]
    assert not [f for f in check_frames([Shown(name="full", screen=planted_screen())], renderer) if "cut short" in f]


def test_a_banner_up_for_one_frame_is_a_flash_and_for_two_is_not(planted: list[Any], renderer: Renderer) -> None:
    up = [lambda s, t: banner(s, t, "KNOCKOUT!", (200, 40, 40))]

    def run(flips: int) -> list[str]:
        """Frames 0 and 2 plain, frame 1 the banner for ``flips`` flips."""
        shown = [
            Shown(name=f"frame {i}", screen=planted_screen(now_us=i), flips=flips if i == 1 else 1) for i in range(3)
        ]

        def drawn_in_turn() -> Iterator[Shown]:  # check_frames draws each as it comes to it
            for s in shown:
                planted[:] = up if s.screen.now_us == 1 else []
                yield s

        return check_frames(drawn_in_turn(), renderer)

    assert any("single-frame flash: banner 'KNOCKOUT!'" in f for f in run(1))
    assert not [f for f in run(2) if "flash" in f]


# -- every frame the cabinet shows ---------------------------------------------------------------
PUNCH_EFFECT = r"single-frame flash: text '(No effect|.+ (hit|punched back|rests)  [+-]\d+)' at"
"""A Punch! effect line ("No effect", "Red hit  -3") up for one frame."""
KNOWN: dict[str, tuple[tuple[str, str], ...]] = {}
"""Findings expected on shipped frames, by label prefix: (a regular expression a finding
matches, why it is expected)."""


def judged(label: str, found: list[str]) -> None:
    """Fail on any finding not known; xfail, saying why, on known ones owned elsewhere."""
    known = [rule for key, rules in KNOWN.items() if label.startswith(key) for rule in rules]
    unknown = [f for f in found if not any(re.search(pattern, f) for pattern, _why in known)]
    assert not unknown, "\n".join(unknown[:12])
    reasons = sorted({why for pattern, why in known if any(re.search(pattern, f) for f in found)})
    if reasons:
        pytest.xfail("; ".join(reasons))


def scenario_cases() -> list[Any]:
    """Every shipped scenario; one whose padboard link runs on the wall clock is marked
    ``realtime`` as ``tests/hil`` marks it: it sleeps through its seconds, so it runs
    beside the parallel workers, not in one of them."""
    from firmware_py.hil.scenario import load_scenario
    from firmware_py.hil.sim_backend import runs_in_real_time

    return [
        pytest.param(
            p,
            id=f"{p.parent.name}/{p.stem}",
            marks=(pytest.mark.realtime,) if runs_in_real_time(load_scenario(p)) else (),
        )
        for p in scenarios()
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", scenario_cases())
def test_every_frame_of_every_hil_scenario(path: Path, renderer: Renderer) -> None:
    """The frame check, and the story order (issue 30) read from the same drawings: no
    banner before the reveal that decides it, each reveal readable before (story_order)."""
    with story_order.recorded(renderer) as frames:
        found = check_frames(hil_frames(path), renderer)
    judged(f"{path.parent.name}/{path.stem}", found + story_order.story_faults(frames))


@pytest.mark.slow
def test_every_frame_of_the_attract_demos(renderer: Renderer) -> None:
    """Two and a half minutes of an idle cabinet: a title card and every game's demo."""
    judged("attract", check_frames(attract_frames(150), renderer))
