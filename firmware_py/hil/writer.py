"""Writing scenario files (the recorder and the scenario generators): TOML a person can
read, with µs times grouped by thousands, inline tables for events, and comments."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def value(v: Any) -> str:
    """One TOML value (inline form)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"{v:_}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items() if x is not None) + " }"
    if v is None:
        raise ValueError("TOML has no null: leave the key out")
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def table(name: str, items: dict[str, Any], comment: str = "", array: bool = False) -> str:
    head = f"[[{name}]]" if array else f"[{name}]"
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    lines.append(head)
    lines += [f"{key(k)} = {value(v)}" for k, v in items.items() if v is not None]
    return "\n".join(lines) + "\n"


class ScenarioWriter:
    """Builds a scenario file: header, options, then inputs and checkpoints in time order."""

    def __init__(self, name: str, game: str, seed: int, description: str = "", **scenario: Any) -> None:
        self.head: dict[str, Any] = {
            "name": name,
            "description": description or None,
            "game": game,
            "seed": seed,
            **scenario,
        }
        self.options: dict[str, Any] = {}
        self.inputs: list[tuple[int, int, str]] = []
        self.expects: list[tuple[int, int, str]] = []
        self._n = 0
        self.preamble = ""

    def option(self, **kw: Any) -> None:
        self.options.update(kw)

    def input(self, at_us: int, comment: str = "", **kw: Any) -> None:
        self._n += 1
        self.inputs.append((at_us, self._n, table("input", {"at_us": at_us, **kw}, comment, array=True)))

    def expect(self, at_us: int, comment: str = "", **kw: Any) -> None:
        self._n += 1
        self.expects.append((at_us, self._n, table("expect", {"at_us": at_us, **kw}, comment, array=True)))

    def text(self) -> str:
        parts = [self.preamble] if self.preamble else []
        parts.append(table("scenario", self.head))
        if self.options:
            parts.append(table("scenario.options", self.options))
        # Inputs and checkpoints interleaved in time order: the file reads as a timeline.
        for _t, _n, block in sorted(self.inputs + self.expects, key=lambda x: (x[0], x[1])):
            parts.append(block)
        return "\n".join(parts)

    def save(self, path: Any) -> None:
        from pathlib import Path

        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.text(), encoding="utf-8")


def comment_block(lines: Iterable[str]) -> str:
    return "".join(f"# {line}\n".replace("# \n", "#\n") for line in lines)
