"""Hostile names on both stores: refused with a reason and nothing recorded, or stored
exactly as normalised and shown safely in the exported standings."""

from __future__ import annotations

import csv
import io

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, standings_csv, standings_html
from games.punch_cards import NameRefused, normalise_name

HOSTILE = [
    "Robert'); DROP TABLE players;--",
    "x' OR '1'='1",
    "DROP TABLE players",  # only letters and spaces: a name like any other, bound as data
    "O'Neil & Co.",
    "Bobby\x00Tables",
    "Ann\x1b[2J",
    "Ann\r\nLee",
    "\u202eevil.exe",
    "Ann\u2066Lee\u2069",
    "Ann\u200dLee",
    "x" * 10_000,
    "🥊🥊🥊",
    "Ann 👍",
    "<img src=x onerror=alert(1)>",
    '=HYPERLINK("http://x")',
    "@SUM(A1)",
    "Z̴̡̢͇̅a̵l̷g̸o̴",
    "１２３ Ｓｔｒｅｅｔ",
    "Ⅻ Legion",
    "إبراهيم",
    "נועה",
    "Łukasz Żółć",
]


def test_hostile_names_are_refused_or_stored_safely(ledger: Ledger, tmp_path) -> None:
    stored = []
    for i, raw in enumerate(HOSTILE):
        try:
            expected = normalise_name(raw)
        except NameRefused:
            before = len(ledger.entries())
            with pytest.raises(NameRefused):
                ledger.register(f"k{i}", raw, "ABCD")
            assert len(ledger.entries()) == before
            continue
        receipt = ledger.register(f"k{i}", raw, "ABCD")
        assert receipt.moves[0].taker == expected
        assert [c.name for c in ledger.collection(expected)] == [expected] * 5
        stored.append(expected)
    assert set(ledger.players()) == set(stored)
    assert "DROP TABLE players" in stored and "O'Neil & Co." in stored and "Łukasz Żółć" in stored
    assert "123 Street" in stored and "XII Legion" in stored  # NFKC: full-width digits, Roman numeral
    assert ledger.check() == []
    table = ledger.standings()
    parsed = list(csv.reader(io.StringIO(standings_csv(table))))
    assert sorted(row[1] for row in parsed[1:]) == sorted(stored)
    page = standings_html(table, "Con <b>2025</b>", None)
    assert "<img" not in page and "<b>2025" not in page and "&lt;b&gt;2025" in page
    assert "unicode-bidi: isolate" in page  # right-to-left names cannot reorder their row


def test_a_csv_never_starts_a_cell_with_a_formula_sign() -> None:
    from games.punch_cards import Standing

    text = standings_csv((Standing(1, "=cmd()", 1, (), 1), Standing(2, "-2+3", 0, (), 0)))
    assert "'=cmd()" in text and "'-2+3" in text


def test_a_line_break_inside_a_name_stays_in_its_cell() -> None:
    """A ledger written by something else may hold a name with a carriage return; the row
    must not split, or the next one could start with a live formula (the issue's case)."""
    from games.punch_cards import Standing

    hostile = Standing(1, "Ann\r=2+5*CMD()", 1, (), 1)
    text = standings_csv((hostile, Standing(2, "Bo", 0, (), 0)))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [row[1] for row in rows[1:]] == ["Ann\r=2+5*CMD()", "Bo"]
    assert all(len(row) == len(rows[0]) for row in rows)
    assert '"Ann\r=2+5*CMD()"' in text  # the break is inside the quoted cell
