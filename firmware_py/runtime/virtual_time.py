"""The cabinet in virtual time: one loop for tests, HIL scenarios, the exhibition and
benchmarks.

The real-time loop (``firmware_py.runtime.loop``) sleeps until the next thing to do.  In virtual
time nothing sleeps: the driver jumps the clock straight to the next moment the
real-time loop would wake for and steps the cabinet there, so every input is handled at
its exact µs and a run of minutes takes seconds.  Those moments are

- the next scheduled input or slap arrival on the simulated hardware (``hw.next_due``),
- the end of a held input's settle window (``cabinet.next_due``): a decision is made the
  moment its inputs may be judged, not at the next frame,
- every frame (rendered there, which also reports the flip time to the game),
- the end of the run, and any extra wake-up the caller asks for (a HIL checkpoint).

Calls a scene runs off the loop (``firmware_py.runtime.background``) take no virtual
time: before each step, and at the end of a run, the driver waits, in real time, until
every worker has answered or is past its deadline (``settle_background=False`` leaves them running, for tests of
the loop going on while a call waits).

The clock moves only through ``cabinet.step`` (the sim hardware sets it as it fires each
input).  Callers watch or act at each step through the hooks of :meth:`run_until`.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_py.runtime import background
from firmware_py.runtime.cabinet import Cabinet


class VirtualTimeDriver:
    """Steps ``cabinet`` through virtual time with a frame every ``frame_us``, the first
    at ``first_frame_us`` (default: now).  ``render=False`` still wakes at frame times
    (the real loop would) but draws nothing."""

    def __init__(
        self,
        cabinet: Cabinet,
        frame_us: int,
        first_frame_us: int | None = None,
        render: bool = True,
        settle_background: bool = True,
    ) -> None:
        if frame_us <= 0:
            raise ValueError(f"frame_us must be positive, not {frame_us}")
        self.cabinet = cabinet
        self.frame_us = frame_us
        self.next_frame_us = cabinet.clock.now_us() if first_frame_us is None else first_frame_us
        self.render = render
        self.settle_background = settle_background

    @classmethod
    def at_fps(cls, cabinet: Cabinet, fps: int, first_frame_us: int | None = None) -> VirtualTimeDriver:
        """Frames as the cabinet's display runs them: ``1_000_000 // fps`` µs apart."""
        return cls(cabinet, 1_000_000 // fps, first_frame_us)

    def next_wake(self, end_us: int, extra_us: int | None = None) -> int:
        """The next moment to step at: the earliest of the next frame, the end of the
        run, the hardware's next input, the settle window's end and ``extra_us``."""
        dues = (self.cabinet.hw.next_due(), self.cabinet.next_due(), extra_us)
        return min([self.next_frame_us, end_us, *(d for d in dues if d is not None)])

    def run_until(
        self,
        end_us: int,
        *,
        wake: Callable[[], int | None] | None = None,
        before_step: Callable[[int], None] | None = None,
        after_step: Callable[[int, bool], None] | None = None,
        after: Callable[[int, bool], bool] | None = None,
    ) -> bool:
        """Step at every wake-up up to and including ``end_us``.

        Per step at ``t``: ``before_step(t)``; the cabinet steps; ``after_step(t,
        is_frame)``; at a frame the cabinet renders; then ``after(t, is_frame)``, which
        ends the run early by returning True.  ``wake()`` is asked before each step for
        an extra moment to wake at.  Returns True when ``after`` ended the run, False
        when ``end_us`` was reached."""
        while True:
            t = self.next_wake(end_us, wake() if wake is not None else None)
            if before_step is not None:
                before_step(t)
            if self.settle_background:
                background.settle()
            self.cabinet.step(t)
            is_frame = t == self.next_frame_us
            if after_step is not None:
                after_step(t, is_frame)
            if is_frame:
                if self.render:
                    self.cabinet.render()
                self.next_frame_us += self.frame_us
            if after is not None and after(t, is_frame):
                return self._settled(True)
            if t >= end_us:
                return self._settled(False)

    def _settled(self, ended: bool) -> bool:
        """A run ends with the background calls its last step made answered (the caller
        then sees the state they lead to, and may use the same clients itself)."""
        if self.settle_background:
            background.settle()
        return ended

    def advance(self, duration_us: int) -> None:
        """Let ``duration_us`` of virtual time pass, stepping at every wake-up."""
        self.run_until(self.cabinet.clock.now_us() + duration_us)
