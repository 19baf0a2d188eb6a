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
from display.games.karate_fight import photo_finish
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


KARATE_LIMIT_US = 60_000_000
"""A one-minute fight: it ends on time (the computers never reach Karate Master in 5 min)."""


@pytest.fixture(scope="module")
def karate_game(tmp_path_factory) -> tuple[list[tuple[int, object]], list[story_order.Waiting]]:
    """A 3-fighter fight between computers, slapping the Hits they are shown, to its time
    limit (seed 18: Green's computer wins a Hit 1.6 s before time is up; a tie for most
    cards, a Jan Ken; Red's wins it)."""
    from firmware_py.games.karate_fight.controls import KarateControls
    from games.karate_fight import KarateOptions

    options = KarateOptions(time_limit_us=KARATE_LIMIT_US)
    models = played_models(tmp_path_factory.mktemp("karate"), KarateControls(), options, 3, 18, 900_000_000)
    return models, list(story_order.waits)


@pytest.fixture(scope="module")
def karate_frames(karate_game) -> list[story_order.Frame]:
    return drawn(karate_game[0])


def test_karate_three_fighters_never_leave_a_seat_unasked(karate_game, karate_frames) -> None:
    """No seat waits over 3 s without a key named; the fight is told in order: each Hit
    said once its card was on screen, a Jan Ken's signs before what they decided, the
    winner on the banner from the moment the fight is decided, no photo finish over it."""
    _models, waits = karate_game
    assert any(w.startswith("HIT! ") for f in karate_frames for w in f.banners)
    assert any(" WINS ON TIME!" in w for f in karate_frames for w in f.banners)
    assert stuck(waits) == []
    assert karate_story_faults(karate_frames) == []


def karate_time_up(models: list[tuple[int, object]]) -> tuple[list[tuple[int, object]], int, int]:
    """The fight's end: its models from the last Hit won before time was up, when that Hit
    was won and when time was up (the fight's winner is not that Hit's, after a Jan Ken)."""
    from games.karate_fight import FightWon, HitWon, JanKenStarted, TimeUp

    events = models[-1][1].events  # type: ignore[attr-defined]
    up = next(t for t, ev in events if isinstance(ev, TimeUp))
    hit_t, hit = next((t, ev) for t, ev in reversed(events) if isinstance(ev, HitWon) and t < up)
    won = next(ev for _t, ev in events if isinstance(ev, FightWon))
    assert up - hit_t < photo_finish.SHOW_US and won.fighter != hit.winner, (up - hit_t, hit, won)
    assert any(isinstance(ev, JanKenStarted) and t >= up for t, ev in events)
    return [(t, m) for t, m in models if t >= hit_t], hit_t, up


def test_a_time_up_says_its_winner_and_takes_the_last_hits_photo_finish_down(karate_game, karate_frames) -> None:
    """Issue 30: a 3-fighter time-up showed no winner for 1.5–2 s while the last Hit's
    photo finish ("RED by 6.000 ms") stayed up though Green had won.  Here Green wins a
    Hit 1.6 s before time is up (the computer at Green's station), the tie for most cards
    goes to a Jan Ken, Red's wins it: the photo finish is up until time is, then gone;
    "CPU 1 · EXPERT WINS ON TIME!" from the frame after the Jan Ken's signs were read to
    the result."""
    from games.karate_fight import FightWon, TimeUp

    _tail, hit_t, up = karate_time_up(karate_game[0])
    frames = [f for f in karate_frames if f.now_us >= hit_t]
    photo = [f for f in frames if "PHOTO FINISH" in f.texts]
    over = [f.now_us for f in photo if any(isinstance(ev, TimeUp) for _t, ev in f.model.events)]
    assert photo and not over, (over[:3], up)  # up to the frame that knows time is up
    won_t = next(t for t, ev in frames[-1].model.events if isinstance(ev, FightWon))
    said = [f for f in frames if any("WINS ON TIME" in w for w in f.banners)]
    assert said and said[0].now_us <= won_t + story_order.SIGNS_READ_US + story_order.FRAME_US
    assert said == [f for f in frames if f.now_us >= said[0].now_us], "the winner's banner went before the result"


def test_the_check_catches_a_photo_finish_over_the_win(karate_game, monkeypatch) -> None:
    """The fault put back: the photo finish up for its whole 4 s whatever came after it."""
    from display.games.karate_fight import screen as karate_screen

    def old_rule(s):
        return s.story if s.story is not None and s.story.showing(s.now_us) and s.view.hit_showing is None else None

    monkeypatch.setattr(karate_screen, "photo_finish_shown", old_rule)
    tail, _hit_t, _up = karate_time_up(karate_game[0])
    faults = karate_story_faults(drawn(tail))
    assert faults and all("photo finish" in f for f in faults), faults


def test_the_check_catches_a_winner_said_late(karate_game, monkeypatch) -> None:
    """The fault put back: the winner's banner 1.5 s after the signs that decided it were read."""
    from display.games.karate_fight import screen as karate_screen

    said = karate_screen.said_after_signs
    monkeypatch.setattr(karate_screen, "said_after_signs", lambda s, t: said(s, t) + 1_500_000)
    tail, _hit_t, _up = karate_time_up(karate_game[0])
    faults = karate_story_faults(drawn(tail))
    assert faults and any("not on the banner" in f for f in faults), faults


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
