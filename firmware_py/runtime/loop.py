"""The real-time main loop: sleep until there is something to do — an input arriving on
any thread, a held input's settle window ending, the next frame — so a Hit is decided the
moment its slaps may be judged, not at the next frame or the next poll."""

from __future__ import annotations

import gc
from collections.abc import Callable

from firmware_py.runtime.cabinet import Cabinet
from hal.timing import PADBOARD_SETTLE_US

POLL_US = 20_000
"""Longest sleep without a wake-up (keyboard events and similar have no wake signal)."""
SPIN_US = 400
"""The last stretch before a settle window ends is waited out on the CPU, not in sleep."""
IDLE_POLL_US = 100_000
"""Longest sleep without a wake-up while the cabinet is idle (``Cabinet.quiet_until``:
the attract screen between its steps): a USB keyboard's key is seen within this there."""
RENDER_GUARD_US = PADBOARD_SETTLE_US
"""A frame is put off while a held input's settle window ends this soon (at most one
padboard window): drawing takes a few ms on a Pi and the decision must not wait behind
it.  Nothing is lost: the frame that follows the decision shows it."""


def run_main_loop(
    cabinet: Cabinet,
    now_us: Callable[[], int],
    fps: int,
    keep_running: Callable[[], bool],
    before_step: Callable[[int], None] | None = None,
    on_frame: Callable[[int], None] | None = None,
) -> None:
    """Run until ``keep_running()`` is false.  ``on_frame(now_us)`` is called after each
    frame the loop decided (drawn, or unchanged and left on screen): the cabinet's
    heartbeat for systemd's watchdog, which a hung loop therefore stops."""
    frame_us = 1_000_000 // fps
    next_frame = now_us()
    collector = QuietCollector()
    try:
        while keep_running():
            now = now_us()
            due = cabinet.next_due()
            frame_at, poll_us = _next_frame(cabinet, next_frame)
            frame_held = due is not None and due - now <= RENDER_GUARD_US
            wake = min(
                now + poll_us,
                due if due is not None else now + poll_us,
                frame_at if not frame_held else now + poll_us,
            )
            if wake > now:
                if due is not None and wake == due:
                    # An OS sleep can overshoot by a fraction of a ms: sleep to just before a
                    # settle window ends, then spin to it.
                    if wake - now > SPIN_US:
                        cabinet.hw.wait((wake - now - SPIN_US) / 1_000_000)
                    while now_us() < due:
                        pass
                else:
                    cabinet.hw.wait((wake - now) / 1_000_000)
                now = now_us()
            if before_step is not None:
                before_step(now)
            cabinet.step(now)
            due = cabinet.next_due()
            frame_at, _poll = _next_frame(cabinet, next_frame)  # an input may have ended the wait
            if now >= frame_at and (due is None or due - now > RENDER_GUARD_US):
                cabinet.render()
                next_frame = max(next_frame + frame_us, now - frame_us)
                if on_frame is not None:
                    on_frame(now)
                collector.after_frame(quiet=cabinet.next_due() is None)
    finally:
        collector.close()


def _next_frame(cabinet: Cabinet, next_frame: int) -> tuple[int, int]:
    """When the next frame is taken, and the longest sleep before it: at the frame rate,
    or, while the cabinet is idle, not before its screen can change (an idle attract
    screen wakes ~10 times a second instead of 60: issue 34's idle CPU)."""
    quiet = cabinet.quiet_until()
    return (next_frame, POLL_US) if quiet is None else (max(next_frame, quiet), IDLE_POLL_US)


class QuietCollector:
    """Python's garbage collector, run when nothing waits to be judged.

    Left to itself it pauses the process whenever allocations pile up: 2 ms for a young
    generation and 15 ms for a full one were measured mid-Hit.  So everything alive at
    start-up is frozen out of collections, automatic collection is off, and the loop
    collects after a frame when no settle window is open: the young generation every
    frame, the middle one every second, everything every minute (or after ``FORCE``
    frames without a quiet one, so memory never grows unbounded)."""

    FORCE = 600

    def __init__(self) -> None:
        gc.freeze()
        gc.disable()
        self.frames = 0
        self.since_collect = 0

    def after_frame(self, quiet: bool) -> None:
        self.frames += 1
        self.since_collect += 1
        if not quiet and self.since_collect < self.FORCE:
            return
        self.since_collect = 0
        gc.collect(2 if self.frames % 3600 == 0 else 1 if self.frames % 60 == 0 else 0)

    def close(self) -> None:
        gc.enable()
        gc.unfreeze()
