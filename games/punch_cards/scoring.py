"""Scoring as the rulebook says: one point for every different name in a collection, the
player's own included; a tied high score is broken by the names held twice, then three
times, and so on until a winner is determined.

A collection's *levels* are ``(names held at least once, at least twice, …)``: the score
is the first level and the tie-breaks are the others, so comparing levels as tuples
(longer wins when one is a prefix of the other) is exactly the rulebook's order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


def levels(names_held: Iterable[str]) -> tuple[int, ...]:
    """How many different names ``names_held`` (one entry per card) holds at least once,
    at least twice, …: ``("Ann", "Ann", "Bo")`` → ``(2, 1)``."""
    return levels_of_copies(Counter(names_held).values())


def levels_of_copies(copies: Iterable[int]) -> tuple[int, ...]:
    """:func:`levels` from the number of copies held of each different name."""
    names_with: dict[int, int] = {}
    for n in copies:
        names_with[n] = names_with.get(n, 0) + 1
    out = []
    at_least = 0
    for k in range(max(names_with, default=0), 0, -1):
        at_least += names_with.get(k, 0)
        out.append(at_least)
    return tuple(reversed(out))


def points(names_held: Iterable[str]) -> int:
    """The score: one point per different name held."""
    return next(iter(levels(names_held)), 0)


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings.  ``rank`` 1 is the winner (several only when
    every tie-break level is equal); ``copies`` are the tie-break levels (names held at
    least twice, three times…); ``cards`` the cards held."""

    rank: int
    name: str
    points: int
    copies: tuple[int, ...]
    cards: int


def standings(collections: Mapping[str, Iterable[str]]) -> tuple[Standing, ...]:
    """Every player (name → the names on the cards they hold), best first.

    The rulebook's tie-break decides the winner; the same order ranks everyone below too
    (it changes no score).  Players equal at every level share a rank (1, 2, 2, 4…), and
    are listed by name."""
    return standings_of_copies({player: Counter(held) for player, held in collections.items()})


def standings_of_copies(copies: Mapping[str, Mapping[str, int]]) -> tuple[Standing, ...]:
    """:func:`standings` from each player's copies held per name (the ledger's counts)."""
    rows = sorted(
        ((levels_of_copies(held.values()), name, sum(held.values())) for name, held in copies.items()),
        key=lambda row: row[1].casefold(),
    )
    rows.sort(key=lambda row: row[0], reverse=True)
    out: list[Standing] = []
    for i, (lv, name, cards) in enumerate(rows):
        rank = out[-1].rank if out and rows[i - 1][0] == lv else i + 1
        out.append(Standing(rank, name, lv[0] if lv else 0, lv[1:], cards))
    return tuple(out)
