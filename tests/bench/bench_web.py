"""Punch Cards on 500 phones (issue 35): ``ringside web`` under load beside four cabinets.

A throwaway PostgreSQL server (on disk, loopback) holds an event of :data:`PLAYERS`
players.  Four cabinet processes each run a 60 fps loop (a frame: a little work, then
sleep to the next frame) while their ledger worker thread records a duel every
:data:`DUEL_EVERY_S` (each cabinet duels its own players, so no duel is refused as
stale) — the shape of the real cabinet, whose ledger calls never run on its loop.  Run
twice, side by side: with the web server off, then on with :data:`PHONES` live
connections from loopback (one client process, raw sockets, each reading the standings'
server-sent events as a phone's EventSource would).

The off and on phases alternate :data:`REPEATS` times (off: the web server and the
phones' process stopped with SIGSTOP, so they take no CPU at all).  Figures: the update delay, from a duel's commit (the cabinet's call returned) to each
phone's first update whose snapshot was read after it (its ``as_of_us``), p50 and p99
over every (duel, phone); the web server's RSS (max) and CPU (share of one core) while
the phones are connected; the cabinets' longest frame gap (max over the four) and its
p99, web off and on (each the median over the phases of the worst of the four cabinets).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tests.bench.harness import Figure, percentile

TITLE = "Punch Cards on phones: 500 live pages beside four cabinets on one PostgreSQL (issue 35)"
PHONES = 500
PLAYERS = 200
CABINETS = 4
DUEL_EVERY_S = 2.0
"""Each cabinet records a duel this often (a real duel takes about a minute: this is ~30× a busy hall)."""
RUN_S = 30.0
"""One phase: the cabinets' loops and duels, web off or on."""
REPEATS = 3
"""Phases off and on, alternating; frame figures are medians over them."""
FPS = 60
ROOT = Path(__file__).resolve().parents[2]
AS_OF = re.compile(rb'"as_of_us":(\d+)')


def _cabinet(url: str, index: int, run_s: float, tag: str, out: Any) -> None:
    """One cabinet: a 60 fps loop, and a worker thread recording duels among its players."""
    from firmware_py.games.punch_cards.ledger import Ledger, LedgerError
    from tests.firmware_py.ledger.support import decided_duel

    ledger = Ledger(url, cabinet=f"cabinet-{index}")
    mine = [f"Player {i}" for i in range(PLAYERS) if i % CABINETS == index]
    commits: list[tuple[float, int]] = []
    stop = threading.Event()
    rng = random.Random(index)

    def worker() -> None:
        n = 0
        while not stop.wait(DUEL_EVERY_S):
            a, b = rng.sample(mine, 2)
            try:
                options = ledger.duel_options(a, b)
                if not all(options.collections or ()):
                    continue
                duel = decided_duel(options, rng.randrange(2))
                if duel is None:
                    continue
                receipt = ledger.record_duel(f"{tag}-c{index}-{n}", a, b, duel)
                commits.append((time.time(), receipt.entry))
                n += 1
            except LedgerError:
                continue

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    gaps: list[float] = []
    frame = 1 / FPS
    end = time.monotonic() + run_s
    last = next_frame = time.monotonic()
    while last < end:
        sum(i * i for i in range(2_000))  # a frame's own work
        next_frame += frame
        pause = next_frame - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        now = time.monotonic()
        gaps.append(now - last)
        last = now
    stop.set()
    thread.join()
    ledger.close()
    out.put((index, gaps, commits))


def _cabinets(url: str, run_s: float, tag: str) -> tuple[list[float], list[tuple[float, int]]]:
    """Four cabinets for ``run_s``; ``tag`` keeps each run's idempotency keys its own."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_cabinet, args=(url, i, run_s, tag, queue)) for i in range(CABINETS)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=run_s + 120) for _ in procs]
    for p in procs:
        p.join()
    gaps = [max(g) for _, g, _ in results]
    p99s = [percentile(g, 99) for _, g, _ in results]
    commits = [c for _, _, cs in results for c in cs]
    return [max(gaps), max(p99s)], commits


async def _phone(
    port: int, received: list[tuple[float, int]], sizes: list[int], ready: asyncio.Event, count: list[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
    writer.write(
        f"GET /events?view=standings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    first = True
    while True:
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"data: ") and b'"main"' in line[:16]:
            found = AS_OF.search(line, max(0, len(line) - 400))
            if found:
                received.append((time.time(), int(found.group(1))))
                sizes.append(len(line))
                if first:
                    first = False
                    count[0] += 1
                    if count[0] == PHONES:
                        ready.set()


def _phones(port: int, out: Any, started: Any, stop: Any) -> None:
    """``PHONES`` live connections in one process; each phone's (time, as_of_us) updates."""

    sizes: list[int] = []

    async def main() -> list[list[tuple[float, int]]]:
        received: list[list[tuple[float, int]]] = [[] for _ in range(PHONES)]
        ready = asyncio.Event()
        count = [0]
        tasks = []
        for i in range(PHONES):
            tasks.append(asyncio.create_task(_phone(port, received[i], sizes, ready, count)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(ready.wait(), 120)
        started.set()
        while not stop.is_set():
            await asyncio.sleep(0.5)
        for t in tasks:
            t.cancel()
        return received

    received = asyncio.run(main())
    out.put((received, statistics.median(sizes)))


def _proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds, RSS kB) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = next(
        int(line.split()[1])
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmRSS")
    )
    return cpu, rss


def run() -> list[Figure]:
    from firmware_py.games.punch_cards.ledger import Ledger, PinHasher
    from tests.firmware_py.ledger.pg_server import PostgresServer, find_bindir
    from tests.web.support import free_port

    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("bench web: no PostgreSQL server binaries (apt-get install postgresql)")
    server = PostgresServer(bindir, in_memory=False)
    server.init()
    server.start()
    folder = Path(tempfile.mkdtemp(prefix="ringside-bench-web-"))
    web = None
    try:
        url = server.schema_url("bench")
        setup = Ledger(url, event_seed=1, pin_hasher=PinHasher(n=16, r=1, p=1))
        for i in range(PLAYERS):
            setup.register(f"r{i}", f"Player {i}", "ABCD")
        setup.close()

        config = folder / "cabinet.toml"
        config.write_text((ROOT / "deploy/cabinet.toml").read_text() + f'\n[game.punch_cards]\nledger = "{url}"\n')
        port = free_port()
        web = subprocess.Popen(
            [sys.executable, "-m", "firmware_py.tools.cli", "web", "--config", str(config), "--data", str(folder)]
            + ["--host", "127.0.0.1", "--port", str(port), "--streams", str(PHONES + 50)]
            + ["--streams-per-client", str(PHONES + 50), "--rate", "1000", "--burst", "5000"],
            stdout=subprocess.DEVNULL,
            stderr=(folder / "web.log").open("wb"),
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        ctx = multiprocessing.get_context("fork")
        out, started, stop = ctx.Queue(), ctx.Event(), ctx.Event()
        phones = ctx.Process(target=_phones, args=(port, out, started, stop))
        phones.start()
        assert phones.pid is not None
        paused = (web.pid, phones.pid)
        if not started.wait(180):
            raise SystemExit(f"bench web: the phones did not all connect: {(folder / 'web.log').read_text()[-2000:]}")
        _, rss_idle = _proc_stats(web.pid)
        rss_samples: list[int] = []
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.wait(1.0):
                rss_samples.append(_proc_stats(web.pid)[1])

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        offs, ons, commits = [], [], []
        cpu_s = on_s = 0.0
        for r in range(REPEATS):
            # Off: the web server and the phones stopped (SIGSTOP: no CPU at all), then on.
            for pid in paused:
                os.kill(pid, signal.SIGSTOP)
            offs.append(_cabinets(url, RUN_S, f"off{r}")[0])
            for pid in paused:
                os.kill(pid, signal.SIGCONT)
            time.sleep(5)  # the backlog of the off phase delivered
            cpu0, t0 = _proc_stats(web.pid)[0], time.monotonic()
            gaps, done = _cabinets(url, RUN_S, f"on{r}")
            cpu_s += _proc_stats(web.pid)[0] - cpu0
            on_s += time.monotonic() - t0
            ons.append(gaps)
            commits += done
        time.sleep(5)
        sampling.set()
        stop.set()
        received, size = out.get(timeout=120)
        phones.join()
        delays = []
        for committed, _entry in commits:
            committed_us = committed * 1e6
            for updates in received:
                after = [t for t, as_of in updates if as_of >= committed_us]
                if after:
                    delays.append((after[0] - committed) * 1000)
        lost = sum(1 for updates in received if not updates)
        off = [statistics.median(o[i] for o in offs) for i in range(2)]
        on = [statistics.median(o[i] for o in ons) for i in range(2)]
        elapsed = on_s
        return [
            Figure(
                "duels recorded, web on",
                len(commits),
                "",
                note=f"{CABINETS} cabinets, one every {DUEL_EVERY_S:g} s each",
            ),
            Figure(
                "update delay p50",
                statistics.median(delays),
                "ms",
                "appears within 2 s",
                f"{len(delays):,} (duel, phone) pairs; the phones are one Python process on the same cores",
            ),
            Figure("update delay p99", percentile(delays, 99), "ms", "appears within 2 s"),
            Figure("update delay max", max(delays), "ms"),
            Figure("phones that got no update", lost, "", note=f"of {PHONES}"),
            Figure("one standings update", size / 1000, "kB", note=f"{PLAYERS} players, sent whole to every phone"),
            Figure("web server RSS, phones connected, before the duels", rss_idle / 1024, "MB"),
            Figure("web server RSS max while duels are recorded", max(rss_samples) / 1024, "MB"),
            Figure(
                "web server CPU", 100 * cpu_s / elapsed, "% of one core", note=f"over {elapsed:.0f} s with the duels"
            ),
            Figure("cabinets' longest frame, web off", off[0] * 1000, "ms", note="max over the 4 cabinets"),
            Figure("cabinets' longest frame, web on", on[0] * 1000, "ms", "unchanged"),
            Figure("cabinets' frame p99, web off", off[1] * 1000, "ms", note="60 fps: 16.7 ms"),
            Figure("cabinets' frame p99, web on", on[1] * 1000, "ms"),
        ]
    finally:
        if web is not None:
            web.terminate()
            web.wait(15)
        server.stop("immediate")
        server.remove()
