"""Hostile names on both stores: refused with a reason and nothing recorded, or stored
exactly as normalised and shown safely in the exported standings."""

from __future__ import annotations

import csv
import io

import pytest

from firmware_py.games.punch_cards.ledger import (
    Ledger,
    PinRefused,
    UnknownPlayer,
    WrongPin,
    standings_csv,
    standings_html,
)
from firmware_py.games.punch_cards.ledger.pins import WRONG_PINS_BEFORE_LOCKOUT
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


UNASKABLE = ["Ann\x00", "\x00", "Ann\ud800"]
"""Names no player can have that a store cannot even be asked about: PostgreSQL refuses a
NUL in text (``psycopg.DataError``) and neither store encodes a lone surrogate."""


@pytest.mark.parametrize("name", UNASKABLE, ids=["NUL after", "NUL", "lone surrogate"])
def test_a_name_no_store_can_be_asked_about_is_an_unknown_player_at_every_call(ledger: Ledger, name: str) -> None:
    """Issue 36: on PostgreSQL these raised ``psycopg.DataError`` from ``sign_in``,
    ``reenter``, ``unlock``, ``collection`` and ``duel_options`` (the lobby filters
    typing; the API did not): now a ledger error, and nothing recorded."""
    ledger.register("ann", "Ann", "ABCD")
    before = ledger.entries()
    calls = {
        "sign_in": lambda: ledger.sign_in(name, "ABCD"),
        "reenter": lambda: ledger.reenter("again", name),
        "unlock": lambda: ledger.unlock(name),
        "collection": lambda: ledger.collection(name),
        "duel_options": lambda: ledger.duel_options("Ann", name),
        "duel_options (challenger)": lambda: ledger.duel_options(name, "Ann"),
    }
    for call, run in calls.items():
        with pytest.raises(UnknownPlayer):
            run()
            pytest.fail(f"{call} answered")
    assert ledger.entries() == before
    assert ledger.sign_in("Ann", "ABCD") == "Ann"  # nothing was counted against Ann either


@pytest.mark.parametrize("pin", ["ABC", "ABCDE", "", "abcd", "ABCG", None], ids=repr)
def test_a_pin_without_a_pins_form_is_refused_and_is_no_try(ledger: Ledger, pin: object) -> None:
    """Issue 36: a PIN of the wrong length at sign-in counted as a wrong try (five lock the
    player out).  It is refused as not a PIN, and counts for nothing."""
    ledger.register("ann", "Ann", "ABCD")
    for _ in range(WRONG_PINS_BEFORE_LOCKOUT + 1):
        with pytest.raises(PinRefused):
            ledger.sign_in("Ann", pin)  # type: ignore[arg-type]
    with pytest.raises(WrongPin) as wrong:
        ledger.sign_in("Ann", "FFFF")
    assert wrong.value.tries_left == WRONG_PINS_BEFORE_LOCKOUT - 1  # only this one counted
    assert ledger.sign_in("Ann", "ABCD") == "Ann"
