"""The end of round 3 solved exactly.

In round 3 nothing is hidden any more: each boxer holds the last of their cards, and
the opponent's are exactly the ones not yet revealed.  What is left is a finite
simultaneous game whose every leaf is a knockout or the final stamina comparison, so its
value can be computed exactly, by solving the matrix game of each exchange over the
values of the positions it leads to (backward induction over simultaneous moves).  The
number of positions grows fast with the cards left, so a bot solves only the last few
exchanges and projects the rest (:mod:`games.punch.outlook`).
"""

from __future__ import annotations

from games.matrix_game import solve
from games.punch.knowledge import KINDS
from games.punch.outlook import final_score, staminas_after

Hand = tuple[int, ...]


class Endgame:
    """Exact values of round-3 positions (my hand, their hand, both staminas), from my
    side; remembered, since one match's decisions share most positions."""

    def __init__(self, no_mercy: bool) -> None:
        self.no_mercy = no_mercy
        self._values: dict[tuple[Hand, Hand, int, int], float] = {}

    def matrix(self, hand: Hand, their_hand: Hand, stamina: int, their_stamina: int) -> list[list[float]]:
        """The exact exchange matrix: rows my kinds in hand, columns theirs (kind order)."""
        rows = [k for k in range(KINDS) if hand[k]]
        columns = [k for k in range(KINDS) if their_hand[k]]
        last = sum(hand) == 1
        matrix = []
        for i in rows:
            after = _without(hand, i)
            row = []
            for j in columns:
                s, t = staminas_after(stamina, their_stamina, i, j, self.no_mercy)
                if last or s == 0 or t == 0:
                    row.append(final_score(s, t))
                else:
                    row.append(self.value(after, _without(their_hand, j), s, t))
            matrix.append(row)
        return matrix

    def value(self, hand: Hand, their_hand: Hand, stamina: int, their_stamina: int) -> float:
        """My chance of winning the match from here when both play the equilibrium."""
        key = (hand, their_hand, stamina, their_stamina)
        value = self._values.get(key)
        if value is None:
            value = solve(self.matrix(hand, their_hand, stamina, their_stamina)).value
            self._values[key] = value
        return value


def _without(hand: Hand, kind: int) -> Hand:
    return hand[:kind] + (hand[kind] - 1,) + hand[kind + 1 :]
