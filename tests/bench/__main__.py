"""Run every benchmark module and rewrite BENCHMARKS.md (``make bench``).

``python -m tests.bench [name ...]`` runs only the named modules (e.g. ``punch_engine``)
and keeps the other sections of BENCHMARKS.md as they were.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import re
import sys
from datetime import date
from pathlib import Path

import tests.bench as pkg

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "BENCHMARKS.md"
HEADER = "# Benchmarks\n\nWritten by `make bench` (`python -m tests.bench`). Each section says the machine and date it was measured on.\n"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def section(name: str, title: str, figures: list, load: float | None = None) -> str:
    """``load``: the 1-minute load average when the benchmark started (this machine may
    be shared: a wall-clock figure taken at load 4 on 2 cores is pessimistic)."""
    busy = f"; load average {load:.1f} when it started" if load is not None else ""
    lines = [
        f"<!-- bench:{name} -->",
        f"## {title}",
        "",
        f"Measured {date.today().isoformat()} on {machine()}{busy}; command: `make bench` "
        f"(or `python -m tests.bench {name}`).",
        "",
        "| figure | value | unit | goal | note |",
        "|---|---:|---|---|---|",
    ]
    for f in figures:
        value = f"{f.value:,.0f}" if abs(f.value) >= 100 else f"{f.value:,.3g}"
        lines.append(f"| {f.name} | {value} | {f.unit} | {f.goal} | {f.note} |")
    lines.append(f"<!-- /bench:{name} -->")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    names = sorted(m.name[len("bench_") :] for m in pkgutil.iter_modules(pkg.__path__) if m.name.startswith("bench_"))
    chosen = argv or names
    unknown = set(chosen) - set(names)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; have: {', '.join(names)}", file=sys.stderr)
        return 2
    for name in chosen:
        module = importlib.import_module(f"tests.bench.bench_{name}")
        print(f"== {module.TITLE}", flush=True)
        load = os.getloadavg()[0]
        figures = module.run()
        for f in figures:
            print(f"   {f.name}: {f.value:,.3f} {f.unit}  (goal {f.goal or '-'}) {f.note}", flush=True)
        write_section(name, section(name, module.TITLE, figures, load))
    print(f"wrote {OUT}")
    return 0


def write_section(name: str, block: str) -> None:
    """Put one benchmark's section into BENCHMARKS.md as it is now (read just before
    writing, so benchmarks run side by side, or sections written by hand meanwhile, are
    not overwritten by a copy read when this run started)."""
    text = OUT.read_text() if OUT.exists() else HEADER
    pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->\n", re.S)
    text = pattern.sub(lambda _m: block, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + block
    OUT.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
