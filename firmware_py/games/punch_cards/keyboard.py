"""Typing at a station: a name on an on-screen keyboard and a PIN on A–F.

The keyboard is five rows of characters (capitals, small letters, digits, space and
the punctuation a name may hold).  A/B move left/right, C/D change row, E deletes, F
types the character under the cursor, START is done.  To keep names quick: after a
capital the cursor drops to the same small letter, after a space it goes back up to
the capitals.  A PIN is 4 of the letters A–F, one button each; START sends it once it
has 4 letters, and with fewer it takes the last letter back (with none it goes back).
"""

from __future__ import annotations

from display.games.punch_cards.models import KeyboardView
from games.punch_cards import MAX_LENGTH
from hal.events import Button

ROWS = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ", "abcdefghijklm", "nopqrstuvwxyz", "0123456789 -'.&_")
PIN_LETTERS = "ABCDEF"
PIN_LENGTH = 4
MAX_TYPED = MAX_LENGTH
"""The keyboard stops at the name's length limit (the rules refuse longer names)."""


class NameKeyboard:
    def __init__(self, text: str = "") -> None:
        self.text = text
        self.row = 0
        self.col = 0

    @property
    def char(self) -> str:
        return ROWS[self.row][self.col]

    def press(self, button: Button) -> bool:
        """Apply one press; True when START says the name is done."""
        if button is Button.A:
            self.col = (self.col - 1) % len(ROWS[self.row])
        elif button is Button.B:
            self.col = (self.col + 1) % len(ROWS[self.row])
        elif button in (Button.C, Button.D):
            self.row = (self.row + (1 if button is Button.D else -1)) % len(ROWS)
            self.col = min(self.col, len(ROWS[self.row]) - 1)
        elif button is Button.E:
            self.text = self.text[:-1]
        elif button is Button.F:
            if len(self.text) < MAX_TYPED:
                self._type()
        elif button is Button.START:
            return True
        return False

    def _type(self) -> None:
        char = self.char
        self.text += char
        if self.row in (0, 1):  # a capital: on to the small letters
            self.row += 2
        elif char == " ":
            self.row, self.col = 0, 0

    def view(self) -> KeyboardView:
        return KeyboardView(rows=ROWS, row=self.row, col=self.col, text=self.text)


def presses_for(name: str, at: tuple[int, int] = (0, 0)) -> list[Button]:
    """The presses that type ``name`` with the cursor at ``at`` (row, column; a fresh
    keyboard's is (0, 0)) and finish with START (for scenarios and tests): shortest
    moves, wrapping around."""
    kb = NameKeyboard()
    kb.row, kb.col = at
    out: list[Button] = []
    for char in name:
        row = next(r for r, chars in enumerate(ROWS) if char in chars)
        col = ROWS[row].index(char)
        down = (row - kb.row) % len(ROWS)
        moves = [Button.D] * down if down <= len(ROWS) - down else [Button.C] * (len(ROWS) - down)
        for b in moves:
            kb.press(b)
        right = (col - kb.col) % len(ROWS[row])
        steps = [Button.B] * right if right <= len(ROWS[row]) - right else [Button.A] * (len(ROWS[row]) - right)
        for b in steps:
            kb.press(b)
        kb.press(Button.F)
        out += moves + steps + [Button.F]
    assert kb.text == name, (kb.text, name)
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
