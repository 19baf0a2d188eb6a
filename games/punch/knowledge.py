"""What one boxer knows when choosing: their own cards, the table, and the opponent's
cards not yet revealed.

Everything here comes from the boxer's own view (:class:`~games.punch.views.PunchPlayerView`).
The opponent's hand is secret, but the rules make the rest public: each deck holds 5 of
every kind and every revealed card is counted (``played``), so the opponent's *unseen*
cards (this round's hand plus the cards for later rounds) are known exactly.  Which of
them are in this round's hand is not, except in round 3, when the hand is all that is
left.  A dealt hand is a random part of the unseen cards, so its expected make-up is the
unseen cards in proportion (an attentive person reasons the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from games.punch.cards import CARDS, COPIES_PER_KIND
from games.punch.views import PunchPlayerView

KINDS = len(CARDS)


@dataclass(frozen=True)
class Knowledge:
    """One boxer's knowledge at the start of an exchange (or of a round, for a draft).

    ``cards_left``: cards each boxer still plays this round, this exchange's included.
    ``hand``/``deck``: the boxer's own hand and the cards for later rounds (counts in
    card order).  ``theirs``: the opponent's unseen cards, hand and later rounds together.
    """

    round: int
    cards_left: int
    stamina: int
    their_stamina: int
    hand: tuple[int, ...]
    deck: tuple[int, ...]
    theirs: tuple[int, ...]
    no_mercy: bool

    @property
    def mine(self) -> tuple[int, ...]:
        """My unseen cards, as the opponent counts them."""
        return tuple(h + d for h, d in zip(self.hand, self.deck))


def knowledge_of(view: PunchPlayerView, hand: tuple[int, ...] | None = None) -> Knowledge:
    """The knowledge ``view`` gives its boxer.  ``hand`` replaces the boxer's hand (a draft
    being considered); the deck is then what the rest of the boxer's unseen cards are."""
    public = view.public
    me, them = view.player, 1 - view.player
    mine = tuple(COPIES_PER_KIND - n for n in public.played[me])
    theirs = tuple(COPIES_PER_KIND - n for n in public.played[them])
    if hand is None:
        hand = view.hand
        if view.locked_card is not None:  # chosen but not revealed: still in this exchange
            hand = tuple(n + (i == view.locked_card.index) for i, n in enumerate(hand))
    deck = tuple(m - h for m, h in zip(mine, hand))
    return Knowledge(
        round=public.round,
        cards_left=sum(hand),
        stamina=public.stamina[me],
        their_stamina=public.stamina[them],
        hand=hand,
        deck=deck,
        theirs=theirs,
        no_mercy=public.options.no_mercy,
    )


def expected_hand(unseen: tuple[int, ...], size: int) -> tuple[float, ...]:
    """The average make-up of a hand of ``size`` drawn at random from ``unseen``."""
    total = sum(unseen)
    if total == 0:
        return (0.0,) * len(unseen)
    return tuple(n * size / total for n in unseen)


def holding_chances(unseen: tuple[int, ...], size: int) -> tuple[float, ...]:
    """For each kind, the chance that a random hand of ``size`` from ``unseen`` holds one."""
    total = sum(unseen)
    if size >= total:
        return tuple(1.0 if n else 0.0 for n in unseen)
    ways = comb(total, size)
    return tuple(1.0 - comb(total - n, size) / ways if n else 0.0 for n in unseen)
