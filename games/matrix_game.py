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
from fractions import Fraction
from typing import TypeVar

_EPS = 1e-12
_GAP = 1e-11  # the duality gap a float answer may leave, relative to the largest payoff

Number = TypeVar("Number", float, Fraction)


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
    """The LP in floats, kept only if its answer proves itself: the row strategy's
    guarantee and the column strategy's concession must meet (the duality gap closes).
    Floats pivoting on tiny payoffs (1e-6 beside 3) can settle on a wrong basis; then
    the same simplex runs again in exact fractions, where Bland's rule cannot be fooled."""
    u, y = _tableau_simplex([[float(x) for x in row] for row in matrix], 1.0, _EPS)
    if sum(u) > 0 and sum(y) > 0:
        rows, columns = _normalised(u), _normalised(y)
        low, high = _guarantee(matrix, rows), _concession(matrix, columns)
        if high - low <= _GAP * max(1.0, max(abs(x) for row in matrix for x in row)):
            return Solution((low + high) / 2, rows, columns)
    exact = [[Fraction(x) for x in row] for row in matrix]
    exact_u, exact_y = _tableau_simplex(exact, Fraction(1), 0)
    exact_rows = _normalised(exact_u)
    value = _guarantee(exact, exact_rows)
    return Solution(float(value), tuple(map(float, exact_rows)), tuple(map(float, _normalised(exact_y))))


def _guarantee(matrix: Sequence[Sequence[Number]], rows: Sequence[Number]) -> Number:
    """What a row strategy earns against the column player's best answer."""
    return min(sum((p * row[j] for p, row in zip(rows, matrix)), rows[0] * 0) for j in range(len(matrix[0])))


def _concession(matrix: Sequence[Sequence[float]], columns: Sequence[float]) -> float:
    """What a column strategy concedes against the row player's best answer."""
    return max(sum(q * x for q, x in zip(columns, row)) for row in matrix)


def _tableau_simplex(matrix: list[list[Number]], one: Number, eps: float) -> tuple[list[Number], list[Number]]:
    """The row and column weights (not yet normalised) that solve the column player's LP
    max Σy  s.t.  (A + shift)·y ≤ 1, y ≥ 0  with the payoffs shifted positive; the row
    player's strategy is its dual (the objective row under the slack columns).  Bland's rule: no cycling on degenerate games.  Works the
    same in floats (``eps`` > 0) and in exact fractions (``eps`` = 0)."""
    m, n = len(matrix), len(matrix[0])
    zero = one - one
    shift = one - min(min(row) for row in matrix)
    width = n + m + 1
    tableau: list[list[Number]] = []
    for i in range(m):
        line = [x + shift for x in matrix[i]] + [zero] * (m + 1)
        line[n + i] = line[-1] = one  # its slack, and the right-hand side 1
        tableau.append(line)
    objective = [-one] * n + [zero] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(width - 1) if objective[j] < -eps), None)
        if entering is None:
            break
        leaving = -1
        best_ratio = zero
        for i in range(m):
            a = tableau[i][entering]
            if a > eps:
                ratio = tableau[i][-1] / a
                tie = eps * max(ratio, best_ratio)  # relative: tiny ratios are not all ties
                if (
                    leaving < 0
                    or ratio < best_ratio - tie
                    or (abs(ratio - best_ratio) <= tie and basis[i] < basis[leaving])
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
    y = [zero] * n
    for i, var in enumerate(basis):
        if var < n:
            y[var] = max(zero, tableau[i][-1])  # rounding can leave -1e-17
    u = [max(zero, objective[n + i]) for i in range(m)]
    return u, y


def _normalised(weights: list[Number]) -> tuple[Number, ...]:
    total = sum(weights, weights[0] * 0)
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
