"""A duel: the challenge answer, stakes, secret corners and calls, the reveal, replays, and
the winner taking the loser's staked card; replay from the record."""

from __future__ import annotations

import pytest

from games.protocol import IllegalAction
from games.punch_cards import (
    Answer,
    Call,
    CallIt,
    Card,
    ChallengeAnswered,
    Corner,
    DuelEnd,
    DuelOptions,
    DuelWon,
    Locked,
    Phase,
    PickCorner,
    PlayAgain,
    PunchCardsDuel,
    Revealed,
    Stake,
    StakesShown,
    packet,
)
from tests.games.playout import assert_replays, random_playout

TL, TR, BL, BR = Corner.TOP_LEFT, Corner.TOP_RIGHT, Corner.BOTTOM_LEFT, Corner.BOTTOM_RIGHT
H, L, B = Call.HIGH, Call.LOW, Call.BOTH
ANN = Card(1, "Ann", ((10, 90), (5, 80, 81), (1, 40, 60), (2, 3, 4, 5)))
BO = Card(2, "Bo", ((5, 80), (40, 60), (11, 12), (97, 98, 99)))
BO_OWN_ANN = Card(3, "Ann", ((20, 30), (21, 31), (22, 32), (23, 33)))


def duel(may_refuse: bool = False) -> PunchCardsDuel:
    return PunchCardsDuel(DuelOptions(((ANN,), (BO, BO_OWN_ANN)), may_refuse), 2, 0)


def staked(game: PunchCardsDuel, a: int = 1, b: int = 2) -> PunchCardsDuel:
    game.apply(Stake(0, a))
    game.apply(Stake(1, b))
    return game


def reveal(game: PunchCardsDuel, corners: tuple[Corner, Corner], calls: tuple[Call, Call]):
    game.apply(PickCorner(0, corners[0]))
    game.apply(PickCorner(1, corners[1]))
    game.apply(CallIt(0, calls[0]))
    return game.apply(CallIt(1, calls[1]))


def test_a_duel_from_stakes_to_the_winner_taking_the_losers_card() -> None:
    game = duel()
    assert game.to_act() == {0, 1} and game.public_view().phase is Phase.STAKE
    assert game.apply(Stake(0, 1)) == (Locked(0),)
    assert game.public_view().stakes is None  # a stake stays secret until both staked
    assert game.apply(Stake(1, 2)) == (Locked(1), StakesShown((1, 2), ("Ann", "Bo")))
    assert game.public_view().phase is Phase.CORNER
    events = reveal(game, (TL, TL), (H, H))  # (10, 90) v (5, 80): Ann's 90 wins High
    revealed = events[1]
    assert isinstance(revealed, Revealed)
    assert revealed.numbers == ((10, 90), (5, 80)) and revealed.winner == 0 and revealed.high == 0
    assert events[2] == DuelWon(0, DuelEnd.HIGH, 2)
    assert game.over and game.outcome().winner == 0 and game.outcome().how is DuelEnd.HIGH
    assert game.taken == BO
    assert game.to_act() == frozenset()


def test_high_against_low_is_played_again_with_new_corners_and_calls_same_stakes() -> None:
    game = staked(duel())
    events = reveal(game, (TL, TL), (H, L))
    assert events[-1].again is PlayAgain.HIGH_AGAINST_LOW and not game.over
    view = game.public_view()
    assert view.phase is Phase.CORNER and view.play == 2 and view.stakes == (1, 2)
    assert game.view(0).corner is None and game.view(0).call is None
    events = reveal(game, (TR, TL), (L, L))  # (5, 80, 81) v (5, 80): 5=5, 80=80, Bo runs out
    assert events[-1].again is PlayAgain.FULL_TIE and game.public_view().play == 3
    events = reveal(game, (BL, BL), (B, H))  # (1, 40, 60) v (11, 12): Ann wins High and Low
    assert events[-1] == DuelWon(0, DuelEnd.BOTH, 2)


def test_a_failed_both_call_loses_the_card() -> None:
    game = staked(duel())
    events = reveal(game, (TL, BR), (B, H))  # Ann (10, 90) v Bo (97, 98, 99): Bo wins High
    assert events[-1] == DuelWon(1, DuelEnd.BOTH_FAILED, 1)
    assert game.taken == ANN


def test_choices_are_secret_until_both_have_chosen() -> None:
    game = staked(duel())
    game.apply(PickCorner(0, BR))
    assert game.view(0).corner is BR
    assert game.view(1).corner is None and game.public_view().locked == (True, False)
    assert game.public_view().last_reveal is None
    game.apply(PickCorner(1, TL))
    game.apply(CallIt(1, L))
    assert game.view(0).call is None and game.view(1).call is L
    # Seat 0 never sees seat 1's collection's numbers: only its own cards are in its view.
    assert game.view(0).collection == (ANN,) and game.view(1).collection == (BO, BO_OWN_ANN)


def test_the_first_challenge_cannot_be_refused() -> None:
    game = duel(may_refuse=False)
    assert game.public_view().phase is Phase.STAKE
    with pytest.raises(IllegalAction):
        game.apply(Answer(1, False))


def test_a_later_challenge_may_be_refused_and_moves_nothing() -> None:
    game = duel(may_refuse=True)
    assert game.to_act() == {1} and game.view(1).may_refuse and not game.view(0).may_refuse
    with pytest.raises(IllegalAction, match="only the challenged"):
        game.apply(Answer(0, False))
    with pytest.raises(IllegalAction, match="answer the challenge"):
        game.apply(Stake(1, 2))
    assert game.apply(Answer(1, False)) == (ChallengeAnswered(False),)
    assert game.outcome().winner is None and game.outcome().how is DuelEnd.REFUSED and game.taken is None


def test_an_accepted_challenge_goes_on_to_the_stakes() -> None:
    game = duel(may_refuse=True)
    game.apply(Answer(1, True))
    assert game.to_act() == {0, 1} and game.public_view().phase is Phase.STAKE


def test_illegal_choices_are_refused_saying_why_and_change_nothing() -> None:
    game = duel()
    before = game.to_json()
    with pytest.raises(IllegalAction, match="not in your collection"):
        game.apply(Stake(0, 2))
    with pytest.raises(IllegalAction, match="stake a card"):
        game.apply(PickCorner(0, TL))
    game.apply(Stake(0, 1))
    with pytest.raises(IllegalAction, match="already chosen"):
        game.apply(Stake(0, 1))
    with pytest.raises(IllegalAction, match="seats 0 and 1"):
        game.apply(Stake(2, 2))
    assert game.journal == [Stake(0, 1)] and before != game.to_json()


def test_a_duel_replays_from_its_record() -> None:
    game = staked(duel(), 1, 3)
    reveal(game, (TL, TL), (H, L))
    reveal(game, (BR, TR), (L, L))
    again = PunchCardsDuel.from_json(game.to_json())
    assert again.public_view() == game.public_view() and again.outcome() == game.outcome()
    assert again.collections == game.collections


def test_collections_that_cannot_be_one_events_are_refused() -> None:
    with pytest.raises(ValueError, match="one event"):
        PunchCardsDuel(DuelOptions(((ANN,), (ANN,))), 2, 0)
    with pytest.raises(ValueError, match="two collections"):
        PunchCardsDuel(DuelOptions(((ANN,), ())), 2, 0)


def test_an_exhibition_duel_deals_each_seat_a_packet_from_the_seed() -> None:
    game = PunchCardsDuel(DuelOptions(), 2, 9)
    assert game.collections == (packet(9, 0, "Red"), packet(9, 5, "Blue"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_random_duels_end_with_a_card_taken_and_replay(seed: int) -> None:
    game = random_playout(PunchCardsDuel(DuelOptions(may_refuse=seed % 2 == 1), 2, seed), bot_seed=seed)
    outcome = game.outcome()
    if outcome.how is DuelEnd.REFUSED:
        assert game.taken is None
    else:
        assert game.taken is not None and game.taken in game.collections[1 - outcome.winner]
    assert_replays(game)
