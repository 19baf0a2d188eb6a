"""What each display may see: views never leak the opponent's hand or chosen card."""

from __future__ import annotations

from dataclasses import fields

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
    Rules,
)
from tests.engine.test_punch_support import BLUE, RED, cards, drafted_game, exchange


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
    """Standard games with different seeds may differ for Blue only in Blue's own cards."""
    blue_sees = set()
    for seed in range(40):
        game = Punch(PunchOptions(), 2, seed)
        if game.public_view().phase is not Phase.EXCHANGE:
            continue
        view = game.view(BLUE)
        blue_sees.add((view.public, view.locked_card, view.redeal_offered, view.draft_pool))
        assert all(type(e).__name__ in {"MatchStarted", "RoundStarted", "HandDealt"} for e in game.opening_events)
    assert len(blue_sees) == 1


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
