"""Karate Fight properties over random fights (2–4 fighters, a simulated cabinet making
reveals and early, on-time, tied and late slaps): every one of the 54 cards is always in
exactly one place, the engine's own bookkeeping agrees with its views, seat bots always
have a legal move, and a saved fight replays to the same game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.codec import decode, encode
from games.karate_fight import (
    DECK_SIZE,
    BoutWon,
    CowardsBlow,
    DeadHeat,
    FighterOut,
    FighterStatus,
    HitWon,
    JanKenRound,
    KarateFight,
    KarateMaster,
    KarateOptions,
    Reentered,
)
from games.karate_fight.simulate import RandomFight
from games.protocol import CABINET
from tests.games.playout import assert_replays

MAX_ACTIONS = 30_000


def check_invariants(e: KarateFight) -> None:
    places = e.card_places()
    every = [c for cards in places.values() for c in cards]
    assert len(every) == DECK_SIZE, "a card was lost or made up"
    assert len(set(every)) == DECK_SIZE, "a card is in two places"
    view = e.public_view()
    assert sum(f.pile_size for f in view.fighters) + len(view.centre) + view.aside == DECK_SIZE
    assert view.in_play + view.aside == DECK_SIZE
    for f in view.fighters:
        if f.status is FighterStatus.OUT:
            assert f.pile_size == 0
    assert sum(f.status is not FighterStatus.OUT for f in view.fighters) >= 1
    if e.over:
        assert e.seats_to_act() == frozenset()
        return
    for seat in e.seats_to_act():
        actions = e.legal_actions(seat)
        assert actions, f"seat {seat} must act but has nothing legal"
        for action in actions:
            e.check(action)
    if view.turn is not None:
        assert e.seats_to_act() == {view.turn} and view.fighters[view.turn].pile_size > 0, (
            "the fighter to play has a card"
        )
    else:
        assert e.jan_ken is not None or e.hit is not None
    for action in e.legal_actions(CABINET):
        e.check(action)


def random_fight(players: int, seed: int, **driver) -> tuple[KarateFight, list]:
    e = KarateFight(KarateOptions(), players, seed)
    events = []
    for _, evs in RandomFight(e, random.Random(seed * 7 + players), **driver).run(MAX_ACTIONS):
        check_invariants(e)
        events += evs
    return e, events


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_fights_end_with_a_karate_master_and_keep_every_card(players: int) -> None:
    seen: set[type] = set()
    for seed in range(12):
        e, events = random_fight(players, seed)
        assert e.over, f"seed {seed}: no Karate Master after {MAX_ACTIONS} actions"
        master = e.outcome().winner
        assert len(e.piles[master]) == e.in_play
        assert events[-1] == KarateMaster(master)
        seen |= {type(ev) for ev in events}
        assert_replays(e)
    expected = {HitWon, DeadHeat, JanKenRound, BoutWon, CowardsBlow}
    if players > 2:
        expected |= {Reentered, FighterOut}
    assert expected <= seen


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    coward_rate=st.sampled_from([0.0, 0.03, 0.2]),
    tie_rate=st.sampled_from([0.0, 0.05, 0.5]),
    grace_us=st.sampled_from([0, 200_000, 500_000, 2_000_000]),
    cut=st.floats(0.0, 1.0),
)
def test_any_fight_keeps_cards_and_replays_from_any_point(
    players: int, seed: int, coward_rate: float, tie_rate: float, grace_us: int, cut: float
) -> None:
    e = KarateFight(KarateOptions(grace_us=grace_us), players, seed)
    driver = RandomFight(e, random.Random(seed), coward_rate=coward_rate, tie_rate=tie_rate)
    log = []
    for action, events in driver.run(5_000):
        check_invariants(e)
        log.append((action, events))
    # a fight saved part-way replays to the same state and then goes on identically
    n = int(cut * len(log))
    partial = KarateFight(KarateOptions(grace_us=grace_us), players, seed)
    for action, _ in log[:n]:
        partial.apply(action)
    resumed = KarateFight.from_json(partial.to_json())
    assert resumed.card_places() == partial.card_places()
    for action, events in log[n:]:
        assert resumed.apply(action) == events
    assert resumed.public_view() == e.public_view() and resumed.outcome() == e.outcome()


def test_same_seed_and_actions_give_the_same_fight() -> None:
    a, events_a = random_fight(3, seed=99)
    b = KarateFight(KarateOptions(), 3, 99)
    events_b = [ev for action in a.journal for ev in b.apply(action)]
    assert events_b == events_a and b.card_places() == a.card_places()


def test_actions_events_and_views_are_json_codable() -> None:
    e = KarateFight(KarateOptions(), 4, seed=5)
    for action, events in RandomFight(e, random.Random(5), coward_rate=0.1, tie_rate=0.3).run(MAX_ACTIONS):
        for item in (action, *events):
            assert decode(type(item), json.loads(json.dumps(encode(item)))) == item
    view = e.public_view()
    assert decode(type(view), json.loads(json.dumps(encode(view)))) == view
    assert KarateFight.decode_action(encode(e.journal[0])) == e.journal[0]
