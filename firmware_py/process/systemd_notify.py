"""systemd's notify protocol (sd_notify(3)), spoken with the ``socket`` module.

Under a ``Type=notify`` unit systemd passes a unix datagram socket in ``NOTIFY_SOCKET``
(a path, or ``@name`` for the abstract namespace) and, with ``WatchdogSec=``, the
watchdog period in ``WATCHDOG_USEC`` (for the process in ``WATCHDOG_PID`` when set).
The cabinet sends ``READY=1`` once its first frame is on the screen, ``WATCHDOG=1``
from the main loop while frames keep coming, ``STATUS=…`` as scenes change and
``STOPPING=1`` on a clean stop.  Without ``NOTIFY_SOCKET`` every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self._sock: socket.socket | None = None
        self._failed = False
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        ours = not pid or pid == str(os.getpid())
        self.watchdog_us: int | None = int(usec) if usec.isdigit() and int(usec) > 0 and ours else None
        """The watchdog period systemd enforces (None: no watchdog)."""

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def notify(self, *fields: str) -> bool:
        """Send ``fields`` (``KEY=value``) as one datagram; False when there is no socket
        or it cannot be reached (logged once: the cabinet plays on either way)."""
        if not self.address:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode(), self.address)
            return True
        except OSError as e:
            if not self._failed:
                self._failed = True
                log.warning("systemd notify socket %s: %s", self.address.replace("\0", "@"), e)
            return False

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class Heartbeat:
    """The main loop's pulse, for systemd: ``READY=1`` at the first frame, then a
    ``WATCHDOG=1`` at most every half watchdog period — and only after a frame was
    decided since the last ping, so a loop that hangs (or spins without ever reaching a
    frame) stops the pings and systemd restarts the cabinet."""

    def __init__(self, notifier: Notifier, status: str = "attract screen shown") -> None:
        self.notifier = notifier
        self.status = status
        self.ready = False
        self.pings = 0
        self._interval_us = notifier.watchdog_us // 2 if notifier.watchdog_us else None
        self._last_ping: int | None = None

    def frame(self, now_us: int) -> None:
        """The loop decided a frame (drawn, or already on screen) at ``now_us``."""
        if not self.ready:
            self.ready = True
            self.notifier.ready(self.status)
            log.info("ready: %s", self.status)
        if self._interval_us is None:
            return
        if self._last_ping is None or now_us - self._last_ping >= self._interval_us:
            self._last_ping = now_us
            self.pings += 1
            self.notifier.watchdog()
