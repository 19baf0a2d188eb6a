"""The data folder: can it hold the cabinet's data, and one cabinet process per folder.

:func:`prepare` creates the folder or says in one line why it cannot be one (under a
file, in ``/proc``, no such user); ``run`` and ``selftest`` use the same check.  A folder
that exists but cannot be written (a read-only mount, a full disk) is not refused: the
store then keeps the cabinet playing, unrecorded, and says so (``firmware_py.runtime.store``).

Two processes on one store would each take the other's live game for a power cut's
leftover and fail every commit after.  So ``ringside run`` takes an OS lock (``flock``)
on ``ringside.lock`` in the data folder before it opens the store, and writes its pid
there for whoever finds the folder taken.  The kernel drops the lock when the process
ends in any way (``kill -9``, a power cut), so a stale lock file never blocks a restart.
The holder a message names is the kernel's (``/proc/locks``): the note in the file may be
stale (a holder on a read-only folder or a full disk cannot write it) or give the pid
another pid namespace knows it by (1 in a container).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

LOCK_NAME = "ringside.lock"


class DataFolderError(Exception):
    """The data folder cannot be used: the message is one line for the operator, and
    :attr:`fix` what to do about it."""

    fix = "set cabinet.data_dir in the config or pass --data DIR"


class LockFileUnusable(DataFolderError):
    """``ringside.lock`` is there but is no plain file (a folder, a symbolic link, a
    device): Ringside never follows, replaces or deletes it; a person removes it."""

    def __init__(self, path: Path, what: str, remove: str = "rm") -> None:
        super().__init__(f"lock file {path} {what}")
        self.fix = f"remove it ({remove} {path}); Ringside makes a plain file there"


def prepare(folder: Path, what: str = "data folder") -> None:
    """Create ``folder`` (and its parents) if missing; raise :class:`DataFolderError`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFolderError(f"{what} {folder} is a file, not a folder") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise DataFolderError(f"{what} {folder} cannot be created ({reason})") from None
    if not folder.is_dir():
        raise DataFolderError(f"{what} {folder} is not a folder")


def writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (False on a read-only mount, even for root)."""
    return os.access(folder, os.W_OK | os.X_OK)


class DataFolderBusy(Exception):
    """Another process holds the data folder; ``pid`` as it wrote it (None if unreadable)."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"data folder {folder} is in use by {who} (lock {folder / LOCK_NAME})")
        self.folder = folder
        self.pid = pid


class InstanceLock:
    """Held from :meth:`acquire` until :meth:`release` or the process's end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._fd: int | None = None
        self.held = False
        """False after acquire only where the folder cannot hold a lock file at all (read
        only, and none there yet): the store is then not writable either, so no second
        process can harm it."""

    def acquire(self) -> InstanceLock:
        """Take the lock or raise :class:`DataFolderBusy`, or :class:`DataFolderError`
        when the lock file cannot be one (:class:`LockFileUnusable`).  The folder must exist."""
        try:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
                writable = True
            except OSError as e:
                if e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT):
                    raise
                try:
                    fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW)  # flock needs no write access
                except FileNotFoundError:
                    return self
                writable = False
        except OSError as e:
            raise self._unusable(e) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder opens read-only; a FIFO or a device opens
            os.close(fd)
            raise LockFileUnusable(self.path, "is not a plain file", "rm -r")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _locking_pid(fd) or _read_pid(fd)
            os.close(fd)
            raise DataFolderBusy(self.folder, pid) from None
        self._fd, self.held = fd, True
        if writable:
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except OSError:
                pass  # a full disk: the lock holds all the same, only the note is missing
        return self

    def _unusable(self, e: OSError) -> DataFolderError:
        """Why the lock file cannot be opened, in one line with its fix."""
        if e.errno == errno.EISDIR:
            return LockFileUnusable(self.path, "is a folder, not a file", "rm -r")
        if e.errno == errno.ELOOP or self.path.is_symlink():  # O_NOFOLLOW: any symbolic link is ELOOP
            try:
                target = os.readlink(self.path)
            except OSError:
                target = "?"
            try:
                self.path.stat()
                where = f"to {target}"
            except OSError as err:  # RuntimeError never: stat() follows, it does not resolve()
                where = f"to {target}, {'a loop of links' if err.errno == errno.ELOOP else 'which does not exist'}"
            return LockFileUnusable(self.path, f"is a symbolic link ({where}), not a file")
        return DataFolderError(f"lock file {self.path} cannot be opened ({e.strerror or e})")

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd, self.held = None, False


LOCKS = Path("/proc/locks")


def _locking_pid(fd: int, locks: Path = LOCKS) -> int | None:
    """The pid the kernel gives for the flock on ``fd``'s file (None where it gives none,
    or 0: a holder this process's pid namespace cannot see)."""
    st = os.fstat(fd)
    file_id = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = locks.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 4242 08:01:131 0 EOF" (a waiter has "->" after the number)
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == file_id and fields[4].isdigit():
            return int(fields[4]) or None
    return None


def _read_pid(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0).decode().strip())
    except (OSError, ValueError):
        return None
