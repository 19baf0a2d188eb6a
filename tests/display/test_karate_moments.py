"""Karate Fight shows one moment at a time (issue 23): a Jan Ken's result is said (who
won it, the cards they took) before the screen turns to whose turn it is; the dead heat's
banner ends with its Jan Ken; the cards a Hit wins fly into the winner's panel from above,
never over its count and fighter; the private display calls a fighter by the seat's name."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display.games.karate_fight.screen import FIGHTERS_TOP, JAN_KEN_RESULT_US, READ_US, jan_ken_result
from display.layout import LayoutRecord
from display.models import PlayScreen, PrivateScreen
from display.private import draw_private, image_text
from display.renderer import Renderer
from games.karate_fight import BoutWon, DeadHeat, JanKenWon, KarateFight, PlayTop, Shown, Slaps
from tests.display.test_photo_finish import LOOKS, PLAYED, SHOWN, WON
from tests.games.karate_fight.helpers import fight, throw


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def dead_heat_then_jan_ken() -> tuple[KarateFight, list[tuple[int, object]], int]:
    """Red plays a Strike, Red and Blue slap on the same µs, Red wins the Jan Ken at
    ``decided`` and takes the centre; Red's turn."""
    e = fight("Sdd", "dd")
    stamped = [(PLAYED, ev) for ev in e.apply(PlayTop(0, PLAYED))]
    stamped += [(SHOWN, ev) for ev in e.apply(Shown(t_us=SHOWN))]
    stamped += [(WON, ev) for ev in e.apply(Slaps(t_us=WON, fighters=(0, 1)))]
    decided = WON + 900_000
    stamped += [(decided, ev) for ev in throw(e, {0: "r", 1: "s"})]
    return e, stamped, decided


def screen(e: KarateFight, events, now_us: int) -> PlayScreen:
    return PlayScreen(
        game="karate_fight",
        title="Karate Fight",
        seats=LOOKS[:2],
        view=e.public_view(),
        events=tuple(events),
        now_us=now_us,
    )


def words(renderer: Renderer, s: PlayScreen) -> list[str]:
    record = LayoutRecord()
    renderer.draw(s, record)
    return [t.what for t in record.texts]


def test_a_jan_ken_result_is_said_before_whose_turn_it_is(renderer: Renderer) -> None:
    e, events, decided = dead_heat_then_jan_ken()
    assert any(isinstance(ev, JanKenWon) for _t, ev in events) and any(isinstance(ev, BoutWon) for _t, ev in events)
    taken = next(ev.cards_taken for _t, ev in events if isinstance(ev, BoutWon))
    thrown = words(renderer, screen(e, events, decided + 300_000))  # first the signs that decided it
    assert "ROCK" in thrown and "SCISSORS  out" in thrown, thrown
    assert not any("TAKES" in w or "wins the Jan Ken" in w for w in thrown)
    just = screen(e, events, decided + READ_US + 300_000)  # then what they decided
    assert jan_ken_result(just) == (0, taken)
    shown = words(renderer, just)
    assert "Red wins the Jan Ken" in shown and f"RED TAKES {taken} CARD{'S' if taken != 1 else ''}" in shown
    assert "Red: press A to play" not in shown
    assert not any("DEAD HEAT" in w for w in shown)  # the dead heat's banner ended with its Jan Ken
    later = words(renderer, replace(just, now_us=decided + JAN_KEN_RESULT_US + 1))
    assert "Red: press A to play" in later and "Red wins the Jan Ken" not in later


def test_the_dead_heat_banner_stays_only_while_its_jan_ken_is_on(renderer: Renderer) -> None:
    e = fight("Sdd", "dd")
    events = [(PLAYED, ev) for ev in e.apply(PlayTop(0, PLAYED))]
    events += [(SHOWN, ev) for ev in e.apply(Shown(t_us=SHOWN))]
    events += [(WON, ev) for ev in e.apply(Slaps(t_us=WON, fighters=(0, 1)))]
    assert any(isinstance(ev, DeadHeat) for _t, ev in events)
    assert "DEAD HEAT!  JAN KEN!" in words(renderer, screen(e, events, WON + 200_000))


def test_won_cards_fly_into_the_winners_panel_from_above_never_over_it(
    renderer: Renderer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames through the flight: the fighter panels (counts, figures) are drawn the same
    as with the flight left out, and the flight is seen above them."""
    from display.games.karate_fight import screen as karate_screen

    e, events, decided = dead_heat_then_jan_ken()
    panels = pygame.Rect(0, FIGHTERS_TOP, 1280, 720 - FIGHTERS_TOP)
    above = pygame.Rect(0, 0, 1280, FIGHTERS_TOP)
    frames = {dt: renderer.draw(screen(e, events, decided + dt)).copy() for dt in range(0, 700_000, 50_000)}
    monkeypatch.setattr(karate_screen, "_collect", lambda *_a: None)
    moved = 0
    for dt, flying in frames.items():
        still = renderer.draw(screen(e, events, decided + dt))
        same = pygame.image.tobytes(flying.subsurface(panels), "RGB") == pygame.image.tobytes(
            still.subsurface(panels), "RGB"
        )
        assert same, f"the flight covers a fighter's panel at +{dt} µs"
        moved += pygame.image.tobytes(flying.subsurface(above), "RGB") != pygame.image.tobytes(
            still.subsurface(above), "RGB"
        )
    assert moved >= 3  # the flight is there to be seen


def test_the_private_display_calls_a_fighter_by_the_seats_name() -> None:
    e = fight("Sdd", "dd")
    text = image_text(
        draw_private(PrivateScreen(game="karate_fight", seat=1, view=e.view(1), to_act=False, name="Blue"))
    )
    assert text is not None and text[0].startswith("Blue: ") and not any("Fighter" in line for line in text)
