"""How hands are formed: standard dealing with the optional re-deal, advanced drafting,
round 3's last ten, and fresh decks for every match."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from games.protocol import IllegalAction
from games.punch import (
    Card,
    Draft,
    HandDealt,
    HandKept,
    HandSource,
    Phase,
    PlayCard,
    Punch,
    PunchOptions,
    Redeal,
    Redealt,
    RoundStarted,
    Rules,
)
from games.punch.cards import CARDS, cards_of
from tests.games.punch.support import BLUE, RED, cards, drafted_game, hand_with, of_type, play

FULL = (5, 5, 5, 5, 5, 5)
STANDARD = PunchOptions()


def standard_seed(condition: Callable[[Punch], bool], limit: int = 20_000) -> int:
    """The first seed whose freshly dealt standard game meets ``condition``."""
    for seed in range(limit):
        if condition(Punch(STANDARD, 2, seed)):
            return seed
    raise AssertionError("no seed found")


def qualifies(hand: tuple[int, ...]) -> bool:
    return max(hand) >= 4


def play_first_legal(game: Punch, until: Callable[[Punch], bool]) -> None:
    """Keep every dealt hand and play each boxer's first legal card until ``until``."""
    while not until(game) and not game.over:
        for player in sorted(game.to_act()):
            actions = game.legal_actions(player)
            game.apply(Redeal(player, False) if game.public_view().phase is Phase.REDEAL else actions[0])


def conserved(game: Punch, player: int) -> tuple[int, ...]:
    view = game.view(player)
    return tuple(h + d + p for h, d, p in zip(view.hand, view.deck, view.public.played[player]))


# -- standard rules: dealing and re-dealing ------------------------------------------------


def test_faq_five_3_punches_in_round_1_may_be_redealt() -> None:
    seed = standard_seed(lambda g: g.view(RED).hand[Card.PUNCH_3.index] == 5)
    game = Punch(STANDARD, 2, seed)
    assert game.public_view().phase is Phase.REDEAL
    assert RED in game.to_act() and game.view(RED).redeal_offered
    assert set(game.legal_actions(RED)) == {Redeal(RED, True), Redeal(RED, False)}
    old_hand = game.view(RED).hand
    events = game.apply(Redeal(RED, True))
    shown = tuple(card for card, n in zip(CARDS, old_hand) if n >= 4 for _ in range(n))
    assert events == (Redealt(RED, shown), HandDealt(RED, 1, HandSource.REDEALT))
    assert shown[:5] == (Card.PUNCH_3,) * 5
    assert sum(game.view(RED).hand) == 10 and conserved(game, RED) == FULL
    assert game.public_view().phase is Phase.REDEAL and RED in game.to_act()  # asked about the new hand


def redeal_choices(game: Punch, player: int) -> set[Redeal]:
    """What ``player`` may answer now, by the rules: keep always, re-deal only 4+ of a kind."""
    if qualifies(game.view(player).hand):
        return {Redeal(player, True), Redeal(player, False)}
    return {Redeal(player, False)}


@pytest.mark.parametrize("seed", range(300))
def test_round_1_asks_both_boxers_and_only_hands_with_4_or_5_of_a_kind_may_redeal(seed: int) -> None:
    game = Punch(STANDARD, 2, seed)
    assert game.public_view().phase is Phase.REDEAL
    assert game.to_act() == frozenset({RED, BLUE})
    for p in (RED, BLUE):
        assert game.view(p).redeal_offered == qualifies(game.view(p).hand)
        assert set(game.legal_actions(p)) == redeal_choices(game, p)


def test_round_2_asks_both_boxers_and_only_qualifying_hands_may_redeal() -> None:
    offers = 0
    for seed in range(150):
        game = Punch(STANDARD, 2, seed)
        play_first_legal(game, lambda g: g.public_view().round == 2)
        if game.over or game.public_view().match != 1:
            continue
        qualifying = {p for p in (RED, BLUE) if qualifies(game.view(p).hand)}
        offers += len(qualifying)
        assert game.public_view().phase is Phase.REDEAL and game.to_act() == frozenset({RED, BLUE})
        assert {p for p in (RED, BLUE) if game.view(p).redeal_offered} == qualifying
        assert all(set(game.legal_actions(p)) == redeal_choices(game, p) for p in (RED, BLUE))
        if qualifying:
            player = min(qualifying)
            game.apply(Redeal(player, True))
            assert conserved(game, player) == FULL
            assert sum(game.view(player).deck) == 10 and sum(game.view(player).hand) == 10
    assert offers > 0


@pytest.mark.slow
def test_round_3_hand_is_the_last_ten_and_never_redealt() -> None:
    seen_qualifying = False
    for seed in range(200):
        game = Punch(STANDARD, 2, seed)
        play_first_legal(game, lambda g: g.public_view().round == 3)
        if game.over or game.public_view().match != 1:
            continue
        assert game.public_view().phase is Phase.EXCHANGE
        for p in (RED, BLUE):
            view = game.view(p)
            assert view.deck == (0,) * 6 and sum(view.hand) == 10 and not view.redeal_offered
            assert tuple(h + pl for h, pl in zip(view.hand, view.public.played[p])) == FULL
            if qualifies(view.hand):
                seen_qualifying = True
                with pytest.raises(IllegalAction, match="no re-deal now"):
                    game.check(Redeal(p, True))
    assert seen_qualifying


def test_redeal_repeats_while_the_new_hand_still_qualifies() -> None:
    def redeals_into_another_qualifying_hand(game: Punch) -> bool:
        if RED not in game.to_act() or not game.view(RED).redeal_offered:
            return False
        game.apply(Redeal(RED, True))
        return qualifies(game.view(RED).hand)

    seed = standard_seed(redeals_into_another_qualifying_hand)
    game = Punch(STANDARD, 2, seed)
    game.apply(Redeal(RED, True))
    assert game.view(RED).redeal_offered and RED in game.to_act()
    assert set(game.legal_actions(RED)) == {Redeal(RED, True), Redeal(RED, False)}
    events = game.apply(Redeal(RED, False))
    assert events == (HandKept(RED),)
    assert not game.view(RED).redeal_offered and RED not in game.to_act()


def test_keeping_keeps_the_hand_and_exchanges_start_when_both_have_answered() -> None:
    seed = standard_seed(lambda g: qualifies(g.view(RED).hand) and not qualifies(g.view(BLUE).hand))
    game = Punch(STANDARD, 2, seed)
    hand = game.view(RED).hand
    assert game.to_act() == frozenset({RED, BLUE})
    assert game.apply(Redeal(RED, False)) == (HandKept(RED),)
    assert game.view(RED).hand == hand and not game.view(RED).redeal_offered
    assert game.public_view().phase is Phase.REDEAL and game.to_act() == frozenset({BLUE})
    with pytest.raises(IllegalAction, match="already kept your hand"):
        game.check(Redeal(RED, True))
    assert game.legal_actions(RED) == ()
    assert game.apply(Redeal(BLUE, False)) == (HandKept(BLUE),)
    assert game.public_view().phase is Phase.EXCHANGE and game.to_act() == frozenset({RED, BLUE})


def test_a_hand_without_4_of_a_kind_is_still_asked_and_may_only_keep() -> None:
    seed = standard_seed(lambda g: qualifies(g.view(RED).hand) and not qualifies(g.view(BLUE).hand))
    game = Punch(STANDARD, 2, seed)
    assert BLUE in game.to_act() and not game.view(BLUE).redeal_offered
    assert game.legal_actions(BLUE) == (Redeal(BLUE, False),)
    with pytest.raises(IllegalAction, match="Your hand does not hold 4 of one kind, so you may not re-deal"):
        game.check(Redeal(BLUE, True))
    blue_card = next(c for c, n in zip(CARDS, game.view(BLUE).hand) if n)
    with pytest.raises(IllegalAction, match="re-deal decisions"):
        game.check(PlayCard(BLUE, blue_card))
    game.check(Redeal(BLUE, False))


def test_after_a_redeal_into_an_ordinary_hand_the_redealer_must_still_keep_it() -> None:
    def redeals_into_an_ordinary_hand(game: Punch) -> bool:
        if not game.view(RED).redeal_offered:
            return False
        game.apply(Redeal(RED, True))
        return not qualifies(game.view(RED).hand)

    seed = standard_seed(redeals_into_an_ordinary_hand)
    game = Punch(STANDARD, 2, seed)
    game.apply(Redeal(RED, True))
    assert game.to_act() == frozenset({RED, BLUE}) and not game.view(RED).redeal_offered
    assert game.legal_actions(RED) == (Redeal(RED, False),)
    with pytest.raises(IllegalAction, match="does not hold 4 of one kind"):
        game.check(Redeal(RED, True))
    hand = game.view(RED).hand
    assert game.apply(Redeal(RED, False)) == (HandKept(RED),)
    assert game.view(RED).hand == hand and game.to_act() == frozenset({BLUE})


def test_standard_hands_are_ten_from_the_shuffled_deck_and_decks_differ_by_seed() -> None:
    hands = set()
    for seed in range(20):
        game = Punch(STANDARD, 2, seed)
        for p in (RED, BLUE):
            assert sum(game.view(p).hand) == 10 and sum(game.view(p).deck) == 20
            assert conserved(game, p) == FULL
            hands.add(game.view(p).hand)
        assert of_type(list(game.opening_events), HandDealt) == [
            HandDealt(RED, 1, HandSource.DEALT),
            HandDealt(BLUE, 1, HandSource.DEALT),
        ]
    assert len(hands) > 20


def test_every_match_starts_from_full_decks() -> None:
    game = Punch(STANDARD, 2, 5)
    play_first_legal(game, lambda g: g.public_view().match == 3)
    assert game.public_view().match == 3 and game.public_view().round == 1
    for p in (RED, BLUE):
        assert conserved(game, p) == FULL and sum(game.view(p).deck) == 20


# -- advanced rules: drafting ----------------------------------------------------------------


def all_hands_from(pool: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Brute force: every count vector of 10 cards within ``pool``."""
    return {counts for counts in itertools.product(*(range(n + 1) for n in pool)) if sum(counts) == 10}


def test_round_1_draft_offers_every_ten_card_hand_of_the_full_deck() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    view = game.view(RED)
    assert game.public_view().phase is Phase.DRAFT and view.draft_pool == FULL and view.hand == (0,) * 6
    actions = game.legal_actions(RED)
    assert len(actions) == len(set(actions)) == len(all_hands_from(FULL)) == 2247
    assert {tuple(a.hand.count(c) for c in CARDS) for a in actions} == all_hands_from(FULL)
    for action in actions[::97]:
        game.check(action)


def test_round_2_draft_offers_exactly_the_hands_the_rest_of_the_deck_allows() -> None:
    game = drafted_game("BBBBB DDDDD", "33333 NNNNN")
    play(game, "BBBBBDDDDD", "33333NNNNN")
    assert game.public_view().phase is Phase.DRAFT and game.public_view().round == 2
    pool = game.view(RED).draft_pool
    assert pool == (5, 5, 5, 5, 0, 0)
    hands = {tuple(a.hand.count(c) for c in CARDS) for a in game.legal_actions(RED)}
    assert hands == all_hands_from(pool)
    with pytest.raises(IllegalAction, match="You have only 0 Block left to draft, not 1"):
        game.check(Draft(RED, cards("B111112222")))


def test_a_draft_must_be_exactly_ten_cards() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    with pytest.raises(IllegalAction, match="Draft exactly 10 cards, not 9"):
        game.check(Draft(RED, cards("111112222")))
    with pytest.raises(IllegalAction, match="only 5 Punch 1 left to draft, not 6"):
        game.check(Draft(RED, cards("1111112222")))


def test_a_draft_is_made_once_per_round_in_any_card_order() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    game.apply(Draft(RED, cards("D3N21BD3N2")))
    assert game.view(RED).hand == (1, 2, 2, 2, 1, 2)
    with pytest.raises(IllegalAction, match="already drafted"):
        game.check(Draft(RED, cards("1111122222")))
    with pytest.raises(IllegalAction, match="waiting for drafts"):
        game.check(PlayCard(RED, Card.PUNCH_1))


def test_round_3_plays_the_ten_cards_left_after_two_drafts() -> None:
    game = drafted_game("1111122222", "BBBBBDDDDD")
    play(game, "1111122222", "DDDDDBBBBB")
    game.apply(Draft(RED, hand_with("33333NNNNN")))
    game.apply(Draft(BLUE, hand_with("33333NNNNN", game.view(BLUE).deck)))
    events = play(game, "33333NNNNN", "33333NNNNN")
    assert RoundStarted(3) in events
    assert of_type(events, HandDealt)[-2:] == [
        HandDealt(RED, 3, HandSource.LAST_TEN),
        HandDealt(BLUE, 3, HandSource.LAST_TEN),
    ]
    assert game.view(RED).hand == (0, 0, 0, 0, 5, 5) and game.view(BLUE).hand == (5, 5, 0, 0, 0, 0)
    assert game.public_view().phase is Phase.EXCHANGE and game.view(RED).draft_pool is None


def test_drafted_hands_are_announced_once_both_have_drafted() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    first = game.apply(Draft(BLUE, cards("1111122222")))
    assert [type(e).__name__ for e in first] == ["DraftChosen"]
    assert game.public_view().locked == (False, True) and game.to_act() == frozenset({RED})
    second = game.apply(Draft(RED, cards_of(FULL)[:10]))
    assert of_type(list(second), HandDealt) == [
        HandDealt(RED, 1, HandSource.DRAFTED),
        HandDealt(BLUE, 1, HandSource.DRAFTED),
    ]
    assert game.public_view().phase is Phase.EXCHANGE
