"""The end of a round, the 10-point must system, the Fight Energy lost between rounds and
going the distance."""

from __future__ import annotations

import pytest

from games.big_time_boxing import (
    BigTimeBoxing,
    BigTimeBoxingOptions,
    Defend,
    EnergyCause,
    EnergyChanged,
    Feature,
    FightEnded,
    Finish,
    MoveAway,
    Phase,
    Punch,
    RoundScored,
    Throw,
)
from games.big_time_boxing.scoring import decision, round_scores
from tests.games.big_time_boxing.helpers import boxer, boxers, idle, of_type, one, play, set_hand, stacked, turn_of


# -- the 10-point must system ----------------------------------------------------------
@pytest.mark.parametrize(
    ("totals", "knockdowns", "fouls", "scores"),
    [
        ((14, 13), (0, 0), (0, 0), (10, 9)),
        ((13, 14), (0, 0), (0, 0), (9, 10)),
        ((7, 7), (0, 0), (0, 0), (10, 10)),
        ((20, 8), (0, 0), (0, 0), (10, 8)),  # lost by 12: 10-8
        ((19, 8), (0, 0), (0, 0), (10, 9)),  # by 11: 10-9
        ((20, 8), (0, 1), (0, 0), (10, 8)),  # by 12 but knocked down: 10-9, then the knockdown point
        ((20, 8), (0, 2), (0, 0), (10, 7)),
        ((14, 13), (1, 0), (0, 0), (10, 10)),  # the rulebook's 9-9 adjusted to 10-10
        ((14, 13), (2, 0), (0, 0), (9, 10)),  # two knockdowns cost the round
        ((7, 7), (1, 1), (0, 0), (10, 10)),
        ((7, 7), (1, 0), (0, 0), (9, 10)),
        ((14, 13), (0, 0), (1, 0), (9, 9)),  # a foul: no must adjustment
        ((14, 13), (0, 0), (0, 2), (10, 7)),
        ((14, 13), (1, 0), (0, 1), (10, 9)),
    ],
)
def test_round_scores(
    totals: tuple[int, int], knockdowns: tuple[int, int], fouls: tuple[int, int], scores: tuple[int, int]
) -> None:
    assert round_scores(totals, knockdowns, fouls) == scores


def test_a_round_is_scored_on_judge_points_plus_damage_caused_with_knockdowns_and_fouls_of_that_round() -> None:
    e = stacked()
    e.boxers[0].judge_points, e.boxers[1].damage = 2, 9
    e.boxers[1].judge_points, e.boxers[0].damage = 0, 3
    e.boxers[0].round_fouls = 1
    e.boxers[1].round_knockdowns = 1
    events = idle(e, lambda e: e.round == 2)
    scored = one(events, RoundScored)
    assert scored.scores == round_scores(scored.totals, (0, 1), (1, 0))
    assert (
        e.boxers[0].round_fouls == 0 and e.boxers[1].round_knockdowns == 0
    )  # foul tiles go back; knockdowns stay on record
    assert e.public_view().boxers[0].round_scores == (scored.scores[0],)
    assert (scored.knockdowns, scored.fouls) == ((0, 1), (1, 0))  # the score sheet's line of the round
    assert e.public_view().scorecard == (scored,)


# -- when a round ends -------------------------------------------------------------------
def test_the_round_ends_when_a_boxer_with_an_empty_deck_plays_his_last_card() -> None:
    e = stacked()
    set_hand(e, 1, boxers(Punch.JAB, Feature.JUDGE_POINT, n=2), deck=[])
    play(e, MoveAway(0, e.boxers[0].hand[0]))
    play(e, MoveAway(1, e.boxers[1].hand[0]))
    assert e.round == 1
    play(e, MoveAway(0, e.boxers[0].hand[0]))
    events = play(e, MoveAway(1, e.boxers[1].hand[0]))
    assert of_type(events, RoundScored) and e.round == 2


def test_the_round_ends_when_a_boxer_has_no_card_at_all_on_his_turn() -> None:
    jab = boxer(Punch.JAB, Feature.JUDGE_POINT)
    jc = boxer(Punch.JAB, Feature.JC_DEFENSE)
    e = stacked(hand0=[jab])
    set_hand(e, 1, [jc], deck=[])
    play(e, Throw(0, jab))
    events = play(e, Defend(1, jc))  # his last card: nothing left when his turn comes
    assert one(events, RoundScored).round == 1 and e.round == 2


def test_a_boxer_whose_hand_was_emptied_by_defending_draws_back_to_four_if_his_deck_has_cards() -> None:
    jc = boxers(feature=Feature.JC_DEFENSE, n=1)
    jab = boxer(Punch.JAB, Feature.JUDGE_POINT)
    e = stacked(hand0=[jab])
    set_hand(e, 1, jc)
    assert e.boxers[1].deck
    play(e, Throw(0, jab), Defend(1, jc[0]))
    assert e.round == 1 and e.phase is Phase.TURN and e.active == 1 and len(e.boxers[1].hand) == 4


# -- between rounds and at the end -------------------------------------------------------
def test_fight_energy_drops_by_one_after_each_round_but_the_last() -> None:
    e = stacked(rounds=4)
    events = idle(e, lambda e: e.over)
    drops = [ev for ev in of_type(events, EnergyChanged) if ev.cause is EnergyCause.END_OF_ROUND]
    assert len(drops) == 2 * 3
    assert [b.fight_energy for b in e.boxers] == [12 - 3, 12 - 3]


def test_fight_energy_at_0_after_a_round_is_a_tko_and_both_at_once_goes_to_the_scorecards() -> None:
    e = stacked(rounds=6)
    e.boxers[1].fight_energy = 1
    events = idle(e, lambda e: e.over)
    assert one(events, FightEnded).finish is Finish.TKO_EXHAUSTION and e.winner == 0
    e = stacked(rounds=6)
    e.boxers[0].fight_energy = e.boxers[1].fight_energy = 1
    e.boxers[0].judge_points = 5
    events = idle(e, lambda e: e.over)
    assert one(events, FightEnded) == FightEnded(0, Finish.TECHNICAL_DECISION, (10, 9))


def test_going_the_distance_the_higher_total_of_round_scores_wins_and_equal_totals_are_a_draw() -> None:
    assert decision((38, 37), False, (0, 0), (0, 0)) == (0, Finish.DECISION)
    assert decision((37, 38), False, (3, 0), (0, 0)) == (1, Finish.DECISION)
    assert decision((38, 38), False, (1, 0), (0, 0)) == (None, Finish.DRAW)
    e = stacked(rounds=4)
    e.boxers[1].judge_points = 1  # Bob takes round 1; the rest are moved-away 10-10s or so
    events = idle(e, lambda e: e.over)
    ended = one(events, FightEnded)
    cards = tuple(sum(b.round_scores) for b in e.boxers)
    assert ended.cards == cards and e.outcome() is not None
    assert ended.finish in (Finish.DECISION, Finish.DRAW) and len(e.boxers[0].round_scores) == 4
    expected = None if cards[0] == cards[1] else (0 if cards[0] > cards[1] else 1)
    assert ended.winner == expected


def test_sketchy_judges_break_a_tie_on_knockdowns_caused_then_injuries_caused() -> None:
    assert decision((38, 38), True, (1, 0), (0, 3)) == (0, Finish.SKETCHY_DECISION)
    assert decision((38, 38), True, (1, 1), (0, 3)) == (1, Finish.SKETCHY_DECISION)
    assert decision((38, 38), True, (1, 1), (2, 2)) == (None, Finish.DRAW)


def test_sketchy_judges_in_a_fight() -> None:
    for sketchy, finish, winner in ((True, Finish.SKETCHY_DECISION, 1), (False, Finish.DRAW, None)):
        e = BigTimeBoxing(BigTimeBoxingOptions(sketchy_judges=sketchy, first_player=0), 2, seed=9)
        idle(e, lambda e: e.round == 4)
        for b in e.boxers:  # level on the cards, and the last round even
            b.round_scores, b.judge_points, b.damage = [10, 10, 10], 0, 0
        e.boxers[1].injuries_caused = 1
        events: list = []
        e._end_round(events)
        assert one(events, FightEnded) == FightEnded(winner, finish, (40, 40))


def test_the_active_boxer_alternates_and_a_window_answer_returns_play_to_the_turn_order() -> None:
    e = stacked()
    seen = []
    for _ in range(4):
        seen.append(e.active)
        idle(e, turn_of(1 - e.active))
    assert seen == [0, 1, 0, 1]
