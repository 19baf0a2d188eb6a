"""Punch Cards' name entry on the station buttons (issue 23: "Zed" took 13 presses,
"Alexandra" 41, "Ringside Rita" 77), the private display's rows (cut at 21 characters,
"E: sign out" missing), the ledger's trouble in plain words, and the names the screens
cannot draw."""

from __future__ import annotations

import statistics

import pytest

from display.games.punch_cards.glyphs import undrawable
from display.games.punch_cards.models import DeskPrivate, DeskStep
from display.games.punch_cards.private import ROWS, WIDTH, draw_punch_cards_private
from display.models import PrivateScreen
from display.private import image_text
from firmware_py.games.punch_cards.keyboard import NameKeyboard, presses_for
from firmware_py.games.punch_cards.ledger import LedgerBusy, LedgerUnreachable, WrongPin
from firmware_py.games.punch_cards.ledger_link import NOT_ANSWERING, words
from firmware_py.games.punch_cards.lobby import LEDGER_NOT_ANSWERING, closing_words
from games.punch_cards import normalise_name
from hal.events import Button

TYPICAL = (
    "Zed", "Ann", "Bob", "Tom", "Liam", "Emma", "Noah", "Zoe", "Olga", "Maria", "Priya", "Kenji",
    "Lucas", "Aisha", "Yusuf", "Kwame", "Pedro", "Sophie", "Fatima", "Hannah", "Ingrid", "Oliver",
    "Mateo", "Siobhan", "Chen Wei", "Jean-Luc", "Mohammed", "Isabella", "Alexandra", "Ringside Rita",
)  # fmt: skip
"""Names as players type them: first names of many places, two with a space or a hyphen,
and the issue's three."""


def test_a_typical_name_takes_under_20_presses_on_the_station_buttons() -> None:
    presses = {name: len(presses_for(name)) for name in TYPICAL}
    assert presses["Zed"] == 7 and presses["Alexandra"] == 19 and presses["Ringside Rita"] == 27
    assert statistics.median(presses.values()) < 20
    one_word = [n for n in TYPICAL if " " not in n]
    assert all(presses[n] < 20 for n in one_word), {n: presses[n] for n in one_word if presses[n] >= 20}
    # two presses a character and START: the cost no longer depends on where a letter is
    assert all(presses[n] == 2 * len(n) + 1 for n in TYPICAL)


def test_every_character_a_name_may_hold_can_be_typed_and_capitals_come_by_themselves() -> None:
    every = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -'.&_"
    for i in range(0, len(every), 16):
        chunk = "Q" + every[i : i + 16]
        kb = NameKeyboard()
        for b in presses_for(chunk)[:-1]:
            kb.press(b)
        assert kb.text == chunk
    kb = NameKeyboard()
    for b in (Button.A, Button.A, Button.B, Button.B):  # "a" at the start is a capital, then small
        kb.press(b)
    assert kb.text == "Ah"
    for b in (Button.F, Button.C, Button.A, Button.E):  # space, then a capital again
        kb.press(b)
    assert kb.text == "Ah E"
    for b in (Button.F, Button.E, Button.C, Button.D):  # "Aa": the next letter a capital
        kb.press(b)
    assert kb.text == "Ah EP"
    for b in (Button.F, Button.C, Button.F, Button.E, Button.A, Button.A):  # and after a space, small
        kb.press(b)
    assert kb.text == "Ah EP a"
    assert len(presses_for("McDonald")) == 2 * 8 + 1 + 2  # one "Aa" for the D
    with pytest.raises(ValueError, match="no 'ł'"):
        presses_for("Paweł")


def test_start_closes_an_opened_key_and_e_deletes() -> None:
    kb = NameKeyboard("Ann")
    kb.press(Button.C)
    assert kb.view().opened and [k for k, _ in kb.view().keys] == ["A", "B", "C", "D", "E", "F"]
    assert not kb.press(Button.START) and kb.text == "Ann" and not kb.view().opened
    kb.press(Button.E)
    assert kb.text == "An"
    assert kb.press(Button.START)  # nothing open: START is done


def oled(model: DeskPrivate) -> tuple[str, ...]:
    image = draw_punch_cards_private(PrivateScreen(game="punch_cards", seat=0, view=model, to_act=True), (128, 64))
    lines = image_text(image)
    assert lines is not None
    return lines


@pytest.mark.parametrize("name", ["Zed", "Alexandra", "Ringside Rita", "W" * 20])
def test_the_private_display_shows_every_button_whole(name: str) -> None:
    """Issue 23: "A: challenge (rival s" and no "E: sign out".  Every row fits the
    21-character display, there are at most 5 (6 at the font's own pitch with a message
    of two rows: issue 30, "Practice lost: no c.."), and every legend is on it uncut."""
    for rival, cards in ((None, 5), ("Alexandra", 5), ("Bob", 0)):
        duel = f"A duel {rival}" if rival else "A duel: no rival yet"
        hints = (duel, "B trade", "C practice" if cards else "D re-enter", "E sign out")
        for message in ("", "You won card #6 (Bob)", "Your rival signs in at another station first"):
            lines = oled(
                DeskPrivate(
                    step=DeskStep.MENU, player=name, keyboard=None, pin="", message=message, hints=hints, cards=cards
                )
            )
            assert len(lines) <= ROWS + 1 and all(len(line) <= WIDTH for line in lines), lines
            for hint in hints:
                assert any(hint in line for line in lines), (hint, lines)
    kb = NameKeyboard(name[:19])
    lines = oled(DeskPrivate(step=DeskStep.NAME, player="", keyboard=kb.view(), pin="", message="", hints=()))
    assert len(lines) <= ROWS and all(len(line) <= WIDTH for line in lines), lines
    for legend in ("A abcdef", "B ghijkl", "C mnopqr", "D stuvwx", "F y z sp - Aa 123", "E del", "START done"):
        assert any(legend in line for line in lines), (legend, lines)
    kb.press(Button.F)
    lines = oled(DeskPrivate(step=DeskStep.NAME, player="", keyboard=kb.view(), pin="", message="", hints=()))
    for legend in ("A y", "B z", "C sp", "D -", "E Aa", "F 123", "START back"):
        assert any(legend in line for line in lines), (legend, lines)
    lines = oled(
        DeskPrivate(
            step=DeskStep.PIN,
            player=name,
            keyboard=None,
            pin="AB",
            message="LOCKED after 5 wrong PINs: try in 15 min",
            hints=(),
        )
    )
    assert len(lines) <= ROWS and all(len(line) <= WIDTH for line in lines), lines
    assert any("START OK/undo" in line for line in lines) and any("try in 15 min" in line for line in lines), lines


def test_the_ledger_not_answering_is_one_plain_line_without_the_servers_address() -> None:
    error = LedgerUnreachable("cannot connect to postgresql://ringside@ledger.example:5432/con: timeout expired")
    assert closing_words(str(error), 0) == LEDGER_NOT_ANSWERING
    assert "5432" not in LEDGER_NOT_ANSWERING and "\n" not in LEDGER_NOT_ANSWERING
    assert words(error) == NOT_ANSWERING and "5432" not in words(LedgerBusy("busy after 5 retries"))
    assert words(WrongPin(3)) == str(WrongPin(3))  # a refusal a player must read stays as it is


@pytest.mark.parametrize(
    ("name", "drawable"),
    [
        ("Zed", True),
        ("José Ñúñez", True),
        ("Łukasz", True),
        ("Ωmega", True),
        ("Жанна", True),
        ("O'Brien-Smith & Co.", True),
        ("龘" * 3, False),
        ("שלום", False),
        ("महेश", False),
        ("محمد", False),
        ("𒀀", False),
    ],
)
def test_the_screens_know_which_names_they_can_draw(name: str, drawable: bool) -> None:
    """The main display's font has Latin, Greek and Cyrillic and no CJK, Hebrew,
    Devanagari or Arabic (nor the joining and right-to-left order Arabic needs): those
    names would be rows of identical boxes, so they are refused at entry."""
    clean = normalise_name(name)  # every one of them passes the name rules
    assert (undrawable(clean) == "") is drawable
