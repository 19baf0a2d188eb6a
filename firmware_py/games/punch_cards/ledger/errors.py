"""What can go wrong with a ledger call, as types the cabinet can put into words.

Every error means nothing was recorded by the call that raised it (a retry with the same
idempotency key is always safe), except :class:`LedgerUnreachable` raised while a commit
was in flight: then the entry may or may not be in the ledger, and retrying with the
same key finds out without recording it twice.
"""

from __future__ import annotations


class LedgerError(Exception):
    """Base of every ledger error; ``str()`` is a sentence for the operator or player."""


class LedgerUnreachable(LedgerError):
    """The ledger's server (or file) cannot be reached: start no duel, show no result,
    try again when it is back."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"ledger unreachable: {detail}")


class LedgerBusy(LedgerError):
    """Other cabinets kept the ledger busy through every retry; try again."""


class LedgerRefused(LedgerError):
    """The rules or the ledger's state forbid this (a re-entry while holding cards, a
    void of a void, an unknown player…); the message says why."""


class LedgerUnusable(LedgerRefused):
    """The ledger's file or database cannot be used at all (not SQLite, damaged, another
    application's, a newer schema): it is left as it is and the operator decides."""


class StaleCards(LedgerRefused):
    """A card in this duel or trade is no longer held by the player who staked or offered
    it (another cabinet recorded a move first): nobody's card moved."""


class LedgerClosed(LedgerRefused):
    """The closing time has passed: no more duels, trades, registrations or re-entries."""


class IdempotencyConflict(LedgerRefused):
    """This idempotency key was already used for a different request."""


class UnknownPlayer(LedgerRefused):
    """No player is registered under this name."""


class PinRefused(LedgerRefused):
    """A PIN that does not have the PIN's form (length, letters A–F)."""


class WrongPin(LedgerRefused):
    """The PIN does not match; ``tries_left`` before the lockout."""

    def __init__(self, tries_left: int) -> None:
        super().__init__(f"wrong PIN: {tries_left} {'try' if tries_left == 1 else 'tries'} left before a lockout")
        self.tries_left = tries_left


class PinLocked(LedgerRefused):
    """Sign-in is locked after repeated wrong PINs: until ``until_us`` (Unix µs, the
    ledger's clock, which said ``now_us`` when it refused), or until the operator unlocks
    it when ``until_us`` is ``None``."""

    def __init__(self, until_us: int | None, now_us: int = 0) -> None:
        if until_us is None:
            message = "locked after too many wrong PINs: ask the operator to unlock it"
        else:
            message = "locked after repeated wrong PINs: try again later"
        super().__init__(message)
        self.until_us = until_us
        self.now_us = now_us

    @property
    def minutes_left(self) -> int | None:
        """Whole minutes until the lockout ends, rounded up (None: the operator unlocks)."""
        return None if self.until_us is None else max(1, -(-(self.until_us - self.now_us) // 60_000_000))


class LedgerCorrupt(LedgerError):
    """A constraint of the ledger stopped a write that would have broken it (a card with
    two holders, a deleted entry…): a bug, reported, nothing recorded."""


class LedgerDamaged(LedgerError):
    """A value read back from the ledger is not one the ledger ever writes (a hand edit,
    another program, a bad sector): the call that read it does nothing and records
    nothing, and the ledger is left as it is for the operator to restore or mend.
    ``where`` names the table, column and row."""

    def __init__(self, where: str, value: object, wanted: str) -> None:
        super().__init__(
            f"the ledger's {where} is {shown(value)}, not {wanted}: the ledger is left as it is; "
            f"restore it from a backup, or mend that value"
        )
        self.where = where


def shown(value: object, width: int = 40) -> str:
    """A value read from the ledger as a message shows it: its kind and, cut short, itself."""
    if value is None:
        return "NULL"
    kind = {bytes: "a blob", str: "text", int: "the number", float: "the real"}.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text if len(text) <= width else text[: width - 1] + '…'}"
