"""The interface every slap-pad front end offers the cabinet (gpio-edge, padboard, sim).

A source turns its transport's messages into :class:`~hal.events.SlapEvent` stamped in
the HAL clock, and reports link loss/recovery as :class:`~hal.events.PadLinkEvent`.
``settle_us`` is the transport's worst skew between a slap's stamp and its arrival: the
session holds slaps at least that long before judging them, so arrival order never matters.
"""

from __future__ import annotations

import threading
from typing import Protocol

from hal.events import PadLinkEvent, SlapEvent


class SlapSource(Protocol):
    name: str
    settle_us: int
    wake: threading.Event | None
    """When set, the source sets it after queuing an event (it may run on another
    thread), so the main loop can sleep until there is something to do."""

    def poll(self, now_us: int) -> list[SlapEvent | PadLinkEvent]:
        """Events that arrived since the last poll, in arrival order (not stamp order)."""
        ...

    def close(self) -> None: ...
