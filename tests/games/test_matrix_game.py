"""Matrix games: the equilibrium solver behind every simultaneous choice a bot makes, and
the restricted response that lets a bot exploit a predictable opponent safely."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.matrix_game import respond, solve

ROCK_PAPER_SCISSORS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# Found by a random draw (issue 22): a payoff of -2.45e-06 beside -1 and -3 made the float
# ratio test call two different ratios a tie, and the column strategy conceded 0.0.
ISSUE_22_TINY_PAYOFF = [[0, 0, 0, 0, 0, -2.45e-06], [0, 0, 0, 0, -1, 0], [-3, 0, 0, 0, 0, 0]]


def guaranteed(matrix: list[list[float]], rows: tuple[float, ...]) -> float:
    """What a row strategy earns against the column player's best answer."""
    return min(sum(p * row[j] for p, row in zip(rows, matrix)) for j in range(len(matrix[0])))


def conceded(matrix: list[list[float]], columns: tuple[float, ...]) -> float:
    """What a column strategy concedes against the row player's best answer."""
    return max(sum(q * x for q, x in zip(columns, row)) for row in matrix)


def test_rock_paper_scissors_is_a_third_each_with_value_0() -> None:
    solution = solve(ROCK_PAPER_SCISSORS)
    assert solution.value == pytest.approx(0.0, abs=1e-12)
    assert solution.rows == pytest.approx((1 / 3,) * 3)
    assert solution.columns == pytest.approx((1 / 3,) * 3)


def test_a_saddle_point_is_played_pure() -> None:
    solution = solve([[1, 2], [3, 4]])
    assert solution.value == 3
    assert solution.rows == (0.0, 1.0) and solution.columns == (1.0, 0.0)


def test_a_two_by_two_mixed_game_matches_the_textbook_formula() -> None:
    # [[a, b], [c, d]] with no saddle: p = (d - c) / (a - b - c + d), value = (ad - bc) / (a - b - c + d).
    a, b, c, d = 3, -1, -2, 1
    solution = solve([[a, b], [c, d]])
    assert solution.rows[0] == pytest.approx((d - c) / (a - b - c + d))
    assert solution.value == pytest.approx((a * d - b * c) / (a - b - c + d))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@example(ISSUE_22_TINY_PAYOFF)
@given(
    st.integers(1, 6).flatmap(
        lambda m: st.integers(1, 6).flatmap(
            lambda n: st.lists(
                st.lists(st.floats(-3, 3, allow_nan=False), min_size=n, max_size=n), min_size=m, max_size=m
            )
        )
    )
)
def test_both_strategies_are_optimal_by_the_minimax_theorem(matrix: list[list[float]]) -> None:
    solution = solve(matrix)
    assert sum(solution.rows) == pytest.approx(1.0) and min(solution.rows) >= 0
    assert sum(solution.columns) == pytest.approx(1.0) and min(solution.columns) >= 0
    assert guaranteed(matrix, solution.rows) == pytest.approx(solution.value, abs=1e-9)
    assert conceded(matrix, solution.columns) == pytest.approx(solution.value, abs=1e-9)


def test_a_tiny_payoff_beside_large_ones_gives_both_sides_an_optimal_strategy() -> None:
    solution = solve(ISSUE_22_TINY_PAYOFF)
    assert solution.value == pytest.approx(-2.45e-06, rel=1e-5)
    assert guaranteed(ISSUE_22_TINY_PAYOFF, solution.rows) == pytest.approx(solution.value, abs=1e-12)
    assert conceded(ISSUE_22_TINY_PAYOFF, solution.columns) == pytest.approx(solution.value, abs=1e-12)


def test_games_that_fool_the_float_simplex_are_solved_exactly() -> None:
    """Payoffs 1e-9 and 1e-6 beside 1 and 3 leave the float LP on a wrong basis (or none);
    the duality-gap check catches it and the exact simplex answers (the float-only solver
    got 16 of these 2,000 wrong)."""
    rng = random.Random(22)
    tiny = (0, 0, 0, -1, 1, -3, 3, 2.45e-06, -2.45e-06, 1e-09)
    for _ in range(2_000):
        n = rng.randint(1, 6)
        matrix = [[rng.choice(tiny) for _ in range(n)] for _ in range(rng.randint(1, 6))]
        solution = solve(matrix)
        assert min(solution.rows) >= 0 and min(solution.columns) >= 0
        assert guaranteed(matrix, solution.rows) == pytest.approx(solution.value, abs=1e-9), matrix
        assert conceded(matrix, solution.columns) == pytest.approx(solution.value, abs=1e-9), matrix


def test_degenerate_games_with_many_ties_do_not_cycle() -> None:
    rng = random.Random(5)
    for _ in range(500):
        matrix = [[rng.choice((0, 0.5, 1)) for _ in range(6)] for _ in range(6)]
        solution = solve(matrix)
        assert guaranteed(matrix, solution.rows) == pytest.approx(solution.value, abs=1e-9)


def test_bad_matrices_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="rectangular"):
        solve([])
    with pytest.raises(ValueError, match="rectangular"):
        solve([[1, 2], [3]])
    with pytest.raises(ValueError, match="one probability per column"):
        respond([[1, 2]], [1.0], 0.5)


def test_respond_with_no_trust_is_the_equilibrium_and_with_full_trust_the_best_response() -> None:
    expected = (0.6, 0.2, 0.2)  # too much rock
    assert respond(ROCK_PAPER_SCISSORS, expected, 0.0).rows == pytest.approx((1 / 3,) * 3)
    assert respond(ROCK_PAPER_SCISSORS, expected, 1.0).rows == (0.0, 1.0, 0.0)  # paper


def test_full_trust_shares_the_play_between_equally_good_answers() -> None:
    assert respond([[1, 0], [1, 0], [0, 1]], (1.0, 0.0), 1.0).rows == (0.5, 0.5, 0.0)


def test_more_trust_gains_more_on_the_expected_opponent_and_guards_less() -> None:
    expected = (0.6, 0.2, 0.2)

    def gain(rows: tuple[float, ...]) -> float:
        return sum(p * q * ROCK_PAPER_SCISSORS[i][j] for i, p in enumerate(rows) for j, q in enumerate(expected))

    plays = [respond(ROCK_PAPER_SCISSORS, expected, t).rows for t in (0.0, 0.25, 0.5, 0.75, 1.0)]
    gains = [gain(rows) for rows in plays]
    guards = [guaranteed(ROCK_PAPER_SCISSORS, rows) for rows in plays]
    assert gains[0] == pytest.approx(0.0, abs=1e-12) and guards[0] == pytest.approx(0.0, abs=1e-12)
    assert all(a <= b + 1e-12 for a, b in zip(gains, gains[1:])), gains
    assert all(a >= b - 1e-12 for a, b in zip(guards, guards[1:])), guards
    # Too little trust is not worth leaving the equilibrium for; enough trust is.
    assert gains[1] == pytest.approx(0.0, abs=1e-12) and gains[3] > 0.1
