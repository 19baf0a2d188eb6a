"""Random playouts and property tests: invariants hold in every reachable state."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.protocol import Event
from games.punch import (
    CARDS,
    Card,
    CardsRevealed,
    MatchEnded,
    MatchEndReason,
    MatchStarted,
    Phase,
    Punch,
    PunchOptions,
    Rules,
    StaminaChanged,
)
from games.punch.clash import clash
from tests.games.playout import assert_replays, random_playout

FULL = (5, 5, 5, 5, 5, 5)
VARIANTS = {
    "standard": PunchOptions(),
    "standard_no_mercy": PunchOptions(no_mercy=True),
    "advanced": PunchOptions(rules=Rules.ADVANCED),
    "advanced_no_mercy": PunchOptions(rules=Rules.ADVANCED, no_mercy=True),
}


def invariant(game: Punch) -> None:
    """Stamina in 0..10 (0 only once the game is over), every card of both decks in
    exactly one place (hand, deck, played, or face down), both boxers one card per exchange, wins within the target."""
    public = game.public_view()
    for seat in (0, 1):
        assert 0 <= public.stamina[seat] <= 10
        view = game.view(seat)
        locked = tuple(int(view.locked_card is card) for card in CARDS)
        places = zip(view.hand, view.deck, public.played[seat], locked)
        assert tuple(h + d + p + c for h, d, p, c in places) == FULL
        assert sum(view.hand) <= 10 and min(view.hand) >= 0
        assert 0 <= public.match_wins[seat] <= game.options.matches_to_win
    assert sum(public.played[0]) == sum(public.played[1]) <= 30
    if game.over:
        assert public.phase is Phase.OVER and public.match_wins[public.winner] == game.options.matches_to_win
    else:
        assert min(public.stamina) >= 1
    if public.phase is Phase.EXCHANGE:
        assert sum(public.played[0]) == (public.round - 1) * 10 + public.exchange - 1


def replayed_events(game: Punch) -> list[Event]:
    """Every event of ``game``, by replaying its journal on a fresh engine."""
    again = Punch(game.options, 2, game.seed)
    events = list(again.opening_events)
    for action in game.journal:
        events += again.apply(action)
    return events


def check_matches(events: list[Event]) -> int:
    """Per match: 30 cards each, every card exactly once, unless a knockout cut it short;
    stamina events add up; the result follows from stamina.  Returns matches seen."""
    matches = 0
    stamina = [10, 10]
    revealed: list[tuple[Card, Card]] = []
    for event in events:
        if isinstance(event, MatchStarted):
            matches += 1
            stamina, revealed = [10, 10], []
        elif isinstance(event, CardsRevealed):
            revealed.append(event.cards)
        elif isinstance(event, StaminaChanged):
            stamina[event.player] += event.delta
            assert stamina[event.player] == event.stamina
        elif isinstance(event, MatchEnded):
            assert event.stamina == tuple(stamina)
            per_seat = [[pair[seat] for pair in revealed] for seat in (0, 1)]
            if event.reason is MatchEndReason.KNOCKOUT:
                assert len(revealed) <= 30 and stamina[1 - event.winner] == 0
                assert all(cards.count(c) <= 5 for cards in per_seat for c in CARDS)
            else:
                assert len(revealed) == 30
                assert all(cards.count(c) == 5 for cards in per_seat for c in CARDS)
                red, blue = stamina
                assert event.winner == (None if red == blue else 0 if red > blue else 1)
    return matches


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=list(VARIANTS))
@pytest.mark.parametrize("seed", range(25))
def test_random_playouts_keep_the_invariants_and_replay(variant: str, seed: int) -> None:
    game = Punch(VARIANTS[variant], 2, seed)
    random_playout(game, bot_seed=seed, invariant=invariant, replay_every=1 if seed == 0 else 40)
    assert game.over
    assert check_matches(replayed_events(game)) >= 3


@pytest.mark.slow
def test_playouts_reach_every_kind_of_match_end() -> None:
    reasons = set()
    for seed in range(60):
        game = random_playout(Punch(PunchOptions(), 2, seed), bot_seed=seed, replay_every=0)
        reasons |= {e.reason for e in replayed_events(game) if isinstance(e, MatchEnded)}
    assert reasons == set(MatchEndReason)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(Rules),
    no_mercy=st.booleans(),
    choices=st.lists(st.integers(0, 2**16), max_size=300),
)
def test_any_sequence_of_legal_choices_keeps_the_invariants(
    seed: int, rules: Rules, no_mercy: bool, choices: list[int]
) -> None:
    game = Punch(PunchOptions(rules=rules, no_mercy=no_mercy, matches_to_win=1), 2, seed)
    for choice in choices:
        if game.over:
            break
        acting = sorted(game.to_act())
        player = acting[choice % len(acting)]
        actions = game.legal_actions(player)
        game.apply(actions[(choice // 2) % len(actions)])
        invariant(game)
    assert_replays(game)
    check_matches(replayed_events(game))


@pytest.mark.slow
@given(
    cards=st.tuples(st.sampled_from(Card), st.sampled_from(Card)),
    stamina=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    no_mercy=st.booleans(),
)
def test_any_clash_hurts_at_most_one_boxer_and_is_symmetric(
    cards: tuple[Card, Card], stamina: tuple[int, int], no_mercy: bool
) -> None:
    punches = tuple(min(c.punch, s) if no_mercy else c.punch for c, s in zip(cards, stamina))
    effects = clash(cards, punches)
    assert len([e for e in effects if e.amount < 0]) <= 1
    assert all(-3 <= e.amount <= 1 for e in effects)
    mirrored = clash((cards[1], cards[0]), (punches[1], punches[0]))
    assert sorted((1 - e.seat, e.amount, e.cause) for e in mirrored) == sorted(effects)
    if no_mercy:
        assert all(-e.amount <= stamina[1 - e.seat] or e.amount > 0 for e in effects if e.cause.value == "hit")
