"""Optimal mixed strategies of small two-player zero-sum matrix games.

A simultaneous choice (Punch!'s exchange, any game's secret pick) is a matrix game: the
row player picks a row, the column player a column, the row player wins ``matrix[i][j]``.
Its equilibrium (von Neumann's minimax) is a linear program; the games a bot meets are
tiny (Punch!: at most 6 by 6), so a dense simplex in plain Python solves one in tens of
microseconds.  Pure saddle points, the usual case near the end of a round, skip the LP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_EPS = 1e-12


@dataclass(frozen=True)
class Solution:
    """``value``: what the row player is guaranteed on average; ``rows``/``columns``:
    optimal mixed strategies (probabilities per row/column, summing to 1)."""

    value: float
    rows: tuple[float, ...]
    columns: tuple[float, ...]


def solve(matrix: Sequence[Sequence[float]]) -> Solution:
    """The value and an optimal strategy for each side of ``matrix`` (row player maximises).

    Raises ``ValueError`` for an empty or ragged matrix."""
    m = len(matrix)
    n = len(matrix[0]) if m else 0
    if m == 0 or n == 0 or any(len(row) != n for row in matrix):
        raise ValueError("a matrix game needs a non-empty rectangular matrix")
    saddle = _saddle_point(matrix, m, n)
    if saddle is not None:
        return saddle
    return _simplex(matrix, m, n)


def _saddle_point(matrix: Sequence[Sequence[float]], m: int, n: int) -> Solution | None:
    """A pure equilibrium if there is one: the best row's worst equals the best column's worst."""
    row_mins = [min(row) for row in matrix]
    best_row = max(range(m), key=row_mins.__getitem__)
    col_maxes = [max(matrix[i][j] for i in range(m)) for j in range(n)]
    best_col = min(range(n), key=col_maxes.__getitem__)
    if row_mins[best_row] < col_maxes[best_col] - _EPS:
        return None
    rows = tuple(1.0 if i == best_row else 0.0 for i in range(m))
    columns = tuple(1.0 if j == best_col else 0.0 for j in range(n))
    return Solution(row_mins[best_row], rows, columns)


def _simplex(matrix: Sequence[Sequence[float]], m: int, n: int) -> Solution:
    """Solve the column player's LP  max Σy  s.t.  (A + shift)·y ≤ 1, y ≥ 0  with the
    payoffs shifted positive; the row player's strategy is its dual (the objective row
    under the slack columns).  Bland's rule: no cycling on degenerate games."""
    low = min(min(row) for row in matrix)
    shift = 1.0 - low
    width = n + m + 1
    tableau = [
        [*(matrix[i][j] + shift for j in range(n)), *(1.0 if k == i else 0.0 for k in range(m)), 1.0] for i in range(m)
    ]
    objective = [-1.0] * n + [0.0] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(width - 1) if objective[j] < -_EPS), None)
        if entering is None:
            break
        leaving = -1
        best_ratio = 0.0
        for i in range(m):
            a = tableau[i][entering]
            if a > _EPS:
                ratio = tableau[i][-1] / a
                if (
                    leaving < 0
                    or ratio < best_ratio - _EPS
                    or (abs(ratio - best_ratio) <= _EPS and basis[i] < basis[leaving])
                ):
                    leaving, best_ratio = i, ratio
        if leaving < 0:  # unbounded cannot happen with positive payoffs; keep the guard honest
            raise ArithmeticError("matrix game LP is unbounded")
        pivot_row = tableau[leaving]
        pivot = pivot_row[entering]
        for k in range(width):
            pivot_row[k] /= pivot
        for i in range(m):
            if i != leaving:
                factor = tableau[i][entering]
                if factor:
                    row = tableau[i]
                    for k in range(width):
                        row[k] -= factor * pivot_row[k]
        factor = objective[entering]
        for k in range(width):
            objective[k] -= factor * pivot_row[k]
        basis[leaving] = entering
    total = objective[-1]
    y = [0.0] * n
    for i, var in enumerate(basis):
        if var < n:
            y[var] = max(0.0, tableau[i][-1])  # rounding can leave -1e-17
    u = [max(0.0, objective[n + i]) for i in range(m)]
    rows = _normalised(u)
    columns = _normalised(y)
    return Solution(1.0 / total - shift, rows, columns)


def _normalised(weights: list[float]) -> tuple[float, ...]:
    total = sum(weights)
    return tuple(w / total for w in weights)


def respond(matrix: Sequence[Sequence[float]], expected: Sequence[float], trust: float) -> Solution:
    """The row player's best play against a column player expected to mix ``expected``,
    trusted that far and no further (a restricted Nash response).

    With probability ``trust`` the column player is taken to play ``expected``; otherwise
    they are free to play anything, including the best answer to the row player.  The
    result is the equilibrium of that modified game: ``trust`` 0 gives the equilibrium of
    ``matrix`` (safe, exploits nobody), 1 the best response to ``expected`` (exploits it
    fully, but is itself easy to exploit); in between it gains on an opponent who plays
    as expected while risking little against one who does not."""
    n = len(expected)
    if any(len(row) != n for row in matrix):
        raise ValueError("expected play needs one probability per column")
    if trust <= 0.0:
        return solve(matrix)
    against = [sum(p * x for p, x in zip(expected, row)) for row in matrix]
    if trust >= 1.0:  # a best response: ties share the play evenly
        top = max(against)
        best = [i for i, a in enumerate(against) if a >= top - _EPS]
        rows = tuple(1.0 / len(best) if i in best else 0.0 for i in range(len(matrix)))
        return Solution(top, rows, tuple(expected))
    mixed = [[trust * a + (1.0 - trust) * x for x in row] for a, row in zip(against, matrix)]
    return solve(mixed)
