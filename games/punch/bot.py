"""Today's computer boxer (the exhibition's): legal, seeded, and sensible to watch.

It decides from its own view only (its hand and what is on the table), never from the
opponent's hidden cards, so it is a fair opponent on the cabinet.  It plays a random
card with two rules of thumb, so it is barely stronger than chance (52 % of matches
against random play); the difficulty ladder is :mod:`games.punch.levels`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.bots import Bot
from games.punch.actions import Draft, PlayCard, Redeal
from games.punch.cards import CARDS, HAND_SIZE, Card
from games.punch.engine import MAX_STAMINA
from games.punch.views import Phase, PunchPlayerView

PunchAction = PlayCard | Redeal | Draft


class PunchBot(Bot[PunchPlayerView, PunchAction]):
    """Re-deals every hand it may (4+ of one kind) and keeps the rest, drafts balanced
    hands, and plays a card drawn from its hand at random, except that it throws its biggest
    punch when one punch can knock the opponent out, and does not rest when its stamina is
    already full."""

    def decide(self, view: PunchPlayerView, legal: Sequence[PunchAction]) -> PunchAction:
        player = view.player
        phase = view.public.phase
        if phase is Phase.REDEAL:
            return Redeal(player, view.redeal_offered)
        if phase is Phase.DRAFT and view.draft_pool is not None:
            return Draft(player, balanced_hand(view.draft_pool, self.rng))
        if phase is Phase.EXCHANGE and view.locked_card is None:
            return PlayCard(player, self._card(view))
        raise ValueError(f"player {player} has nothing to do now")

    def _card(self, view: PunchPlayerView) -> Card:
        stamina = view.public.stamina
        me, opponent = view.player, 1 - view.player
        held = [card for card, count in zip(CARDS, view.hand) for _ in range(count)]
        finishers = [card for card in held if card.punch >= stamina[opponent]]
        if finishers:
            return max(finishers, key=lambda card: card.punch)
        if stamina[me] == MAX_STAMINA:
            held = [card for card in held if card is not Card.DO_NOTHING] or held
        return self.rng.choice(held)


def balanced_hand(pool: tuple[int, ...], rng: random.Random) -> tuple[Card, ...]:
    """Ten cards taken one at a time from whichever kind has most left, ties by chance."""
    left = list(pool)
    hand: list[Card] = []
    while len(hand) < HAND_SIZE:
        most = max(left)
        kind = rng.choice([i for i, n in enumerate(left) if n == most])
        left[kind] -= 1
        hand.append(CARDS[kind])
    return tuple(sorted(hand, key=CARDS.index))
