"""A real (or pty-simulated) padboard as a calibration source.

Wraps :class:`hal.padboard.driver.PadboardSource`: settings go over the link, raw
samples of every pad stream in while a step records (``RAW_START``), every detected
hit arrives through the driver's ``on_hit`` with its raw peak, and its rising edge at the
board's full sampling rate after it (``EDGE``), and each touch of the contact probe
(``CONTACT``).  The callbacks run on the driver's reader thread and only append to the
thread-safe recording.
"""

from __future__ import annotations

from calibration.capture import Capture, Recording
from hal.padboard.driver import PadboardSource
from hal.padboard.messages import PadEdge, PadHit, RawBlock
from hal.padboard.settings import PadSettings


class LivePadboard:
    analog = True
    realtime = True

    def __init__(self, board: PadboardSource, frames_per_block: int = 16) -> None:
        if board.info is None:
            raise RuntimeError(f"padboard on {board.port} is not connected ({board.last_error or 'no answer'})")
        self.board = board
        self.pads = board.info.pads
        self.sample_period_us = board.info.sample_period_us
        self.frames_per_block = frames_per_block
        self._rec: Recording | None = None
        self._prev_on_hit = board.on_hit

    def now_us(self) -> int:
        return self.board.clock.now_us()

    def read_settings(self, pad: int) -> PadSettings:
        return self.board.read_settings(pad)

    def write_settings(self, pad: int, settings: PadSettings) -> PadSettings:
        return self.board.write_settings(pad, settings)

    def save_settings(self) -> None:
        self.board.save_settings()

    def _on_hit(self, hit: PadHit) -> None:
        rec = self._rec
        if rec is not None:
            rec.add_hit(hit)
        if self._prev_on_hit is not None:
            self._prev_on_hit(hit)

    def _on_raw(self, block: RawBlock) -> None:
        rec = self._rec
        if rec is None:
            return
        order = [block.pads.index(p) for p in rec.pads]
        rec.add_frames(block.t_us, [[row[j] for j in order] for row in block.samples])

    def _on_edge(self, edge: PadEdge) -> None:
        rec = self._rec
        if rec is not None:
            rec.add_edge(edge)

    def _on_contact(self, t_us: int) -> None:
        rec = self._rec
        if rec is not None:
            rec.add_contact(t_us)

    def begin(self, rec: Recording) -> None:
        self._rec = rec
        rec.start(self.now_us())
        self.board.on_hit = self._on_hit
        self.board.start_raw(
            rec.pads, self._on_raw, self.frames_per_block, on_edge=self._on_edge, on_contact=self._on_contact
        )

    def pump(self, rec: Recording, until_us: int) -> None:
        """Nothing to do: the reader thread fills the recording."""

    def end(self, rec: Recording) -> Capture:
        try:
            self.board.stop_raw()
        finally:
            self.board.on_hit = self._prev_on_hit
            self._rec = None
        return rec.capture(self.now_us())

    def close(self) -> None:
        self.board.close()
