"""Setting up the fight and the rounds: the chart, the deal, the set-aside cards, the
reshuffles and who goes first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.big_time_boxing import (
    FIGHT_LENGTHS,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    Phase,
    Position,
    ResultDeckShuffled,
    RoundStarted,
    ShuffleReason,
)
from tests.games.big_time_boxing.helpers import idle, of_type, stacked


@pytest.mark.parametrize(
    ("rounds", "energy", "health", "dice"),
    [
        (12, 24, 36, (12, 12, 12)),
        (10, 21, 30, (12, 12, 6)),
        (8, 18, 24, (12, 12)),
        (6, 15, 18, (12, 6)),
        (4, 12, 12, (12,)),
    ],
)
def test_the_chart_sets_fight_energy_round_energy_and_health_by_fight_length(
    rounds: int, energy: int, health: int, dice: tuple[int, ...]
) -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(rounds=rounds), 2, seed=1)
    for status in e.public_view().boxers:
        assert (status.fight_energy, status.round_energy, status.health) == (energy, energy, health)
        assert status.health_dice == dice and status.damage == 0 and status.judge_points == 0
    assert FIGHT_LENGTHS[rounds] == (energy, health)


@pytest.mark.parametrize("rounds", [0, 3, 5, 11, 15])
def test_only_4_6_8_10_or_12_rounds(rounds: int) -> None:
    with pytest.raises(ValueError, match="rounds must be one of 4, 6, 8, 10, 12"):
        BigTimeBoxingOptions(rounds=rounds)


def test_a_prearranged_order_must_name_every_card_once() -> None:
    with pytest.raises(ValueError, match=r"boxer_order must name every card id 0\.\.47 once"):
        BigTimeBoxingOptions(boxer_order=tuple(range(47)))
    with pytest.raises(ValueError, match=r"result_order must name every card id 0\.\.29 once"):
        BigTimeBoxingOptions(result_order=(0,) * 30)


@pytest.mark.parametrize("answer_us", [0, -1, 2.5, True])
def test_a_window_lasts_a_positive_whole_number_of_microseconds(answer_us: object) -> None:
    with pytest.raises(ValueError, match="answer_us must be a positive number of µs"):
        BigTimeBoxingOptions(answer_us=answer_us)  # type: ignore[arg-type]


def test_the_window_length_is_kept_with_the_fight_and_changes_no_rule() -> None:
    """The cabinet times windows; the fight's record carries the length (a resumed fight
    keeps it) and the same seed plays the same fight whatever the length."""
    slow = BigTimeBoxing(BigTimeBoxingOptions(answer_us=8_000_000), 2, seed=5)
    assert BigTimeBoxing.from_json(slow.to_json()).options.answer_us == 8_000_000
    quick = BigTimeBoxing(BigTimeBoxingOptions(answer_us=3_000_000), 2, seed=5)
    assert replace(quick.public_view(), options=slow.options) == slow.public_view()


def test_twelve_cards_each_four_in_hand_eight_in_the_draw_deck_and_24_set_aside() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(), 2, seed=2)
    for boxer in e.boxers:
        assert len(boxer.hand) == 4 and len(boxer.deck) == 8
    assert e.public_view().set_aside == 24
    assert all(b.position is Position.OUTSIDE for b in e.boxers)


def test_the_set_aside_cards_are_dealt_after_an_odd_round_and_everything_is_reshuffled_after_an_even_one() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(rounds=6), 2, seed=4)
    aside = set(e.aside[0])
    events = idle(e, lambda e: e.round == 2)
    assert one_round_start(events) == RoundStarted(2, 1 - e.odd_round_first, reshuffled=False)
    dealt = {c for b in e.boxers for c in b.hand + b.deck}
    assert dealt == aside and e.public_view().set_aside == 0
    assert not of_type(events, ResultDeckShuffled) or all(
        s.reason is ShuffleReason.EMPTY for s in of_type(events, ResultDeckShuffled)
    )
    events = idle(e, lambda e: e.round == 3)
    assert one_round_start(events).reshuffled
    assert ResultDeckShuffled(ShuffleReason.NEW_ROUND) in events
    assert e.result_discard == [] and len(e.results) == 30
    assert len(e.discard) == 0 and e.public_view().set_aside == 24


def one_round_start(events: list) -> RoundStarted:
    (start,) = of_type(events, RoundStarted)
    return start


def test_the_first_player_of_odd_rounds_is_random_and_the_other_boxer_goes_first_in_even_rounds() -> None:
    firsts = {BigTimeBoxing(BigTimeBoxingOptions(), 2, seed=s).odd_round_first for s in range(20)}
    assert firsts == {0, 1}
    e = stacked(first_player=1)
    order = [e.active]
    while e.round < 4:
        r = e.round
        idle(e, lambda e, r=r: e.round == r + 1 or e.over)
        order.append(e.active)
    assert order == [1, 0, 1, 0]


def test_the_result_deck_is_reshuffled_when_it_runs_out_during_a_round() -> None:
    e = stacked()
    e.result_discard += e.results[:-1]
    del e.results[:-1]
    e._draw_result([])
    events: list = []
    e._draw_result(events)
    assert events == [ResultDeckShuffled(ShuffleReason.EMPTY)]
    assert len(e.results) == 29 and e.result_discard == [e.last_result]
    e.audit()


def test_rounds_start_outside_with_round_energy_at_fight_energy_and_no_judge_points_or_damage() -> None:
    e = stacked(rounds=6)
    e.boxers[0].judge_points, e.boxers[0].damage, e.boxers[0].position = 4, 7, Position.INSIDE
    idle(e, lambda e: e.round == 2)
    boxer = e.boxers[0]
    assert (boxer.judge_points, boxer.damage, boxer.position) == (0, 0, Position.OUTSIDE)
    assert boxer.round_energy == boxer.fight_energy == boxer.round_start_energy
    assert e.phase is Phase.TURN
