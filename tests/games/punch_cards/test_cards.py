"""Cards: every corner of the event shows its own set of numbers, from the seed alone."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.punch_cards import (
    CORNERS,
    MAX_SERIAL,
    NUMBER_MAX,
    NUMBER_MIN,
    PACKET_SIZE,
    SET_SIZES,
    Card,
    Corner,
    cards_problem,
    corner_numbers,
    make_card,
    packet,
)
from games.punch_cards.cards import SET_COUNT, _unrank


@pytest.mark.slow
def test_every_corner_of_ten_thousand_cards_shows_a_different_set() -> None:
    sets = [n for serial in range(10_000) for n in make_card(11, serial, "x").corners]
    assert len(set(sets)) == len(sets) == 40_000


@pytest.mark.slow
def test_corners_show_two_to_four_distinct_ascending_numbers_from_1_to_99() -> None:
    seen_sizes = set()
    for serial in range(3_000):
        for numbers in make_card(5, serial, "x").corners:
            seen_sizes.add(len(numbers))
            assert SET_SIZES[0] <= len(numbers) <= SET_SIZES[-1]
            assert list(numbers) == sorted(set(numbers))
            assert numbers[0] >= NUMBER_MIN and numbers[-1] <= NUMBER_MAX
    assert seen_sizes == {2, 3, 4} or seen_sizes == {3, 4}
    assert (NUMBER_MIN, NUMBER_MAX, SET_SIZES) == (1, 99, (2, 3, 4))


def test_the_same_seed_and_serial_give_the_same_card_and_another_seed_another() -> None:
    assert make_card(42, 17, "Ann") == make_card(42, 17, "Ann")
    assert make_card(42, 17, "Ann").corners != make_card(43, 17, "Ann").corners
    # A card does not depend on which other cards exist: it is computed alone.
    assert packet(42, 15, "Ann")[2] == make_card(42, 17, "Ann")


def test_the_set_ranking_is_every_set_once_in_order() -> None:
    """The unranking covers every 2-, 3- and 4-set exactly once (on the whole 2- and
    3-set ranges, and spot-checked at the ends of the 4-sets)."""
    span = range(NUMBER_MIN, NUMBER_MAX + 1)
    two = sorted(combinations(span, 2), key=lambda s: tuple(reversed(s)))
    assert [_unrank(r) for r in range(len(two))] == two
    n2, n3 = comb(99, 2), comb(99, 3)
    three = sorted(combinations(span, 3), key=lambda s: tuple(reversed(s)))
    assert [_unrank(n2 + r) for r in range(n3)] == three
    assert _unrank(n2) == (1, 2, 3) and _unrank(n2 + n3 - 1) == (97, 98, 99)
    assert _unrank(n2 + n3) == (1, 2, 3, 4) and _unrank(SET_COUNT - 1) == (96, 97, 98, 99)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**63), st.integers(0, MAX_SERIAL - 1), st.integers(0, MAX_SERIAL - 1))
def test_two_different_cards_never_share_a_corner_set(seed: int, a: int, b: int) -> None:
    if a == b:
        b = a + 1
    first, second = make_card(seed, a, "x"), make_card(seed, b, "y")
    assert not set(first.corners) & set(second.corners)
    assert len(set(first.corners)) == 4


def test_a_packet_is_five_cards_with_the_players_name() -> None:
    cards = packet(3, 100, "Zoë")
    assert len(cards) == PACKET_SIZE == 5
    assert [c.serial for c in cards] == [100, 101, 102, 103, 104]
    assert {c.name for c in cards} == {"Zoë"}


def test_serials_outside_the_event_capacity_are_refused() -> None:
    with pytest.raises(ValueError, match="serial"):
        corner_numbers(1, MAX_SERIAL + 1, Corner.TOP_LEFT)
    with pytest.raises(ValueError, match="seed"):
        corner_numbers(-1, 0, Corner.TOP_LEFT)


def test_cards_that_cannot_be_one_events_are_named() -> None:
    good = make_card(1, 0, "a")
    assert cards_problem((good, make_card(1, 1, "b"))) is None
    assert "twice" in (cards_problem((good, good)) or "")
    clone = Card(9, "c", good.corners)
    assert "repeats a corner set" in (cards_problem((good, clone)) or "")
    assert "numbers" in (cards_problem((Card(1, "d", ((1,), (2, 3), (4, 5), (6, 7))),)) or "")
    assert "1 to 99" in (cards_problem((Card(1, "d", ((0, 3), (2, 3), (4, 5), (6, 7))),)) or "")
    assert "ascending" in (cards_problem((Card(1, "d", ((3, 2), (2, 4), (4, 5), (6, 7))),)) or "")
    assert [c.value for c in CORNERS] == [0, 1, 2, 3]
