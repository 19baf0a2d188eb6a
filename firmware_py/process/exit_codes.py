"""The exit codes of ``ringside``: one per kind of outcome an operator (or systemd) acts on.

The systemd unit restarts the cabinet after 1 (a crash) and 4 (hardware that may come
back: a padboard still enumerating at boot) and not after 2 or 5, which need a person
(``RestartPreventExitStatus``).  docs/operator.md has the table with what to do.
"""

from __future__ import annotations

EXIT_OK = 0
"""Done: the cabinet was stopped (SIGTERM, the window closed), every check passed."""
EXIT_FAILED = 1
"""A check failed (selftest, a HIL scenario, an exhibition that did not finish), or an
unexpected error (its traceback is in the log)."""
EXIT_BAD_INPUT = 2
"""Bad input: the config, an argument, a data or screenshots folder."""
EXIT_BUSY = 3
"""The data folder is in use by another Ringside process."""
EXIT_HARDWARE = 4
"""A part of the cabinet cannot be opened: a gpiochip, an OLED, the padboard port, the
main display."""
EXIT_SOFTWARE = 5
"""Software the gpio backend needs is not installed (lgpio)."""
