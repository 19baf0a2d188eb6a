"""Typing at a station: a name in two presses a letter, and a PIN on A–F.

The name keyboard is six keys of six characters.  The first press picks a key (A, B, C,
D or F, each showing its six characters: "abcdef", "ghijkl", "mnopqr", "stuvwx" and
"y z space - Aa 123"); the second press, A–F, picks the character on it, so every letter
costs two presses wherever it is in the alphabet ("Alexandra" is 18 presses and START,
where a cursor walking the alphabet took 41).  E deletes the last character (on an opened
key it picks the fifth character); START is done, or closes an opened key unchosen.

Capitals come by themselves at the start of the name and after a space or a hyphen;
"Aa" changes the case of the next letter once (McDonald, DJ Zed).  "123" opens the
digits and the punctuation a name may hold (``' . & _``); after a punctuation mark the
letters come back, digits stay until "abc".

A PIN is 4 of the letters A–F, one button each; START sends it once it has 4 letters,
and with fewer it takes the last letter back (with none it goes back).
"""

from __future__ import annotations

from display.games.punch_cards.models import KeyboardView
from games.punch_cards import MAX_LENGTH
from hal.events import Button

SHIFT = "Aa"
DIGITS = "123"
LETTERS = "abc"
KEY_BUTTONS = (Button.A, Button.B, Button.C, Button.D, Button.E, Button.F)
"""The buttons that pick a character on an opened key, in its order."""
PAGES: dict[str, dict[Button, tuple[str, ...]]] = {
    LETTERS: {
        Button.A: tuple("abcdef"),
        Button.B: tuple("ghijkl"),
        Button.C: tuple("mnopqr"),
        Button.D: tuple("stuvwx"),
        Button.F: ("y", "z", " ", "-", SHIFT, DIGITS),
    },
    DIGITS: {
        Button.A: tuple("012345"),
        Button.B: ("6", "7", "8", "9", " ", LETTERS),
        Button.C: ("'", ".", "&", "_", "-", LETTERS),
    },
}
"""Each page's keys: the button that opens a key and the six characters on it."""
CAPITAL_AFTER = " -"
"""A letter after one of these (or at the start) is a capital unless "Aa" says otherwise."""
PIN_LETTERS = "ABCDEF"
PIN_LENGTH = 4
MAX_TYPED = MAX_LENGTH
"""The keyboard stops at the name's length limit (the rules refuse longer names)."""


def label(cell: str) -> str:
    """How a character or a command is written on its key."""
    return "space" if cell == " " else cell


class NameKeyboard:
    def __init__(self, text: str = "") -> None:
        self.text = text
        self.page = LETTERS
        self.open: Button | None = None
        """The key picked by the first press, waiting for the second."""
        self.shift = False

    @property
    def capital(self) -> bool:
        """Whether the next letter is typed as a capital."""
        auto = not self.text or self.text[-1] in CAPITAL_AFTER
        return auto != self.shift

    def press(self, button: Button) -> bool:
        """Apply one press; True when START says the name is done."""
        if self.open is not None:
            if button is Button.START:
                self.open = None
                return False
            cells = PAGES[self.page][self.open]
            self.open = None
            self._pick(cells[KEY_BUTTONS.index(button)])
            return False
        if button is Button.START:
            return True
        if button is Button.E:
            self.text = self.text[:-1]
        elif button in PAGES[self.page]:
            self.open = button
        return False

    def type_text(self, typed: str) -> None:
        """Characters from a USB keyboard, as typed (no case rules, no pages)."""
        self.open = None
        self.text = (self.text + typed)[:MAX_TYPED]

    def delete(self) -> None:
        self.open = None
        self.text = self.text[:-1]

    def _pick(self, cell: str) -> None:
        if cell == SHIFT:
            self.shift = not self.shift
        elif cell in (DIGITS, LETTERS):
            self.page = cell
        elif len(self.text) < MAX_TYPED:
            self.text += cell.upper() if self.capital and cell.isalpha() else cell
            self.shift = False
            if self.page == DIGITS and not cell.isdigit():
                self.page = LETTERS  # a mark between letters: the letters come back

    def keys(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What each button shows now: (button, its characters) — the keys of the page, or
        the characters of the opened key, one per button."""
        if self.open is not None:
            cells = PAGES[self.page][self.open]
            return tuple((b.value, (self._shown(c),)) for b, c in zip(KEY_BUTTONS, cells, strict=True))
        page = PAGES[self.page]
        return tuple(
            (b.value, tuple(self._shown(c) for c in page[b]) if b in page else ("delete",))
            for b in KEY_BUTTONS
            if b in page or b is Button.E
        )

    def _shown(self, cell: str) -> str:
        return label(cell.upper() if self.capital and len(cell) == 1 and cell.isalpha() else cell)

    def view(self) -> KeyboardView:
        return KeyboardView(keys=self.keys(), opened=self.open is not None, text=self.text)


def presses_for(name: str, kb: NameKeyboard | None = None) -> list[Button]:
    """The presses that type ``name`` on ``kb`` (a fresh keyboard by default: an empty
    name, letters page) after what it holds, and finish with START (for scenarios, tests
    and the bench).  Raises ValueError for a character the keyboard does not have."""
    kb = kb if kb is not None else NameKeyboard()
    start = kb.text
    out: list[Button] = []

    def do(*buttons: Button) -> None:
        for b in buttons:
            kb.press(b)
        out.extend(buttons)

    def pick(cell: str) -> None:
        for page in (kb.page, *(p for p in PAGES if p != kb.page)):
            for key, cells in PAGES[page].items():
                if cell in cells:
                    if page != kb.page:
                        pick(page)
                    do(key, KEY_BUTTONS[cells.index(cell)])
                    return
        raise ValueError(f"the keyboard has no {cell!r}")

    for char in name:
        lower = char.lower()
        if char.isalpha() and not any(lower in cells for cells in PAGES[LETTERS].values()):
            raise ValueError(f"the keyboard has no {char!r}")
        if char.isalpha() and kb.page != LETTERS:
            pick(LETTERS)
        if char.isalpha() and char.isupper() != kb.capital:
            pick(SHIFT)
        pick(lower if char.isalpha() else char)
    assert kb.text == start + name, (kb.text, name)
    return [*out, Button.START]


class PinPad:
    def __init__(self) -> None:
        self.pin = ""

    def press(self, button: Button) -> str | None:
        """``"done"`` when START sends a whole PIN, ``"back"`` when START is pressed with
        nothing entered, else None."""
        if button.value in PIN_LETTERS:
            if len(self.pin) < PIN_LENGTH:
                self.pin += button.value
        elif button is Button.START:
            if len(self.pin) == PIN_LENGTH:
                return "done"
            if not self.pin:
                return "back"
            self.pin = self.pin[:-1]
        return None


def pin_presses(pin: str) -> list[Button]:
    return [Button(c) for c in pin] + [Button.START]
