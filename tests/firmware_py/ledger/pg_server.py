"""A throwaway PostgreSQL server on loopback for tests and benchmarks.

``initdb`` in a temporary folder, ``pg_ctl start`` on a free port of 127.0.0.1, stopped
and removed after.  PostgreSQL refuses to run as root, so as root (CI) the server runs as
the ``postgres`` system user that Debian's package creates (or a ``ringside-pg`` user made
for it); otherwise as whoever runs the tests.  Binaries are found under
``/usr/lib/postgresql/*/bin`` (Debian) or on PATH.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from itertools import count
from pathlib import Path

SERVER_USER = "postgres"
FALLBACK_USER = "ringside-pg"


def find_bindir() -> Path | None:
    """The newest Debian PostgreSQL's bin folder, or the folder of ``initdb`` on PATH."""

    def version(path: str) -> tuple[int, ...]:
        part = Path(path).parents[1].name
        return tuple(int(p) for p in part.split(".") if p.isdigit())

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).resolve().parent if on_path else None


def _memory_dir() -> str | None:
    """/dev/shm where there is one: every commit is still written and fsync'd as on disk,
    at memory speed.  The tests kill processes (the server's included), never the machine,
    and what a killed process wrote survives in memory exactly as it would on disk."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One server; :meth:`schema_url` hands each test its own empty schema."""

    def __init__(self, bindir: Path, in_memory: bool = True) -> None:
        """``in_memory``: keep the data in /dev/shm where there is one (tests); ``False``
        puts it on disk, as benchmarks need for commit times worth comparing."""
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="ringside-pg-", dir=_memory_dir() if in_memory else None))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self.run_as = self._server_user() if os.geteuid() == 0 else None
        self._schemas = count(1)
        if self.run_as is not None:
            entry = pwd.getpwnam(self.run_as)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @staticmethod
    def _server_user() -> str:
        for user in (SERVER_USER, FALLBACK_USER):
            try:
                pwd.getpwnam(user)
                return user
            except KeyError:
                continue
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", FALLBACK_USER], check=True
        )
        return FALLBACK_USER

    def _cmd(self, *args: str) -> list[str]:
        prefix = ["runuser", "-u", self.run_as, "--"] if self.run_as is not None else []
        return [*prefix, str(self.bindir / args[0]), *args[1:]]

    def _run(self, *args: str) -> None:
        result = subprocess.run(self._cmd(*args), capture_output=True, text=True, cwd=self.root)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {result.stderr.strip()}\n{log}")

    def init(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"
        )

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c max_connections=60 -c fsync=on"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: a clean shutdown; ``immediate``: no checkpoint (the data is about to go)."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def kill(self) -> None:
        """SIGKILL the postmaster (a power cut for the server); :meth:`start` recovers."""
        pid = int((self.data / "postmaster.pid").read_text().splitlines()[0])
        os.kill(pid, signal.SIGKILL)
        for _ in range(500):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.01)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def schema_url(self, prefix: str = "t") -> str:
        """A URL whose connections work in a new, empty schema of their own."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return f"{self.url}?options=-csearch_path%3D{name}"
