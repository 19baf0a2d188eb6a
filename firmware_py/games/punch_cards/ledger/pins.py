"""PINs: what a PIN looks like, how it is stored, and when repeated wrong PINs lock.

A PIN is entered on the station's A–F buttons, so it is short and its space is small
(6⁴ = 1,296): the lockout is what protects a player, the slow salted hash keeps the PIN
itself from being read off the ledger (it cannot stop a patient offline search of so small
a space; an attacker who has the ledger has the cards anyway).  Choices are in
``docs/rules/punch_cards.md``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from firmware_py.games.punch_cards.ledger.errors import PinRefused

PIN_LENGTH = 4
PIN_SYMBOLS = "ABCDEF"
WRONG_PINS_BEFORE_LOCKOUT = 5
LOCKOUT_US = 15 * 60 * 1_000_000
MAX_COST = 2**20
"""The highest scrypt n a stored hash may ask for (64 times the default)."""
LOCKOUTS_BEFORE_OPERATOR = 3
"""After this many timed lockouts in a row (15 wrong PINs without a right one), only the
operator can unlock: a guesser gets 15 of 1,296 PINs, about 1 %."""


def check_pin(pin: object) -> str:
    """``pin`` if it has the form of a PIN, else :class:`PinRefused` saying why."""
    if not isinstance(pin, str) or len(pin) != PIN_LENGTH or any(c not in PIN_SYMBOLS for c in pin):
        raise PinRefused(f"a PIN is {PIN_LENGTH} letters from {PIN_SYMBOLS[0]} to {PIN_SYMBOLS[-1]}")
    return pin


@dataclass(frozen=True)
class PinHasher:
    """scrypt with a fresh 16-byte salt per PIN; the cost is stored with each hash, so a
    ledger may raise it later and old hashes still verify.  The default (n = 2¹⁴, r = 8,
    16 MiB, tens of ms on a Pi) is OWASP's minimum; tests use a cheaper cost."""

    n: int = 2**14
    r: int = 8
    p: int = 1

    def hash(self, pin: str) -> str:
        salt = secrets.token_bytes(16)
        digest = hashlib.scrypt(pin.encode(), salt=salt, n=self.n, r=self.r, p=self.p, maxmem=0, dklen=32)
        return f"scrypt${self.n}${self.r}${self.p}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` matches ``stored`` (compared in constant time)."""
    scheme, n, r, p, salt, digest = stored.split("$")
    if scheme != "scrypt":
        raise ValueError(f"unknown PIN hash scheme {scheme!r}")
    n_, r_, p_ = int(n), int(r), int(p)
    if not (1 < n_ <= MAX_COST and 0 < r_ * p_ <= 64):  # never hours or gigabytes for one sign-in
        raise ValueError(f"PIN hash cost n={n} r={r} p={p} is not one a ledger uses")
    maxmem = 128 * n_ * r_ * p_ + 1024 * 1024 * 4
    candidate = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=n_, r=r_, p=p_, maxmem=maxmem, dklen=32)
    return hmac.compare_digest(candidate.hex(), digest)


@dataclass(frozen=True)
class PinState:
    """A player's sign-in state: wrong PINs since the last right one or lockout, lockouts
    in a row, and the lockout's end (Unix µs; ``None`` while not locked in time)."""

    wrong: int = 0
    lockouts: int = 0
    locked_until_us: int | None = None

    @property
    def operator_locked(self) -> bool:
        return self.lockouts >= LOCKOUTS_BEFORE_OPERATOR

    def locked(self, now_us: int) -> bool:
        return self.operator_locked or (self.locked_until_us is not None and now_us < self.locked_until_us)

    def after_wrong_pin(self, now_us: int) -> PinState:
        wrong = self.wrong + 1
        if wrong < WRONG_PINS_BEFORE_LOCKOUT:
            return PinState(wrong, self.lockouts, self.locked_until_us)
        lockouts = self.lockouts + 1
        return PinState(0, lockouts, None if lockouts >= LOCKOUTS_BEFORE_OPERATOR else now_us + LOCKOUT_US)
