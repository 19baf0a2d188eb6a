"""The real-time main loop: sleep until there is something to do — an input arriving on
any thread, a held input's settle window ending, the next frame — so a Hit is decided the
moment its slaps may be judged, not at the next frame or the next poll."""

from __future__ import annotations

from collections.abc import Callable

from firmware_py.cabinet import Cabinet

POLL_US = 20_000
"""Longest sleep without a wake-up (keyboard events and similar have no wake signal)."""
RENDER_GUARD_US = 12_000
"""A frame is put off while a held input's settle window ends this soon (at most one
padboard window): drawing takes a few ms on a Pi and the decision must not wait behind
it.  Nothing is lost: the frame that follows the decision shows it."""


def run_realtime(
    cabinet: Cabinet,
    now_us: Callable[[], int],
    fps: int,
    keep_running: Callable[[], bool],
    before_step: Callable[[int], None] | None = None,
) -> None:
    frame_us = 1_000_000 // fps
    next_frame = now_us()
    while keep_running():
        now = now_us()
        due = cabinet.next_due()
        frame_held = due is not None and due - now <= RENDER_GUARD_US
        wake = min(now + POLL_US, due if due is not None else now + POLL_US, next_frame if not frame_held else now + POLL_US)
        if wake > now:
            cabinet.hw.wait((wake - now) / 1_000_000)
            now = now_us()
        if before_step is not None:
            before_step(now)
        cabinet.step(now)
        due = cabinet.next_due()
        if now >= next_frame and (due is None or due - now > RENDER_GUARD_US):
            cabinet.render()
            next_frame = max(next_frame + frame_us, now - frame_us)
