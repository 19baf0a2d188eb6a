"""Punch Cards' cards: four corners, each showing a set of numbers no other corner shows.

The rulebook prints "a unique set of numbers" on every card.  Here every corner of every
card of the event shows a different set, and the sets come from the event's seed alone:
:func:`corner_numbers` maps (seed, card serial, corner) through a seeded permutation of
all possible sets, so two corners never share a set (a permutation is one-to-one) and any
card's numbers can be computed again from the seed without knowing the other cards.  The
ledger still records every card's numbers, so a duel replays from the record even if this
generator ever changes.  Choices (sizes, range) are in ``docs/rules/punch_cards.md``.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum
from math import comb

NUMBER_MIN = 1
NUMBER_MAX = 99
SET_SIZES = (2, 3, 4)
"""How many numbers a corner shows: "a few" (docs/design.md); sizes differ, so a comparison can
run out of numbers as the rulebook foresees."""
PACKET_SIZE = 5
"""A new player (and a player re-entering) gets a packet of five cards with their name."""

_SPAN = NUMBER_MAX - NUMBER_MIN + 1
_OFFSETS: tuple[int, ...] = tuple(sum(comb(_SPAN, s) for s in SET_SIZES[:i]) for i in range(len(SET_SIZES)))
_COLEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(c, k) for c in range(_SPAN + 1)) for k in range(max(SET_SIZES) + 1)
)
"""``_COLEX[k][c]`` is C(c, k): each row rises with ``c``, so :func:`_unrank` finds each
number by bisection instead of asking ``comb`` up to 99 times (a new Punch Cards engine
deals 40 corners; that scan was most of what one cost, issue 34)."""
SET_COUNT = sum(comb(_SPAN, s) for s in SET_SIZES)
"""Every possible corner set (3,926,076): the event can print SET_COUNT // 4 cards."""
MAX_SERIAL = SET_COUNT // 4 - 1
_HALF_BITS = (SET_COUNT.bit_length() + 1) // 2
_HALF_MASK = (1 << _HALF_BITS) - 1
_ROUNDS = 6


class Corner(Enum):
    """A card's four corners, in button order (A–D on the station)."""

    TOP_LEFT = 0
    TOP_RIGHT = 1
    BOTTOM_LEFT = 2
    BOTTOM_RIGHT = 3


CORNERS: tuple[Corner, ...] = tuple(Corner)

Numbers = tuple[int, ...]
"""The numbers behind one corner, ascending."""


@dataclass(frozen=True)
class Card:
    """One printed card: its serial (unique in the event), the name written on it, and the
    numbers behind each corner in :data:`CORNERS` order."""

    serial: int
    name: str
    corners: tuple[Numbers, Numbers, Numbers, Numbers]

    def numbers(self, corner: Corner) -> Numbers:
        return self.corners[corner.value]


def _round_value(key: bytes, round_: int, half: int) -> int:
    digest = hashlib.blake2b(half.to_bytes(4, "big") + bytes((round_,)), key=key, digest_size=4).digest()
    return int.from_bytes(digest, "big") & _HALF_MASK


def _seed_key(seed: int) -> bytes:
    if seed < 0:
        raise ValueError(f"an event seed is a whole number ≥ 0, not {seed}")
    raw = seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "big")
    if len(raw) > 64:
        raise ValueError("an event seed must fit in 512 bits")
    return raw


def _permute(key: bytes, index: int) -> int:
    """A seeded permutation of ``range(SET_COUNT)``: a Feistel network over the next even
    power of two, cycle-walked back into range (still one-to-one)."""
    value = index
    while True:
        left, right = value >> _HALF_BITS, value & _HALF_MASK
        for r in range(_ROUNDS):
            left, right = right, left ^ _round_value(key, r, right)
        value = (left << _HALF_BITS) | right
        if value < SET_COUNT:
            return value


def _unrank(rank: int) -> Numbers:
    """The ``rank``-th set in the order: all 2-sets, then 3-sets, then 4-sets, each in
    colexicographic order (the combinatorial number system)."""
    size_index = max(i for i, offset in enumerate(_OFFSETS) if offset <= rank)
    size = SET_SIZES[size_index]
    r = rank - _OFFSETS[size_index]
    chosen = []
    for k in range(size, 0, -1):
        row = _COLEX[k]
        c = bisect_right(row, r) - 1  # the largest c with C(c, k) <= r
        chosen.append(c)
        r -= row[c]
    return tuple(sorted(NUMBER_MIN + c for c in chosen))


def corner_numbers(seed: int, serial: int, corner: Corner) -> Numbers:
    """The numbers behind ``corner`` of card ``serial`` in the event with ``seed``."""
    if not 0 <= serial <= MAX_SERIAL:
        raise ValueError(f"card serial {serial} is outside 0..{MAX_SERIAL}")
    return _unrank(_permute(_seed_key(seed), serial * 4 + corner.value))


def make_card(seed: int, serial: int, name: str) -> Card:
    n = [corner_numbers(seed, serial, c) for c in CORNERS]
    return Card(serial, name, (n[0], n[1], n[2], n[3]))


def packet(seed: int, first_serial: int, name: str) -> tuple[Card, ...]:
    """The :data:`PACKET_SIZE` cards ``first_serial``, ``first_serial + 1``… bearing ``name``."""
    return tuple(make_card(seed, first_serial + i, name) for i in range(PACKET_SIZE))


def corner_problem(numbers: Numbers) -> str | None:
    """Why ``numbers`` cannot be a printed corner, or ``None`` when it can."""
    if not SET_SIZES[0] <= len(numbers) <= SET_SIZES[-1]:
        return f"a corner shows {SET_SIZES[0]} to {SET_SIZES[-1]} numbers, not {len(numbers)}"
    if any(not isinstance(n, int) or isinstance(n, bool) or not NUMBER_MIN <= n <= NUMBER_MAX for n in numbers):
        return f"corner numbers run from {NUMBER_MIN} to {NUMBER_MAX}"
    if list(numbers) != sorted(set(numbers)):
        return "a corner's numbers are distinct and listed ascending"
    return None


def cards_problem(cards: tuple[Card, ...]) -> str | None:
    """Why ``cards`` cannot all be cards of one event (a repeated serial, a corner set
    shown twice, a malformed corner), or ``None``."""
    serials = [c.serial for c in cards]
    if len(set(serials)) != len(serials):
        return "a card serial appears twice"
    seen: set[Numbers] = set()
    for card in cards:
        if len(card.corners) != len(CORNERS):
            return f"card {card.serial} has {len(card.corners)} corners, not 4"
        for numbers in card.corners:
            problem = corner_problem(numbers)
            if problem is not None:
                return f"card {card.serial}: {problem}"
            if numbers in seen:
                return f"card {card.serial} repeats a corner set another corner shows"
            seen.add(numbers)
    return None
