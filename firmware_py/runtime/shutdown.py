"""Safe shutdown from the service menu: the operator confirms, the configured command runs.

Pulling the plug is safe for the store (WAL, ``synchronous=FULL``) but not for an SD
card in the middle of some other write, so the menu offers a proper power-off.  The
command comes from the config (``[service] shutdown_command``, default ``systemctl
poweroff``, which the installer's polkit rule allows the ``ringside`` user); it runs in
its own session so the cabinet's stop (systemd sends SIGTERM) does not cut it short.
"""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Sequence

log = logging.getLogger(__name__)


class ShutdownCommand:
    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = tuple(argv)
        self.process: subprocess.Popen[bytes] | None = None

    def __call__(self) -> str:
        """Start the command; returns the line the service menu shows."""
        log.warning("shutdown requested from the service menu: running %s", " ".join(self.argv))
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, start_new_session=True, close_fds=True)
        except OSError as e:
            log.error("shutdown command %s could not start: %s", " ".join(self.argv), e.strerror or e)
            return f"Shutdown failed: {e.strerror or e}"
        return "Shutting down…  wait for the screen to go dark before switching off."
