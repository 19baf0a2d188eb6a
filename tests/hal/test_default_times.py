"""Every default time is defined once in code, and the docs quote the code's values.

The README's "Default times" table names each constant and its value; the prose of the
docs and the installer's commented config template quote some of them again.  Both are parsed here and compared with the constants,
so a changed default without a changed doc (or a doc that disagrees with another, as
calibration's 4 ms and the README's 12 ms once seemed to) fails."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from firmware_py.runtime import loop
from games.karate_fight.options import DEFAULT_GRACE_US
from hal import timing
from hal.config import parse_config
from hal.padboard import wire

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (?P<what>[^|]+) \| (?P<value>[\d.]+) ms \| `(?P<name>[\w.]+)` \| [^|]+ \|$", re.MULTILINE)


def constant(dotted: str) -> int:
    module, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def readme_table() -> dict[str, float]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Default times", 1)[1].split("\n## ", 1)[0]
    return {m["name"]: float(m["value"]) for m in ROW.finditer(section)}


def test_the_readme_table_lists_every_default_time_at_its_value() -> None:
    table = readme_table()
    in_timing = {f"hal.timing.{n}" for n in vars(timing) if n.endswith("_US")}
    assert set(table) == in_timing | {"games.karate_fight.options.DEFAULT_GRACE_US"}
    for name, ms in table.items():
        assert constant(name) == round(ms * 1000), name


def test_the_padboard_settle_window_is_the_boards_hold_plus_the_transport() -> None:
    assert timing.PADBOARD_SETTLE_US == (
        timing.PADBOARD_CONTACT_LEAD_US + timing.PADBOARD_REPORT_US + timing.PADBOARD_TRANSPORT_US
    )
    defaults = dict((name, default) for name, default, _lo, _hi in wire.SETTINGS_FIELDS)
    hold = max(defaults["scan_us"], defaults["xtalk_window_us"]) + defaults["scan_us"]
    assert hold == timing.PADBOARD_REPORT_US  # what calibration's latency check computes


MS, US = 1000, 1
PROSE = [
    ("README.md", r"(\d+) ms gpio-edge, \d+ ms padboard by default", MS, timing.GPIO_EDGE_SETTLE_US),
    ("README.md", r"\d+ ms gpio-edge, (\d+) ms padboard by default", MS, timing.PADBOARD_SETTLE_US),
    ("docs/cabinet.md", r"(\d+) ms gpio-edge, \d+ ms padboard by default", MS, timing.GPIO_EDGE_SETTLE_US),
    ("docs/cabinet.md", r"\d+ ms gpio-edge, (\d+) ms padboard by default", MS, timing.PADBOARD_SETTLE_US),
    ("docs/cabinet.md", r"input's window ends within (\d+) ms", MS, loop.RENDER_GUARD_US),
    ("docs/calibration.md", r"default settle window of a padboard is (\d+) ms", MS, timing.PADBOARD_SETTLE_US),
    ("docs/calibration.md", r"(\d+) ms for the board to hold a hit", MS, timing.PADBOARD_REPORT_US),
    ("docs/calibration.md", r"and (\d+) ms for USB", MS, timing.PADBOARD_TRANSPORT_US),
    ("docs/calibration.md", r"hold its hits longer than those (\d+) ms", MS, timing.PADBOARD_REPORT_US),
    ("docs/padboard-protocol.md", r"another pad's scan: ≈ (\d+) ms at defaults", MS, timing.PADBOARD_REPORT_US),
    ("docs/padboard-protocol.md", r"the reader thread \((\d+) ms\)", MS, timing.GIL_SWITCH_US),
    ("docs/padboard-protocol.md", r"settle_us` defaults to (\d+) ms", MS, timing.PADBOARD_SETTLE_US),
    ("docs/padboard-protocol.md", r"no USB, to (\d+) ms", MS, timing.GPIO_EDGE_SETTLE_US),
    ("docs/rules/karate_fight.md", r"`grace_us` defaults to ([\d ]+) µs", US, DEFAULT_GRACE_US),
    # the installer's commented config template spells the defaults out for the operator
    ("deploy/cabinet.toml", r"\((\d+) gpio-edge, \d+ padboard\)", US, timing.GPIO_EDGE_SETTLE_US),
    ("deploy/cabinet.toml", r"\(\d+ gpio-edge, (\d+) padboard\)", US, timing.PADBOARD_SETTLE_US),
    ("deploy/cabinet.toml", r"mask_us = (\d+)", US, timing.GPIO_EDGE_MASK_US),
    ("deploy/cabinet.toml", r"mask_us = \d+, settle_us = (\d+)", US, timing.GPIO_EDGE_SETTLE_US),
    ("deploy/cabinet.toml", r"# settle_us = (\d+)", US, timing.PADBOARD_SETTLE_US),
]


@pytest.mark.parametrize(("doc", "pattern", "unit_us", "value_us"), PROSE)
def test_the_docs_quote_the_codes_default(doc: str, pattern: str, unit_us: int, value_us: int) -> None:
    found = re.findall(pattern, " ".join((ROOT / doc).read_text(encoding="utf-8").split()))
    assert found, f"{doc} no longer says {pattern!r}: update the doc or this list"
    assert {int(f.replace(" ", "")) * unit_us for f in found} == {value_us}


def test_the_padboard_settings_table_quotes_the_wire_defaults() -> None:
    text = (ROOT / "docs/padboard-protocol.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\w+) \| (\d+) \|", text, re.MULTILINE))
    assert {name: int(rows[name]) for name, *_ in wire.SETTINGS_FIELDS} == {
        name: default for name, default, _lo, _hi in wire.SETTINGS_FIELDS
    }


def test_a_station_that_sets_no_times_gets_the_defaults() -> None:
    text = (ROOT / "hal/data/cabinet.toml").read_text(encoding="utf-8")
    config = parse_config(text + '\n[padboard]\nport = "/dev/null"\n')
    assert {s.slap.mask_us for s in config.stations} == {timing.GPIO_EDGE_MASK_US}
    assert {s.slap.settle_us for s in config.stations} == {timing.GPIO_EDGE_SETTLE_US}
    assert config.padboard is not None and config.padboard.settle_us == timing.PADBOARD_SETTLE_US
