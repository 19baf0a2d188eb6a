"""Our own button debounce (gpiozero's mock ignores ``bounce_time``, and lgpio's debounce
shifts the reported stamp late by the debounce period).

Leading-edge with lockout: the first edge is reported at once with its own stamp, so a
press costs no latency; edges within ``lockout_us`` of a report are contact bounce.  If
the line has settled in the other state when the lockout ends (a tap shorter than the
lockout), :meth:`Debouncer.poll` reports it then, stamped when the line last changed.
"""

from __future__ import annotations

from hal.timing import BUTTON_DEBOUNCE_US


class Debouncer:
    """One input line.  States are ``True`` = pressed."""

    def __init__(self, lockout_us: int = BUTTON_DEBOUNCE_US) -> None:
        self.lockout_us = lockout_us
        self.reported = False
        self._raw = False
        self._raw_t = 0
        self._reported_t: int | None = None

    def edge(self, pressed: bool, t_us: int) -> bool | None:
        """Feed a raw edge; return the new debounced state if it is to be reported now."""
        self._raw, self._raw_t = pressed, t_us
        if pressed == self.reported:
            return None
        if self._reported_t is not None and t_us - self._reported_t < self.lockout_us:
            return None
        self.reported, self._reported_t = pressed, t_us
        return pressed

    def poll(self, now_us: int) -> tuple[bool, int] | None:
        """After a lockout, report a state the line settled in meanwhile: (state, stamp)."""
        if self._raw == self.reported or self._reported_t is None:
            return None
        if now_us - self._reported_t < self.lockout_us:
            return None
        self.reported, self._reported_t = self._raw, self._raw_t
        return self._raw, self._raw_t
