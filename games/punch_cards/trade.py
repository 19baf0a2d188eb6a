"""Trades: two signed-in players agree what changes hands, and only then does anything.

"Players can always trade if they want, rather than fighting."  At the cabinet each
player picks cards of their own to give; a confirmation names the exact offer it agrees
to, so changing the offer after the other side confirmed needs their confirmation again.
The ledger records an agreed :class:`TradeOffer` as one entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.punch_cards.cards import Card


class TradeRefused(ValueError):
    """An offer or confirmation the rules do not allow; the message says why."""


@dataclass(frozen=True)
class TradeOffer:
    """The serials each side gives: ``gives[0]`` from the first player to the second,
    ``gives[1]`` the other way.  Each side gives at least one card (a trade, not a gift)."""

    gives: tuple[tuple[int, ...], tuple[int, ...]]


class TradeTable:
    """Two players' collections while they agree on a trade."""

    def __init__(self, collections: tuple[tuple[Card, ...], tuple[Card, ...]]) -> None:
        self.held = tuple(frozenset(c.serial for c in cards) for cards in collections)
        self.offer = TradeOffer(((), ()))
        self.confirmed = [False, False]

    def propose(self, seat: int, serials: tuple[int, ...]) -> TradeOffer:
        """``seat`` sets the cards it gives; both confirmations are cleared."""
        if seat not in (0, 1):
            raise TradeRefused(f"a trade has seats 0 and 1, not {seat}")
        if len(set(serials)) != len(serials):
            raise TradeRefused("a card is offered twice")
        foreign = [s for s in serials if s not in self.held[seat]]
        if foreign:
            raise TradeRefused(f"you do not hold card {foreign[0]}")
        gives = list(self.offer.gives)
        gives[seat] = tuple(sorted(serials))
        self.offer = TradeOffer((gives[0], gives[1]))
        self.confirmed = [False, False]
        return self.offer

    def confirm(self, seat: int, offer: TradeOffer) -> None:
        """``seat`` agrees to ``offer``, which must be the offer on the table now."""
        if seat not in (0, 1):
            raise TradeRefused(f"a trade has seats 0 and 1, not {seat}")
        if offer != self.offer:
            raise TradeRefused("the offer has changed: look at it again before confirming")
        if not offer.gives[0] or not offer.gives[1]:
            raise TradeRefused("each side gives at least one card")
        self.confirmed[seat] = True

    @property
    def agreed(self) -> TradeOffer | None:
        """The offer both confirmed, ready for the ledger; ``None`` until then."""
        return self.offer if all(self.confirmed) else None
