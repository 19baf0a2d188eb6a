"""One clock decides, one count per guess: the ledger's own time (the server's on
PostgreSQL) judges the closing time and PIN lockouts, whatever the cabinets' clocks say;
and twelve processes guessing one player's PIN at once get no more checks into a lockout
window than one cabinet would."""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import Any

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerClosed, PinHasher, PinLocked, WrongPin
from firmware_py.games.punch_cards.ledger import ledger as ledger_module
from firmware_py.games.punch_cards.ledger.pins import WRONG_PINS_BEFORE_LOCKOUT
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, StoreFactory
from tests.firmware_py.ledger.pg_server import PostgresServer
from tests.firmware_py.ledger.support import decided_duel

MINUTE_NS = 60 * 1_000_000_000
real_time_ns = time.time_ns


def skew_cabinet_clock(monkeypatch: pytest.MonkeyPatch, minutes: float) -> None:
    """This process's wall clock runs ``minutes`` ahead (behind, when negative)."""
    monkeypatch.setattr(time, "time_ns", lambda: real_time_ns() + int(minutes * MINUTE_NS))


def server_now_us(ledger: Ledger) -> int:
    return int(ledger.backend.run(lambda tx: tx.value("SELECT (EXTRACT(EPOCH FROM now()) * 1000000)::bigint")))


def test_the_ledger_time_is_the_servers_not_the_cabinets(postgres: PostgresServer, monkeypatch) -> None:
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    skew_cabinet_clock(monkeypatch, 20)
    assert abs(ledger.now_us() - server_now_us(ledger)) < 5_000_000
    assert ledger.now_us() < time.time_ns() // 1000 - 19 * 60_000_000
    ledger.close()


def test_a_cabinet_ten_minutes_slow_records_nothing_after_closing_time(postgres: PostgresServer, monkeypatch) -> None:
    url = postgres.schema_url()
    organiser = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS)
    for name in ("Ann", "Bo"):
        organiser.register(f"reg-{name}", name, "ABCD")
    organiser.set_closing_time("close", organiser.now_us() - 1_000_000)  # closed a second ago
    skew_cabinet_clock(monkeypatch, -10)
    slow = Ledger(url, pin_hasher=FAST_PINS, cabinet="slow")
    assert slow.closed()
    options = slow.duel_options("Ann", "Bo")
    duel = decided_duel(options, winner=0, stakes=(options.collections[0][0].serial, options.collections[1][0].serial))
    assert duel is not None
    with pytest.raises(LedgerClosed):
        slow.record_duel("late-duel", "Ann", "Bo", duel)
    assert slow.collection("Bo") == organiser.collection("Bo")
    slow.close()
    organiser.close()


def test_a_cabinet_twenty_minutes_fast_cannot_sign_in_during_a_lockout(postgres: PostgresServer, monkeypatch) -> None:
    url = postgres.schema_url()
    here = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS)
    here.register("reg", "Ann", "ABCD")
    for _ in range(WRONG_PINS_BEFORE_LOCKOUT - 1):
        with pytest.raises(WrongPin):
            here.sign_in("Ann", "FFFF")
    with pytest.raises(PinLocked) as locked:
        here.sign_in("Ann", "FFFF")
    assert locked.value.minutes_left == 15
    skew_cabinet_clock(monkeypatch, 20)  # past the 15-minute lockout by this cabinet's clock
    fast = Ledger(url, pin_hasher=FAST_PINS, cabinet="fast")
    with pytest.raises(PinLocked):
        fast.sign_in("Ann", "ABCD")
    fast.close()
    here.close()


# -- twelve processes guessing at once --------------------------------------------------
GUESSERS = 12
SLOW_PINS = PinHasher(n=2**12, r=8, p=1)
"""A few ms a check: long enough that the guessers' checks overlap."""


def _guess(url: str, pin: str, start: Any, checks: Any) -> None:
    """One process's guess; ``checks`` counts the PIN comparisons it got to make."""
    original = ledger_module.verify_pin

    def counted(pin_: str, stored: str) -> bool:
        with checks.get_lock():
            checks.value += 1
        return original(pin_, stored)

    ledger_module.verify_pin = counted  # type: ignore[assignment]
    cabinet = Ledger(url, pin_hasher=SLOW_PINS)
    start.wait(timeout=300)  # a guesser that died before it breaks the barrier: no one waits on
    try:
        cabinet.sign_in("Ann", pin)
    except (WrongPin, PinLocked):
        pass
    finally:
        cabinet.close()


def test_twelve_processes_guessing_one_pin_get_five_checks(new_url: StoreFactory) -> None:
    url = new_url()
    setup = Ledger(url, event_seed=SEED, pin_hasher=SLOW_PINS)
    setup.register("reg", "Ann", "ABCD")
    # forkserver: a fork of this process copies its threads' locks (psycopg's, the ledger's
    # workers', xdist's) as they stand, and a child could wait on one for good; one such
    # run left a guesser alive past its minute under a loaded machine
    context = mp.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # imported once, by the server: each fork has it
    start = context.Barrier(GUESSERS)
    checks = context.Value("i", 0)
    wrong = [f"{a}{b}FF" for a in "BCDE" for b in "ABC"][:GUESSERS]
    guessers = [context.Process(target=_guess, args=(url, pin, start, checks)) for pin in wrong]
    for p in guessers:
        p.start()
    for p in guessers:
        p.join(600)
    assert [p.exitcode for p in guessers] == [0] * GUESSERS
    assert checks.value == WRONG_PINS_BEFORE_LOCKOUT
    with pytest.raises(PinLocked):
        setup.sign_in("Ann", "ABCD")  # the right PIN is refused inside the lockout
    setup.close()
