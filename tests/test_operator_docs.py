"""docs/operator.md names only commands, options and config keys that exist: every
``ringside …`` command line in it (code blocks and inline code) is a real subcommand with
real options, every TOML block in it is a valid part of a cabinet config, and every
``[table] key`` / ``table.key`` it names is a key the config (or a game's table) reads."""

from __future__ import annotations

import contextlib
import copy
import io
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from firmware_py.games.registry import check_settings
from firmware_py.tools.cli import main
from hal.config import ConfigError, TableReader

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "operator.md").read_text(encoding="utf-8")
BASE = tomllib.loads((REPO / "deploy" / "cabinet.toml").read_text(encoding="utf-8"))
TABLES = ("cabinet", "display", "service", "sound", "padboard", "retention", "game.punch_cards")
STATION_TABLES = ("buttons", "led_bar", "private_display", "slap")
STARTS = {"", "sudo", "&&", ";", "|", "ringside"}  # what may come before the command itself


def code_fragments(text: str) -> list[str]:
    """Every line of every code block, and every inline code span."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    prose = re.sub(r"```[a-z]*\n.*?```", "", text, flags=re.S)
    return lines + re.findall(r"`([^`\n]+)`", prose)


def ringside_commands(text: str) -> list[list[str]]:
    """The words after ``ringside`` in each command line that runs it."""
    found = []
    for fragment in code_fragments(text):
        try:
            words = shlex.split(fragment.split("#")[0])
        except ValueError:
            words = fragment.split()
        for i, word in enumerate(words):
            program = word.rsplit("=", 1)[-1]
            if program != "ringside" and not program.endswith("/ringside"):
                continue
            before = words[i - 1] if i else ""
            if before not in STARTS or i + 1 == len(words):
                continue
            rest = []
            for w in words[i + 1 :]:
                if w in ("&&", ";", "|", ">", "2>&1"):
                    break
                rest.append(w)
            if rest and (rest[0].startswith("-") or rest[0].isalpha()):
                found.append(rest)
    return found


def help_of(args: list[str]) -> str | None:
    """``ringside ARGS --help`` (None: argparse refuses ARGS)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main([*args, "--help"])
        except SystemExit as e:
            if e.code != 0:
                return None
    return out.getvalue()


def test_the_guide_names_commands_at_all() -> None:
    commands = {c[0] for c in ringside_commands(DOC)}
    assert {"selftest", "calibrate", "run"} <= commands, commands


@pytest.mark.parametrize("words", ringside_commands(DOC), ids=lambda w: " ".join(w)[:60])
def test_every_ringside_command_in_the_guide_exists_with_its_options(words: list[str]) -> None:
    if words[0].startswith("-"):  # a global option: ringside --version
        assert words[0] in (help_of([]) or "")
        return
    sub = words[:2] if words[0] == "hil" else words[:1]
    text = help_of(sub)
    assert text is not None, f"`ringside {' '.join(sub)}` is no command"
    for w in words[len(sub) :]:
        if w.startswith("--"):
            option = w.split("=", 1)[0]
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), (
                f"`ringside {' '.join(sub)}` has no {option}"
            )


def unknown_key(table: str, key: str, value: Any = None) -> bool:
    """Whether the config (or the game's own table) refuses ``key`` in ``table`` as no such key."""
    raw = copy.deepcopy(BASE)
    if table in STATION_TABLES:
        target = raw["station"][0].setdefault(table, {})
    else:
        target = raw
        for part in table.split("."):
            target = target.setdefault(part, {})
        if table == "padboard":
            target.setdefault("port", "/dev/ringside-padboard")
    target[key] = 1 if value is None else value
    try:
        check_settings(TableReader("doc").cabinet(raw))
    except ConfigError as e:
        return "no such key" in str(e) and f"{table}.{key}" in str(e)
    return False


def named_keys(text: str) -> set[tuple[str, str]]:
    keys = set()
    for fragment in re.findall(r"`([^`\n]+)`", re.sub(r"```[a-z]*\n.*?```", "", text, flags=re.S)):
        for table, key in re.findall(r"\[([a-z_.]+)\] ([a-z_]+)", fragment):
            keys.add((table, key))
        tables = "|".join(re.escape(t) for t in (*TABLES, *STATION_TABLES))
        for table, key in re.findall(rf"(?<![\w./])({tables})\.([a-z_]+)\b", fragment):
            if key != "toml":  # cabinet.toml, the file
                keys.add((table, key))
    return keys


def test_the_guide_names_config_keys_at_all() -> None:
    keys = named_keys(DOC)
    assert ("padboard", "settle_us") in keys and ("cabinet", "data_dir") in keys, keys


@pytest.mark.parametrize("table,key", sorted(named_keys(DOC)))
def test_every_config_key_the_guide_names_exists(table: str, key: str) -> None:
    assert not unknown_key(table, key), f"[{table}] {key} is named in docs/operator.md but the config has no such key"


def test_a_made_up_key_is_caught() -> None:
    assert unknown_key("padboard", "settle_ms") and unknown_key("game.punch_cards", "ledger_url")
    assert not unknown_key("game.punch_cards", "ledger", "sqlite:///tmp/x.sqlite3")


@pytest.mark.parametrize("block", re.findall(r"```toml\n(.*?)```", DOC, re.S), ids=lambda b: b.split("\n")[0][:40])
def test_every_toml_block_in_the_guide_is_a_valid_part_of_a_cabinet_config(block: str) -> None:
    raw = copy.deepcopy(BASE)
    for table, values in tomllib.loads(block).items():
        if isinstance(values, dict) and isinstance(raw.get(table), dict):
            raw[table].update(values)
        else:
            raw[table] = values
    check_settings(TableReader("docs/operator.md").cabinet(raw))
