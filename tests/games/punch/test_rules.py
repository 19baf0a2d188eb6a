"""Punch! card interactions, stamina, breaks, knockouts and match/game results.

Each FAQ question of the rulebook is its own test (``test_faq_*``) with the stated answer.
"""

from __future__ import annotations

import pytest

from games.protocol import Outcome
from games.punch import (
    Break,
    Card,
    CardsRevealed,
    Cause,
    GameEnded,
    GameEndReason,
    Knockout,
    MatchEnded,
    MatchEndReason,
    MatchStarted,
    Phase,
    RoundEnded,
    RoundStarted,
    StaminaChanged,
)
from games.punch.clash import STANDARD_CLASHES, clash
from tests.games.punch.support import (
    BLUE,
    CODES,
    RED,
    draft,
    drafted_game,
    exchange,
    hand_codes,
    of_type,
    play,
)

# Red's card (row) against Blue's card (column): (Red's change, Blue's change), both
# boxers starting below 10 so that Do Nothing's gain shows.
INTERACTIONS = {
    "1": {"1": (0, 0), "2": (-1, 0), "3": (-2, 0), "N": (0, -1), "B": (0, 0), "D": (-1, 0)},
    "2": {"1": (0, -1), "2": (0, 0), "3": (-1, 0), "N": (0, -2), "B": (0, 0), "D": (-2, 0)},
    "3": {"1": (0, -2), "2": (0, -1), "3": (0, 0), "N": (0, -3), "B": (0, 0), "D": (-3, 0)},
    "N": {"1": (-1, 0), "2": (-2, 0), "3": (-3, 0), "N": (1, 1), "B": (1, 0), "D": (1, 0)},
    "B": {"1": (0, 0), "2": (0, 0), "3": (0, 0), "N": (0, 1), "B": (0, 0), "D": (0, 0)},
    "D": {"1": (0, -1), "2": (0, -2), "3": (0, -3), "N": (0, 1), "B": (0, 0), "D": (0, 0)},
}
PAIRS = [(r, b) for r in INTERACTIONS for b in INTERACTIONS[r]]


def stamina_after(red: str, blue: str, **options: bool) -> tuple[int, int]:
    """Both boxers brought to 7 (a 3 Punch each into Do Nothing), then ``red`` vs ``blue``."""
    game = drafted_game("3N" + red, "N3" + blue, **options)
    play(game, "3N", "N3")
    assert game.public_view().stamina == (7, 7)
    exchange(game, red, blue)
    return game.public_view().stamina


@pytest.mark.parametrize(("red", "blue"), PAIRS, ids=[f"{r}v{b}" for r, b in PAIRS])
def test_every_pairing_changes_stamina_as_the_table_says(red: str, blue: str) -> None:
    red_delta, blue_delta = INTERACTIONS[red][blue]
    assert stamina_after(red, blue) == (7 + red_delta, 7 + blue_delta)


def test_the_precomputed_table_is_the_rules_function_and_covers_36_pairings() -> None:
    assert len(STANDARD_CLASHES) == 36
    for (a, b), effects in STANDARD_CLASHES.items():
        assert effects == clash((a, b), (a.punch, b.punch))
    for red, blue in PAIRS:
        effects = STANDARD_CLASHES[CODES[red], CODES[blue]]
        changes = [0, 0]
        for seat, amount, _cause in effects:
            changes[seat] += amount
        assert tuple(changes) == INTERACTIONS[red][blue]


def test_stamina_changes_name_their_cause() -> None:
    game = drafted_game("3N1B", "D3NN")
    events = play(game, "3N1B", "D3NN")
    causes = [(e.player, e.delta, e.cause) for e in of_type(events, StaminaChanged)]
    assert causes == [(RED, -3, Cause.PUNCHED_BACK), (RED, -3, Cause.HIT), (BLUE, -1, Cause.HIT), (BLUE, 1, Cause.REST)]


def test_only_one_boxer_loses_stamina_in_any_exchange() -> None:
    for red, blue in PAIRS:
        losers = [seat for seat, amount, _ in STANDARD_CLASHES[CODES[red], CODES[blue]] if amount < 0]
        assert len(losers) <= 1


# -- the rulebook's FAQ ----------------------------------------------------------------


def test_faq_do_nothing_against_block_gains_one() -> None:
    assert stamina_after("N", "B") == (8, 7)


def test_faq_do_nothing_against_dodge_gains_one() -> None:
    assert stamina_after("N", "D") == (8, 7)


def test_faq_blue_3_punch_into_red_dodge_costs_blue_3_and_red_nothing() -> None:
    game = drafted_game("D", "3")
    events = exchange(game, "D", "3")
    assert game.public_view().stamina == (10, 7)
    assert of_type(events, StaminaChanged) == [StaminaChanged(BLUE, -3, 7, Cause.PUNCHED_BACK)]


@pytest.mark.parametrize("value", ["1", "2", "3"])
def test_faq_equal_punches_cancel(value: str) -> None:
    game = drafted_game(value, value)
    events = exchange(game, value, value)
    assert game.public_view().stamina == (10, 10)
    assert not of_type(events, StaminaChanged)


def test_faq_blue_3_punch_against_red_1_punch_hits_red_for_2() -> None:
    game = drafted_game("1", "3")
    exchange(game, "1", "3")
    assert game.public_view().stamina == (8, 10)


def test_faq_no_mercy_blue_at_2_with_a_3_punch_against_red_1_punch_hits_red_for_1() -> None:
    game = drafted_game("33 2 1", "NN N 3", no_mercy=True)
    play(game, "332", "NNN")
    assert game.public_view().stamina == (10, 2)
    events = exchange(game, "1", "3")
    assert game.public_view().stamina == (9, 2)
    assert of_type(events, StaminaChanged) == [StaminaChanged(RED, -1, 9, Cause.HIT)]


def test_faq_do_nothing_at_1_stamina_against_a_1_punch_is_a_knockout_ending_the_match() -> None:
    game = drafted_game("3331", "NNNN")
    play(game, "333", "NNN")
    assert game.public_view().stamina == (10, 1)
    events = exchange(game, "1", "N")
    assert events[2:6] == [
        CardsRevealed((Card.PUNCH_1, Card.DO_NOTHING)),
        StaminaChanged(BLUE, -1, 0, Cause.HIT),
        Knockout(BLUE),
        MatchEnded(RED, MatchEndReason.KNOCKOUT, (10, 0), (1, 0)),
    ]
    assert events[6] == MatchStarted(2, replay=False)
    view = game.public_view()
    assert (view.match, view.round, view.exchange, view.stamina, view.match_wins) == (2, 1, 1, (10, 10), (1, 0))


def test_faq_9_stamina_after_round_1_gains_only_1_in_the_break() -> None:
    game = drafted_game("1BBBBBDDDD", "NBBBBDDDDD")
    events = play(game, "1BBBBBDDDD", "NBBBBDDDDD")
    assert of_type(events, Break) == [Break(after_round=1, rest=3, gains=(0, 1))]
    assert of_type(events, StaminaChanged)[-1] == StaminaChanged(BLUE, 1, 10, Cause.BREAK)
    assert game.public_view().stamina == (10, 10)


def test_faq_both_block_nothing_happens() -> None:
    assert stamina_after("B", "B") == (7, 7)


def test_faq_both_dodge_nothing_happens() -> None:
    assert stamina_after("D", "D") == (7, 7)


# The FAQ's re-deal question (five 3 Punches in round 1) is in test_hands.py.

# -- stamina limits, No Mercy ------------------------------------------------------------


def test_do_nothing_cannot_raise_stamina_above_10() -> None:
    game = drafted_game("N", "N")
    events = exchange(game, "N", "N")
    assert game.public_view().stamina == (10, 10)
    assert not of_type(events, StaminaChanged)


def test_damage_beyond_stamina_stops_at_0() -> None:
    game = drafted_game("3333", "NNNN")
    events = play(game, "3333", "NNNN")
    assert of_type(events, StaminaChanged)[-1] == StaminaChanged(BLUE, -1, 0, Cause.HIT)


def test_no_mercy_caps_a_punch_at_the_punchers_stamina() -> None:
    game = drafted_game("333 N", "NNN 3", no_mercy=True)
    play(game, "333", "NNN")
    assert game.public_view().stamina == (10, 1)
    exchange(game, "N", "3")
    assert game.public_view().stamina == (9, 1)


def test_no_mercy_dodge_reflects_the_capped_punch() -> None:
    game = drafted_game("33 D", "NN 3", no_mercy=True)
    play(game, "33", "NN")
    assert game.public_view().stamina == (10, 4)
    exchange(game, "D", "3")
    assert game.public_view().stamina == (10, 1)
    game = drafted_game("333 D", "NNN 3", no_mercy=True)
    play(game, "333", "NNN")
    events = exchange(game, "D", "3")
    assert of_type(events, StaminaChanged) == [StaminaChanged(BLUE, -1, 0, Cause.PUNCHED_BACK)]
    assert of_type(events, Knockout) == [Knockout(BLUE)]


def test_without_no_mercy_a_weak_boxer_still_punches_full_value() -> None:
    game = drafted_game("333 N", "NNN 3")
    play(game, "333", "NNN")
    exchange(game, "N", "3")
    assert game.public_view().stamina == (7, 1)


# -- rounds, breaks, results ---------------------------------------------------------------


def play_match(game, red_hands: list[str], blue_hands: list[str]) -> list:
    """Draft rounds 1 and 2 exactly as given (game already past round 1's draft when
    ``drafted_game`` made it), play each round's string in order; round 3's strings must be
    the cards left."""
    events = []
    for number, (red, blue) in enumerate(zip(red_hands, blue_hands), start=1):
        if number == 2:
            events += draft(game, red, blue)
        assert sorted(hand_codes(game, RED)) == sorted(red) and sorted(hand_codes(game, BLUE)) == sorted(blue)
        events += play(game, red, blue)
    return events


def test_breaks_give_3_after_round_1_and_2_after_round_2_and_none_after_round_3() -> None:
    red = ["33BBBBBDDD", "333DDNNNNN", "1111122222"]
    blue = ["NNBBBBBDDD", "33333NNNDD", "1111122222"]
    game = drafted_game(red[0], blue[0])
    events = play_match(game, red, blue)
    assert of_type(events, Break) == [Break(1, 3, (0, 3)), Break(2, 2, (0, 2))]
    assert [e for e in of_type(events, StaminaChanged) if e.cause is Cause.BREAK] == [
        StaminaChanged(BLUE, 3, 7, Cause.BREAK),
        StaminaChanged(BLUE, 2, 6, Cause.BREAK),
    ]
    assert of_type(events, RoundEnded) == [RoundEnded(1), RoundEnded(2), RoundEnded(3)]
    assert events.index(RoundEnded(3)) == len(events) - 4  # then MatchEnded, MatchStarted, RoundStarted
    assert of_type(events, MatchEnded) == [MatchEnded(RED, MatchEndReason.STAMINA, (10, 6), (1, 0))]


def test_a_knockout_ends_the_match_at_once_without_round_end_or_break() -> None:
    game = drafted_game("3333", "NNNN")
    events = play(game, "3333", "NNNN")
    assert not of_type(events, RoundEnded) and not of_type(events, Break)
    assert of_type(events, MatchEnded) == [MatchEnded(RED, MatchEndReason.KNOCKOUT, (10, 0), (1, 0))]
    view = game.public_view()
    assert view.phase is Phase.DRAFT and view.match == 2
    assert game.view(RED).draft_pool == (5, 5, 5, 5, 5, 5) == game.view(BLUE).draft_pool


def test_the_boxer_with_more_stamina_after_round_3_wins_the_match() -> None:
    red = ["BBBBBDDDDD", "3333322222", "NNNNN11111"]
    blue = ["BBBBBDDDDD", "3333311111", "NNNNN22222"]
    game = drafted_game(red[0], blue[0])
    events = play_match(game, red, blue)
    assert of_type(events, MatchEnded) == [MatchEnded(BLUE, MatchEndReason.STAMINA, (5, 10), (0, 1))]
    assert game.public_view().match_wins == (0, 1)


def test_a_tie_on_stamina_replays_the_match_with_fresh_decks_and_wins_unchanged() -> None:
    same = ["1111122222", "3333NNNNNB", "BBBBDDDDD3"]
    game = drafted_game(same[0], same[0])
    events = play_match(game, same, same)
    assert of_type(events, MatchEnded) == [MatchEnded(None, MatchEndReason.TIE, (10, 10), (0, 0))]
    assert of_type(events, MatchStarted)[-1] == MatchStarted(2, replay=True)
    view = game.public_view()
    assert (view.match, view.round, view.phase, view.match_wins, view.stamina) == (2, 1, Phase.DRAFT, (0, 0), (10, 10))
    assert game.view(RED).deck == (5, 5, 5, 5, 5, 5) and view.played == ((0,) * 6, (0,) * 6)
    assert game.outcome() is None


def _knock_out_blue(game) -> list:
    draft(game, "3333", "NNNN")
    return play(game, "3333", "NNNN")


def test_the_first_to_win_3_matches_wins_the_game() -> None:
    game = drafted_game("3333", "NNNN")
    play(game, "3333", "NNNN")
    _knock_out_blue(game)
    assert game.outcome() is None and game.public_view().match_wins == (2, 0)
    events = _knock_out_blue(game)
    assert events[-2:] == [MatchEnded(RED, MatchEndReason.KNOCKOUT, (10, 0), (3, 0)), GameEnded(RED)]
    assert game.outcome() == Outcome(RED, GameEndReason.MATCH_WINS, (3, 0))
    view = game.public_view()
    assert view.phase is Phase.OVER and view.winner == RED
    assert game.to_act() == frozenset() and game.legal_actions(RED) == () == game.legal_actions(BLUE)


def test_matches_to_win_option_shortens_the_game() -> None:
    game = drafted_game("3333", "NNNN", matches_to_win=1)
    events = play(game, "3333", "NNNN")
    assert events[-1] == GameEnded(RED) and game.over


def test_each_exchange_and_round_is_numbered() -> None:
    game = drafted_game("", "")
    assert (game.public_view().round, game.public_view().exchange) == (1, 1)
    events = play(game, "BBBBBDDDDD", "BBBBBDDDDD")
    assert events[-1] == RoundStarted(2)
    assert (game.public_view().round, game.public_view().exchange) == (2, 1)
