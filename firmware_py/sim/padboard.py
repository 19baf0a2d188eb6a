"""A padboard that is not there: the real firmware logic behind a pty.

The simulator runs the board's own code (``board.Board`` with ``detector.Detector``
and the ``wire`` codec) on samples from the piezo signal model, under a board clock
with its own offset and drift, and talks to the host over a pseudo-terminal through a
USB-like link: each frame is delayed by a random latency in each direction (in order,
as USB delivers).  ``port`` is a symlink to the pty, like the udev name of a real
board, so unplug/replug can swap the pty underneath it.  Faults are scripted:
garbage bytes, dropped/duplicated/corrupted frames, unplug and replug (which reboots
the board: new clock origin, sequence numbers from 0, settings reloaded from its
flash file).

Everything time-dependent is split out for use without a pty or real time:
:class:`BoardClock`, :class:`UsbJitter`, :func:`ping_exchange` (one ping in virtual
time) and :func:`detect` (model frames → hits).
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import select
import signal
import sys
import tempfile
import threading
import time
import tty
from array import array
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.padboard import settings_store
from firmware_py.padboard.board import Board
from firmware_py.padboard.detector import FRAME_MASK, TICKS_MASK, Detector
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.clock import Clock, MonotonicClock
from hal.padboard import wire


@dataclass(frozen=True)
class BoardClock:
    """The board's 1 µs timer as a function of host time: its own origin and drift."""

    offset_us: int = 123_456_789
    drift_ppm: float = 100.0

    def board_us(self, host_us: float) -> int:
        """Unwrapped board µs at host time ``host_us``."""
        return int(self.offset_us + host_us * (1 + self.drift_ppm * 1e-6))

    def host_us(self, board_us: float) -> float:
        return (board_us - self.offset_us) / (1 + self.drift_ppm * 1e-6)


@dataclass(frozen=True)
class UsbJitter:
    """One-way USB latencies in µs: a floor plus direction-specific jitter, so the two
    directions are asymmetric (host→board uniform up to ``out_max_us``; board→host an
    exponential tail with mean ``back_mean_us``, cut at ``back_max_us``)."""

    floor_us: float = 100.0
    out_max_us: float = 1900.0
    back_mean_us: float = 400.0
    back_max_us: float = 1900.0

    def out_us(self, rng: random.Random) -> float:
        return self.floor_us + rng.uniform(0.0, self.out_max_us)

    def back_us(self, rng: random.Random) -> float:
        return self.floor_us + min(rng.expovariate(1.0 / self.back_mean_us), self.back_max_us)


def ping_exchange(
    board_clock: BoardClock, jitter: UsbJitter, rng: random.Random, send_us: int, tick_bits: int = 30
) -> tuple[int, int, int]:
    """One ping in virtual time: ``(send_us, board ticks when read, recv_us)``, as the
    driver would feed its clock sync, with the board reading its timer on arrival."""
    arrive = send_us + jitter.out_us(rng)
    ticks = board_clock.board_us(arrive) & ((1 << tick_bits) - 1)
    return send_us, ticks, int(arrive + jitter.back_us(rng)) + 1


PROBE_IRQ_US = (3.0, 12.0)
"""How late the board's interrupt stamps the contact probe closing (uniform): a hard IRQ
on the RP2040 in MicroPython, an estimate to confirm on the first board."""


class SimDma:
    """The board's sampling as its DMA does it, on the host: the ADC converts the pads in
    turn (pad ``i`` ``i * frame_us / pads`` after the frame's time), 12-bit results
    (read_u16 counts >> 4), written into a ring of halfwords in the layout
    ``Detector.feed`` reads.  Frame numbers count up from 0 and wrap as on the board."""

    SHIFT = 4

    def __init__(self, model: PiezoModel, frame_us: int = 50, ring_samples: int = 4096) -> None:
        self.model = model
        self.pads = len(model.pads)
        self.frame_us = frame_us
        self.ring = array("H", bytes(2 * ring_samples))
        self.next_frame = 0

    def take(self, t_first: int, count: int) -> int:
        """Sample ``count`` frames from unwrapped board time ``t_first``; returns the
        frame number of the first."""
        first = self.next_frame
        n, size, ring, shift = self.pads, len(self.ring), self.ring, self.SHIFT
        stagger = self.frame_us / n
        d = 0
        while d < count:
            cols = self.model.block(t_first + d * self.frame_us, self.frame_us, count - d, stagger)
            for i, col in enumerate(cols):
                at = (first + d) * n + i
                for f, x in enumerate(col):
                    ring[(at + f * n) % size] = x >> shift
            d += len(cols[0])
        self.next_frame = (first + count) & FRAME_MASK
        return first

    def feed(self, board: Board, t_first: int, count: int) -> None:
        """Sample ``count`` frames and hand them to ``board`` as its main loop does."""
        first = self.take(t_first, count)
        board.on_block(self.ring, first, count, t_first & TICKS_MASK, self.frame_us, self.SHIFT, True)


def detect(
    frames: Iterable[tuple[int, Sequence[int]]], settings: Sequence[dict[str, int]]
) -> list[tuple[int, int, int, int]]:
    """Run the board's detector over model frames (``PiezoModel.frames``) without any
    board or link: hits as ``(pad, onset_ticks, velocity, peak)``, ticks wrapped."""
    det = Detector(len(settings), list(settings))
    hits: list[tuple[int, int, int, int]] = []
    for t, samples in frames:
        hits.extend(det.process(t & TICKS_MASK, samples))
    return hits


@dataclass
class _Faults:
    drop: int = 0
    drop_type: int | None = None
    duplicate: int = 0
    duplicate_type: int | None = None
    corrupt: int = 0
    garbage: list[bytes] = field(default_factory=list)


def _frame_type(frame: bytes) -> int:
    body = wire.cobs_decode(frame.strip(b"\x00"))
    return body[0] if body else -1


class PadboardSimulator:
    """A simulated padboard on a pty; ``start()`` runs it on a thread in real time."""

    def __init__(
        self,
        pads: int = 2,
        seed: int = 0,
        clock_offset_us: int = 123_456_789,
        drift_ppm: float = 100.0,
        jitter: UsbJitter = UsbJitter(),
        pad_models: Sequence[PiezoPad] | None = None,
        crosstalk: float | Sequence[Sequence[float]] = 0.2,
        sample_period_us: int = 250,
        protocol_version: int = wire.PROTOCOL_VERSION,
        clock: Clock | None = None,
        port: str | None = None,
        frame_us: int = 250,
        probe: bool = False,
    ) -> None:
        """``port``: where to put the port symlink (default: a fresh temporary folder),
        e.g. the path a cabinet config names.  ``frame_us``: the ADC's frame period,
        sampled as the board's DMA does (:class:`SimDma`); a real board takes 50 µs, the
        simulator 250 by default to stay light while it runs in real time.  ``probe``:
        the calibration's contact probe is worn: every slap closes it at its contact."""
        self.pads = pads
        self.clock = clock or MonotonicClock()
        self.board_clock = BoardClock(clock_offset_us, drift_ppm)
        self.jitter = jitter
        self.sample_period_us = sample_period_us
        self.frame_us = frame_us
        self.protocol_version = protocol_version
        self.probe = probe
        self._touches: list[int] = []  # board µs when the probe closes, not yet reported
        self._rng = random.Random(seed)
        self._model = PiezoModel(pad_models or [PiezoPad()] * pads, seed=seed, crosstalk=crosstalk)
        self._dir = tempfile.mkdtemp(prefix="padboard-sim-")
        self.port = port or os.path.join(self._dir, "padboard")
        self.flash_path = os.path.join(self._dir, settings_store.FILENAME)
        self._lock = threading.Lock()
        self._faults = _Faults()
        self._thread: threading.Thread | None = None
        self._running = False
        self._master: int | None = None
        self._slave: int | None = None
        self.board: Board
        self._boot()

    # -- scripting ----------------------------------------------------------------

    def slap(self, pad: int, t_us: int, velocity: int = 64, board_time: bool = False) -> int:
        """Schedule a slap at host time ``t_us`` (or board µs with ``board_time``) and
        return its true host time.  Schedule it a few ms ahead: samples already taken
        are not taken again."""
        with self._lock:
            bt = t_us if board_time else self.board_clock.board_us(t_us)
            peak = peak_for_velocity(velocity, self.board.settings[pad])
            self._model.add(ModelSlap(pad, bt, peak))
            if self.probe:
                heapq.heappush(self._touches, bt + round(self._rng.uniform(*PROBE_IRQ_US)))
            return round(self.board_clock.host_us(bt))

    def garbage(self, n: int) -> None:
        """Write ``n`` random bytes between frames."""
        with self._lock:
            self._faults.garbage.append(bytes(self._rng.randrange(256) for _ in range(n)))

    def drop_next(self, n: int = 1, msg_type: int | None = None) -> None:
        """Lose the next ``n`` frames (of ``msg_type``, e.g. ``wire.SLAP``, if given) on
        the link; the board still keeps them for RESEND."""
        with self._lock:
            self._faults.drop += n
            self._faults.drop_type = msg_type

    def duplicate_next(self, n: int = 1, msg_type: int | None = None) -> None:
        """Deliver the next ``n`` frames (of ``msg_type`` if given) twice."""
        with self._lock:
            self._faults.duplicate += n
            self._faults.duplicate_type = msg_type

    def corrupt_next(self, n: int = 1) -> None:
        """Flip one bit inside each of the next ``n`` frames."""
        with self._lock:
            self._faults.corrupt += n

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the host sees an I/O error) and so does
        the port name, until :meth:`replug`."""
        with self._lock:
            self._close_pty()

    def replug(self) -> None:
        """Plug back in: the board reboots (new clock origin, sequence from 0)."""
        with self._lock:
            if self._master is None:
                self.board_clock = BoardClock(self._rng.randrange(1 << 29), self.board_clock.drift_ppm)
                self._boot()

    # -- running --------------------------------------------------------------------

    def start(self) -> PadboardSimulator:
        self._running = True
        self._thread = threading.Thread(target=self._run, name="padboard-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self._close_pty()
        for p in Path(self._dir).iterdir():
            p.unlink()
        os.rmdir(self._dir)

    def __enter__(self) -> PadboardSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _boot(self) -> None:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.port + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        self._inbound: deque[tuple[float, bytes]] = deque()
        self._outbound: deque[tuple[float, bytes]] = deque()
        self.board = Board(
            self.pads,
            self.sample_period_us,
            self._queue_out,
            settings_store.load(self.flash_path, self.pads),
            lambda s: settings_store.save(self.flash_path, s),
            version=self.protocol_version,
        )
        self._next_frame = self.board_clock.board_us(self.clock.now_us())
        self._dma = SimDma(self._model, self.frame_us)

    def _close_pty(self) -> None:
        if self._master is None:
            return
        assert self._slave is not None  # opened and closed together with the master
        for fd in (self._master, self._slave):
            os.close(fd)
        self._master = self._slave = None
        if os.path.lexists(self.port):
            os.unlink(self.port)

    def _queue_out(self, frame: bytes) -> None:
        now = self.clock.now_us()
        due = now + self.jitter.back_us(self._rng)
        if self._outbound:
            due = max(due, self._outbound[-1][0])
        self._outbound.append((due, frame))

    def _run(self) -> None:
        while self._running:
            with self._lock:
                if self._master is not None:
                    try:
                        self._step()
                    except OSError:
                        self._close_pty()  # the host end went away mid-write: like an unplug
            time.sleep(0.0003)

    def _step(self) -> None:
        assert self._master is not None  # _run steps only while the pty is open
        now = self.clock.now_us()
        ready, _, _ = select.select([self._master], [], [], 0)
        if ready:
            try:
                data = os.read(self._master, 4096)
            except BlockingIOError:
                data = b""
            if data:
                due = now + self.jitter.out_us(self._rng)
                if self._inbound:
                    due = max(due, self._inbound[-1][0])
                self._inbound.append((due, data))
        board_now = self.board_clock.board_us(now)
        due = (board_now - self._next_frame) // self.frame_us + 1
        while due > 0:
            count = min(due, 64)
            self._dma.feed(self.board, self._next_frame, count)
            self._next_frame += count * self.frame_us
            due -= count
        while self._touches and self._touches[0] <= board_now:
            self.board.on_contact(heapq.heappop(self._touches))
        while self._inbound and self._inbound[0][0] <= now:
            _, data = self._inbound.popleft()
            self.board.on_bytes(data, board_now & TICKS_MASK)
        out = bytearray()
        f = self._faults
        for g in f.garbage:
            out += g
        f.garbage.clear()
        while self._outbound and self._outbound[0][0] <= now:
            _, frame = self._outbound.popleft()
            kind = _frame_type(frame)
            if f.drop and f.drop_type in (None, kind):
                f.drop -= 1
                continue
            if f.corrupt:
                f.corrupt -= 1
                bad = bytearray(frame)
                bad[self._rng.randrange(1, len(bad) - 1)] ^= 1 << self._rng.randrange(8)
                frame = bytes(bad)
            out += frame
            if f.duplicate and f.duplicate_type in (None, kind):
                f.duplicate -= 1
                out += frame
        if out:
            try:
                os.write(self._master, out)
            except BlockingIOError:
                pass  # nobody reading and the pty is full: the bytes are lost, as on USB


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_py.sim.padboard``: a simulated board for a cabinet
    process to use as its padboard port, slapping each pad now and then."""
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--port", default="/tmp/ringside-padboard", help="symlink to create for the config's padboard port")
    ap.add_argument("--pads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--slap-every", type=float, default=0.0, metavar="S", help="random slaps every S seconds (0: none)")
    ap.add_argument("--probe", action="store_true", help="the contact probe is worn: every slap closes it")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sim = PadboardSimulator(pads=args.pads, seed=args.seed, port=args.port, probe=args.probe).start()
    print(f"padboard simulator on {sim.port} -> {os.readlink(sim.port)}; Ctrl-C to stop", flush=True)
    rng = random.Random(args.seed)
    try:
        while True:
            time.sleep(args.slap_every or 3600)
            if args.slap_every:
                sim.slap(rng.randrange(args.pads), sim.clock.now_us() + 20_000, rng.randrange(20, 127))
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
