"""The challenge rule: the first challenge from any rival must be accepted; later ones may
be refused until both players have fought someone else."""

from __future__ import annotations

import pytest

from games.punch_cards import may_refuse


def test_the_first_challenge_from_a_rival_must_be_accepted() -> None:
    assert not may_refuse([], "ann", "bo")
    assert not may_refuse([("ann", "cy"), ("bo", "cy")], "ann", "bo")


def test_after_a_duel_the_next_challenge_may_be_refused_whoever_challenges() -> None:
    assert may_refuse([("ann", "bo")], "ann", "bo")
    assert may_refuse([("ann", "bo")], "bo", "ann")


def test_refusal_lasts_until_both_have_fought_someone_else() -> None:
    history = [("ann", "bo"), ("ann", "cy")]
    assert may_refuse(history, "ann", "bo")  # only Ann has fought someone else
    history.append(("dee", "bo"))
    assert not may_refuse(history, "ann", "bo")  # both have: must accept again
    history.append(("bo", "ann"))
    assert may_refuse(history, "ann", "bo")  # and after that duel, may refuse again


def test_fights_with_each_other_do_not_count_as_someone_else() -> None:
    assert may_refuse([("ann", "bo"), ("bo", "ann"), ("ann", "bo")], "ann", "bo")


def test_only_fights_after_the_last_duel_between_them_count() -> None:
    history = [("ann", "cy"), ("bo", "dee"), ("ann", "bo")]
    assert may_refuse(history, "ann", "bo")


def test_nobody_challenges_themselves() -> None:
    with pytest.raises(ValueError):
        may_refuse([], "ann", "ann")
