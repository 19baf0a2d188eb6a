"""A fake systemd notify socket: a unix datagram socket the test binds itself, whose path
goes into ``NOTIFY_SOCKET``; what the process sends is read back as datagrams."""

from __future__ import annotations

import socket
import time
from pathlib import Path


class FakeNotifySocket:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.received: list[str] = []

    def read(self, timeout_s: float) -> str | None:
        """The next datagram, or None when none came within ``timeout_s``."""
        self.sock.settimeout(timeout_s)
        try:
            data = self.sock.recv(4096).decode()
        except (TimeoutError, BlockingIOError):  # BlockingIOError: timeout 0
            return None
        self.received.append(data)
        return data

    def wait_for(self, field: str, timeout_s: float = 30.0) -> str:
        """Read until a datagram carrying ``field`` (e.g. ``READY=1``) arrives."""
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            data = self.read(left)
            if data is not None and field in data.split("\n"):
                return data
        raise AssertionError(f"no {field} within {timeout_s} s; got {self.received}")

    def drain(self) -> list[str]:
        out = []
        while (data := self.read(0.0)) is not None:
            out.append(data)
        return out

    def close(self) -> None:
        self.sock.close()
