"""The one interface the wizard's front ends record through, whatever the pads are.

A live padboard (:mod:`calibration.live`), gpio-edge comparator lines, or virtual pads
(:mod:`calibration.virtual`) all offer: how many pads, whether they give an analog
signal, the detector settings of each pad (read, apply to RAM, save to flash), and
recording into a :class:`~calibration.capture.Recording`.  ``pump`` moves a recording
forward: a live source has nothing to do (its reader thread feeds it), virtual pads
simulate up to the given time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from calibration.capture import Capture, Recording
from hal.padboard.settings import PadSettings


class PadSource(Protocol):
    pads: int
    analog: bool
    sample_period_us: int

    def now_us(self) -> int: ...

    def read_settings(self, pad: int) -> PadSettings: ...

    def write_settings(self, pad: int, settings: PadSettings) -> PadSettings:
        """Apply to the detector now (RAM only)."""
        ...

    def save_settings(self) -> None:
        """Store every pad's current settings in the board's flash."""
        ...

    def begin(self, rec: Recording) -> None: ...

    def pump(self, rec: Recording, until_us: int) -> None: ...

    def end(self, rec: Recording) -> Capture: ...


def record(
    source: PadSource,
    rec: Recording,
    on_progress: Callable[[Recording], bool] | None = None,
    chunk_us: int = 50_000,
    sleep: Callable[[float], None] = time.sleep,
) -> Capture:
    """Run a recording to its end.  ``on_progress`` is called every chunk; returning False
    ends the step at once (the operator aborted).  Virtual pads never sleep."""
    source.begin(rec)
    try:
        while True:
            now = source.now_us()
            if rec.finished(now):
                break
            source.pump(rec, min(now + chunk_us, rec.deadline_us))
            if on_progress is not None and on_progress(rec) is False:
                raise CaptureAborted(rec.kind)
            if getattr(source, "realtime", False):
                sleep(chunk_us / 1e6)
    finally:
        cap = source.end(rec)
    return cap


class CaptureAborted(Exception):
    """The operator aborted during a capture."""
