"""Karate Fight time limit, a cabinet variant (house rule): one test per choice written
under "Time limit" in docs/rules/karate_fight.md, and property tests over random fights."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.codec import decode, encode
from games.karate_fight import (
    BoutReason,
    BoutWon,
    CowardsBlow,
    DeadHeat,
    FighterOut,
    FighterStatus,
    FightWon,
    HitKind,
    HitWon,
    IgnoreReason,
    JanKenReason,
    JanKenStarted,
    JanKenWon,
    KarateFight,
    KarateMaster,
    KarateOptions,
    PlayTop,
    Shown,
    Sign,
    SlapIgnored,
    Slaps,
    Throw,
    TimeCheck,
    TimeUp,
    WinReason,
)
from games.karate_fight.simulate import RandomFight
from games.protocol import CABINET, IllegalAction
from tests.games.karate_fight.helpers import of_type, stacked, throw
from tests.games.karate_fight.test_properties import check_invariants
from tests.games.playout import assert_replays

LIMIT = 1_000_000
START = 1_000
ENDS = START + LIMIT


def timed(*piles: str, limit: int | None = LIMIT, first: int = 0) -> KarateFight:
    """A prearranged fight with a time limit (cards not named are set aside)."""
    options = KarateOptions(first_fighter=first, deal=stacked(*piles), time_limit_us=limit)
    return KarateFight(options, len(piles), seed=0)


def start(e: KarateFight) -> list:
    """The first fighter plays the first card at START (the clock starts) and it is shown."""
    events = list(e.apply(PlayTop(e.turn, START)))
    if e.awaiting_reveal:
        events += e.apply(Shown(t_us=START + 20_000))
    return events


def assert_over(e: KarateFight) -> None:
    assert e.over and e.seats_to_act() == frozenset()
    assert e.legal_actions(CABINET) == () and all(e.legal_actions(f) == () for f in range(e.players))
    for action in (
        PlayTop(0, e.now + 1),
        Shown(t_us=e.now + 1),
        Slaps(t_us=e.now + 1, fighters=(0,)),
        TimeCheck(t_us=e.now + 1),
        Throw(0, Sign.ROCK),
    ):
        with pytest.raises(IllegalAction, match="fight is over"):
            e.check(action)


# -- Option --------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "60"])
def test_a_time_limit_must_be_positive_microseconds(bad: object) -> None:
    with pytest.raises(ValueError, match="time_limit_us"):
        KarateOptions(time_limit_us=bad)  # type: ignore[arg-type]


def test_the_time_limit_is_off_by_default_and_old_saved_options_decode() -> None:
    assert KarateOptions().time_limit_us is None
    assert decode(KarateOptions, {"grace_us": 1, "first_fighter": 0, "deal": None}) == KarateOptions(grace_us=1)
    assert decode(KarateOptions, encode(KarateOptions(time_limit_us=5))).time_limit_us == 5


def test_without_a_limit_the_fight_never_ends_on_time() -> None:
    e = timed("dddd", "bbbb", limit=None)
    start(e)
    view = e.public_view()
    assert (view.started_us, view.ends_us) == (START, None)
    assert all(not isinstance(a, TimeCheck) for a in e.legal_actions(CABINET))
    e.apply(PlayTop(1, 10**12))
    assert not e.over and e.cards_played == 2


# -- The clock -------------------------------------------------------------------------


def test_the_clock_starts_at_the_first_card_not_at_a_stray_slap() -> None:
    e = timed("dddd", "bbbb")
    assert (e.public_view().started_us, e.public_view().ends_us) == (None, None)
    blow = e.apply(Slaps(t_us=10, fighters=(1,)))
    assert of_type(blow, CowardsBlow)
    assert e.public_view().started_us is None
    e.apply(Slaps(t_us=10 + 5 * LIMIT, fighters=(1,)))  # still no clock: no time up
    assert not e.over
    e.apply(PlayTop(0, 6 * LIMIT))
    view = e.public_view()
    assert (view.started_us, view.ends_us, view.time_up_us) == (6 * LIMIT, 7 * LIMIT, None)


def test_an_input_just_before_the_limit_is_applied_as_usual() -> None:
    e = timed("dddd", "bbbb")
    start(e)
    events = e.apply(PlayTop(1, ENDS - 1))
    assert not of_type(events, TimeUp) and e.cards_played == 2 and not e.over


def test_an_input_exactly_at_the_limit_ends_regulation_and_is_not_applied() -> None:
    e = timed("dddd", "bbbb")
    start(e)
    events = e.apply(PlayTop(1, ENDS))
    assert e.cards_played == 1, "the PlayTop at the limit is not played"
    assert events == (TimeUp(ENDS, (3, 4), 1, None), FightWon(1, WinReason.MOST_CARDS))
    assert (e.outcome().winner, e.outcome().how) == (1, WinReason.MOST_CARDS)
    assert e.journal[-1] == PlayTop(1, ENDS)
    assert_over(e)


def test_an_input_past_the_limit_must_still_be_legal_as_itself() -> None:
    e = timed("dddd", "bbbb")
    start(e)
    with pytest.raises(IllegalAction, match="turn"):
        e.apply(PlayTop(0, ENDS + 1))
    assert e.public_view().time_up_us is None and not e.over
    assert of_type(e.apply(PlayTop(1, ENDS + 1)), TimeUp)


def test_most_cards_wins_and_the_centre_is_not_counted() -> None:
    # d e d e d (no Hit): fighter 0 has 1 card left, fighter 1 has 2, 5 in the centre
    e = timed("dddd", "eeee")
    start(e)  # d
    for i, f in enumerate((1, 0, 1)):
        e.apply(PlayTop(f, START + 100_000 * (i + 1)))
        e.apply(Shown(t_us=START + 100_000 * (i + 1) + 10))
    assert e.public_view().centre and [v.pile_size for v in e.public_view().fighters] == [2, 2]
    e.apply(PlayTop(0, START + 500_000))  # e: 0 has 1 left
    events = e.apply(TimeCheck(t_us=ENDS + 7))
    assert events[0] == TimeUp(ENDS + 7, (1, 2), 5, None)
    assert events[1:] == (FightWon(1, WinReason.MOST_CARDS),)
    places = e.card_places()
    assert len(places["centre"]) == 5 and sum(len(c) for c in places.values()) == 54


def test_view_shows_the_countdown_and_the_result() -> None:
    e = timed("dddd", "bbbb")
    start(e)
    view = e.public_view()
    assert (view.started_us, view.ends_us, view.time_up_us, view.winner, view.win_reason) == (
        START,
        ENDS,
        None,
        None,
        None,
    )
    e.apply(TimeCheck(t_us=ENDS + 5))
    view = e.public_view()
    assert (view.time_up_us, view.winner, view.win_reason, view.master) == (ENDS + 5, 1, WinReason.MOST_CARDS, None)
    assert view.turn is None and view.attacker is None and view.chances is None and not view.awaiting_reveal
    assert e.view(0).public == view
    assert decode(type(view), json.loads(json.dumps(encode(view)))) == view


def test_the_cabinet_may_send_a_time_check_and_before_the_limit_it_does_nothing() -> None:
    e = timed("dddd", "bbbb")
    start(e)
    checks = [a for a in e.legal_actions(CABINET) if isinstance(a, TimeCheck)]
    assert checks == [TimeCheck(t_us=ENDS)]
    assert e.apply(TimeCheck(t_us=ENDS - 1)) == () and e.turn == 1 and not e.over
    with pytest.raises(IllegalAction, match="earlier"):
        e.check(TimeCheck(t_us=ENDS - 2))
    with pytest.raises(IllegalAction, match="cabinet"):
        e.check(TimeCheck(t_us=ENDS, player=0))
    assert of_type(e.apply(checks[0]), TimeUp)


# -- A Hit on the table ----------------------------------------------------------------


def test_a_showing_hit_slapped_at_or_after_the_limit_is_void() -> None:
    e = timed("Sdd", "bb")
    start(e)  # Strike, shown at START + 20 ms
    events = e.apply(Slaps(t_us=ENDS, fighters=(1,)))
    assert not of_type(events, HitWon) and not of_type(events, BoutWon)
    assert events == (TimeUp(ENDS, (2, 2), 1, HitKind.STRIKE), JanKenStarted(JanKenReason.TIME_UP, (0, 1)))
    assert e.public_view().hit_showing is None and e.public_view().last_hit is None


def test_a_hit_slapped_before_the_limit_is_won_as_usual() -> None:
    e = timed("Sdd", "bb")
    start(e)
    events = e.apply(Slaps(t_us=ENDS - 1, fighters=(1,)))
    assert of_type(events, HitWon)[0].winner == 1 and not of_type(events, TimeUp)
    # the late slap inside the grace is still past the limit: regulation ends
    assert of_type(e.apply(Slaps(t_us=ENDS + 10, fighters=(0,))), TimeUp) == [TimeUp(ENDS + 10, (2, 3), 0, None)]
    assert (e.outcome().winner, e.outcome().how) == (1, WinReason.MOST_CARDS)


def test_a_hit_not_yet_shown_is_void_when_its_reveal_comes_after_the_limit() -> None:
    e = timed("dd", "Sbb")
    start(e)
    e.apply(PlayTop(1, ENDS - 10))  # Strike, not shown yet
    events = e.apply(Shown(t_us=ENDS + 10))
    assert events[0] == TimeUp(ENDS + 10, (1, 2), 2, HitKind.STRIKE)
    assert events[1] == FightWon(1, WinReason.MOST_CARDS)


# -- Ties: Jan Ken among exactly the tied ----------------------------------------------


def test_a_tie_for_most_cards_goes_to_jan_ken_among_exactly_the_tied() -> None:
    e = timed("ddd", "bb", "jjj", first=1)
    e.apply(PlayTop(1, START))  # piles 3, 1, 3
    events = e.apply(TimeCheck(t_us=ENDS))
    assert events == (TimeUp(ENDS, (3, 1, 3), 1, None), JanKenStarted(JanKenReason.TIME_UP, (0, 2)))
    assert not e.over and e.outcome() is None
    assert e.seats_to_act() == {0, 2} and e.legal_actions(1) == ()
    with pytest.raises(IllegalAction, match="not in this Jan Ken"):
        e.check(Throw(1, Sign.ROCK))
    with pytest.raises(IllegalAction):
        e.check(PlayTop(0, ENDS + 1))
    # slaps during the tie-break are ignored like any Jan Ken's; the clock no longer matters
    assert e.apply(Slaps(t_us=ENDS + 2, fighters=(1,))) == (SlapIgnored(1, ENDS + 2, IgnoreReason.JAN_KEN, None, None),)
    assert e.apply(TimeCheck(t_us=ENDS + 3)) == ()
    assert not [a for a in e.legal_actions(CABINET) if isinstance(a, TimeCheck)]
    assert e.public_view().jan_ken.reason is JanKenReason.TIME_UP
    draw = throw(e, {0: "r", 2: "r"})
    assert not e.over and not of_type(draw, JanKenWon)
    events = throw(e, {0: "r", 2: "p"})
    assert events[-2:] == [JanKenWon(2, JanKenReason.TIME_UP), FightWon(2, WinReason.TIME_UP_JAN_KEN)]
    assert not of_type(events, BoutWon), "the centre stays uncounted"
    assert (e.outcome().winner, e.outcome().how) == (2, WinReason.TIME_UP_JAN_KEN)
    assert e.public_view().winner == 2 and e.public_view().master is None
    assert_over(e)


def test_fighters_out_of_the_game_never_win_on_time() -> None:
    e = timed("S", "", "")
    e.apply(PlayTop(0, START))  # a Strike, all piles empty; fighter 2 slaps too soon and goes out
    assert of_type(e.apply(Slaps(t_us=START + 5, fighters=(2,))), FighterOut)
    events = e.apply(Shown(t_us=ENDS))
    assert events == (TimeUp(ENDS, (0, 0, 0), 1, HitKind.STRIKE), JanKenStarted(JanKenReason.TIME_UP, (0, 1)))


# -- A Jan Ken already running when time runs out ---------------------------------------


def test_a_running_jan_ken_card_finishes_first_then_time_is_up() -> None:
    e = timed("Jdd", "bbb")
    start(e)  # Jan Ken card: both throw
    ignored = e.apply(Slaps(t_us=ENDS + 50, fighters=(0,)))
    assert ignored == (SlapIgnored(0, ENDS + 50, IgnoreReason.JAN_KEN, None, None),)
    assert e.public_view().time_up_us is None and e.seats_to_act() == {0, 1}
    e.apply(TimeCheck(t_us=ENDS + 60))
    events = throw(e, {0: "s", 1: "r"})
    assert events[-4:] == [
        JanKenWon(1, JanKenReason.JAN_KEN_CARD),
        BoutWon(1, 1, BoutReason.JAN_KEN),
        TimeUp(ENDS + 50, (2, 4), 0, None),  # at the first stamp past the limit
        FightWon(1, WinReason.MOST_CARDS),
    ]
    assert e.public_view().time_up_us == ENDS + 50
    assert_over(e)


def test_a_running_jan_ken_that_makes_a_karate_master_ends_the_fight_as_usual() -> None:
    e = timed("J", "")
    start(e)
    e.apply(TimeCheck(t_us=ENDS + 1))
    events = throw(e, {0: "p", 1: "r"})
    assert events[-1] == KarateMaster(0) and not of_type(events, TimeUp)
    assert (e.outcome().winner, e.outcome().how) == (0, WinReason.KARATE_MASTER)


def test_a_dead_heat_jan_ken_finishes_first_then_time_is_up() -> None:
    e = timed("Sdd", "bbb")
    start(e)
    assert of_type(e.apply(Slaps(t_us=ENDS - 5, fighters=(0, 1))), DeadHeat)
    assert e.apply(Shown(t_us=ENDS + 5)) == ()
    events = throw(e, {0: "p", 1: "r"})
    assert [type(ev) for ev in events[-5:]] == [JanKenWon, HitWon, BoutWon, TimeUp, JanKenStarted]
    assert events[-5] == JanKenWon(0, JanKenReason.DEAD_HEAT) and events[-3] == BoutWon(0, 1, BoutReason.HIT)
    # 3 cards each: a second Jan Ken, for the fight
    assert events[-2:] == [TimeUp(ENDS + 5, (3, 3), 0, None), JanKenStarted(JanKenReason.TIME_UP, (0, 1))]
    assert e.public_view().time_up_us == ENDS + 5 and e.seats_to_act() == {0, 1}


def test_a_hit_won_by_dead_heat_jan_ken_counts_for_the_time_up() -> None:
    e = timed("Sd", "bbb")
    start(e)
    e.apply(Slaps(t_us=ENDS - 5, fighters=(0, 1)))
    e.apply(TimeCheck(t_us=ENDS))
    events = throw(e, {0: "p", 1: "r"})  # 0 takes the Strike: 2 cards each
    assert events[-2:] == [TimeUp(ENDS, (2, 3), 0, None), FightWon(1, WinReason.MOST_CARDS)]


def test_a_jan_ken_settled_before_any_input_past_the_limit_lets_the_fight_go_on() -> None:
    e = timed("Jdd", "bbb")
    start(e)
    events = throw(e, {0: "s", 1: "r"})
    assert not of_type(events, TimeUp) and e.turn == 1
    assert of_type(e.apply(PlayTop(1, ENDS)), TimeUp)


# -- Karate Master, replay, unchanged default ------------------------------------------


def test_a_karate_master_before_the_limit_ends_the_fight_as_usual() -> None:
    e = timed("T", "d")
    start(e)
    events = e.apply(PlayTop(1, START + 100_000))  # Throw gives 1 chance: a defense fails it
    assert events[-1] == KarateMaster(0) and (e.outcome().winner, e.outcome().how) == (0, WinReason.KARATE_MASTER)
    view = e.public_view()
    assert (view.master, view.winner, view.win_reason, view.time_up_us) == (0, 0, WinReason.KARATE_MASTER, None)
    assert_over(e)


def test_a_fight_decided_on_time_replays_from_its_journal() -> None:
    e = timed("ddd", "bb", "jjj", first=1)
    e.apply(PlayTop(1, START))
    e.apply(TimeCheck(t_us=ENDS))
    throw(e, {0: "s", 2: "s"})
    throw(e, {0: "s", 2: "p"})
    assert e.over
    again = KarateFight.from_json(e.to_json())
    assert again.outcome() == e.outcome()
    assert (e.outcome().winner, e.outcome().how) == (0, WinReason.TIME_UP_JAN_KEN)
    assert again.public_view() == e.public_view() and again.card_places() == e.card_places()
    assert_replays(e)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_limit_never_reached_changes_no_event(players: int) -> None:
    """With a limit far beyond the fight the events are exactly those of the rulebook game."""
    for seed in range(4):
        plain = KarateFight(KarateOptions(), players, seed)
        long = KarateFight(KarateOptions(time_limit_us=10**15), players, seed)
        a = [(act, evs) for act, evs in RandomFight(plain, random.Random(seed)).run(30_000)]
        b = [(act, evs) for act, evs in RandomFight(long, random.Random(seed)).run(30_000)]
        assert a == b and plain.outcome() == long.outcome()
        assert plain.public_view().ends_us is None and long.public_view().ends_us is not None


# -- Properties --------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    limit_s=st.integers(1, 120),
    coward_rate=st.sampled_from([0.0, 0.03, 0.2]),
    tie_rate=st.sampled_from([0.0, 0.05, 0.5]),
)
def test_random_fights_with_a_short_limit_always_end_and_keep_every_card(
    players: int, seed: int, limit_s: int, coward_rate: float, tie_rate: float
) -> None:
    e = KarateFight(KarateOptions(time_limit_us=limit_s * 1_000_000), players, seed)
    log = []
    time_up = None
    for action, events in RandomFight(e, random.Random(seed), coward_rate=coward_rate, tie_rate=tie_rate).run(20_000):
        check_invariants(e)
        log.append((action, events))
        time_up = next((ev for ev in events if isinstance(ev, TimeUp)), time_up)
    assert e.over, "a fight with a time limit must end"
    view = e.public_view()
    final = log[-1][1][-1]
    if time_up is None:
        assert final == KarateMaster(e.outcome().winner) and view.time_up_us is None
    else:
        assert isinstance(final, FightWon) and view.master is None
        assert time_up.t_us >= view.ends_us == view.started_us + limit_s * 1_000_000
        standing = [f.seat for f in view.fighters if f.status is not FighterStatus.OUT]
        most = max(time_up.piles[f] for f in standing)
        assert time_up.piles[e.outcome().winner] == most
        assert (final.reason is WinReason.MOST_CARDS) == (sum(time_up.piles[f] == most for f in standing) == 1)
        assert e.outcome().how is final.reason
        # no input stamped at or past the limit was applied as itself after the time-up
        after = log[next(i for i, (_, evs) in enumerate(log) if time_up in evs) + 1 :]
        assert all(
            isinstance(ev, (SlapIgnored, JanKenWon, FightWon)) or type(ev).__name__ in {"SignLocked", "JanKenRound"}
            for _, evs in after
            for ev in evs
        )
    for item in (x for action, events in log for x in (action, *events)):
        assert decode(type(item), json.loads(json.dumps(encode(item)))) == item
    again = KarateFight.from_json(e.to_json())
    assert again.outcome() == e.outcome() and again.public_view() == view
