"""Two cabinets recording duels over the same card at the same moment: exactly one
succeeds, the other is told why and nobody's card moves.  A server that cannot be reached
is a clear error, never a half-recorded result, and the ledger carries on when it is back."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import psycopg
import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerUnreachable, Receipt, StaleCards
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, StoreFactory
from tests.firmware_py.ledger.pg_server import PostgresServer
from tests.firmware_py.ledger.support import decided_duel

ROUNDS = 4
"""Bo has five cards and loses one per round."""


def at_once(calls: list[Callable[[], Receipt]]) -> list[Receipt | Exception]:
    """Run ``calls`` in threads released together; each one's receipt or error."""
    barrier = threading.Barrier(len(calls))
    results: list[Receipt | Exception | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as e:  # the result under test
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in results if r is not None]


@pytest.mark.slow
def test_duels_over_one_card_at_the_same_moment_exactly_one_is_recorded(new_url: StoreFactory) -> None:
    url = new_url()
    setup = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS)
    names = ["Ann", "Bo", "Cy"]
    for name in names:
        setup.register(f"reg-{name}", name, "ABCD")
    cabinets = [Ledger(url, pin_hasher=FAST_PINS, cabinet=f"cab{i}") for i in (1, 2)]
    for round_ in range(ROUNDS):
        # Bo's first card is staked against Ann at one cabinet and against Cy at the other.
        target = setup.collection("Bo")[0].serial
        duels = []
        for rival in ("Ann", "Cy"):
            options = setup.duel_options(rival, "Bo")
            stake = options.collections[0][0].serial
            duels.append((rival, decided_duel(options, winner=0, stakes=(stake, target))))
        if any(duel is None for _r, duel in duels):
            continue
        results = at_once(
            [
                lambda i=i, r=r, d=d, n=round_: cabinets[i].record_duel(f"r{n}-{r}", r, "Bo", d)
                for i, (r, d) in enumerate(duels)
            ]
        )
        won = [r for r in results if isinstance(r, Receipt)]
        lost = [r for r in results if isinstance(r, StaleCards)]
        assert len(won) == 1 and len(lost) == 1, results
        assert f"card {target} is no longer held by Bo" in str(lost[0])
        assert setup.holders()[target] in ("Ann", "Cy")
    assert setup.check() == []
    for ledger in [setup, *cabinets]:
        ledger.close()


def test_a_server_that_cannot_be_reached_is_a_clear_error(postgres: PostgresServer) -> None:
    dead = f"postgresql://postgres@127.0.0.1:{_closed_port()}/postgres"
    with pytest.raises(
        LedgerUnreachable, match=re.escape("ledger unreachable: cannot connect to postgresql://127.0.0.1")
    ):
        Ledger(dead)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_lost_connection_is_reopened_and_the_write_counted_once(postgres: PostgresServer) -> None:
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    ledger.register("k1", "Ann", "ABCD")
    pid = ledger.backend.conn.info.backend_pid
    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    receipt = ledger.register("k2", "Bo", "ABCD")
    assert not receipt.repeated and ledger.players() == ("Ann", "Bo")
    ledger.close()


def test_while_the_server_is_down_nothing_is_recorded_and_after_it_a_retry_counts_once(
    postgres: PostgresServer,
) -> None:
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    ledger.register("k1", "Ann", "ABCD")
    ledger.register("k2", "Bo", "ABCD")
    duel = decided_duel(ledger.duel_options("Ann", "Bo"), winner=0)
    before = ledger.holders()
    postgres.stop()
    try:
        with pytest.raises(LedgerUnreachable, match="ledger unreachable"):
            ledger.record_duel("d1", "Ann", "Bo", duel)
        with pytest.raises(LedgerUnreachable):
            ledger.standings()
    finally:
        postgres.start()
    assert ledger.holders() == before  # nothing half-recorded
    first = ledger.record_duel("d1", "Ann", "Bo", duel)
    again = ledger.record_duel("d1", "Ann", "Bo", duel)
    assert again.repeated and again.entry == first.entry
    assert len(ledger.collection("Ann")) == 6 and ledger.check() == []
    ledger.close()
