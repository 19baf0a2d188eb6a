"""The continuation values behind the computer boxers' choices: the projected winning
chance, the fast exchange matrix that must agree with projecting every cell from scratch,
the exact round-3 endgame, and what a boxer can know from its view."""

from __future__ import annotations

import random

import pytest

from games.punch import Punch, PunchOptions
from games.punch.cards import COPIES_PER_KIND
from games.punch.endgame import Endgame
from games.punch.knowledge import KINDS, holding_chances, knowledge_of
from games.punch.outlook import Cards, Outlook, final_score, projected_chance, staminas_after
from games.punch.reading import best_held


def random_cards(rng: random.Random, total: int) -> tuple[int, ...]:
    counts = [0] * KINDS
    while sum(counts) < total:
        k = rng.randrange(KINDS)
        if counts[k] < COPIES_PER_KIND:
            counts[k] += 1
    return tuple(counts)


def test_the_fast_matrix_agrees_with_projecting_every_cell_from_scratch() -> None:
    rng = random.Random(3)
    for _ in range(300):
        round_ = rng.randint(1, 3)
        left = rng.randint(1, 10)
        later = 10 * (3 - round_)
        mine = random_cards(rng, left + later)
        hand = random_cards(random.Random(rng.random()), left)
        if any(h > m for h, m in zip(hand, mine)):
            continue
        deck = tuple(m - h for m, h in zip(mine, hand))
        theirs = random_cards(rng, left + later)
        no_mercy = rng.random() < 0.5
        stamina, their_stamina = rng.randint(1, 10), rng.randint(1, 10)
        me, them = Cards.own(hand, deck), Cards.unseen(theirs, left)
        outlook = Outlook(round_, left, no_mercy, me, them)
        matrix = outlook.matrix(stamina, their_stamina)
        for r, i in enumerate(outlook.rows):
            for c, j in enumerate(outlook.columns):
                s, t = staminas_after(stamina, their_stamina, i, j, no_mercy)
                if s == 0 or t == 0 or (left == 1 and round_ == 3):
                    expected = final_score(s, t)
                else:
                    expected = projected_chance(
                        round_,
                        left - 1,
                        s,
                        t,
                        me.hand_after.after(i),
                        me.later_after.after(i),
                        them.hand_after.after(j),
                        them.later_after.after(j),
                    )
                assert matrix[r][c] == pytest.approx(expected, abs=1e-9)


def test_a_projected_lead_is_a_better_chance_and_an_even_match_is_even() -> None:
    hand = (2.0, 2.0, 2.0, 2.0, 1.0, 1.0)
    later = (3.0, 3.0, 3.0, 3.0, 4.0, 4.0)
    assert projected_chance(1, 10, 10, 10, hand, later, hand, later) == pytest.approx(0.5)
    even = (1.0,) * 5 + (0.0,)
    chances = [projected_chance(3, 5, s, 5, even, (0.0,) * 6, even, (0.0,) * 6) for s in range(1, 11)]
    assert chances == sorted(chances) and chances[0] < 0.2 and chances[-1] > 0.8


def test_the_endgame_scores_knockouts_and_the_last_comparison_exactly() -> None:
    endgame = Endgame(no_mercy=False)
    three, rest, block = (0, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 1, 0)
    assert endgame.value(three, rest, 1, 3) == 1.0  # the 3 knocks Blue out
    assert endgame.value(rest, three, 3, 1) == 0.0
    assert endgame.value(block, block, 4, 4) == 0.5  # nothing happens: a tie, replayed
    # Dodge and rest against a 3 and a Block: matching pennies for the match.
    both, theirs = (0, 0, 0, 1, 0, 1), (0, 0, 1, 0, 1, 0)
    assert endgame.value(both, theirs, 5, 5) == pytest.approx(0.5)


def test_no_mercy_caps_a_punch_at_its_throwers_stamina() -> None:
    punch_1, punch_3, rest = 0, 2, 3
    assert staminas_after(2, 10, punch_3, rest, no_mercy=False) == (2, 7)
    assert staminas_after(2, 10, punch_3, rest, no_mercy=True) == (2, 8)
    # The rulebook's FAQ: Blue at 2 throws a 3, Red a 1: Red is hit for 2 - 1.
    assert staminas_after(10, 2, punch_1, punch_3, no_mercy=True) == (9, 2)


def test_what_a_boxer_knows_is_counted_from_its_view() -> None:
    game = Punch(PunchOptions(), 2, 4)
    view = game.view(0)
    k = knowledge_of(view)
    assert k.hand == view.hand and k.deck == view.deck and k.cards_left == 10
    assert k.theirs == (COPIES_PER_KIND,) * KINDS  # nothing revealed yet: all 30 unseen
    assert k.mine == tuple(h + d for h, d in zip(view.hand, view.deck))


def test_holding_chances_and_the_best_card_held() -> None:
    assert holding_chances((5, 0, 0, 0, 0, 0), 3) == (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert holding_chances((1, 1), 1) == (0.5, 0.5)
    assert best_held([3, 2, 1], [1.0, 0.5, 1.0]) == (1.0, 0.0, 0.0)
    assert best_held([3, 2, 1], [0.5, 0.5, 1.0]) == pytest.approx((0.5, 0.25, 0.25))
    assert best_held([1, 1], [1.0, 1.0]) == (0.5, 0.5)
