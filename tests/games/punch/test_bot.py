"""The computer boxer: always legal, deterministic by seed, and sensible."""

from __future__ import annotations

import pytest

from games.bots import RandomBot
from games.punch import Card, Draft, Phase, PlayCard, Punch, PunchOptions, Redeal, Rules
from games.punch.bot import PunchBot
from tests.games.punch.support import BLUE, RED, drafted_game, play

VARIANTS = [PunchOptions(), PunchOptions(rules=Rules.ADVANCED, no_mercy=True)]


def bot_game(options: PunchOptions, seed: int) -> Punch:
    game = Punch(options, 2, seed)
    bots = (PunchBot(seed), RandomBot(seed))
    while not game.over:
        for player in sorted(game.to_act()):
            game.apply(bots[player].choose(game, player))  # apply checks legality
    return game


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=["standard", "advanced_no_mercy"])
def test_the_bot_plays_whole_games_legally_and_the_same_way_for_a_seed(options: PunchOptions) -> None:
    for seed in range(5):
        game = bot_game(options, seed)
        assert game.over and game.journal == bot_game(options, seed).journal


def test_the_bot_throws_its_biggest_punch_when_one_punch_can_knock_out() -> None:
    game = drafted_game("333 12 BBBDD", "NNN 11")
    play(game, "333", "NNN")
    assert game.public_view().stamina == (10, 1)
    assert PunchBot(0).choose(game, RED) == PlayCard(RED, Card.PUNCH_2)


def test_the_bot_does_not_rest_at_full_stamina() -> None:
    game = drafted_game("NNNNN BBBBB", "")
    assert all(PunchBot(seed).choose(game, RED) == PlayCard(RED, Card.BLOCK) for seed in range(20))


def test_the_bot_drafts_a_balanced_hand_from_what_is_left() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    action = PunchBot(0).choose(game, BLUE)
    assert isinstance(action, Draft) and len(action.hand) == 10
    assert max(action.hand.count(card) for card in action.hand) == 2
    game.check(action)


def test_the_bot_takes_every_redeal_keeps_other_hands_and_refuses_to_act_out_of_turn() -> None:
    def lopsided(view_hand: tuple[int, ...]) -> bool:
        return max(view_hand) >= 4

    game = next(
        g
        for g in (Punch(PunchOptions(), 2, s) for s in range(1000))
        if lopsided(g.view(RED).hand) and not lopsided(g.view(BLUE).hand)
    )
    assert game.public_view().phase is Phase.REDEAL
    assert PunchBot(0).choose(game, RED) == Redeal(RED, True)
    assert PunchBot(0).choose(game, BLUE) == Redeal(BLUE, False)
    game.apply(Redeal(BLUE, False))
    with pytest.raises(ValueError, match="nothing to do"):
        PunchBot(0).choose(game, BLUE)
