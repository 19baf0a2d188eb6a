"""The choices made before a Big Time Boxing fight: its length and the optional rules."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.big_time_boxing.cards import BOXER_CARDS, RESULT_CARDS

FIGHT_LENGTHS: dict[int, tuple[int, int]] = {12: (24, 36), 10: (21, 30), 8: (18, 24), 6: (15, 18), 4: (12, 12)}
"""Rounds -> (starting maximum energy, starting maximum health): the rulebook's chart."""


class AttributeDraw(Enum):
    """How the three Attribute cards each boxer fights with are chosen (optional rule).

    CHOSEN: the boxers alternately pick three from their own set of twelve.  RANDOM: three
    each at random.  MIXED: the rulebook's example, one at random and then two picked
    alternately."""

    OFF = "off"
    CHOSEN = "chosen"
    RANDOM = "random"
    MIXED = "mixed"


ATTRIBUTES_PER_FIGHT = 3
ANSWER_US = 4_000_000
"""How long a window stays open by default: time to read the punch and find a card."""


@dataclass(frozen=True)
class BigTimeBoxingOptions:
    """``rounds``: 4, 6, 8, 10 or 12 (4 is the rulebook's first fight).

    Optional rules: ``three_knockdown_tko`` (three knockdowns in a fight stop it),
    ``shuffle_every_round`` ("If You Like to Shuffle"), ``sketchy_judges`` (tied
    scorecards go to the boxer who caused more knockdowns, then more injuries),
    ``saving_for_later`` (Move Away may keep its card face down for a later round),
    ``attributes`` (Attribute cards and how they are drawn), ``thinky`` (each boxer plays
    only his own set of 24 Boxer cards: seat 0 the plain set, seat 1 the gloves-hanging set).

    ``first_player``: who goes first in odd rounds (``None``: the seed decides, the
    rulebook's "any random method").  ``boxer_order`` and ``result_order`` prearrange the
    first shuffle of the Boxer cards (every id once; each boxer is dealt his 12 in this
    order, seat 0 first, the first four into hand) and of the Result deck (top first), for
    demos, HIL scenarios and tests; later shuffles use the seed.

    ``answer_us``: how long the cabinet keeps each window (response, combo, escape,
    trapped response) open for an answer, in µs.  The engine reads no clock and never
    uses it; it lives here so that the fight's record carries it (a resumed fight keeps
    its windows) and the ring display can count a window down.  The cabinet closes a
    window whose time is up with :class:`~games.big_time_boxing.actions.WindowClosed`."""

    rounds: int = 4
    three_knockdown_tko: bool = True
    shuffle_every_round: bool = False
    sketchy_judges: bool = False
    saving_for_later: bool = False
    attributes: AttributeDraw = AttributeDraw.OFF
    thinky: bool = False
    first_player: int | None = None
    boxer_order: tuple[int, ...] | None = None
    result_order: tuple[int, ...] | None = None
    answer_us: int = ANSWER_US

    def __post_init__(self) -> None:
        if self.rounds not in FIGHT_LENGTHS:
            lengths = ", ".join(str(n) for n in sorted(FIGHT_LENGTHS))
            raise ValueError(f"rounds must be one of {lengths}, not {self.rounds!r}")
        if self.first_player not in (None, 0, 1):
            raise ValueError(f"first_player must be 0, 1 or None (decided by the seed), not {self.first_player!r}")
        if isinstance(self.answer_us, bool) or not isinstance(self.answer_us, int) or self.answer_us <= 0:
            raise ValueError(f"answer_us must be a positive number of µs (4_000_000 is 4 s), not {self.answer_us!r}")
        for name, order, size in (
            ("boxer_order", self.boxer_order, BOXER_CARDS),
            ("result_order", self.result_order, RESULT_CARDS),
        ):
            if order is not None and sorted(order) != list(range(size)):
                raise ValueError(f"{name} must name every card id 0..{size - 1} once, or be None to shuffle")

    @property
    def starting_energy(self) -> int:
        return FIGHT_LENGTHS[self.rounds][0]

    @property
    def starting_health(self) -> int:
        return FIGHT_LENGTHS[self.rounds][1]
