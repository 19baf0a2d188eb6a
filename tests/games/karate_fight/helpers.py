"""Helpers for the Karate Fight tests: stacked decks, a test clock, a stamp-ordering
buffer like the session's settle window.  (No tests here.)"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

from games.karate_fight import (
    CARD_KINDS,
    CardKind,
    KarateFight,
    KarateOptions,
    PlayTop,
    Shown,
    Sign,
    Slaps,
    Throw,
)
from games.protocol import Action, Event

SHORT = {
    "C": CardKind.CHOP,
    "P": CardKind.PUNCH,
    "K": CardKind.KICK,
    "T": CardKind.THROW,
    "d": CardKind.DODGE,
    "b": CardKind.BLOCK,
    "j": CardKind.JUMP,
    "e": CardKind.EVADE,
    "S": CardKind.STRIKE,
    "X": CardKind.COUNTER,
    "J": CardKind.JAN_KEN,
}
"""One letter per card kind: attacks upper case, defenses lower case, skills S X J."""


def stacked(*piles: str) -> tuple[tuple[int, ...], ...]:
    """Card ids for piles written as letters, top card first (``"Cdb"``)."""
    free: dict[CardKind, list[int]] = {}
    for card, kind in enumerate(CARD_KINDS):
        free.setdefault(kind, []).append(card)
    return tuple(tuple(free[SHORT[ch]].pop(0) for ch in pile) for pile in piles)


def fight(*piles: str, grace_us: int = 500_000, first: int = 0) -> KarateFight:
    """A fight with a prearranged deal (cards not named are set aside)."""
    options = KarateOptions(grace_us=grace_us, first_fighter=first, deal=stacked(*piles))
    return KarateFight(options, len(piles), seed=0)


def kinds(cards: Iterable[int]) -> str:
    inverse = {v: k for k, v in SHORT.items()}
    return "".join(inverse[CARD_KINDS[c]] for c in cards)


def play(e: KarateFight, fighter: int | None = None, dt: int = 100_000) -> list[Event]:
    """The fighter to act (default: whose turn it is) plays; the display shows it 20 ms later
    (unless the card ended a bout at once)."""
    who = e.turn if fighter is None else fighter
    assert who is not None
    events = list(e.apply(PlayTop(who, e.now + dt)))
    if e.awaiting_reveal:
        events += e.apply(Shown(t_us=e.now + 20_000))
    return events


def play_all(e: KarateFight, n: int) -> list[Event]:
    events: list[Event] = []
    for _ in range(n):
        events += play(e)
    return events


def slap(e: KarateFight, *fighters: int, dt: int = 200_000) -> list[Event]:
    return list(e.apply(Slaps(t_us=e.now + dt, fighters=tuple(fighters))))


def throw(e: KarateFight, signs: dict[int, str]) -> list[Event]:
    """Throw signs given as letters r/p/s."""
    names = {"r": Sign.ROCK, "p": Sign.PAPER, "s": Sign.SCISSORS}
    events: list[Event] = []
    for f, s in signs.items():
        events += e.apply(Throw(f, names[s]))
    return events


def of_type(events: Iterable[Event], kind: type) -> list:
    return [ev for ev in events if isinstance(ev, kind)]


class StampOrderingBuffer:
    """The session's settle window, in miniature: every stamped input is held until
    more than ``settle_us`` after its stamp, then released in stamp order (a reveal before slaps at
    the same µs; slaps with one stamp batched)."""

    def __init__(self, settle_us: int) -> None:
        self.settle_us = settle_us
        self.held: list[tuple[int, int, int, int]] = []
        """(stamp, rank, seq, fighter) — rank 0 reveal, 1 slap; fighter −1 for a reveal."""
        self.seq = 0

    def arrive(self, at_us: int, stamp_us: int, fighter: int | None) -> list[Action]:
        """An input arrives at ``at_us``; returns what became due before it."""
        due = self.release(at_us)
        heapq.heappush(self.held, (stamp_us, 0 if fighter is None else 1, self.seq, -1 if fighter is None else fighter))
        self.seq += 1
        return due

    def release(self, now_us: int) -> list[Action]:
        out: list[Action] = []
        while self.held and self.held[0][0] + self.settle_us < now_us:
            stamp, rank, _, fighter = heapq.heappop(self.held)
            if rank == 0:
                out.append(Shown(t_us=stamp))
                continue
            batch = [fighter]
            while self.held and self.held[0][0] == stamp and self.held[0][1] == 1:
                batch.append(heapq.heappop(self.held)[3])
            out.append(Slaps(t_us=stamp, fighters=tuple(sorted(batch))))
        return out


def deliver(arrivals: Sequence[tuple[int, int, int | None]], settle_us: int) -> list[Action]:
    """Inputs ``(arrival_us, stamp_us, fighter or None for the reveal)`` through a
    :class:`StampOrderingBuffer`, in arrival order; then everything left is flushed."""
    buffer = StampOrderingBuffer(settle_us)
    out: list[Action] = []
    for at, stamp, fighter in sorted(arrivals, key=lambda a: a[0]):
        out += buffer.arrive(at, stamp, fighter)
    return out + buffer.release(max(a[1] for a in arrivals) + settle_us + 1)
