"""The reveal, as docs/design.md fixes it: High compares descending, Low ascending, ties pass to the
next number; Both must win both ways; High v Low, full ties and Both v Both with no double
winner play again."""

from __future__ import annotations

import pytest

from games.punch_cards import Call, DuelEnd, PlayAgain, high_winner, judge, low_winner

H, L, B = Call.HIGH, Call.LOW, Call.BOTH


def test_high_compares_the_largest_numbers_first_and_ties_pass_to_the_next() -> None:
    assert high_winner((10, 50), (20, 40)) == 0
    assert high_winner((10, 40, 50), (30, 40, 50)) == 1  # 50=50, 40=40, 10<30
    assert high_winner((3, 60), (10, 60)) == 1


def test_low_compares_the_smallest_numbers_first_and_lower_wins() -> None:
    assert low_winner((10, 50), (20, 40)) == 0
    assert low_winner((5, 8, 90), (5, 8, 70)) == 1  # 5=5, 8=8, 70<90


def test_running_out_of_numbers_with_every_pair_equal_is_a_tie() -> None:
    """High: (60, 40) against (60, 40, 7): 60=60, 40=40, then seat 0 runs out."""
    assert high_winner((40, 60), (7, 40, 60)) is None
    # …while Low is decided by the extra, smaller number.
    assert low_winner((40, 60), (7, 40, 60)) == 1


# seat 0 wins High and Low: (2, 90) v (5, 80)
BOTH_WAYS = ((2, 90), (5, 80))
# seat 0 wins High, seat 1 wins Low: (10, 90) v (5, 80)
SPLIT = ((10, 90), (5, 80))
# High tied (seat 1 runs out), Low to seat 0: (1, 40, 60) v (40, 60)
HIGH_TIED = ((1, 40, 60), (40, 60))


@pytest.mark.parametrize(
    ("calls", "numbers", "winner", "how", "again"),
    [
        ((H, H), SPLIT, 0, DuelEnd.HIGH, None),
        ((L, L), SPLIT, 1, DuelEnd.LOW, None),
        ((H, L), SPLIT, None, None, PlayAgain.HIGH_AGAINST_LOW),
        ((L, H), BOTH_WAYS, None, None, PlayAgain.HIGH_AGAINST_LOW),
        ((H, H), HIGH_TIED, None, None, PlayAgain.FULL_TIE),
        ((L, L), HIGH_TIED, 0, DuelEnd.LOW, None),
        ((B, H), BOTH_WAYS, 0, DuelEnd.BOTH, None),
        ((H, B), BOTH_WAYS, 0, DuelEnd.BOTH_FAILED, None),
        ((B, L), SPLIT, 1, DuelEnd.BOTH_FAILED, None),
        ((B, H), SPLIT, 1, DuelEnd.BOTH_FAILED, None),  # won High, lost Low: Both loses
        ((L, B), HIGH_TIED, 0, DuelEnd.BOTH_FAILED, None),  # a tied comparison is not won
        ((B, L), HIGH_TIED, 1, DuelEnd.BOTH_FAILED, None),  # Both is always on: no play again
        ((B, B), BOTH_WAYS, 0, DuelEnd.BOTH, None),
        ((B, B), SPLIT, None, None, PlayAgain.NO_DOUBLE_WINNER),
        ((B, B), HIGH_TIED, None, None, PlayAgain.NO_DOUBLE_WINNER),
    ],
)
def test_every_pairing_of_calls(calls, numbers, winner, how, again) -> None:
    verdict = judge(calls, numbers)
    assert (verdict.winner, verdict.how, verdict.again) == (winner, how, again)
    assert verdict.high == high_winner(*numbers) and verdict.low == low_winner(*numbers)
