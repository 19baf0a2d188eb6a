"""Issue 30: the story in order.  Over whole games at the cabinet (computers, seeded), as
the main screen drew them: every banner tied to the event that causes it; a banner a
reveal decided is drawn only after that reveal has been on screen, readable, for the
game's read time; the break between rounds is said; the header names the round the
banner names.  Each check is also run once on the fault it guards against (put back by
hand) and must catch it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from display import motion
from display.games.punch import screen as punch_screen
from firmware_py.games.punch.controls import PunchControls
from games.punch import PunchOptions
from tests.display import story_order
from tests.display.story_order import (
    big_time_boxing_story_faults,
    drawn,
    karate_story_faults,
    played_models,
    punch_story_faults,
    stuck,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def punch_game(tmp_path_factory) -> list[tuple[int, object]]:
    """Two matches to win: a break, a new round, a match won, the game's end."""
    options = PunchOptions(matches_to_win=2)
    models = played_models(tmp_path_factory.mktemp("punch"), PunchControls(), options, 2, 11, 900_000_000)
    punch_waits[:] = story_order.waits
    return models


punch_waits: list[story_order.Waiting] = []


def test_punch_tells_each_reveal_before_what_it_decided(punch_game) -> None:
    assert punch_story_faults(drawn(punch_game)) == []


def test_punch_never_waits_on_a_seat_without_naming_its_key(punch_game) -> None:
    assert punch_waits and stuck(punch_waits) == []


def test_the_check_catches_a_banner_over_face_down_cards(punch_game, monkeypatch) -> None:
    """The fault put back: consequences said the moment the cards are revealed (the
    game's winner over the final pair still face down, ROUND 2 before exchange 10 is
    turned, the break never said)."""
    monkeypatch.setattr(punch_screen, "READ_US", -motion.FLIP_US)
    monkeypatch.setattr(punch_screen, "BANNER_US", 0)
    frames = drawn(punch_game)
    monkeypatch.setattr(punch_screen, "READ_US", punch_screen.EFFECT_HOLD_US)
    faults = punch_story_faults(frames)
    assert faults and any("never said" in f or "drawn after" in f for f in faults), faults


def test_the_stuck_check_catches_a_seat_asked_without_a_key() -> None:
    """The fault put back: a private display that says "Your turn" and no key, for 4 s."""
    asked = [story_order.Waiting(t, (0,), (("Red: 5 cards", "", "Your turn"), ())) for t in range(0, 4_000_001, 50_000)]
    assert stuck(asked)
    named = [
        story_order.Waiting(t, (0,), (("Your turn:", "A = play top card"), ())) for t in range(0, 4_000_001, 50_000)
    ]
    assert stuck(named) == []


@pytest.fixture(scope="module")
def karate_game(tmp_path_factory) -> tuple[list[tuple[int, object]], list[story_order.Waiting]]:
    """A 3-fighter fight between computers (seed 5: Jan Kens decided and drawn)."""
    from firmware_py.games.karate_fight.controls import KarateControls
    from games.karate_fight import KarateOptions

    models = played_models(tmp_path_factory.mktemp("karate"), KarateControls(), KarateOptions(), 3, 5, 900_000_000)
    return models, list(story_order.waits)


def test_karate_three_fighters_never_leave_a_seat_unasked(karate_game) -> None:
    """No seat waits over 3 s without a key named; any Jan Ken drawn is told in order
    (the computers here seldom slap: the Jan Ken itself is checked on the next test's fight)."""
    models, waits = karate_game
    assert stuck(waits) == []
    assert karate_story_faults(drawn(models)) == []


def jan_ken_frames() -> list[tuple[int, object]]:
    """A dead heat and its Jan Ken, frame by frame as the screen shows them: Red and Blue
    slap on the same µs, Red throws rock over Blue's scissors and takes the centre."""
    from games.karate_fight import PlayTop, Shown, Slaps
    from tests.display.test_karate_moments import screen
    from tests.display.test_photo_finish import PLAYED, SHOWN, WON
    from tests.games.karate_fight.helpers import fight, throw

    e = fight("Sdd", "dd")
    events = [(PLAYED, ev) for ev in e.apply(PlayTop(0, PLAYED))]
    events += [(SHOWN, ev) for ev in e.apply(Shown(t_us=SHOWN))]
    events += [(WON, ev) for ev in e.apply(Slaps(t_us=WON, fighters=(0, 1)))]
    asked = screen(e, events, WON)
    decided = WON + 900_000
    events += [(decided, ev) for ev in throw(e, {0: "r", 1: "s"})]
    after = screen(e, events, decided)
    return [
        (t, replace(asked if t < decided else after, now_us=t))
        for t in range(WON, decided + 3_000_000, story_order.FRAME_US)
    ]


def test_karate_shows_the_signs_before_who_takes_the_cards() -> None:
    frames = drawn(jan_ken_frames())
    assert any(" TAKES " in w for f in frames for w in f.banners)
    assert karate_story_faults(frames) == []


def test_the_check_catches_a_jan_ken_decided_without_its_signs(monkeypatch) -> None:
    """The fault put back: who takes the cards said the moment the signs are thrown
    ("Blue choosing…" straight to "RED TAKES 3 CARDS", the signs never read first)."""
    from display.games.karate_fight import screen as karate_screen

    monkeypatch.setattr(karate_screen, "READ_US", 0)
    faults = karate_story_faults(drawn(jan_ken_frames()))
    assert faults and all("before the signs were read" in f for f in faults), faults


@pytest.fixture(scope="module")
def knockout(tmp_path_factory) -> list[tuple[int, object]]:
    """Big Time Boxing between computers, seed 7: a Big Hit knockdown, no heart, a KO."""
    from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls
    from games.big_time_boxing import BigTimeBoxingOptions, FightEnded, Finish, KnockedDown

    options = BigTimeBoxingOptions()
    models = played_models(tmp_path_factory.mktemp("btb"), BigTimeBoxingControls(), options, 2, 7, 1_800_000_000)
    events = [ev for _t, ev in models[-1][1].events]
    assert any(isinstance(ev, KnockedDown) for ev in events)
    assert any(isinstance(ev, FightEnded) and ev.finish is Finish.KO for ev in events)
    return models


def test_big_time_boxing_says_a_knockout_after_its_cards_are_read(knockout) -> None:
    """The knockdown after the card that caused it was read, "… WINS — KO!" after the
    heart card (not while it still shows "?")."""
    frames = drawn(knockout)
    assert any("WINS — KO!" in w for f in frames for w in f.banners)
    assert big_time_boxing_story_faults(frames) == []


def test_the_check_catches_a_knockout_said_over_unturned_cards(knockout, monkeypatch) -> None:
    """The fault put back: what a card decided said as soon as it starts to turn (the
    banner with the heart card still "?")."""
    from display.games.big_time_boxing import screen as btb_screen

    monkeypatch.setattr(btb_screen, "READ_US", 0)
    frames = drawn(knockout)
    monkeypatch.setattr(btb_screen, "READ_US", btb_screen.STAGGER_US)
    faults = big_time_boxing_story_faults(frames)
    assert any("KNOCKDOWN" in f for f in faults) and any("WINS — KO!" in f for f in faults), faults
