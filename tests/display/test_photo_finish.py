"""Karate Fight's photo finish: the model told from a known Hit's events (margins exact
to the µs, Coward's Blows and the grace where they fell) and its drawing."""

from __future__ import annotations

import pygame
import pytest

from display.games.karate_fight.photo_finish import PhotoFinish, SlapMark, SlapVerdict, duration
from display.models import PlayScreen, StationLook
from display.renderer import Renderer
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.games.karate_fight.story import photo_finish
from games.karate_fight import HitKind, KarateFight, PlayTop, Shown, Slaps
from games.protocol import Event
from tests.games.karate_fight.helpers import fight, throw

LOOKS = (
    StationLook("Red", (229, 57, 53)),
    StationLook("Blue", (30, 136, 229)),
    StationLook("Green", (67, 160, 71)),
)
PLAYED, BLOW, SHOWN = 1_000_000, 1_010_000, 1_016_667
WON = SHOWN + 187_345


def close_call() -> tuple[KarateFight, list[Event]]:
    """Red plays a Strike; Green strikes a blow before it is on screen; Blue slaps
    187.345 ms after the reveal, Red 12 µs later (inside the grace), Green 0.6 s after
    Blue: after the grace, a Coward's Blow."""
    e = fight("Sdd", "dd", "bdd")
    events = list(e.opening_events)
    events += e.apply(PlayTop(0, PLAYED))
    events += e.apply(Slaps(t_us=BLOW, fighters=(2,)))
    events += e.apply(Shown(t_us=SHOWN))
    events += e.apply(Slaps(t_us=WON, fighters=(1,)))
    events += e.apply(Slaps(t_us=WON + 12, fighters=(0,)))
    events += e.apply(Slaps(t_us=WON + 600_000, fighters=(2,)))
    return e, events


def test_photo_finish_of_a_close_call_is_exact_to_the_microsecond() -> None:
    e, events = close_call()
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None
    assert pf.hit is HitKind.STRIKE and pf.winner == 1
    assert pf.revealed_us == SHOWN and pf.won_us == WON
    assert pf.played_at_us == PLAYED - SHOWN
    assert pf.won_at_us == 187_345 and pf.margin_us == 12 and pf.grace_us == 500_000
    assert pf.slaps == (
        SlapMark(2, BLOW - SHOWN, SlapVerdict.TOO_SOON, cards_paid=1),
        SlapMark(1, 187_345, SlapVerdict.WON),
        SlapMark(0, 187_357, SlapVerdict.LATE),
        SlapMark(2, 787_345, SlapVerdict.COWARD, cards_paid=1),  # a new bout: one card again
    )
    late_blow = pf.slaps[-1]  # fell after the grace: that is why it cost cards
    assert late_blow.at_us > pf.won_at_us + pf.grace_us


def test_dead_heat_has_no_margin_and_names_the_jan_ken_winner() -> None:
    e = fight("Sdd", "dd")
    events = list(e.apply(PlayTop(0, PLAYED)))
    events += e.apply(Shown(t_us=SHOWN))
    events += e.apply(Slaps(t_us=WON, fighters=(0, 1)))
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None and pf.winner is None and pf.margin_us == 0 and pf.jan_ken_winner is None
    assert {(m.fighter, m.at_us, m.verdict) for m in pf.slaps} == {
        (0, 187_345, SlapVerdict.DEAD_HEAT),
        (1, 187_345, SlapVerdict.DEAD_HEAT),
    }
    events += throw(e, {0: "r", 1: "s"})
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None and pf.jan_ken_winner == 0


def test_no_hit_judged_no_photo_finish_and_an_unchallenged_hit_has_no_margin() -> None:
    e = fight("Sdd", "dd")
    events = list(e.apply(PlayTop(0, PLAYED)))
    events += e.apply(Shown(t_us=SHOWN))
    assert photo_finish(events, e.options.grace_us) is None
    events += e.apply(Slaps(t_us=WON, fighters=(1,)))
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None and pf.winner == 1 and pf.margin_us is None


def test_controls_build_it_once_per_action_from_the_recent_events() -> None:
    e, events = close_call()
    controls = KarateControls()
    first = controls.play_story(e, events)
    assert first is controls.play_story(e, events)  # remembered while no action is applied
    assert isinstance(first, PhotoFinish) and first.margin_us == 12


def test_durations_read_to_the_microsecond() -> None:
    assert duration(12) == "12 µs"
    assert duration(187_345) == "187.345 ms"
    assert duration(-6_667) == "−6.667 ms"
    assert duration(2_000_001) == "2000.001 ms"


def screen(e: KarateFight, pf: PhotoFinish | None, now_us: int, seats=LOOKS) -> PlayScreen:
    return PlayScreen(
        game="karate_fight",
        title="Karate Fight",
        seats=seats,
        view=e.public_view(),
        events=(),
        now_us=now_us,
        story=pf,
    )


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


PANEL = pygame.Rect(800, 80, 460, 330)


def test_photo_finish_is_drawn_after_the_hit_and_gone_later(renderer: Renderer, artifacts) -> None:
    e, events = close_call()
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None
    before = pygame.image.tobytes(renderer.draw(screen(e, None, WON + 700_000)).subsurface(PANEL), "RGB")
    canvas = renderer.draw(screen(e, pf, WON + 700_000))
    pygame.image.save(canvas, str(artifacts / "karate-photo-finish.png"))
    assert pygame.image.tobytes(canvas.subsurface(PANEL), "RGB") != before
    blue = sum(
        1
        for x in range(PANEL.x, PANEL.right)
        for y in range(PANEL.y, PANEL.bottom)
        if canvas.get_at((x, y))[:3] == LOOKS[1].color
    )
    assert blue > 200  # Blue's winning mark and name in Blue's colour
    later = renderer.draw(screen(e, pf, WON + 4_100_000))
    assert pygame.image.tobytes(later.subsurface(PANEL), "RGB") == before


FOUR = (*LOOKS, StationLook("Yellow", (251, 192, 45)))


def test_a_dead_heat_among_four_is_drawn_beside_the_jan_ken(renderer: Renderer, artifacts) -> None:
    """Red and Yellow slap the same µs; Blue 40 ms later inside the grace; Green struck
    too soon: four lanes, the Jan Ken panel on the left, nothing of either covered."""
    e = fight("Sdd", "bb", "jjj", "ee")
    events = list(e.apply(PlayTop(0, PLAYED)))
    events += e.apply(Slaps(t_us=BLOW, fighters=(2,)))
    events += e.apply(Shown(t_us=SHOWN))
    events += e.apply(Slaps(t_us=WON, fighters=(0, 3)))
    events += e.apply(Slaps(t_us=WON + 40_000, fighters=(1,)))
    pf = photo_finish(events, e.options.grace_us)
    assert pf is not None and pf.winner is None and pf.margin_us == 0
    assert [m.fighter for m in pf.slaps if m.verdict is SlapVerdict.DEAD_HEAT] == [0, 3]
    canvas = renderer.draw(screen(e, pf, WON + 100_000, FOUR))
    pygame.image.save(canvas, str(artifacts / "karate-photo-finish-dead-heat.png"))
    jan_ken = pygame.Rect(20, 90, 400, 300)
    assert not jan_ken.colliderect(PANEL)


def test_a_dead_heat_says_who_won_the_jan_ken_in_full(renderer: Renderer) -> None:
    """Issue 23: "DEAD HEAT: 0 µs · RED won the …" was cut short with room to spare
    below; the Jan Ken's winner now has a line of its own, in full."""
    from display.layout import LayoutRecord

    e = fight("Sdd", "dd")
    events = list(e.apply(PlayTop(0, PLAYED)))
    events += e.apply(Shown(t_us=SHOWN))
    events += e.apply(Slaps(t_us=WON, fighters=(0, 1)))
    events += throw(e, {0: "r", 1: "s"})
    pf = photo_finish(events, e.options.grace_us)
    record = LayoutRecord()
    renderer.draw(screen(e, pf, WON + 700_000), record)
    words = [t.what for t in record.texts]
    assert "DEAD HEAT: 0 µs" in words and "RED won the Jan Ken" in words
    assert not any(w.endswith("…") for w in words)
