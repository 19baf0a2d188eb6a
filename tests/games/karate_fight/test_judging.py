"""Karate Fight slap judging by stamp: 1 µs apart in any arrival order, 1 µs before the
reveal, dead heats, the grace period, and what the after-Hit screen gets."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.karate_fight import (
    BoutReason,
    BoutWon,
    CowardsBlow,
    DeadHeat,
    HitKind,
    HitShowing,
    HitWon,
    IgnoreReason,
    JanKenReason,
    JanKenStarted,
    PlayTop,
    Reaction,
    Shown,
    SlapIgnored,
    Slaps,
    Verdict,
    judge,
)
from games.protocol import Event
from tests.games.karate_fight.helpers import deliver, fight, of_type, play, slap, throw

SETTLE_US = 20_000
REVEAL_US = 1_000_000


def strike_fight(players: int, grace_us: int = 500_000):
    """Fighter 0's Strike is played just before ``REVEAL_US``; its frame not yet flipped."""
    e = fight(*(["Sdb"] + ["dbd"] * (players - 1)), grace_us=grace_us)
    e.apply(PlayTop(0, REVEAL_US - 30_000))
    return e


def run(e, actions) -> list[Event]:
    events: list[Event] = []
    for a in actions:
        events += e.apply(a)
    return events


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_slaps_1us_apart_same_winner_in_every_arrival_order(players: int) -> None:
    """Every assignment of fighters to stamps 1 µs apart, and for each every arrival
    order of the reveal and the slaps: the earliest stamp wins.  The window here is long
    enough for even the reveal (180 ms before the slaps) to arrive after all of them."""
    settle_us = 250_000
    base = REVEAL_US + 180_000
    for order in itertools.permutations(range(players)):
        stamps = {f: base + i for i, f in enumerate(order)}
        inputs = [(REVEAL_US, None)] + [(t, f) for f, t in stamps.items()]
        for arrival in itertools.permutations(range(len(inputs))):
            arrivals = []
            for rank, i in enumerate(arrival):
                stamp, fighter = inputs[i]
                at = base + players + rank * 1_000
                assert 0 <= at - stamp <= settle_us
                arrivals.append((at, stamp, fighter))
            e = strike_fight(players)
            events = run(e, deliver(arrivals, settle_us))
            (won,) = of_type(events, HitWon)
            assert won.winner == order[0] and won.reaction_us == 180_000
            assert e.public_view().last_hit.margin_us == 1
            late = of_type(events, SlapIgnored)
            assert [(s.fighter, s.behind_us) for s in late] == [(f, i) for i, f in enumerate(order) if i]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_slap_1us_before_the_reveal_is_a_cowards_blow_even_if_it_arrives_last(players: int) -> None:
    early = REVEAL_US - 1
    arrivals = [(REVEAL_US + 100, REVEAL_US, None), (REVEAL_US + 150, REVEAL_US + 1, 1), (REVEAL_US + 9_000, early, 0)]
    e = strike_fight(players)
    events = run(e, deliver(arrivals, SETTLE_US))
    assert events[0] == CowardsBlow(0, early, 1, HitKind.STRIKE)
    assert HitShowing(HitKind.STRIKE, REVEAL_US, (Reaction(0, -1),)) in events
    (won,) = of_type(events, HitWon)
    assert (won.winner, won.reaction_us) == (1, 1)


def test_a_slap_between_play_and_reveal_is_a_cowards_blow() -> None:
    e = strike_fight(2)
    events = slap(e, 1, dt=1)
    assert events == [CowardsBlow(1, e.now, 1, HitKind.STRIKE)]
    assert e.hit is not None  # the Hit still stands, waiting to be shown


def test_a_repeated_reveal_report_keeps_the_first_stamp() -> None:
    e = strike_fight(2)
    e.apply(Shown(t_us=REVEAL_US))
    assert e.apply(Shown(t_us=REVEAL_US + 16_667)) == ()
    events = e.apply(Slaps(t_us=REVEAL_US + 20_000, fighters=(1,)))
    assert HitWon(HitKind.STRIKE, 1, REVEAL_US, REVEAL_US + 20_000, 20_000, by_jan_ken=False) in events


def test_a_slap_at_the_reveal_stamp_wins_with_reaction_zero() -> None:
    e = strike_fight(3)
    events = run(e, deliver([(REVEAL_US + 5, REVEAL_US, 2), (REVEAL_US + 10, REVEAL_US, None)], SETTLE_US))
    assert HitWon(HitKind.STRIKE, 2, REVEAL_US, REVEAL_US, 0, by_jan_ken=False) in events


@pytest.mark.parametrize(("players", "tied"), [(2, (0, 1)), (3, (0, 2)), (4, (1, 2, 3))])
def test_equal_stamps_are_a_dead_heat_settled_by_jan_ken_between_the_tied(players: int, tied: tuple[int, ...]) -> None:
    t = REVEAL_US + 200_000
    others = [f for f in range(players) if f not in tied]
    arrivals = [(REVEAL_US + 1, REVEAL_US, None)]
    arrivals += [(t + 500 * (len(tied) - i), t, f) for i, f in enumerate(tied)]  # arrive in reverse
    arrivals += [(t + 10, t + 1, f) for f in others]
    e = strike_fight(players)
    events = run(e, deliver(arrivals, SETTLE_US))
    assert DeadHeat(HitKind.STRIKE, tied, t, 200_000) in events
    assert JanKenStarted(JanKenReason.DEAD_HEAT, tied) in events
    assert e.seats_to_act() == set(tied)
    assert [s.fighter for s in of_type(events, SlapIgnored)] == others
    report = e.public_view().last_hit
    assert report.winner is None and report.margin_us == 0
    signs = dict.fromkeys(tied, "s")
    signs[tied[-1]] = "r"
    events = throw(e, signs)
    assert HitWon(HitKind.STRIKE, tied[-1], REVEAL_US, t, 200_000, by_jan_ken=True) in events
    assert BoutWon(tied[-1], 1, BoutReason.HIT) in events
    assert e.public_view().last_hit.winner == tied[-1]


def test_late_slaps_inside_the_grace_are_ignored_after_it_cowards_blows() -> None:
    e = strike_fight(3, grace_us=500_000)
    e.apply(Shown(t_us=REVEAL_US))
    won = REVEAL_US + 150_000
    e.apply(Slaps(t_us=won, fighters=(1,)))
    places, turn = e.card_places(), e.turn
    events = e.apply(Slaps(t_us=won + 120_000, fighters=(2,)))
    assert events == (SlapIgnored(2, won + 120_000, IgnoreReason.GRACE, 270_000, 120_000),)
    events = e.apply(Slaps(t_us=won + 500_000, fighters=(0,)))
    assert events == (SlapIgnored(0, won + 500_000, IgnoreReason.GRACE, 650_000, 500_000),)
    assert e.public_view().last_hit.reactions == (Reaction(1, 150_000), Reaction(2, 270_000), Reaction(0, 650_000))
    assert e.card_places() == places and e.turn == turn and e.cowards == [0, 0, 0]  # nothing happened
    events = e.apply(Slaps(t_us=won + 500_001, fighters=(2,)))
    assert of_type(events, CowardsBlow) == [CowardsBlow(2, won + 500_001, 1, None)]


def test_a_new_hit_inside_the_grace_can_be_slapped() -> None:
    e = fight("SSd", "dd", grace_us=10_000_000)
    play(e)
    slap(e, 0)  # 0 wins the first Strike, starts the next bout
    play(e)  # second Strike, well inside the long grace
    events = slap(e, 1, dt=90_000)
    assert HitWon(HitKind.STRIKE, 1, e.now - 90_000, e.now, 90_000, False) in events


def test_fastest_reactions_are_kept_per_fighter() -> None:
    e = fight("Sddd", "Sdd")
    play(e)
    slap(e, 1, dt=300_000)
    slap(e, 0, dt=100_000)  # 400 ms: late, but a reaction
    play(e)  # 1 won, so 1 plays the next Strike
    slap(e, 0, dt=250_000)
    fastest = [f.fastest_us for f in e.public_view().fighters]
    assert fastest == [250_000, 300_000]


@given(
    t=st.integers(0, 10**9),
    revealed=st.none() | st.integers(0, 10**9),
    won=st.none() | st.integers(0, 10**9),
    grace=st.integers(0, 10**6),
    jan_ken=st.booleans(),
)
def test_judge_is_the_documented_order(
    t: int, revealed: int | None, won: int | None, grace: int, jan_ken: bool
) -> None:
    verdict = judge(t, revealed_us=revealed, won_us=won, grace_us=grace, jan_ken=jan_ken)
    if revealed is not None and t >= revealed:
        assert verdict is Verdict.HIT
    elif won is not None and t - won <= grace:
        assert verdict is Verdict.GRACE
    else:
        assert verdict is (Verdict.JAN_KEN if jan_ken else Verdict.COWARDS_BLOW)


@pytest.mark.slow
@given(st.data())
def test_random_near_ties_through_the_settle_buffer_go_to_the_earliest_stamp(data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 4))
    gaps = data.draw(st.lists(st.integers(1, 500), min_size=players - 1, max_size=players - 1))
    fighters = data.draw(st.permutations(range(players)))
    start = REVEAL_US + data.draw(st.integers(0, 400_000))
    stamps, t = {}, start
    for i, f in enumerate(fighters):
        stamps[f] = t
        t += gaps[i] if i < len(gaps) else 0
    inputs = [(REVEAL_US, None)] + [(s, f) for f, s in stamps.items()]
    delays = data.draw(st.lists(st.integers(0, SETTLE_US), min_size=len(inputs), max_size=len(inputs)))
    arrivals = [(s + d, s, f) for (s, f), d in zip(inputs, delays, strict=True)]
    e = strike_fight(players)
    events = run(e, deliver(arrivals, SETTLE_US))
    (won,) = of_type(events, HitWon)
    assert won.winner == fighters[0]
