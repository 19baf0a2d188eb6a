"""The process's log: the standard ``logging`` module, configured once, to stderr.

On a cabinet stderr is the journal (systemd connects it and says so in
``JOURNAL_STREAM``): there each line carries its syslog priority as a ``<N>`` prefix,
which the journal turns into the entry's level (``journalctl -p warning`` works) and
strips; the journal adds the time.  Anywhere else (a terminal, a file, a pipe) a line is
``HH:MM:SS.mmm LEVEL message``.  Every record is flushed as it is written, so nothing
waits in a buffer for a crash to lose.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")

_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}
"""Python level → syslog priority (sd-daemon(3): the journal reads ``<N>`` prefixes)."""


def level_for(verbose: int = 0, name: str | None = None) -> int:
    """``--log-level NAME`` wins; else INFO, DEBUG with ``-v``."""
    if name is not None:
        return logging.getLevelNamesMapping()[name.upper()]
    return logging.DEBUG if verbose > 0 else logging.INFO


def writing_to_journal() -> bool:
    """True when stderr is the journal's stream (its device:inode is in ``JOURNAL_STREAM``)."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return stream == f"{st.st_dev}:{st.st_ino}"


class JournalFormatter(logging.Formatter):
    """``<priority>message``: the journal stores the priority and adds time and pid."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prio = _PRIORITY.get(record.levelno, 6)
        # A traceback spans lines: every line gets the prefix, so none is logged as INFO.
        return "\n".join(f"<{prio}>{line}" for line in text.splitlines())


class ConsoleFormatter(logging.Formatter):
    """``HH:MM:SS.mmm LEVEL message`` (no level word for INFO: most lines are INFO)."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created)) + f".{int(record.msecs):03d}"
        level = "" if record.levelno == logging.INFO else f"{record.levelname} "
        return f"{stamp} {level}{text}"


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at the time (tests swap it), flushing each
    record."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:  # StreamHandler.__init__ assigns it
        pass


def configure(level: int = logging.INFO, journal: bool | None = None) -> None:
    """Send every logger's records at ``level`` and above to stderr, one line each.

    Calling it again replaces the handler it installed (never adds a second one), so
    the level of a later call wins."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, StderrHandler):
            root.removeHandler(handler)
    handler = StderrHandler()
    use_journal = writing_to_journal() if journal is None else journal
    handler.setFormatter(JournalFormatter() if use_journal else ConsoleFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
