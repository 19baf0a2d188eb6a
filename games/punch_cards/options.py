"""What a duel is set up with: the duellists' collections and the challenge rule's answer."""

from __future__ import annotations

from dataclasses import dataclass

from games.punch_cards.cards import Card


@dataclass(frozen=True)
class DuelOptions:
    """Seat 0 is the challenger, seat 1 the challenged.

    ``collections``: the cards each duellist holds (from the ledger), from which each
    stakes one.  ``None``: an exhibition duel in which each seat holds a fresh packet
    drawn from the game's seed (what tests and the generic playout use).

    ``may_refuse``: the challenge rule allows seat 1 to refuse (the ledger decides it from
    the event's history with :func:`games.punch_cards.challenge.may_refuse`); when
    ``False`` the challenge must be accepted and the duel starts with the stakes."""

    collections: tuple[tuple[Card, ...], ...] | None = None
    may_refuse: bool = False
