"""The settle window releases stamped inputs in stamp order, whatever their arrival order."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.runtime.settle import SettleBuffer


def test_held_until_the_window_has_passed() -> None:
    b = SettleBuffer(2000)
    b.add(10_000, "slap", now_us=10_500)
    assert b.release(11_999) == []
    assert b.release(12_000) == [(10_000, "slap")]


@given(st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 2000)), min_size=1, max_size=8))
def test_release_is_in_stamp_order_for_any_arrival_order(items) -> None:
    """(stamp, delay ≤ window) pairs, added in arrival order, come out sorted by stamp."""
    b = SettleBuffer(2000)
    arrivals = sorted(((t + d, t, i) for i, (t, d) in enumerate(items)))
    released = []
    for arrive, t, i in arrivals:
        released += b.release(arrive)
        b.add(t, i, now_us=arrive)
    released += b.release(10**9)
    assert [t for t, _ in released] == sorted(t for t, _ in items)
    assert b.late == 0


def test_every_permutation_of_three_gives_the_same_order() -> None:
    stamps = [(5000, "a"), (5001, "b"), (5002, "c")]
    outcomes = set()
    for perm in itertools.permutations(stamps):
        b = SettleBuffer(1000)
        for t, x in perm:
            b.add(t, x, now_us=5500)
        outcomes.add(tuple(x for _, x in b.release(10_000)))
    assert outcomes == {("a", "b", "c")}


def test_rank_orders_equal_stamps() -> None:
    b = SettleBuffer(0)
    b.add(7, "slap", now_us=7, rank=2)
    b.add(7, "shown", now_us=7, rank=0)
    assert [x for _, x in b.release(7)] == ["shown", "slap"]


def test_late_arrivals_are_counted() -> None:
    b = SettleBuffer(1000)
    b.add(0, "x", now_us=5000)
    assert b.late == 1
