"""What the phones are shown, read from the ledger in one go: the standings (the ledger's
own scoring and tie-breaks), each player's cards, who holds their name-cards, their
duels, and the closing time.  Only what the standings show: names, serials, counts and
times; never a PIN hash, the event seed, an idempotency key or a cabinet's name."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from firmware_py.games.punch_cards.ledger import DuelRecord, Ledger
from games.punch_cards import Standing, name_key

DUELS_KEPT = 2_000
"""The newest duels a snapshot keeps for the players' pages (a busy convention day is a
few hundred; older ones drop off a player's list, never off the standings)."""
CONSISTENT_TRIES = 3
"""Reads of the whole snapshot before one that saw no new entry meanwhile is given up on
(the newest read is used then; the next change reads again)."""


@dataclass(frozen=True)
class Duel:
    """One duel as a player's page lists it: ``won`` from the page's player's side."""

    at_us: int
    rival: str
    won: bool
    card: int
    voided: bool


@dataclass(frozen=True)
class PlayerPage:
    standing: Standing
    held: tuple[tuple[int, str], ...]
    """The cards the player holds: (serial, name written on it), by serial."""
    name_cards: tuple[tuple[int, str], ...]
    """The cards bearing the player's name: (serial, who holds it), by serial."""
    duels: tuple[Duel, ...]
    """Newest first."""


@dataclass(frozen=True)
class Snapshot:
    entry: int
    """The ledger's newest entry when read: a new entry means new standings."""
    read_at_us: int
    """The ledger's clock when read (the "as of" time)."""
    closing_us: int | None
    standings: tuple[Standing, ...]
    players: dict[str, PlayerPage]
    """By :func:`~games.punch_cards.name_key` of the name (the URL's name ignores case)."""

    def find(self, text: str) -> tuple[Standing, ...]:
        """The players whose names contain ``text`` (ignoring case and spacing), in
        standings order."""
        key = name_key(text)
        return tuple(s for s in self.standings if key in name_key(s.name)) if key else ()


def _duels_of(records: tuple[DuelRecord, ...]) -> dict[str, list[Duel]]:
    out: dict[str, list[Duel]] = defaultdict(list)
    for d in records:  # newest first, as the ledger gives them
        voided = d.voided_by is not None
        out[d.challenger].append(Duel(d.at_us, d.challenged, d.winner == d.challenger, d.card, voided))
        out[d.challenged].append(Duel(d.at_us, d.challenger, d.winner == d.challenged, d.card, voided))
    return out


def read_once(ledger: Ledger) -> Snapshot:
    """One reading through the ledger's public read calls (each its own transaction)."""
    entry = ledger.last_entry()
    standings = ledger.standings()
    holdings = ledger.holdings()
    duels = _duels_of(ledger.recent_duels(DUELS_KEPT))
    held: dict[str, list[tuple[int, str]]] = defaultdict(list)
    bearing: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for serial, (name_of, holder) in sorted(holdings.items()):
        held[holder].append((serial, name_of))
        bearing[name_of].append((serial, holder))
    players = {
        name_key(s.name): PlayerPage(s, tuple(held[s.name]), tuple(bearing[s.name]), tuple(duels[s.name]))
        for s in standings
    }
    return Snapshot(entry, ledger.now_us(), ledger.closing_time(), standings, players)


def read_snapshot(ledger: Ledger) -> Snapshot:
    """A snapshot no entry was recorded in the middle of: read again while the ledger's
    newest entry moved on during the reading (a duel between the standings and the cards)."""
    snapshot = read_once(ledger)
    for _ in range(CONSISTENT_TRIES - 1):
        if ledger.last_entry() == snapshot.entry:
            break
        snapshot = read_once(ledger)
    return snapshot
