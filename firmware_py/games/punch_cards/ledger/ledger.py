"""The Punch Cards ledger: the truth about who holds which card, for the whole event.

One storage interface over either backend (:mod:`firmware_py.games.punch_cards.ledger.backends`).  Every
registration, re-entry, duel, trade, void and closing-time change is one transaction that
writes an entry (with its idempotency key and the game's last action), the card moves it
makes, and the holders those moves give; it either commits whole or leaves nothing.  A
retried call with the same key returns the first call's receipt and records nothing new.
Nothing is ever deleted: a void is a new entry whose moves undo the voided one's, and
standings follow the holders.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from firmware_py.games.punch_cards.ledger.backends import Backend, Tx, open_backend
from firmware_py.games.punch_cards.ledger.errors import (
    IdempotencyConflict,
    LedgerClosed,
    LedgerDamaged,
    LedgerError,
    LedgerRefused,
    LedgerUnusable,
    PinLocked,
    StaleCards,
    UnknownPlayer,
    WrongPin,
)
from firmware_py.games.punch_cards.ledger.export import standings_csv, standings_html
from firmware_py.games.punch_cards.ledger.pins import (
    WRONG_PINS_BEFORE_LOCKOUT,
    PinHasher,
    PinState,
    check_pin,
    verify_pin,
)
from firmware_py.games.punch_cards.ledger.schema import SCHEMA_VERSION
from firmware_py.games.punch_cards.ledger.values import (
    corners,
    json_object,
    maybe_text,
    maybe_whole,
    text,
    whole,
    whole_text,
)
from games.codec import encode
from games.punch_cards import (
    CORNERS,
    PACKET_SIZE,
    Card,
    DuelEnd,
    DuelOptions,
    NameProblem,
    NameRefused,
    PunchCardsDuel,
    Standing,
    TradeOffer,
    make_card,
    may_refuse,
    name_key,
    normalise_name,
    standings_of_copies,
)

T = TypeVar("T")
log = logging.getLogger("ringside.ledger")
_TOLD: set[tuple[str, str]] = set()
"""Damage already logged, by ledger: one line each per process, however often it is read
(the leaderboard reads every few seconds, and a ledger that cannot open is opened again)."""


class EntryKind(Enum):
    REGISTER = "register"
    REENTER = "reenter"
    DUEL = "duel"
    TRADE = "trade"
    VOID = "void"
    CLOSE = "close"


VOIDABLE = (EntryKind.DUEL, EntryKind.TRADE)
"""What the operator may void: a mistaken duel or trade.  Registrations and re-entries
issue cards, and a card must always have a holder."""
CLOSES = (EntryKind.REGISTER, EntryKind.REENTER, EntryKind.DUEL, EntryKind.TRADE)
"""What the closing time stops (voids and a new closing time still go in)."""


@dataclass(frozen=True)
class Move:
    """Card ``card`` went from ``giver`` (``None``: newly issued) to ``taker``."""

    card: int
    giver: str | None
    taker: str


@dataclass(frozen=True)
class Receipt:
    """What an entry recorded.  ``repeated``: this call's idempotency key had been used by
    an earlier, identical call, whose receipt this is; nothing new was recorded."""

    entry: int
    kind: EntryKind
    at_us: int
    moves: tuple[Move, ...]
    repeated: bool = False


@dataclass(frozen=True)
class Entry:
    """One line of the ledger's history."""

    id: int
    kind: EntryKind
    at_us: int
    cabinet: str
    voids: int | None
    voided_by: int | None
    last_action: dict[str, Any]


@dataclass(frozen=True)
class DuelRecord:
    """A recorded duel as the operator sees it when voiding one: who fought whom, who
    won, the card that moved, and the void that undid it (if any)."""

    entry: int
    at_us: int
    cabinet: str
    challenger: str
    challenged: str
    winner: str
    card: int
    voided_by: int | None


_OPEN = "open"
"""The closing time's value when none is set (or it was lifted)."""


def _corners_text(card: Card) -> str:
    return "|".join(",".join(map(str, numbers)) for numbers in card.corners)


def _card_from_row(serial: object, name_of: object, name: object, numbers: object) -> Card:
    """A card as the ledger keeps it (serial, the player whose name it bears and that
    name, its corner sets)."""
    card = whole(serial, "cards.serial")
    return Card(
        card,
        text(name, f"players.name of player {name_of}"),
        corners(numbers, f"cards.corners of card {card}"),
    )


def _kind(value: object, where: str) -> EntryKind:
    try:
        return EntryKind(value)
    except ValueError:
        raise LedgerDamaged(where, value, "an entry's kind") from None


def _lookup_key(name: object) -> str:
    """The key a player is looked up by; a name no player can have (not text, a NUL, a
    lone surrogate: none is ever registered, and PostgreSQL cannot even be asked) is
    :class:`UnknownPlayer` before the ledger is asked."""
    if isinstance(name, str) and "\x00" not in name:
        try:
            key = name_key(name)
            key.encode("utf-8")
            return key
        except UnicodeError:
            pass
    raise UnknownPlayer(f"nobody is registered as {name!r}")


def _known(names: dict[int, str], player: object, where: str) -> str:
    """The name of ``player`` (an id read from ``where``) among ``names``."""
    found = names.get(whole(player, where)) if type(player) is int else None
    if found is None:
        raise LedgerDamaged(where, player, "a registered player's id")
    return found


def _duel_of(record: object, where: str) -> PunchCardsDuel:
    """A duel rebuilt from its stored record; a record no duel wrote is damage."""
    found = json_object(record, where)
    try:
        duel = PunchCardsDuel.from_dict(found)
    except Exception:  # the engine's own reading of a record it never wrote: any error
        raise LedgerDamaged(where, record, "a duel's record") from None
    if not isinstance(duel, PunchCardsDuel):
        raise LedgerDamaged(where, record, "a duel's record")
    return duel


def _canonical(request: dict[str, Any]) -> str:
    return json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Ledger:
    """The ledger at ``url`` (see :func:`open_backend`).

    The ledger's own clock (Unix µs) times its entries and decides the closing time and
    PIN lockouts: the server's on PostgreSQL, so cabinets whose clocks disagree still
    agree on when the event closed and how long a lockout lasts (one clock decides); the
    machine's that holds the file on SQLite.  ``clock`` replaces it (tests, replays).  ``event_seed`` is used only when the ledger is new; it is then kept in the
    ledger (a secret: it decides every card's numbers) and drawn at random if not given.
    ``pin_hasher`` sets the cost of new PIN hashes."""

    def __init__(
        self,
        url: str | Path,
        *,
        event_seed: int | None = None,
        clock: Callable[[], int] | None = None,
        pin_hasher: PinHasher | None = None,
        cabinet: str = "",
    ) -> None:
        self.backend: Backend = open_backend(url)
        self.clock = clock
        self.pin_hasher = pin_hasher or PinHasher()
        self.cabinet = cabinet
        try:
            self.backend.create_schema()
            self.event_seed = self._run(lambda tx: self._meta_setup(tx, event_seed))
        except BaseException:
            self.backend.close()
            raise

    def _meta_setup(self, tx: Tx, event_seed: int | None) -> int:
        found = dict(tx.rows("SELECT key, value FROM meta WHERE key IN ('schema', 'event_seed')"))
        if not found:
            seed = event_seed if event_seed is not None else secrets.randbits(63)
            tx.execute("INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            tx.execute("INSERT INTO meta(key, value) VALUES ('event_seed', ?)", (str(seed),))
            return seed
        version = whole_text(found.get("schema"), "meta row 'schema'")
        if version != SCHEMA_VERSION:
            newer = "a newer Ringside: update this cabinet" if version > SCHEMA_VERSION else "an older Ringside"
            raise LedgerUnusable(
                f"this ledger has schema {version}, from {newer}; this Ringside knows {SCHEMA_VERSION}: "
                "it is left as it is"
            )
        return whole_text(found.get("event_seed"), "meta row 'event_seed'")

    def _run(self, work: Callable[[Tx], T], write: bool = True) -> T:
        """``backend.run``, with damage told: a value the checks refused (one log line per
        damaged place), or one they did not foresee (its error, for the same line), is a
        :class:`LedgerDamaged` for the caller, never an error that stops the cabinet."""
        try:
            return self.backend.run(work, write)
        except LedgerDamaged as e:
            self._tell(e)
            raise
        except (LedgerError, NameRefused):
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            damaged = LedgerDamaged("data", str(e), f"what the ledger writes ({type(e).__name__})")
            self._tell(damaged)
            raise damaged from e

    def _tell(self, damaged: LedgerDamaged) -> None:
        told = (self.backend.place, str(damaged))
        if told not in _TOLD:
            _TOLD.add(told)
            log.warning("Punch Cards ledger %s: %s", self.backend.place, damaged)

    def close(self) -> None:
        self.backend.close()

    def _now(self, tx: Tx) -> int:
        return self.clock() if self.clock is not None else tx.now_us()

    def now_us(self) -> int:
        """The ledger's time now (for a screen that counts down to the closing time)."""
        return self._run(self._now, write=False)

    # -- the one way anything is written ----------------------------------------------
    def _write(
        self,
        kind: EntryKind,
        key: str,
        request: dict[str, Any],
        last_action: dict[str, Any],
        work: Callable[[Tx, int, int], tuple[Move, ...] | None],
        voids: int | None = None,
        first: Callable[[Tx], None] | None = None,
    ) -> Receipt:
        if not isinstance(key, str) or not key or "\x00" in key:
            raise ValueError("every ledger write needs an idempotency key (a non-empty string without NUL)")
        asked = _canonical({"kind": kind.value, **request})

        def transaction(tx: Tx) -> Receipt:
            found = tx.row("SELECT id, request FROM entries WHERE idem_key = ?", (key,))
            if found is not None:
                earlier = whole(found[0], "entries.id")
                if text(found[1], f"entries.request of entry {earlier}") != asked:
                    raise IdempotencyConflict(f"idempotency key {key!r} was used for a different request")
                return self._receipt(tx, earlier, repeated=True)
            now = self._now(tx)
            if kind in CLOSES:
                closing = self._closing(tx)
                if closing is not None and now >= closing:
                    raise LedgerClosed("the event has closed: no more duels, trades or registrations are recorded")
            if first is not None:
                first(tx)
            entry = tx.value(
                "INSERT INTO entries(kind, idem_key, request, at_us, cabinet, voids, last_action) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (kind.value, key, asked, now, self.cabinet, voids, _canonical(last_action)),
            )
            entry = whole(entry, "entries.id")
            moves = work(tx, entry, now)
            if moves is not None:  # the work knows its moves: no reading them back
                return Receipt(entry, kind, now, moves)
            return self._receipt(tx, entry, repeated=False)

        return self._run(transaction)

    def _receipt(self, tx: Tx, entry: int, repeated: bool) -> Receipt:
        kind, at_us = tx.row("SELECT kind, at_us FROM entries WHERE id = ?", (entry,)) or ("", 0)
        moves = tx.rows(
            "SELECT m.card, g.name, t.name FROM moves m LEFT JOIN players g ON g.id = m.giver "
            "JOIN players t ON t.id = m.taker WHERE m.entry = ? ORDER BY m.card",
            (entry,),
        )
        where = f"of entry {entry}"
        return Receipt(
            entry,
            _kind(kind, f"entries.kind {where}"),
            whole(at_us, f"entries.at_us {where}"),
            tuple(
                Move(
                    whole(c, f"moves.card {where}"),
                    maybe_text(g, f"players.name of a giver {where}"),
                    text(t, f"players.name of a taker {where}"),
                )
                for c, g, t in moves
            ),
            repeated,
        )

    def _closing(self, tx: Tx) -> int | None:
        """The closing time (Unix µs), None while none is set."""
        closing = tx.value("SELECT value FROM meta WHERE key = 'closing_us'")
        return None if closing in (None, _OPEN) else whole_text(closing, "meta row 'closing_us'")

    def _player_id(self, tx: Tx, name: str) -> int:
        found = tx.value("SELECT id FROM players WHERE name_key = ?", (_lookup_key(name),))
        if found is None:
            raise UnknownPlayer(f"nobody is registered as {name!r}")
        return whole(found, f"players.id of {name!r}")

    def _move(self, tx: Tx, entry: int, serial: int, giver: int, taker: int, stale: str) -> None:
        if not tx.execute(
            "UPDATE cards SET holder = ?, last_entry = ? WHERE serial = ? AND holder = ?", (taker, entry, serial, giver)
        ):
            raise StaleCards(stale)
        tx.send("INSERT INTO moves(entry, card, giver, taker) VALUES (?, ?, ?, ?)", (entry, serial, giver, taker))

    def _issue_packet(self, tx: Tx, entry: int, player: int, name: str) -> None:
        first = whole(tx.value("SELECT COALESCE(MAX(serial), 0) + 1 FROM cards"), "cards.serial (the highest)")
        cards = [make_card(self.event_seed, serial, name) for serial in range(first, first + PACKET_SIZE)]
        tx.many(
            "INSERT INTO cards(serial, name_of, corners, holder, issued_by, last_entry) VALUES (?, ?, ?, ?, ?, ?)",
            [(card.serial, player, _corners_text(card), player, entry, entry) for card in cards],
        )
        tx.many(
            "INSERT INTO corners(numbers, card, corner) VALUES (?, ?, ?)",
            [
                (",".join(map(str, numbers)), card.serial, corner.value)
                for card in cards
                for corner, numbers in zip(CORNERS, card.corners)
            ],
        )
        tx.many(
            "INSERT INTO moves(entry, card, giver, taker) VALUES (?, ?, NULL, ?)",
            [(entry, card.serial, player) for card in cards],
        )

    # -- registration and sign-in -------------------------------------------------------
    def register(self, key: str, name: object, pin: object) -> Receipt:
        """A new player with a packet of five cards bearing their name.  Refused with
        :class:`NameRefused` (saying why) or :class:`PinRefused` before anything is written."""
        clean = normalise_name(name)
        pin_hash = self.pin_hasher.hash(check_pin(pin))

        def work(tx: Tx, entry: int, _now: int) -> None:
            if tx.value("SELECT id FROM players WHERE name_key = ?", (name_key(clean),)) is not None:
                raise NameRefused(NameProblem.TAKEN, f"the name {clean!r} is taken (names ignore case and spacing)")
            player = whole(
                tx.value(
                    "INSERT INTO players(name, name_key, pin_hash, entry) VALUES (?, ?, ?, ?) RETURNING id",
                    (clean, name_key(clean), pin_hash, entry),
                ),
                "players.id",
            )
            self._issue_packet(tx, entry, player, clean)

        return self._write(EntryKind.REGISTER, key, {"name": clean}, {"type": "Register", "name": clean}, work)

    def reenter(self, key: str, name: str) -> Receipt:
        """A fresh packet for a player who has no cards left (same name)."""

        def work(tx: Tx, entry: int, _now: int) -> None:
            player = self._player_id(tx, name)
            held = whole(tx.value("SELECT COUNT(*) FROM cards WHERE holder = ?", (player,)), "cards.holder")
            if held:
                raise LedgerRefused(
                    f"{name} still holds {held} card{'s' if held != 1 else ''}: re-entry is for players with none"
                )
            official = text(
                tx.value("SELECT name FROM players WHERE id = ?", (player,)), f"players.name of player {player}"
            )
            self._issue_packet(tx, entry, player, official)

        lookup = _lookup_key(name)
        return self._write(EntryKind.REENTER, key, {"name": lookup}, {"type": "Reenter", "name": name}, work)

    def sign_in(self, name: str, pin: str) -> str:
        """The player's registered name if ``pin`` is theirs.  Wrong PINs count towards a
        lockout (:class:`WrongPin` says how many tries are left, :class:`PinLocked` when
        locked); a right PIN clears the count.

        Every attempt is counted as wrong, in the same transaction that checks the lock,
        before the slow hash is compared; a right PIN then clears the count.  So cabinets
        guessing one player's PIN at once get no more checks into a lockout window than
        one cabinet would: the lock check and the count are one step.  A PIN that does not
        have a PIN's form (:class:`PinRefused`) is no try: nothing is counted."""
        check_pin(pin)
        lookup = _lookup_key(name)

        def count(tx: Tx) -> tuple[int, str, str, PinState, int]:
            found = tx.row(
                "SELECT id, name, pin_hash, wrong_pins, lockouts, locked_until_us FROM players WHERE name_key = ?",
                (lookup,),
            )
            if found is None:
                raise UnknownPlayer(f"nobody is registered as {name!r}")
            player = whole(found[0], f"players.id of {name!r}")
            where = f"of player {player}"
            official, pin_hash = text(found[1], f"players.name {where}"), text(found[2], f"players.pin_hash {where}")
            wrong, lockouts = (
                whole(found[3], f"players.wrong_pins {where}"),
                whole(found[4], f"players.lockouts {where}"),
            )
            until = maybe_whole(found[5], f"players.locked_until_us {where}")
            now = self._now(tx)
            state = PinState(wrong, lockouts, until)
            if state.locked(now):
                raise PinLocked(None if state.operator_locked else state.locked_until_us, now)
            counted = state.after_wrong_pin(now)
            tx.execute(
                "UPDATE players SET wrong_pins = ?, lockouts = ?, locked_until_us = ? WHERE id = ?",
                (counted.wrong, counted.lockouts, counted.locked_until_us, player),
            )
            return player, official, pin_hash, counted, now

        player, official, pin_hash, counted, now = self._run(count)
        try:
            right = verify_pin(pin, pin_hash)  # slow: outside any transaction
        except ValueError:  # not a hash this ledger wrote (its form, its cost)
            damaged = LedgerDamaged(f"players.pin_hash of player {player}", pin_hash, "a PIN hash")
            self._tell(damaged)
            raise damaged from None
        if right:
            self._run(
                lambda tx: tx.execute(
                    "UPDATE players SET wrong_pins = 0, lockouts = 0, locked_until_us = NULL WHERE id = ?", (player,)
                )
            )
            return official
        if counted.locked(now):
            raise PinLocked(None if counted.operator_locked else counted.locked_until_us, now)
        raise WrongPin(WRONG_PINS_BEFORE_LOCKOUT - counted.wrong)

    def unlock(self, name: str) -> None:
        """The operator lifts a PIN lockout (service menu)."""

        def work(tx: Tx) -> None:
            player = self._player_id(tx, name)
            tx.execute(
                "UPDATE players SET wrong_pins = 0, lockouts = 0, locked_until_us = NULL WHERE id = ?", (player,)
            )

        self._run(work)

    # -- duels and trades ----------------------------------------------------------------
    def duel_options(self, challenger: str, challenged: str) -> DuelOptions:
        """What a duel between these two starts with: their collections now, and whether
        the challenge rule lets ``challenged`` refuse."""

        def read(tx: Tx) -> DuelOptions:
            a, b = self._player_id(tx, challenger), self._player_id(tx, challenged)
            if a == b:
                raise LedgerRefused("a player cannot challenge themselves")
            history = self._duel_pairs(tx)
            return DuelOptions((self._collection(tx, a), self._collection(tx, b)), may_refuse(history, a, b))

        return self._run(read, write=False)

    def record_duel(self, key: str, challenger: str, challenged: str, duel: PunchCardsDuel) -> Receipt:
        """The finished ``duel`` (seat 0 = ``challenger``): the winner takes the loser's
        staked card.  :class:`StaleCards` if either stake is no longer its duellist's (a
        duel over the same card was recorded first elsewhere): then nothing moves."""
        outcome = duel.outcome()
        if outcome is None:
            raise LedgerRefused("only a finished duel is recorded")
        if outcome.how is DuelEnd.REFUSED or outcome.winner is None:
            raise LedgerRefused("a refused challenge is not a duel: no card moves")
        winner_seat = outcome.winner
        stakes = (duel.staked_card(0), duel.staked_card(1))
        assert stakes[0] is not None and stakes[1] is not None
        record = duel.to_dict()
        request = {"challenger": _lookup_key(challenger), "challenged": _lookup_key(challenged), "duel": record}

        def work(tx: Tx, entry: int, _now: int) -> tuple[Move, ...]:
            # As few round trips as the checks allow: both players in one read, both
            # stakes in one, and the writes sent together (pipelined on PostgreSQL).
            keys = (request["challenger"], request["challenged"])
            found = {
                k: (whole(i, f"players.id of {k!r}"), text(n, f"players.name of {k!r}"))
                for i, n, k in tx.rows("SELECT id, name, name_key FROM players WHERE name_key IN (?, ?)", keys)
            }
            for name, key in zip((challenger, challenged), keys):
                if key not in found:
                    raise UnknownPlayer(f"nobody is registered as {name!r}")
            ids = (found[keys[0]][0], found[keys[1]][0])
            if ids[0] == ids[1]:
                raise LedgerRefused("a player cannot duel themselves")
            held = {
                whole(serial, "cards.serial"): row
                for serial, *row in tx.rows(
                    "SELECT c.serial, c.holder, c.corners, p.name FROM cards c JOIN players p ON p.id = c.name_of "
                    "WHERE c.serial IN (?, ?)",
                    (stakes[0].serial, stakes[1].serial),  # type: ignore[union-attr]
                )
            }
            for seat, card in enumerate(stakes):
                assert card is not None
                row = held.get(card.serial)
                if row is None or row[1] != _corners_text(card) or row[2] != card.name:
                    raise LedgerRefused(f"card {card.serial} in this duel is not the ledger's card {card.serial}")
                if whole(row[0], f"cards.holder of card {card.serial}") != ids[seat]:
                    who = (challenger, challenged)[seat]
                    raise StaleCards(f"card {card.serial} is no longer held by {who}: this duel cannot be recorded")
            winner, loser = ids[winner_seat], ids[1 - winner_seat]
            taken, kept = stakes[1 - winner_seat], stakes[winner_seat]
            assert taken is not None and kept is not None
            tx.send(
                "INSERT INTO duels(entry, challenger, challenged, winner, stake_challenger, stake_challenged, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (entry, ids[0], ids[1], winner, stakes[0].serial, stakes[1].serial, _canonical(record)),  # type: ignore[union-attr]
            )
            # The winner's stake is touched too, so a concurrent write to either card conflicts.
            changed = tx.send(
                "UPDATE cards SET holder = ?, last_entry = ? WHERE (serial = ? AND holder = ?) OR (serial = ? AND holder = ?)",
                (winner, entry, kept.serial, winner, taken.serial, loser),
            )
            tx.send(
                "INSERT INTO moves(entry, card, giver, taker) VALUES (?, ?, ?, ?)", (entry, taken.serial, loser, winner)
            )
            if changed() != 2:
                raise StaleCards(f"card {taken.serial} or {kept.serial} moved while this duel was being recorded")
            names = {found[k][0]: found[k][1] for k in keys}
            return (Move(taken.serial, names[loser], names[winner]),)

        last = encode(duel.journal[-1])
        return self._write(EntryKind.DUEL, key, request, last, work)

    def record_trade(self, key: str, first: str, second: str, offer: TradeOffer) -> Receipt:
        """An agreed trade: ``offer.gives[0]`` go from ``first`` to ``second`` and
        ``offer.gives[1]`` the other way, all or nothing."""
        gives = tuple(tuple(sorted(int(s) for s in side)) for side in offer.gives)
        if len(gives) != 2 or not gives[0] or not gives[1]:
            raise LedgerRefused("in a trade each side gives at least one card")
        if len(set(gives[0] + gives[1])) != len(gives[0]) + len(gives[1]):
            raise LedgerRefused("a card appears twice in this trade")
        request = {"first": _lookup_key(first), "second": _lookup_key(second), "gives": [list(g) for g in gives]}

        def work(tx: Tx, entry: int, _now: int) -> None:
            ids = (self._player_id(tx, first), self._player_id(tx, second))
            if ids[0] == ids[1]:
                raise LedgerRefused("a player cannot trade with themselves")
            for side, serials in enumerate(gives):
                who = (first, second)[side]
                for serial in serials:
                    self._move(
                        tx, entry, serial, ids[side], ids[1 - side], f"card {serial} is not held by {who} any more"
                    )

        return self._write(EntryKind.TRADE, key, request, {"type": "TradeAgreed", **request}, work)

    # -- the operator --------------------------------------------------------------------
    def void(self, key: str, entry: int, reason: str) -> Receipt:
        """Void a mistaken duel or trade: a new entry moves its cards back.  Refused if a
        card it moved has moved on since (void the later entry first)."""

        def voidable(tx: Tx) -> None:
            target = tx.row("SELECT kind FROM entries WHERE id = ?", (entry,))
            if target is None:
                raise LedgerRefused(f"there is no entry {entry}")
            kind = _kind(target[0], f"entries.kind of entry {entry}")
            if kind not in VOIDABLE:
                raise LedgerRefused(f"entry {entry} is a {kind.value}: only duels and trades can be voided")
            already = tx.value("SELECT id FROM entries WHERE voids = ?", (entry,))
            if already is not None:
                raise LedgerRefused(f"entry {entry} was voided already (entry {already})")

        def work(tx: Tx, void_entry: int, _now: int) -> None:
            where = f"of entry {entry}"
            for card, giver, taker in tx.rows("SELECT card, giver, taker FROM moves WHERE entry = ?", (entry,)):
                card = whole(card, f"moves.card {where}")
                stale = f"card {card} has moved on since entry {entry}: void the later entry first"
                back = (whole(taker, f"moves.taker {where}"), whole(giver, f"moves.giver {where}"))
                self._move(tx, void_entry, card, *back, stale)

        request = {"entry": int(entry), "reason": str(reason)}
        return self._write(EntryKind.VOID, key, request, {"type": "Void", **request}, work, int(entry), voidable)

    def set_closing_time(self, key: str, at_us: int | None) -> Receipt:
        """From ``at_us`` (Unix µs) on, no duel, trade, registration or re-entry is
        recorded; ``None`` reopens.  Kept as an entry, like everything else."""

        def work(tx: Tx, _entry: int, _now: int) -> None:
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('closing_us', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (_OPEN if at_us is None else str(int(at_us)),),
            )

        request = {"at_us": at_us}
        return self._write(EntryKind.CLOSE, key, request, {"type": "SetClosingTime", **request}, work)

    # -- reading -----------------------------------------------------------------------
    def closing_time(self) -> int | None:
        return self._run(self._closing, write=False)

    def closed(self) -> bool:
        def read(tx: Tx) -> bool:
            closing = self._closing(tx)
            return closing is not None and self._now(tx) >= closing

        return self._run(read, write=False)

    def _collection(self, tx: Tx, player: int) -> tuple[Card, ...]:
        rows = tx.rows(
            "SELECT c.serial, c.name_of, p.name, c.corners FROM cards c JOIN players p ON p.id = c.name_of "
            "WHERE c.holder = ? ORDER BY c.serial",
            (player,),
        )
        return tuple(_card_from_row(*row) for row in rows)

    def collection(self, name: str) -> tuple[Card, ...]:
        """The cards ``name`` holds now, by serial."""
        return self._run(lambda tx: self._collection(tx, self._player_id(tx, name)), write=False)

    def holders(self) -> dict[int, str]:
        """Every card's holder, by serial."""

        def read(tx: Tx) -> dict[int, str]:
            rows = tx.rows("SELECT c.serial, c.holder, p.name FROM cards c JOIN players p ON p.id = c.holder")
            return {whole(s, "cards.serial"): text(n, f"players.name of player {h}") for s, h, n in rows}

        return self._run(read, write=False)

    def players(self) -> tuple[str, ...]:
        def read(tx: Tx) -> tuple[str, ...]:
            rows = tx.rows("SELECT id, name FROM players ORDER BY id")
            return tuple(text(n, f"players.name of player {i}") for i, n in rows)

        return self._run(read, write=False)

    def _duel_pairs(self, tx: Tx) -> list[tuple[int, int]]:
        rows = tx.rows(
            "SELECT d.entry, d.challenger, d.challenged FROM duels d WHERE NOT EXISTS "
            "(SELECT 1 FROM entries v WHERE v.voids = d.entry) ORDER BY d.entry"
        )
        return [
            (whole(a, f"duels.challenger of duel {e}"), whole(b, f"duels.challenged of duel {e}")) for e, a, b in rows
        ]

    def may_refuse(self, challenger: str, challenged: str) -> bool:
        """The challenge rule now (voided duels do not count)."""
        return self.duel_options(challenger, challenged).may_refuse

    def standings(self) -> tuple[Standing, ...]:
        """Everyone registered, best first, scored as the rulebook says."""

        def read(tx: Tx) -> tuple[Standing, ...]:
            names = {
                whole(i, "players.id"): text(n, f"players.name of player {i}")
                for i, n in tx.rows("SELECT id, name FROM players")
            }
            copies: dict[str, dict[str, int]] = {name: {} for name in names.values()}
            for holder, name_of, count in tx.rows(
                "SELECT holder, name_of, COUNT(*) FROM cards GROUP BY holder, name_of"
            ):
                who = _known(names, holder, "cards.holder")
                copies[who][_known(names, name_of, "cards.name_of")] = whole(count, "a count of cards")
            return standings_of_copies(copies)

        return self._run(read, write=False)

    def last_entry(self) -> int:
        """The newest entry's number (0: none yet).  Standings change only with a new
        entry, so a screen that shows them reads this first (one cheap query)."""
        return self._run(
            lambda tx: whole(tx.value("SELECT COALESCE(MAX(id), 0) FROM entries"), "entries.id (the newest)"),
            write=False,
        )

    def entries(self) -> tuple[Entry, ...]:
        def read(tx: Tx) -> tuple[Entry, ...]:
            rows = tx.rows(
                "SELECT e.id, e.kind, e.at_us, e.cabinet, e.voids, v.id, e.last_action FROM entries e "
                "LEFT JOIN entries v ON v.voids = e.id ORDER BY e.id"
            )
            return tuple(
                Entry(
                    whole(i, "entries.id"),
                    _kind(k, f"entries.kind of entry {i}"),
                    whole(t, f"entries.at_us of entry {i}"),
                    text(c, f"entries.cabinet of entry {i}"),
                    maybe_whole(vo, f"entries.voids of entry {i}"),
                    maybe_whole(vb, f"entries.id of the void of entry {i}"),
                    json_object(la, f"entries.last_action of entry {i}"),
                )
                for i, k, t, c, vo, vb, la in rows
            )

        return self._run(read, write=False)

    def recent_duels(self, limit: int = 10) -> tuple[DuelRecord, ...]:
        """The latest duels, newest first (the operator's list to void from)."""

        def read(tx: Tx) -> tuple[DuelRecord, ...]:
            rows = tx.rows(
                "SELECT d.entry, e.at_us, e.cabinet, pc.name, pd.name, pw.name, m.card, v.id FROM duels d "
                "JOIN entries e ON e.id = d.entry JOIN players pc ON pc.id = d.challenger "
                "JOIN players pd ON pd.id = d.challenged JOIN players pw ON pw.id = d.winner "
                "JOIN moves m ON m.entry = d.entry LEFT JOIN entries v ON v.voids = d.entry "
                "ORDER BY d.entry DESC LIMIT ?",
                (int(limit),),
            )
            return tuple(
                DuelRecord(
                    whole(i, "duels.entry"),
                    whole(t, f"entries.at_us of entry {i}"),
                    text(c, f"entries.cabinet of entry {i}"),
                    text(a, f"players.name of the challenger of duel {i}"),
                    text(b, f"players.name of the challenged of duel {i}"),
                    text(w, f"players.name of the winner of duel {i}"),
                    whole(card, f"moves.card of duel {i}"),
                    maybe_whole(v, f"entries.id of the void of duel {i}"),
                )
                for i, t, c, a, b, w, card, v in rows
            )

        return self._run(read, write=False)

    def replay_duel(self, entry: int) -> PunchCardsDuel:
        """The duel of ``entry``, rebuilt from its record alone."""

        def read(tx: Tx) -> PunchCardsDuel:
            record = tx.value("SELECT record FROM duels WHERE entry = ?", (entry,))
            if record is None:
                raise LedgerRefused(f"entry {entry} is not a duel")
            return _duel_of(record, f"duels.record of duel {entry}")

        return self._run(read, write=False)

    # -- the integrity check -------------------------------------------------------------
    def check(self) -> list[str]:
        """Everything wrong with the ledger (empty when sound): the moves, replayed from
        the first, give exactly today's holders; every card was issued once, to the player
        whose name it bears, in a packet of five, with its four corner sets recorded and
        unique; every duel replays from its record to the move it made; every void undid
        exactly its entry's moves."""
        problems = list(self.backend.integrity_problems())
        problems += self._run(self._check, write=False)
        return problems

    def _check(self, tx: Tx) -> list[str]:
        problems: list[str] = []
        cards = {
            int(s): (int(n), int(h), int(i), c)
            for s, n, h, i, c in tx.rows("SELECT serial, name_of, holder, issued_by, corners FROM cards")
        }
        moves = tx.rows("SELECT entry, card, giver, taker FROM moves ORDER BY entry, card")
        kinds = {int(i): EntryKind(k) for i, k in tx.rows("SELECT id, kind FROM entries")}
        held: dict[int, int] = {}
        by_entry: dict[int, list[tuple[int, int | None, int]]] = defaultdict(list)
        for entry, card, giver, taker in moves:
            card, taker = int(card), int(taker)
            giver = None if giver is None else int(giver)
            by_entry[int(entry)].append((card, giver, taker))
            if giver is None:
                if card in held:
                    problems.append(f"card {card} issued twice")
                if card in cards and (cards[card][0] != taker or cards[card][2] != int(entry)):
                    problems.append(f"card {card} was issued to someone other than the player it names")
            elif held.get(card) != giver:
                problems.append(f"entry {entry} moved card {card} from a player who did not hold it")
            held[card] = taker
        for serial, (_n, holder, _i, _c) in cards.items():
            if held.get(serial) != holder:
                problems.append(f"card {serial}: holder {holder} is not where its moves lead ({held.get(serial)})")
        for entry, kind in kinds.items():
            issued = [m for m in by_entry.get(entry, []) if m[1] is None]
            if kind in (EntryKind.REGISTER, EntryKind.REENTER) and len(issued) != PACKET_SIZE:
                problems.append(f"entry {entry} ({kind.value}) issued {len(issued)} cards, not {PACKET_SIZE}")
            if kind not in (EntryKind.REGISTER, EntryKind.REENTER) and issued:
                problems.append(f"entry {entry} ({kind.value}) issued cards")
        recorded: dict[int, list[str]] = defaultdict(list)
        for card, numbers in tx.rows("SELECT card, numbers FROM corners ORDER BY card, corner"):
            recorded[int(card)].append(numbers)
        for serial, (_n, _h, _i, corner_text) in cards.items():
            if len(recorded[serial]) != len(CORNERS) or "|".join(recorded[serial]) != corner_text:
                problems.append(f"card {serial}: its four corner records differ from the card")
        for voids, void_entry in tx.rows("SELECT voids, id FROM entries WHERE kind = 'void'"):
            undone = sorted((c, t, g) for c, g, t in by_entry.get(int(voids), []))
            if sorted(by_entry.get(int(void_entry), [])) != undone:
                problems.append(f"void {void_entry} does not undo exactly the moves of entry {voids}")
        for entry, challenger, challenged, winner, record in tx.rows(
            "SELECT entry, challenger, challenged, winner, record FROM duels"
        ):
            duel = PunchCardsDuel.from_dict(json.loads(record))
            outcome = duel.outcome()
            taken = duel.taken if isinstance(duel, PunchCardsDuel) else None
            ids = (int(challenger), int(challenged))
            if outcome is None or outcome.winner is None or ids[outcome.winner] != int(winner) or taken is None:
                problems.append(f"duel {entry} does not replay to its recorded winner")
                continue
            if by_entry.get(int(entry)) != [(taken.serial, ids[1 - outcome.winner], int(winner))]:
                problems.append(f"duel {entry}: its moves are not the card its replay says was taken")
        return problems

    # -- final standings -----------------------------------------------------------------
    def export(self, folder: str | Path, title: str = "Punch Cards") -> tuple[Path, Path]:
        """Write the standings as ``standings.csv`` and a printable ``standings.html`` in
        ``folder``; the page says whether they are final (after the closing time)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        table = self.standings()
        closing = self.closing_time()
        final = closing if closing is not None and self.closed() else None
        csv_path, html_path = folder / "standings.csv", folder / "standings.html"
        csv_path.write_text(standings_csv(table), encoding="utf-8")
        html_path.write_text(standings_html(table, title, final), encoding="utf-8")
        return csv_path, html_path
