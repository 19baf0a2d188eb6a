"""Issue 22: the main loop never waits on the Punch Cards ledger.

Every ledger call (and the PIN's slow hash, and the standings) runs on the link's worker
thread; the scene reads the answer on a later frame and says meanwhile that it waits; a
call that does not answer is said plainly; a write that answers late is not recorded
twice.  The worker's deadlines here run on the cabinet's virtual clock, so nothing waits
in real time: a ledger that "hangs" is one whose call blocks on an event the test holds,
and the loop is driven without settling background calls
(``VirtualTimeDriver(settle_background=False)``), so a step that waited on it would never
return.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from display.games.punch_cards.models import DeskStep, DuelTable
from firmware_py.games.punch_cards import ENTRANCE
from firmware_py.games.punch_cards.duel import DuelScene
from firmware_py.games.punch_cards.keyboard import pin_presses, presses_for
from firmware_py.games.punch_cards.ledger import EntryKind, Ledger, LedgerUnreachable
from firmware_py.games.punch_cards.ledger import ledger as ledger_module
from firmware_py.games.punch_cards.ledger_link import (
    ANSWER_S,
    BOARD_REFRESH_US,
    NOT_ANSWERING,
    CabinetState,
    LedgerLink,
)
from firmware_py.games.punch_cards.lobby import Lobby
from firmware_py.runtime import background
from firmware_py.runtime.background import NoAnswer, Worker
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from games.punch_cards import SPEC
from hal.config import CabinetConfig
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import FRAME_US, run_for
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, Clock
from tests.firmware_py.ledger.conftest import postgres as postgres  # the throwaway server fixture
from tests.firmware_py.ledger.pg_server import PostgresServer
from tests.firmware_py.ledger.proxy import DelayProxy
from tests.firmware_py.ledger.support import decided_duel
from tests.firmware_py.test_cabinet_punch_cards import (
    open_lobby,
    private,
    tap,
    taps,
    two_players,
)

ANSWER_US = int(ANSWER_S * 1_000_000)


class Gate:
    """A call that waits until the test opens the gate (a server that does not answer),
    noting the threads it was called on."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.threads: list[threading.Thread] = []
        self.calls = 0

    def hold(self) -> None:
        self.calls += 1
        self.threads.append(threading.current_thread())
        if not self.open.wait(60):
            raise LedgerUnreachable("the test never opened the gate")


def started(gate: Gate, calls: int = 1) -> bool:
    """Wait (real time, a synchronisation only) until the worker has made ``calls`` calls
    that reach the gate."""
    for _ in range(20_000):
        if gate.calls >= calls:
            return True
        time.sleep(0.001)
    return False


@pytest.fixture
def wall() -> Clock:
    return Clock()


@pytest.fixture
def ledger(config: CabinetConfig, wall: Clock) -> Iterator[Ledger]:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    opened = Ledger(str(config.data_dir / "pc.sqlite3"), event_seed=SEED, clock=wall, pin_hasher=FAST_PINS)
    yield opened
    opened.close()


def virtual_link(cabinet: Cabinet, sim: SimCabinet, opener: Callable[[], Ledger], url: str = "ledger") -> LedgerLink:
    """The cabinet's ledger link, its worker's deadlines on the cabinet's virtual clock."""
    worker = Worker("test ledger", clock=lambda: sim.clock.now_us() / 1e6)
    link = LedgerLink(url, opener, worker=worker)
    cabinet.ctx.game_state[SPEC.name] = CabinetState(link)
    return link


def run_unsettled(cabinet: Cabinet, sim: SimCabinet, duration_us: int) -> int:
    """Let virtual time pass without waiting for background calls; returns the frames drawn."""
    before = cabinet.frames
    VirtualTimeDriver(cabinet, FRAME_US, settle_background=False).advance(duration_us)
    return cabinet.frames - before


def tap_unsettled(cabinet: Cabinet, sim: SimCabinet, station: int, button: Button) -> None:
    sim.press(station, button, sim.clock.now_us(), hold_us=50_000)
    run_unsettled(cabinet, sim, 90_000)


def open_lobby_unsettled(cabinet: Cabinet, sim: SimCabinet) -> Lobby:
    tap_unsettled(cabinet, sim, 0, Button.START)
    names = [g.spec.name for g in cabinet.ctx.games]
    for b in [Button.B] * names.index(SPEC.name) + [Button.START]:
        tap_unsettled(cabinet, sim, 0, b)
    assert isinstance(cabinet.scene, Lobby)
    return cabinet.scene


def test_a_hung_ledger_never_blocks_a_frame_and_is_said_plainly(cabinet: Cabinet, sim: SimCabinet) -> None:
    gate = Gate()

    def hung_open() -> Ledger:
        gate.hold()  # a server that accepts and never answers
        raise LedgerUnreachable("postgresql://10.0.0.9:5432/event: the gate opened")

    virtual_link(cabinet, sim, hung_open, "postgresql://10.0.0.9:5432/event")
    try:
        lobby = open_lobby_unsettled(cabinet, sim)
        assert started(gate)  # the title card's leaderboard already hangs
        for b in presses_for("Ann"):
            tap_unsettled(cabinet, sim, 0, b)
        assert lobby.desks[0].message == "Looking up Ann..."  # waits behind the hung call
        frames = run_unsettled(cabinet, sim, ANSWER_US // 2)
        assert frames >= ANSWER_US // 2 // FRAME_US - 1  # every frame drawn while the ledger hangs
        assert lobby.desks[0].message == "Looking up Ann..."
        assert lobby.screen(sim.clock.now_us()).view.desks[0].message == "Looking up Ann..."  # said on screen
        run_unsettled(cabinet, sim, ANSWER_US // 2 + 2 * FRAME_US)
        assert lobby.desks[0].message == NOT_ANSWERING and lobby.desks[0].bad
        assert "10.0.0.9" not in lobby.desks[0].message
        assert lobby.desks[0].step is DeskStep.NAME  # START tries again
        assert all(t is not threading.main_thread() for t in gate.threads)
    finally:
        gate.open.set()


def test_the_attract_leaderboard_of_a_hung_ledger_says_it_is_not_answering(cabinet: Cabinet, sim: SimCabinet) -> None:
    gate = Gate()

    def hung_open() -> Ledger:
        gate.hold()
        raise LedgerUnreachable("the gate opened")

    virtual_link(cabinet, sim, hung_open, "postgresql://10.0.0.9:5432/event")
    try:
        assert isinstance(cabinet.scene, Attract)
        frames = run_unsettled(cabinet, sim, 100_000)
        assert started(gate)  # the title card asked for the leaderboard: the ledger hangs
        frames += run_unsettled(cabinet, sim, ANSWER_US + 400_000)
        assert frames > (ANSWER_US + 500_000) // FRAME_US // 2  # the title card and a demo, drawn
        board = ENTRANCE.attract_board(cabinet.ctx, sim.clock.now_us())  # what the next title card shows
        assert board is not None and board.note.startswith("The ledger is not answering") and board.rows == ()
        assert "10.0.0.9" not in board.note  # the address is the log's
    finally:
        gate.open.set()


def test_the_pin_hash_runs_off_the_loop_while_frames_go_on(
    cabinet: Cabinet, sim: SimCabinet, ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger.register("k", "Ann", "ABCD")
    gate = Gate()
    real_verify = ledger_module.verify_pin

    def slow_verify(pin: str, stored: str) -> bool:
        gate.hold()  # scrypt at a Pi's speed, as long as the test likes
        return real_verify(pin, stored)

    monkeypatch.setattr(ledger_module, "verify_pin", slow_verify)
    virtual_link(cabinet, sim, lambda: ledger)
    lobby = open_lobby(cabinet, sim)
    taps(cabinet, sim, 0, presses_for("Ann"))
    try:
        for b in pin_presses("ABCD"):
            tap_unsettled(cabinet, sim, 0, b)
        assert started(gate) and lobby.desks[0].message == "Checking PIN..."
        assert run_unsettled(cabinet, sim, 1_000_000) >= 1_000_000 // FRAME_US - 1  # frames while it hashes
        tap_unsettled(cabinet, sim, 1, Button.START)  # another station is served meanwhile
        assert lobby.desks[1].step is DeskStep.NAME
        assert not lobby.desks[0].signed_in and gate.threads[0] is not threading.main_thread()
    finally:
        gate.open.set()
    run_for(cabinet, sim, 100_000)
    assert lobby.desks[0].signed_in and lobby.desks[0].message == "Signed in: Ann" and len(lobby.desks[0].cards) == 5


@pytest.mark.slow
def test_a_duel_answered_late_is_recorded_once(cabinet: Cabinet, sim: SimCabinet, ledger: Ledger) -> None:
    gate = Gate()
    real_record = ledger.record_duel
    first_answered = threading.Event()

    def late_record(*args: Any) -> Any:
        if gate.calls == 0:
            gate.hold()  # the first send: the server commits it, but only after the cabinet gave up
            try:
                return real_record(*args)
            finally:
                first_answered.set()
        gate.calls += 1
        return real_record(*args)

    ledger.record_duel = late_record  # type: ignore[method-assign]
    virtual_link(cabinet, sim, lambda: ledger)
    two_players(cabinet, sim)
    before = ledger.holders()
    tap(cabinet, sim, 0, Button.A)
    scene = cabinet.scene
    assert isinstance(scene, DuelScene)
    taps(cabinet, sim, 0, [Button.START])
    taps(cabinet, sim, 1, [Button.START])
    try:
        n = 0
        while not scene.engine.over:
            for station, button in (
                (0, (Button.A, Button.B, Button.C, Button.D)[n % 4]),
                (1, (Button.A, Button.B, Button.C, Button.D)[(n // 4) % 4]),
                (0, Button.A),
                (1, Button.A),
            ):
                tap_unsettled(cabinet, sim, station, button)
            n += 1
        assert started(gate) and scene.saving.waiting == "Saving the duel..."
        run_unsettled(cabinet, sim, 400_000)  # a wait is news once it lasts (a local ledger answers at once)
        view = scene.screen(sim.clock.now_us()).view
        assert isinstance(view, DuelTable) and view.waiting == "Saving the duel..." and view.public.winner is None
        run_unsettled(cabinet, sim, ANSWER_US + 2 * FRAME_US)
        assert scene.saving.waiting.startswith("The ledger is not answering") and not scene.settled
        assert "Recording..." in private(sim, 0)
    finally:
        gate.open.set()  # the late answer: the first send commits now
    # The late answer and the send again run on the worker thread, in real time: wait for
    # them (a synchronisation, no bound asserted) while the cabinet's time goes on.
    assert first_answered.wait(60)
    run_for(cabinet, sim, 3_000_000)  # the cabinet sends it again, with the same key
    deadline = time.monotonic() + 60
    while not scene.settled and time.monotonic() < deadline:
        run_for(cabinet, sim, FRAME_US)
    assert gate.calls == 2 and scene.settled and scene.recorded and "WINS" in scene.result[0].upper()
    duels = [e for e in ledger.entries() if e.kind is EntryKind.DUEL]
    assert len(duels) == 1
    taken = scene.engine.taken
    assert taken is not None and ledger.holders()[taken.serial] != before[taken.serial]
    assert ledger.check() == []


def test_a_job_past_its_deadline_answers_no_answer_and_is_never_run_if_not_started() -> None:
    now = [0.0]
    worker = Worker("test", clock=lambda: now[0])
    gate = Gate()
    first = worker.submit("hangs", gate.hold, timeout_s=1.0)
    assert started(gate)
    ran: list[str] = []
    second = worker.submit("queued", lambda: ran.append("second"), timeout_s=1.0)
    assert not first.ready() and not second.ready()
    now[0] = 1.5
    assert first.ready() and second.ready()
    with pytest.raises(NoAnswer):
        first.result()
    assert worker.wait_settled(10)  # what runs is past its deadline: settled (virtual time goes on)
    gate.open.set()
    for _ in range(10_000):  # the hung call ends; the queued one is dropped
        if not worker.busy:
            break
        time.sleep(0.001)
    assert not worker.busy and first.answered and not second.answered
    assert ran == []  # nobody waited for it any more: never run
    third = worker.submit("fine", lambda: 7, timeout_s=1.0)
    assert worker.wait_settled(10) and third.result() == 7


def test_a_hung_postgresql_server_is_cut_and_said_not_answering(postgres: PostgresServer) -> None:
    proxy = DelayProxy(postgres.port)
    try:
        ledger = Ledger(proxy.url(postgres.schema_url()), event_seed=SEED, pin_hasher=FAST_PINS)
        assert ledger.backend.run(lambda tx: tx.value("SHOW statement_timeout"), write=False) == "5s"
        ledger.backend.call_timeout_s = 0.5  # type: ignore[attr-defined]
        proxy.hang = True
        done: list[BaseException] = []

        def call() -> None:
            try:
                ledger.standings()
            except LedgerUnreachable as e:
                done.append(e)

        caller = threading.Thread(target=call, daemon=True)
        caller.start()
        caller.join(60)  # a guard only: without the cut it would wait for ever
        assert done and "is not answering" in str(done[0])
        ledger.close()
    finally:
        proxy.close()
        background.settle(1)


def test_the_standings_are_worked_out_again_only_after_a_new_entry(ledger: Ledger) -> None:
    ledger.register("a", "Ann", "ABCD")
    worked_out: list[int] = []
    real_standings = ledger.standings

    def counted() -> Any:
        worked_out.append(1)
        return real_standings()

    ledger.standings = counted  # type: ignore[method-assign]
    link = LedgerLink("ledger", lambda: ledger)

    def board_at(now_us: int) -> Any:
        link.board(now_us)
        assert link.worker.wait_settled(10)
        return link.board(now_us)

    first = board_at(0)
    assert isinstance(first, tuple) and [s.name for s in first] == ["Ann"] and len(worked_out) == 1
    for n in range(1, 4):  # every 5 s: the newest entry is read, the standings are not
        assert board_at(n * BOARD_REFRESH_US) == first
    assert len(worked_out) == 1
    ledger.register("b", "Bob", "FEED")
    link.changed()
    after = board_at(4 * BOARD_REFRESH_US + 1)
    assert isinstance(after, tuple) and len(after) == 2 and len(worked_out) == 2


def test_a_stopped_server_process_is_cut_and_the_next_call_reconnects(postgres: PostgresServer) -> None:
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    ledger.register("a", "Ann", "ABCD")
    usual_timeout = ledger.backend.call_timeout_s  # type: ignore[attr-defined]
    ledger.backend.call_timeout_s = 0.5  # type: ignore[attr-defined]
    server_process = ledger.backend.conn.info.backend_pid  # type: ignore[attr-defined]
    os.kill(server_process, signal.SIGSTOP)  # the kernel still acknowledges: only the cut ends the wait
    try:
        done: list[BaseException] = []

        def call() -> None:
            try:
                ledger.standings()
            except LedgerUnreachable as e:
                done.append(e)

        caller = threading.Thread(target=call, daemon=True)
        caller.start()
        caller.join(60)  # a guard only: without the cut it would wait for ever
        assert done and "is not answering" in str(done[0])
    finally:
        os.kill(server_process, signal.SIGCONT)
    # The reconnect is judged, not its speed: under load a new server process takes more than 0.5 s.
    ledger.backend.call_timeout_s = usual_timeout  # type: ignore[attr-defined]
    assert [s.name for s in ledger.standings()] == ["Ann"]  # a new connection, a new server process
    assert ledger.backend.conn.info.backend_pid != server_process  # type: ignore[attr-defined]
    ledger.close()


@pytest.mark.parametrize("pipelined", [True, False])
def test_a_duel_records_the_same_with_or_without_pipeline_mode(postgres: PostgresServer, pipelined: bool) -> None:
    """Pipeline mode needs libpq 14+: without it (an older system libpq) every statement
    waits for its answer, and the ledger records exactly the same."""
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    ledger.backend.pipelined = pipelined  # type: ignore[attr-defined]
    ledger.register("a", "Ann", "ABCD")
    ledger.register("b", "Bob", "FEED")
    options = ledger.duel_options("Ann", "Bob")
    duel = decided_duel(options, winner=1, stakes=(options.collections[0][0].serial, options.collections[1][0].serial))
    assert duel is not None and duel.taken is not None
    receipt = ledger.record_duel("d", "Ann", "Bob", duel)
    assert [(m.card, m.giver, m.taker) for m in receipt.moves] == [(duel.taken.serial, "Ann", "Bob")]
    again = ledger.record_duel("d", "Ann", "Bob", duel)
    assert again.repeated and (again.entry, again.at_us, again.moves) == (receipt.entry, receipt.at_us, receipt.moves)
    assert ledger.holders()[duel.taken.serial] == "Bob" and ledger.check() == []
    ledger.close()
