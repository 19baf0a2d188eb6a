"""Punch Cards ledger: duels recorded per second, and the leaderboard of a big event.

Duels are played out beforehand (against a model of who holds what), so the timed work is
``Ledger.record_duel`` alone: one committed transaction each, on SQLite (WAL,
``synchronous=FULL``) and on PostgreSQL (serializable), by one cabinet and by four at
once (separate processes, each with its own players, released together).  Both stores
keep their files on disk, so each commit pays its fsync.  The leaderboard is
``Ledger.standings()`` for 5,000 players holding 25,000 cards that have changed hands.
``run(scale)`` shrinks every count for a smoke run (``scale=0.01``).
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_py.games.punch_cards.ledger import Ledger, LedgerBusy, PinHasher
from games.punch_cards import DuelOptions, PunchCardsDuel, TradeOffer
from tests.bench.harness import Figure
from tests.firmware_py.ledger.pg_server import PostgresServer, find_bindir
from tests.firmware_py.ledger.support import decided_duel

TITLE = "Punch Cards ledger"
DUELS_PER_WRITER = 300
WRITERS = 4
PLAYERS_PER_WRITER = 4
LEADERBOARD_PLAYERS = 5_000
REPEATS = 5
CHEAP_PINS = PinHasher(n=16, r=1, p=1)
"""Registrations are set-up here, not what is measured."""


def _duels(ledger: Ledger, names: list[str], count: int, seed: int) -> list[tuple[str, str, PunchCardsDuel]]:
    """``count`` finished duels among ``names`` that are valid in turn, from a model of the
    holdings (nothing is recorded here)."""
    rng = random.Random(seed)
    cards = {name: list(ledger.collection(name)) for name in names}
    out = []
    while len(out) < count:
        a, b = rng.sample([n for n in names if cards[n]], 2)
        winner = rng.randrange(2)
        if len(cards[(b, a)[winner]]) == 1:  # keep every player holding a card, so duels never run out
            winner = 1 - winner
        stakes = (rng.choice(cards[a]).serial, rng.choice(cards[b]).serial)
        duel = decided_duel(DuelOptions((tuple(cards[a]), tuple(cards[b]))), winner, stakes)
        if duel is None or duel.taken is None:
            continue
        loser, taker = (b, a) if winner == 0 else (a, b)
        cards[loser].remove(duel.taken)
        cards[taker].append(duel.taken)
        out.append((a, b, duel))
    return out


def _writer(url: str, group: int, count: int, start: Any, results: Any) -> None:
    names = [f"W{group} P{i}" for i in range(PLAYERS_PER_WRITER)]
    ledger = Ledger(url, pin_hasher=CHEAP_PINS, cabinet=f"cab{group}")
    duels = _duels(ledger, names, count, seed=group)
    start.wait()
    t0 = time.perf_counter()
    busy = 0
    backoff = random.Random(group)
    for n, (a, b, duel) in enumerate(duels):
        while True:  # what a cabinet does on LedgerBusy: wait a moment, send the same entry again
            try:
                ledger.record_duel(f"g{group}-{n}", a, b, duel)
                break
            except LedgerBusy:
                busy += 1
                time.sleep(backoff.uniform(0.001, 0.02))
    results.put((t0, time.perf_counter(), count, busy))
    ledger.close()


def duels_per_second(new_url: Callable[[], str], writers: int, count: int) -> tuple[float, int]:
    """One run: a fresh ledger, ``writers`` processes each recording ``count`` duels.
    Returns duels/s and how often a writer was told LedgerBusy (serialization retries
    used up) and sent the same entry again."""
    url = new_url()
    setup = Ledger(url, event_seed=1, pin_hasher=CHEAP_PINS)
    for group in range(writers):
        for i in range(PLAYERS_PER_WRITER):
            setup.register(f"r{group}-{i}", f"W{group} P{i}", "ABCD")
    setup.close()
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(writers), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(url, g, count, start, results)) for g in range(writers)]
    for p in procs:
        p.start()
    spans = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise RuntimeError(f"a writer failed with exit code {p.exitcode}")
    first, last = min(s[0] for s in spans), max(s[1] for s in spans)
    return sum(s[2] for s in spans) / (last - first), sum(s[3] for s in spans)


def leaderboard_ms(url: str, players: int, repeats: int) -> tuple[float, float]:
    """Median wall and CPU ms of ``standings()`` with ``players`` players holding 5 cards
    each, after one trade per player has mixed the names.  (CPU time shows what the work
    costs when other programs share the machine's cores.)"""
    ledger = Ledger(url, event_seed=3, pin_hasher=CHEAP_PINS)
    for i in range(players):
        ledger.register(f"r{i}", f"Player {i}", "ABCD")
    rng = random.Random(5)
    for i in range(players):
        a, b = rng.sample(range(players), 2)
        give = rng.choice(ledger.collection(f"Player {a}")).serial
        take = rng.choice(ledger.collection(f"Player {b}")).serial
        ledger.record_trade(f"t{i}", f"Player {a}", f"Player {b}", TradeOffer(((give,), (take,))))
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        table = ledger.standings()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    assert len(table) == players and sum(s.cards for s in table) == players * 5
    ledger.close()
    return statistics.median(wall), statistics.median(cpu)


def run(scale: float = 1.0) -> list[Figure]:
    count = max(4, round(DUELS_PER_WRITER * scale))
    players = max(10, round(LEADERBOARD_PLAYERS * scale))
    repeats = REPEATS if scale >= 1 else 2
    folder = Path(tempfile.mkdtemp(prefix="ringside-bench-ledger-"))
    made = iter(range(1_000_000))

    def sqlite_url() -> str:
        return str(folder / f"ledger{next(made)}.sqlite3")

    figures: list[Figure] = []
    stores: list[tuple[str, Callable[[], str]]] = [("SQLite", sqlite_url)]
    bindir = find_bindir()
    server = None
    if bindir is not None:
        server = PostgresServer(bindir, in_memory=False)
        server.init()
        server.start()
        stores.append(("PostgreSQL", server.schema_url))
    try:
        for store, new_url in stores:
            for writers in (1, WRITERS):
                runs = [duels_per_second(new_url, writers, count) for _ in range(repeats)]
                rates = [rate for rate, _busy in runs]
                busy = sum(b for _rate, b in runs)
                figures.append(
                    Figure(
                        f"duels recorded/s, {store}, {writers} cabinet{'s' if writers > 1 else ''}",
                        statistics.median(rates),
                        "duels/s",
                        "",
                        f"median of {repeats} runs, {count} duels per cabinet, file on disk (fsync per commit); "
                        f"{busy} LedgerBusy answers over all runs, each sent again",
                    )
                )
            wall, cpu = leaderboard_ms(new_url(), players, repeats)
            board = f"leaderboard, {players:,} players / {players * 5:,} cards, {store}"
            goal = "≤ 100 ms" if store == "SQLite" else ""
            note = f"median of {repeats} calls of standings()"
            figures.append(Figure(board, wall, "ms", goal, note))
            figures.append(Figure(f"{board}, CPU time of this process", cpu, "ms", "", note))
    finally:
        if server is not None:
            server.stop("immediate")
            server.remove()
    if server is None:
        figures.append(Figure("PostgreSQL figures", 0, "", "", "not measured: no PostgreSQL server binaries here"))
    return figures
