"""Reports of a HIL run: JUnit XML (what CI shows), a JSONL log per scenario (every
observation, one JSON object per line) and a JSONL summary of all scenarios."""

from __future__ import annotations

import json
import socket
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_py.hil.result import ScenarioResult


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    return path


def write_junit(path: Path, results: Sequence[ScenarioResult], suite: str = "ringside-hil") -> Path:
    """One ``<testsuite>`` per backend, one ``<testcase>`` per scenario; failed checks in
    the ``<failure>`` text, the summary and fidelity figures in ``<system-out>``."""
    root = ET.Element("testsuites", name=suite)
    by_backend: dict[str, list[ScenarioResult]] = {}
    for r in results:
        by_backend.setdefault(r.backend, []).append(r)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for backend, rs in by_backend.items():
        counts = {
            "tests": len(rs),
            "failures": sum(r.status == "fail" for r in rs),
            "errors": sum(r.status == "error" for r in rs),
            "skipped": sum(r.status == "skip" for r in rs),
        }
        t = sum(r.wall_s for r in rs)
        ts = ET.SubElement(
            root,
            "testsuite",
            {
                "name": f"hil.{backend}",
                "hostname": socket.gethostname(),
                "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
                "time": f"{t:.3f}",
                **{k: str(v) for k, v in counts.items()},
            },
        )
        for r in rs:
            tc = ET.SubElement(
                ts,
                "testcase",
                classname=f"hil.{backend}.{r.path.parent.name}",
                name=r.name,
                time=f"{r.wall_s:.3f}",
                file=str(r.path),
            )
            props = ET.SubElement(tc, "properties")
            for k, v in (
                ("timeline_us", r.length_us),
                ("timebase", r.timebase),
                ("frames", r.frames),
                ("engine_events", r.engine_events),
                ("checks", len(r.checks)),
                *(("fidelity_" + k, v) for k, v in r.fidelity.as_json().items()),
            ):
                ET.SubElement(props, "property", name=k, value=str(v))
            if r.status == "fail":
                el = ET.SubElement(tc, "failure", message=r.message, type="HilCheckFailed")
                el.text = r.failure_text()
            elif r.status == "error":
                el = ET.SubElement(
                    tc, "error", message=r.message.splitlines()[0] if r.message else "error", type="HilError"
                )
                el.text = r.message
            elif r.status == "skip":
                ET.SubElement(tc, "skipped", message=r.message)
            out = ET.SubElement(tc, "system-out")
            out.text = (
                r.summary()
                + "\n"
                + "\n".join(f"{c.status:4} {c.at_us:>12} µs  {c.expect}: {c.kind} {c.message}" for c in r.checks)
                + "\n"
            )
        for k in totals:
            totals[k] += counts[k]
        total_time += t
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{total_time:.3f}")
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path
