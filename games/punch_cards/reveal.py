"""How a reveal is judged: the whole High / Low / Both table in one place (docs/design.md).

High compares both corners' numbers sorted descending, Low sorted ascending; equal
numbers pass to the next pair, and a comparison in which one corner runs out of numbers
first is tied.  Calls then decide:

- High v High, Low v Low: that comparison's winner; tied → play again.
- High v Low: play again.
- Both v High or Low: the Both caller wins only by winning both comparisons, else the
  other caller wins ("if you say Both the game is always on").
- Both v Both: whoever won both comparisons; nobody did → play again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.punch_cards.cards import Numbers


class Call(Enum):
    HIGH = "high"
    LOW = "low"
    BOTH = "both"


class DuelEnd(Enum):
    """How a duel ended (``Outcome.how``)."""

    HIGH = "high"
    """Both called High; the higher numbers won."""
    LOW = "low"
    """Both called Low; the lower numbers won."""
    BOTH = "both"
    """A Both call won both ways."""
    BOTH_FAILED = "both_failed"
    """A Both call did not win both ways: its caller lost."""
    REFUSED = "refused"
    """The challenged player refused (allowed by the challenge rule): nobody's card moved."""


class PlayAgain(Enum):
    """Why a reveal decided nothing and the duellists choose corners and call again."""

    HIGH_AGAINST_LOW = "high_against_low"
    FULL_TIE = "full_tie"
    """The called comparison ran out of numbers with every pair equal."""
    NO_DOUBLE_WINNER = "no_double_winner"
    """Both against Both and neither won both comparisons."""


def _first_difference(a: Numbers, b: Numbers, descending: bool) -> int | None:
    """Seat 0 or 1 whose number wins at the first unequal pair, else ``None``."""
    for x, y in zip(sorted(a, reverse=descending), sorted(b, reverse=descending)):
        if x != y:
            return 0 if (x > y) == descending else 1
    return None


def high_winner(a: Numbers, b: Numbers) -> int | None:
    """Who wins High between seat 0's numbers ``a`` and seat 1's ``b`` (``None``: tied)."""
    return _first_difference(a, b, descending=True)


def low_winner(a: Numbers, b: Numbers) -> int | None:
    """Who wins Low between seat 0's numbers ``a`` and seat 1's ``b`` (``None``: tied)."""
    return _first_difference(a, b, descending=False)


@dataclass(frozen=True)
class Verdict:
    """What a reveal decided: a winner and how, or why to play again."""

    high: int | None
    low: int | None
    winner: int | None
    how: DuelEnd | None
    again: PlayAgain | None


def judge(calls: tuple[Call, Call], numbers: tuple[Numbers, Numbers]) -> Verdict:
    """The verdict of one reveal: seat 0 called ``calls[0]`` and shows ``numbers[0]``."""
    high = high_winner(*numbers)
    low = low_winner(*numbers)
    both = [seat for seat in (0, 1) if calls[seat] is Call.BOTH]
    if len(both) == 2:
        if high is not None and high == low:
            return Verdict(high, low, high, DuelEnd.BOTH, None)
        return Verdict(high, low, None, None, PlayAgain.NO_DOUBLE_WINNER)
    if len(both) == 1:
        caller = both[0]
        if high == caller and low == caller:
            return Verdict(high, low, caller, DuelEnd.BOTH, None)
        return Verdict(high, low, 1 - caller, DuelEnd.BOTH_FAILED, None)
    if calls[0] is not calls[1]:
        return Verdict(high, low, None, None, PlayAgain.HIGH_AGAINST_LOW)
    winner, how = (high, DuelEnd.HIGH) if calls[0] is Call.HIGH else (low, DuelEnd.LOW)
    if winner is None:
        return Verdict(high, low, None, None, PlayAgain.FULL_TIE)
    return Verdict(high, low, winner, how, None)
