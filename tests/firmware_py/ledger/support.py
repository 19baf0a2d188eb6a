"""Helpers for the ledger tests (no tests here): the event's seed, a cheap PIN hash, and
finished duels with a chosen winner.  It imports no pytest: the cabinet processes the
crash tests start (cabinet_writer) import it, each paying its import time."""

from __future__ import annotations

from firmware_py.games.punch_cards.ledger import PinHasher
from games.punch_cards import CORNERS, Answer, Call, CallIt, DuelOptions, PickCorner, PunchCardsDuel, Stake, judge

FAST_PINS = PinHasher(n=16, r=1, p=1)
"""scrypt at a token cost: the tests hash hundreds of PINs."""
SEED = 2024


def decided_duel(options: DuelOptions, winner: int, stakes: tuple[int, int] | None = None) -> PunchCardsDuel | None:
    """A finished duel that ``winner`` (a seat) wins, staking ``stakes`` (serials; default:
    the first pair of cards with which it can win), or ``None`` when no pair can."""
    assert options.collections is not None
    pairs = (
        [stakes]
        if stakes is not None
        else [(a.serial, b.serial) for a in options.collections[0] for b in options.collections[1]]
    )
    cards = {c.serial: c for side in options.collections for c in side}
    for a, b in pairs:
        for ca in CORNERS:
            for cb in CORNERS:
                for call in (Call.HIGH, Call.LOW):
                    numbers = (cards[a].numbers(ca), cards[b].numbers(cb))
                    if judge((call, call), numbers).winner == winner:
                        duel = PunchCardsDuel(options, 2, 0)
                        if options.may_refuse:
                            duel.apply(Answer(1, True))
                        for action in (Stake(0, a), Stake(1, b), PickCorner(0, ca), PickCorner(1, cb)):
                            duel.apply(action)
                        duel.apply(CallIt(0, call))
                        duel.apply(CallIt(1, call))
                        assert duel.outcome() is not None and duel.outcome().winner == winner
                        return duel
    return None
