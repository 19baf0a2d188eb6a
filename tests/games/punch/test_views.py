"""What each display may see: views never leak the opponent's hand or chosen card."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.punch import (
    Card,
    CardChosen,
    CardsRevealed,
    Draft,
    Phase,
    PlayCard,
    Punch,
    PunchOptions,
    PunchPlayerView,
    PunchPublicView,
    Redeal,
    Rules,
)
from tests.games.punch.support import BLUE, RED, cards, drafted_game, exchange


def test_the_opening_public_view() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED, no_mercy=True), 2, 3)
    assert game.public_view() == PunchPublicView(
        options=PunchOptions(rules=Rules.ADVANCED, no_mercy=True),
        phase=Phase.DRAFT,
        match=1,
        round=1,
        exchange=1,
        stamina=(10, 10),
        match_wins=(0, 0),
        locked=(False, False),
        last_reveal=None,
        hand_sizes=(0, 0),
        deck_sizes=(30, 30),
        played=((0,) * 6, (0,) * 6),
        winner=None,
    )


def test_a_player_view_shows_their_own_hand_and_locked_card() -> None:
    game = drafted_game("3NNBD", "1")
    game.apply(PlayCard(RED, Card.PUNCH_3))
    view = game.view(RED)
    assert view.player == RED and view.locked_card is Card.PUNCH_3
    assert view.hand == (0, 0, 0, 2, 2, 5) and view.deck == (5, 5, 4, 3, 3, 0)
    assert view.public == game.public_view() and view.public.locked == (True, False)
    assert view.public.hand_sizes == (9, 10)
    assert game.view(BLUE).locked_card is None


def test_a_chosen_card_leaks_nowhere_until_both_are_revealed() -> None:
    """Two games that differ only in the card Red chose look the same to Blue and the room."""
    seen = []
    for red_card in (Card.PUNCH_3, Card.BLOCK):
        game = drafted_game("3B", "1")
        events = game.apply(PlayCard(RED, red_card))
        seen.append((events, game.public_view(), game.view(BLUE)))
    assert seen[0] == seen[1]
    assert seen[0][0] == (CardChosen(RED),)


def test_a_drafted_hand_leaks_nowhere() -> None:
    seen = []
    for red_hand in ("1111122222", "33333BBBBB"):
        game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
        events = game.apply(Draft(RED, cards(red_hand)))
        events += game.apply(Draft(BLUE, cards("NNNNNDDDDD")))
        seen.append((events, game.public_view(), game.view(BLUE)))
    assert seen[0] == seen[1]


def test_a_dealt_hand_leaks_nowhere() -> None:
    """Standard games with different seeds may differ for Blue only in Blue's own cards
    (including whether Blue's own hand may re-deal), whatever Red was dealt."""
    blue_sees = set()
    red_may_redeal = set()
    for seed in range(40):
        game = Punch(PunchOptions(), 2, seed)
        view = game.view(BLUE)
        blue_sees.add((view.public, view.locked_card, view.draft_pool, game.to_act(), game.opening_events))
        red_may_redeal.add(game.view(RED).redeal_offered)
        assert all(type(e).__name__ in {"MatchStarted", "RoundStarted", "HandDealt"} for e in game.opening_events)
    assert len(blue_sees) == 1 and red_may_redeal == {True, False}


def keep_trace(game: Punch, order: tuple[int, int]) -> list[tuple]:
    """What the room sees while both boxers keep their hands, in ``order``: the events of
    each answer (none before the first), then the public view and who must act."""
    trace: list[tuple] = [((), game.public_view(), game.to_act())]
    for player in order:
        events = game.apply(Redeal(player, False))
        trace.append((events, game.public_view(), game.to_act()))
    return trace


def what_changed(trace: list[tuple]) -> list[tuple]:
    """``trace`` with each public view reduced to its phase, after checking that nothing
    else in it moved (for comparing games whose stamina and played cards differ)."""
    start = trace[0][1]
    assert all(view == replace(start, phase=view.phase) for _events, view, _acting in trace)
    return [(events, view.phase, acting) for events, view, acting in trace]


def reference_trace(order: tuple[int, int]) -> list[tuple]:
    return keep_trace(Punch(PunchOptions(), 2, 0), order)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), order=st.sampled_from([(RED, BLUE), (BLUE, RED)]))
def test_keeping_a_dealt_hand_looks_the_same_whether_or_not_it_may_redeal(seed: int, order: tuple[int, int]) -> None:
    """Property: in round 1, a boxer who keeps shows the room (and the opponent's display)
    exactly what any other keeping boxer shows, 4+ of one kind or not."""
    game = Punch(PunchOptions(), 2, seed)
    assert keep_trace(game, order) == reference_trace(order)


def test_the_keep_trace_is_the_same_for_qualifying_and_ordinary_hands_in_rounds_1_and_2() -> None:
    """The property above over fixed seeds, checked not to be vacuous: both kinds of hand
    occur for both seats, in round 1 and in round 2 (reached by keeping and playing)."""
    round_1: dict[tuple[bool, bool], list[tuple]] = {}
    round_2: dict[tuple[bool, bool], list[tuple]] = {}
    for seed in range(120):
        game = Punch(PunchOptions(), 2, seed)
        qualifying = (game.view(RED).redeal_offered, game.view(BLUE).redeal_offered)
        round_1.setdefault(qualifying, []).append(keep_trace(game, (RED, BLUE)))
        while game.public_view().round == 1 and game.public_view().match == 1 and not game.over:
            for player in sorted(game.to_act()):
                game.apply(game.legal_actions(player)[0])
        if game.public_view().match != 1 or game.public_view().phase is not Phase.REDEAL:
            continue
        qualifying = (game.view(RED).redeal_offered, game.view(BLUE).redeal_offered)
        round_2.setdefault(qualifying, []).append(what_changed(keep_trace(game, (BLUE, RED))))
    for seen in (round_1, round_2):
        assert set(seen) == {(False, False), (False, True), (True, False), (True, True)}
        traces = [trace for group in seen.values() for trace in group]
        assert all(trace == traces[0] for trace in traces)


def test_after_a_redeal_keeping_the_new_hand_looks_the_same_whether_or_not_it_may_redeal_again() -> None:
    after_redeal: dict[bool, list[tuple]] = {}
    for seed in range(400):
        game = Punch(PunchOptions(), 2, seed)
        if not game.view(RED).redeal_offered:
            continue
        game.apply(Redeal(RED, True))
        again = game.view(RED).redeal_offered
        after_redeal.setdefault(again, []).append(keep_trace(game, (RED, BLUE)))
    assert set(after_redeal) == {True, False}
    traces = [trace for group in after_redeal.values() for trace in group]
    assert all(trace == traces[0] for trace in traces)


def test_after_the_reveal_everyone_sees_both_cards_and_what_was_played() -> None:
    game = drafted_game("3", "D")
    events = exchange(game, "3", "D")
    assert CardsRevealed((Card.PUNCH_3, Card.DODGE)) in events
    view = game.public_view()
    assert view.last_reveal == (Card.PUNCH_3, Card.DODGE)
    assert view.played == ((0, 0, 1, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    assert view.locked == (False, False) and view.exchange == 2


def test_views_are_frozen_tuples_that_hash_and_compare() -> None:
    game = drafted_game("3", "D")
    for view in (game.public_view(), game.view(RED), game.view(BLUE)):
        hash(view)
        for field in fields(view):
            value = getattr(view, field.name)
            assert not isinstance(value, (list, dict, set)), field.name
    assert game.view(RED) == game.view(RED) and isinstance(game.view(RED), PunchPlayerView)
