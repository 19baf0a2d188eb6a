"""A booted Debian for the system test: a cached bookworm root (debootstrap), copied
for each run and booted by ``systemd-nspawn --boot`` with the real systemd as PID 1.

The root is of :data:`ARCH` (``make system-test ARCH=arm64``; default the host's): a
foreign one, the Raspberry Pi's arm64, runs through qemu's binfmt handler, registered
with the F flag so that the container needs no qemu of its own.  Everything then runs
emulated, so every timeout here and in the checks is written for a native run and
multiplied by :data:`SLOWDOWN`: generous for qemu, still bounded.

The host needs no systemd (``--register=no --keep-unit``: no machined); commands reach
the container with ``nsenter`` on its init's pid.  The container shares the host's
network, but pip inside it never uses it: the cabinet's Python packages come from a
wheelhouse of binary wheels, downloaded on the host for the root's own Python, glibc and
architecture (nothing is compiled), and bound in read-only, so the test neither depends
on nor reaches an index from inside the container.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CACHE = Path(os.environ.get("RINGSIDE_SYSTEM_CACHE", "/var/cache/ringside-system-test"))
SUITE = "bookworm"
MIRROR = os.environ.get("RINGSIDE_SYSTEM_MIRROR", "http://deb.debian.org/debian")
WHEELS_IN_CONTAINER = "/var/cache/ringside-wheels"
CHECKOUT_IN_CONTAINER = "/root/ringside"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Debian's architecture names and the machine names of the kernel, wheels and qemu.
MACHINES = {"amd64": "x86_64", "arm64": "aarch64"}
HOST_ARCH = {machine: arch for arch, machine in MACHINES.items()}.get(platform.machine(), platform.machine())
ARCH = os.environ.get("RINGSIDE_SYSTEM_ARCH") or HOST_ARCH
EMULATED = ARCH != HOST_ARCH
# How much longer everything takes under qemu than natively, for the timeouts: measured
# 7-9x in CPU, 2-13x in wall time on a loaded 2-core machine (BENCHMARKS.md, issue 33).
SLOWDOWN = 10.0 if EMULATED else 1.0


def scaled(seconds: float) -> float:
    """A timeout written for a native run, for this run's architecture."""
    return seconds * SLOWDOWN


def binfmt_problem(arch: str) -> str | None:
    """Why a root of ``arch`` cannot run here (None: it can): a foreign architecture
    needs qemu's binfmt handler, enabled, with the F flag (the interpreter opened when it
    was registered, so it runs inside the container's root too)."""
    if arch == HOST_ARCH:
        return None
    if arch not in MACHINES:
        return f"no system test for the architecture {arch!r} (one of: {', '.join(MACHINES)})"
    handler = Path("/proc/sys/fs/binfmt_misc") / f"qemu-{MACHINES[arch]}"
    fix = (
        "apt-get install qemu-user-static binfmt-support; if /proc/sys/fs/binfmt_misc is empty: "
        f"mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; update-binfmts --enable qemu-{MACHINES[arch]}"
    )
    if not handler.exists():
        return f"{arch} binaries cannot run here: no {handler} ({fix})"
    lines = handler.read_text().splitlines()
    flags = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("flags:")), "")
    if "enabled" not in lines or "F" not in flags:
        return f"{handler} must be enabled with the F flag (it is {lines[0]!r}, flags {flags!r}): {fix}"
    return None


def packages() -> list[str]:
    lines = (HERE / "packages.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _key(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


def log(line: str) -> None:
    print(f"[system] {time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


def cached_root(arch: str) -> Path:
    """The bookworm root of ``arch`` (a Debian architecture) for the package list, built
    once and kept under :data:`CACHE` (x86-64 about 3-4 minutes, arm64 through qemu about
    9-10); a changed list builds a new one."""
    pkgs = packages()
    root = CACHE / f"root-{SUITE}-{arch}-{_key(SUITE, arch, *pkgs)}"
    if (root / "etc" / "os-release").exists():
        return root
    tmp = root.with_name(root.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    log(f"building {root.name} with debootstrap (cold cache)")
    subprocess.run(
        ["debootstrap", f"--arch={arch}", "--variant=minbase", f"--include={','.join(pkgs)}", SUITE, str(tmp), MIRROR],
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=1800,
    )
    # No Pi here: the groups Raspberry Pi OS has that Debian lacks, so the installer's
    # user gets them as on a Pi (gpio, i2c come from raspberrypi-sys-mods there).
    for group in ("gpio", "i2c", "render", "input"):
        subprocess.run(["chroot", str(tmp), "groupadd", "-f", "--system", group], check=True)
    (tmp / "etc" / "hostname").write_text("cabinet\n")
    subprocess.run(["chroot", str(tmp), "apt-get", "clean"], check=True)
    tmp.rename(root)
    return root


def dependencies() -> list[str]:
    """What the installer's pip installs on a cabinet: the cabinet's dependencies with the
    Pi's (the ``pi`` extra: lgpio), and the build backend of its editable install."""
    with (REPO / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    build = project["build-system"]["requires"]
    return [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["pi"], *build, "wheel"]


@dataclass(frozen=True)
class Target:
    """The interpreter a root's pip installs for: what a wheel's tags must fit."""

    machine: str  # x86_64, aarch64
    python: str  # 3.11
    glibc: tuple[int, int]  # (2, 36)

    def pip_download_args(self) -> list[str]:
        """pip's arguments for wheels of this target (pip expands no manylinux_2_Y tag to
        the older ones it accepts: each is listed, newest first, as pip ranks them)."""
        major, minor = self.glibc
        platforms = [f"manylinux_{major}_{y}_{self.machine}" for y in range(minor, 4, -1)]
        platforms += [f"manylinux{tag}_{self.machine}" for tag in ("2014", "2010", "1")] + [f"linux_{self.machine}"]
        abi = "cp" + self.python.replace(".", "")
        return [
            *(f"--platform={p}" for p in platforms),
            f"--python-version={self.python}",
            "--implementation=cp",
            f"--abi={abi}",
        ]


def root_target(root: Path, arch: str) -> Target:
    """The root's Python (its /usr/bin/python3) and glibc (dpkg's libc6)."""
    python = os.readlink(root / "usr" / "bin" / "python3").removeprefix("python")
    status = (root / "var" / "lib" / "dpkg" / "status").read_text().split("\n\n")
    libc6 = next(block for block in status if block.startswith("Package: libc6\n"))
    version = next(line.split()[1] for line in libc6.splitlines() if line.startswith("Version: "))
    major, minor = version.split("-")[0].split(".")[:2]
    return Target(MACHINES[arch], python, (int(major), int(minor)))


def wheelhouse(target: Target) -> Path:
    """Binary wheels of every package the cabinet installs (and the build backend for its
    editable install) for ``target``, downloaded on the host with its own pip
    configuration: ``--only-binary=:all:``, so a package with no wheel for the target
    fails here, by name, instead of compiling (or failing half way) in the container."""
    deps = dependencies()
    args = target.pip_download_args()
    house = CACHE / f"wheels-{target.machine}-{_key(*args, *deps)}"
    if (house / ".complete").exists():
        return house
    shutil.rmtree(house, ignore_errors=True)
    house.mkdir(parents=True)
    log(f"filling {house.name} for {target}")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", *args, "--dest", str(house), *deps],
        check=True,
        timeout=900,
    )
    (house / ".complete").touch()
    return house


def checkout_files() -> bytes:
    """The working tree as the operator has it (tracked and untracked, not ignored), as a
    tar stream, with its git history so the installer notes the commit."""
    names = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
    ).stdout
    existing = b"\0".join(n for n in names.split(b"\0") if n and (REPO / n.decode()).exists())
    return subprocess.run(
        ["tar", "--null", "-T", "-", "-cf", "-"], input=existing, cwd=REPO, check=True, capture_output=True
    ).stdout


@dataclass
class Machine:
    """One container: its root folder on the host, booted and rebooted by :meth:`boot`."""

    root: Path
    wheels: Path
    console: Path
    nspawn: subprocess.Popen[bytes] | None = None
    init_pid: int = 0
    boots: int = 0
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    # -- lifecycle -------------------------------------------------------------------------
    def boot(self, timeout: float = 180) -> None:
        timeout = scaled(timeout)
        assert self.nspawn is None or self.nspawn.poll() is not None, "already running"
        self.boots += 1
        out = self.console.open("ab")
        self.nspawn = subprocess.Popen(
            [
                "systemd-nspawn",
                "--quiet",
                "--boot",
                "--register=no",
                "--keep-unit",
                "--console=passive",
                f"--machine=ringside-system-{os.getpid()}",
                f"--bind-ro={self.wheels}:{WHEELS_IN_CONTAINER}",
                "-D",
                str(self.root),
            ],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.started.append(self.nspawn)
        deadline = time.monotonic() + timeout
        self.init_pid = 0
        while not self.init_pid:
            if self.nspawn.poll() is not None:
                raise RuntimeError(f"systemd-nspawn exited {self.nspawn.returncode}: see {self.console}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no init in the container after {timeout} s")
            self.init_pid = _container_init(self.nspawn.pid)
            time.sleep(0.2)
        state = ""
        while time.monotonic() < deadline:
            r = self.run("systemctl", "is-system-running", "--wait", check=False)
            state = r.stdout.strip()
            if state in ("running", "degraded"):
                log(f"boot {self.boots}: {state}")
                return
            time.sleep(0.5)
        raise TimeoutError(f"the container did not finish booting ({state!r})")

    def wait_down(self, timeout: float = 90) -> int:
        """Wait for the container to end (a poweroff or a reboot from inside it)."""
        assert self.nspawn is not None
        return self.nspawn.wait(scaled(timeout))

    def reboot(self) -> None:
        self.run("systemctl", "reboot", check=False)
        code = self.wait_down()
        assert code == 133, f"systemd-nspawn exited {code}, not 133 (reboot)"  # nspawn's 'reboot' exit code
        self.boot()

    def stop(self) -> None:
        """Power the container off from inside (``systemctl poweroff``: an emulated
        systemd never acts on the signal nspawn's SIGTERM sends it, the halt then waited
        out its whole timeout); SIGTERM to nspawn, then killed, if it is not down within
        60 s (scaled)."""
        for proc in self.started:
            if proc.poll() is not None:
                continue
            if proc is self.nspawn and self.init_pid:
                try:
                    self.run("systemctl", "poweroff", "--no-block", check=False, timeout=30)
                    proc.wait(scaled(60))
                    continue
                except subprocess.TimeoutExpired:
                    pass
            proc.send_signal(signal.SIGTERM)  # nspawn asks the container's systemd to power off
            try:
                proc.wait(scaled(60))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)

    # -- commands --------------------------------------------------------------------------
    def _nsenter(self, *argv: str) -> list[str]:
        return [
            "nsenter",
            "-t",
            str(self.init_pid),
            "-a",
            "-r",
            "-w",
            "--",
            "env",
            "-i",
            f"PATH={PATH}",
            "HOME=/root",
            "LANG=C.UTF-8",
            *argv,
        ]

    def run(
        self, *argv: str, check: bool = True, timeout: float = 120, input: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        r = subprocess.run(self._nsenter(*argv), capture_output=True, text=True, timeout=scaled(timeout), input=input)
        if check and r.returncode != 0:
            raise AssertionError(f"{' '.join(argv)} exited {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r

    def sh(self, script: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return self.run("bash", "-c", script, check=check, timeout=timeout)

    def popen(self, script: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            self._nsenter("bash", "-c", script), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        return proc

    def show(self, unit: str, *props: str) -> dict[str, str]:
        out = self.run("systemctl", "show", unit, *(f"--property={p}" for p in props)).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def path(self, inside: str) -> Path:
        """The host's path of a file in the container (while it is stopped or running)."""
        return self.root / inside.lstrip("/")

    def put_checkout(self, inside: str = CHECKOUT_IN_CONTAINER) -> None:
        target = self.path(inside)
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        subprocess.run(["tar", "-xf", "-", "-C", str(target)], input=checkout_files(), check=True)


def _container_init(nspawn_pid: int) -> int:
    """The pid (on the host) of the container's PID 1: a descendant of nspawn whose
    innermost pid is 1."""
    todo = [nspawn_pid]
    while todo:
        pid = todo.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("NSpid:"):
                ids = line.split()[1:]
                if len(ids) > 1 and ids[-1] == "1":
                    return pid
        todo.extend(int(c) for c in children)
    return 0


def fresh_machine(workdir: Path, arch: str = ARCH) -> Machine:
    """A new copy of the cached root of ``arch`` in ``workdir`` (not yet booted)."""
    base = cached_root(arch)
    wheels = wheelhouse(root_target(base, arch))
    workdir.mkdir(parents=True, exist_ok=True)
    root = workdir / "root"
    if root.exists():
        shutil.rmtree(root)
    subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(root)], check=True)
    return Machine(root=root, wheels=wheels, console=workdir / "console.log")
