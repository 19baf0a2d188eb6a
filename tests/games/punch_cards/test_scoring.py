"""Scoring, exactly as the rulebook says: a point for every different name in a collection,
one's own included; a tied high score is broken by second copies, then third…"""

from __future__ import annotations

from games.punch_cards import Standing, levels, points, standings


def test_a_point_per_different_name_own_included() -> None:
    assert points(["Ann", "Ann", "Bo", "Cy"]) == 3  # Ann's own cards count once
    assert points([]) == 0


def test_own_name_counts_only_when_held() -> None:
    """ "Including your own": one's own name is one of the names, if a card with it is held."""
    board = standings({"Ann": ["Bo", "Cy"], "Bo": ["Ann", "Bo", "Cy"]})
    assert {s.name: s.points for s in board} == {"Ann": 2, "Bo": 3}


def test_levels_count_names_held_at_least_once_twice_and_so_on() -> None:
    assert levels(["Ann", "Ann", "Ann", "Bo", "Bo", "Cy"]) == (3, 2, 1)


def test_a_tied_high_score_goes_to_more_second_copies() -> None:
    board = standings({"Ann": ["A", "B", "C", "A"], "Bo": ["A", "B", "C"], "Cy": ["A"]})
    assert [(s.rank, s.name, s.points, s.copies) for s in board] == [
        (1, "Ann", 3, (1,)),
        (2, "Bo", 3, ()),
        (3, "Cy", 1, ()),
    ]


def test_then_third_copies_and_so_on() -> None:
    ann = ["A", "B", "A", "B", "A"]  # levels (2, 2, 1)
    bo = ["A", "B", "A", "B", "C"]  # levels (3, 2)
    cy = ["A", "B", "A", "B"]  # levels (2, 2)
    dee = ["A", "C", "A", "C", "A", "C"]  # levels (2, 2, 2)
    board = standings({"Ann": ann, "Bo": bo, "Cy": cy, "Dee": dee})
    assert [s.name for s in board] == ["Bo", "Dee", "Ann", "Cy"]
    assert board[0].rank == 1 and board[1].rank == 2


def test_players_equal_at_every_level_share_the_rank_and_are_listed_by_name() -> None:
    board = standings({"bo": ["A", "B"], "Ann": ["B", "C"], "Cy": ["A"], "Dee": []})
    assert board == (
        Standing(1, "Ann", 2, (), 2),
        Standing(1, "bo", 2, (), 2),
        Standing(3, "Cy", 1, (), 1),
        Standing(4, "Dee", 0, (), 0),
    )
