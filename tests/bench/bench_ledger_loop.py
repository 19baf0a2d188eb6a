"""Punch Cards at the cabinet with a slow or hung ledger: the main loop's frames.

The real-time main loop (``run_main_loop``, 60 fps, simulated hardware, every frame
drawn) plays a script as a player would: the attract screen's title card (its
leaderboard of 5,000 players read from the ledger), the Punch Cards lobby, Ann signs in
at station 1 and Bob at station 2 (a name, then a PIN checked with scrypt at the
cabinet's real cost), Ann challenges Bob, they duel to the end and the duel is recorded.
The ledger is a throwaway PostgreSQL server on loopback, reached directly, through a
proxy adding 20 ms or 100 ms to every round trip, or through a proxy that accepts and
never answers (hung).  Each step waits for the screen's answer (or gives up after a
while, as a player would).

Figures per case, medians over :data:`REPEATS` runs: the longest time between two frames
and the 99th percentile of it (60 fps: 16.7 ms), and how long the script took.  The
"before" figures of issue 22 (every call on the loop) were 10,000 ms hung, a duel 322 /
1,529 ms at 20 / 100 ms; the cases marked "on the loop" run the same script with the
link's calls made on the main loop as before (a worker that runs each call as it is
given), for a comparison in the same run.  Also the round trips one ``record_duel`` makes (its time behind
50 ms of added latency, divided by 50 ms).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from tests.bench.harness import Figure, percentile

TITLE = "Punch Cards at the cabinet: main-loop frames with the ledger on loopback, slow and hung"
CASES: tuple[tuple[str, float | None, bool], ...] = (
    ("loopback", 0.0, False),
    ("+20 ms", 0.020, False),
    ("+100 ms", 0.100, False),
    ("hung", None, False),
    ("+20 ms, on the loop", 0.020, True),
    ("+100 ms, on the loop", 0.100, True),
)
"""Each case's added round-trip latency in seconds (None: the server never answers), and
whether the ledger's calls run on the main loop (as before issue 22)."""
REPEATS = 3
PLAYERS = 5_000
FPS = 60
PRESS_GAP_S = 0.09
"""Between a player's presses."""
GIVE_UP_S = 9.0
"""A step waits this long for its answer, then the script goes on (the hung case)."""


def _now_us() -> int:
    return time.monotonic_ns() // 1000


def _setup(url: str) -> None:
    """The event: 5,000 players (cheap PIN hashes: set-up only), and Ann and Bob with PINs
    hashed at the cabinet's real cost (so signing in runs scrypt as on the cabinet)."""
    from firmware_py.games.punch_cards.ledger import Ledger, PinHasher

    cheap = Ledger(url, event_seed=1, pin_hasher=PinHasher(n=16, r=1, p=1))
    for i in range(PLAYERS - 2):
        cheap.register(f"r{i}", f"Player {i}", "ABCD")
    cheap.close()
    real = Ledger(url)
    real.register("ann", "Ann", "ABCD")
    real.register("bob", "Bob", "FEED")
    real.close()


def _script(cabinet: Any, sim: Any) -> Iterator[tuple[str, Any]]:
    """What the players do: ("press", (station, button)) or ("until", predicate)."""
    from display.games.punch_cards.models import DeskStep
    from firmware_py.games.punch_cards.duel import DuelScene
    from firmware_py.games.punch_cards.keyboard import pin_presses, presses_for
    from firmware_py.games.punch_cards.lobby import Lobby
    from games.punch_cards import SPEC, Phase
    from hal.events import Button

    yield "sleep", 1.5  # the title card: the leaderboard is read (the ledger opened first)
    yield "press", (0, Button.START)
    names = [g.spec.name for g in cabinet.ctx.games]
    for b in [Button.B] * names.index(SPEC.name) + [Button.START]:
        yield "press", (0, b)
    lobby = cabinet.scene
    assert isinstance(lobby, Lobby), type(lobby).__name__
    yield "press", (1, Button.START)
    for station, name, pin in ((0, "Ann", "ABCD"), (1, "Bob", "FEED")):
        for b in presses_for(name):
            yield "press", (station, b)
        desk = lobby.desks[station]
        yield "until", lambda desk=desk: desk.job is None
        for b in pin_presses(pin):
            yield "press", (station, b)
        yield "until", lambda desk=desk: (desk.job is None and desk.step is not DeskStep.PIN) or desk.bad
    if not (lobby.desks[0].signed_in and lobby.desks[1].signed_in):
        yield "sleep", 2.0  # the hung case: nobody signed in, nothing more to do
        return
    yield "press", (0, Button.A)
    yield "until", lambda: isinstance(cabinet.scene, DuelScene) or lobby.desks[0].bad
    scene = cabinet.scene
    if not isinstance(scene, DuelScene):
        return
    if scene.engine.phase is Phase.ANSWER:
        yield "press", (1, Button.A)
    yield "press", (0, Button.START)
    yield "press", (1, Button.START)
    corner = 0
    while not scene.engine.over:
        for station, b in (
            (0, (Button.A, Button.B, Button.C, Button.D)[corner % 4]),
            (1, (Button.A, Button.B, Button.C, Button.D)[(corner // 4) % 4]),
            (0, Button.A),
            (1, Button.A),
        ):
            yield "press", (station, b)
        corner += 1
    yield "until", lambda: scene.settled
    yield "sleep", 1.0


def _inline_worker() -> Any:
    """A worker that runs each call at once, on the caller's thread: the main loop, as
    every ledger call ran before issue 22."""
    from firmware_py.runtime.background import Job, Worker

    class OnTheLoop(Worker):
        def submit(self, what: str, call: Callable[[], Any], timeout_s: float) -> Job[Any]:
            job: Job[Any] = Job(what, call, timeout_s, self.clock)
            job._run()
            return job

    return OnTheLoop("on the loop")


def one_run(
    server_url: str, server_port: int, delay_s: float | None, on_the_loop: bool = False
) -> tuple[list[float], float, bool]:
    """Frame intervals (ms) of one scripted run, its length (s) and whether the duel was
    recorded."""
    from firmware_py.games.punch_cards.duel import DuelScene
    from firmware_py.games.punch_cards.ledger import Ledger
    from firmware_py.games.punch_cards.ledger_link import CabinetState, LedgerLink
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.loop import run_main_loop
    from firmware_py.runtime.store import Store
    from games.punch_cards import SPEC
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.sim import SimCabinet
    from tests.firmware_py.ledger.proxy import DelayProxy

    proxy = DelayProxy(server_port, delay_s or 0.0, hang=delay_s is None)
    url = proxy.url(server_url)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config(), data_dir=Path(tmp))
        clock = ManualClock(_now_us())
        sim = SimCabinet(cfg, clock)
        cabinet = Cabinet(cfg, sim, clock, Store(Path(tmp) / "s.sqlite3"), log=lambda _l: None, seed=1)
        worker = _inline_worker() if on_the_loop else None
        link = LedgerLink(url, lambda: Ledger(url, cabinet=cfg.name), worker=worker)
        cabinet.ctx.game_state[SPEC.name] = CabinetState(link)
        frames: list[int] = []
        script = _script(cabinet, sim)
        state: dict[str, Any] = {"next_at": _now_us(), "until": None, "since": 0, "done": False}
        recorded = [False]

        def drive(now: int) -> None:
            clock.set(max(clock.now_us(), now))
            if isinstance(cabinet.scene, DuelScene) and cabinet.scene.recorded:
                recorded[0] = True
            until: Callable[[], bool] | None = state["until"]
            if until is not None:
                if not until() and now - state["since"] < GIVE_UP_S * 1e6:
                    return
                state["until"] = None
                state["next_at"] = now + int(PRESS_GAP_S * 1e6)
            if now < state["next_at"]:
                return
            try:
                kind, arg = next(script)
            except StopIteration:
                state["done"] = True
                return
            if kind == "press":
                sim.press(arg[0], arg[1], now, hold_us=40_000)
                state["next_at"] = now + int(PRESS_GAP_S * 1e6)
            elif kind == "sleep":
                state["next_at"] = now + int(arg * 1e6)
            else:
                state["until"], state["since"] = arg, now

        started = time.monotonic()
        run_main_loop(cabinet, _now_us, FPS, lambda: not state["done"], drive, frames.append)
        length = time.monotonic() - started
        sim.close()
        link.close()
    proxy.close()
    gaps = [(b - a) / 1000 for a, b in zip(frames, frames[1:])]
    return gaps, length, recorded[0]


def round_trips(server_url: str, server_port: int, delay_s: float = 0.05) -> tuple[float, float]:
    """Opening the ledger (a new connection to an existing ledger) and one
    ``record_duel``, each as its median wall time behind ``delay_s`` of added latency
    divided by ``delay_s``: the round trips it makes."""
    from firmware_py.games.punch_cards.ledger import Ledger, PinHasher
    from tests.firmware_py.ledger.proxy import DelayProxy
    from tests.firmware_py.ledger.support import decided_duel

    cheap = PinHasher(n=16, r=1, p=1)
    setup = Ledger(server_url, event_seed=2, pin_hasher=cheap)
    setup.register("a", "Ann", "ABCD")
    setup.register("b", "Bob", "ABCD")
    proxy = DelayProxy(server_port, delay_s)
    opening = []
    for _ in range(3):
        t0 = time.perf_counter()
        Ledger(proxy.url(server_url), pin_hasher=cheap).close()
        opening.append(time.perf_counter() - t0)
    ledger = Ledger(proxy.url(server_url), pin_hasher=cheap)
    times = []
    for i in range(5):
        options = setup.duel_options("Ann", "Bob")
        stakes = (options.collections[0][0].serial, options.collections[1][0].serial)
        duel = decided_duel(options, i % 2, stakes)
        assert duel is not None
        t0 = time.perf_counter()
        ledger.record_duel(f"d{i}", "Ann", "Bob", duel)
        times.append(time.perf_counter() - t0)
    ledger.close()
    setup.close()
    proxy.close()
    return statistics.median(opening) / delay_s, statistics.median(times) / delay_s


def run() -> list[Figure]:
    from tests.firmware_py.ledger.pg_server import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin): apt-get install postgresql")
    server = PostgresServer(bindir)
    figures: list[Figure] = []
    try:
        server.init()
        server.start()
        url = server.schema_url("bench")
        _setup(url)
        results: dict[str, list[tuple[float, float, float, bool]]] = {name: [] for name, _, _ in CASES}
        for _ in range(REPEATS):  # the cases side by side in each round, so load affects them alike
            for name, delay, on_the_loop in CASES:
                gaps, length, recorded = one_run(url, server.port, delay, on_the_loop)
                results[name].append((max(gaps), percentile(gaps, 99), length, recorded))
                print(
                    f"   {name}: longest frame {max(gaps):.1f} ms, p99 {percentile(gaps, 99):.1f} ms, "
                    f"run {length:.1f} s, duel recorded: {recorded}",
                    flush=True,
                )
        for name, delay, on_the_loop in CASES:
            runs = results[name]
            recorded = sum(r[3] for r in runs)
            what = "hung: nobody signs in" if delay is None else f"duel recorded in {recorded} of {len(runs)} runs"
            if on_the_loop:
                what += "; every ledger call on the main loop, as before issue 22"
            goal = "" if on_the_loop else "≤ 50"
            figures += [
                Figure(f"{name}: longest main-loop frame", statistics.median(r[0] for r in runs), "ms", goal, what),
                Figure(f"{name}: p99 frame", statistics.median(r[1] for r in runs), "ms", "", f"{FPS} fps"),
                Figure(f"{name}: the script's length", statistics.median(r[2] for r in runs), "s", "", ""),
            ]
        opening, duel = round_trips(server.schema_url("rt"), server.port)
        figures += [
            Figure(
                "record_duel round trips",
                duel,
                "round trips",
                "fewer",
                "its time behind 50 ms of added latency / 50 ms; 16 before issue 22",
            ),
            Figure(
                "opening the ledger, round trips",
                opening,
                "round trips",
                "fewer",
                "connect, schema check, event seed; about 41 before issue 22",
            ),
        ]
    finally:
        try:
            server.stop("immediate")
        finally:
            server.remove()
    return figures
