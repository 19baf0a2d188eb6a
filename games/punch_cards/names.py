"""Player names: what a name may be, how it is normalised, and when two names are one.

A name is written on every card of its player's packets and shown on the main screen, the
private displays and the printed standings, so it must not be able to hide text, reorder
text, break a line or a layout, or pass for another player's name.  Names are normalised
(NFKC: compatibility forms such as full-width letters become the plain ones; spacing
collapses to single spaces), checked character by character, and compared by
:func:`name_key` (case folded).  Every refusal says why (:class:`NameRefused`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Container
from enum import Enum

MAX_LENGTH = 20
"""Characters in a name (a letter with its accents counts once): fits the 128-px private
display in its small font and a standings column."""
MAX_RAW_LENGTH = 4 * MAX_LENGTH
"""Longer raw input is refused before normalising (NFKC can grow a string many times)."""
MAX_MARKS = 2
"""Combining marks allowed on one letter (more stack into unreadable "zalgo" text)."""
PUNCTUATION = "-'.&_"
"""The only punctuation a name may hold (never first: a name starts with a letter or a
digit, which also keeps a standings CSV from starting a cell with a formula sign)."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
)
"""Marks and overrides that reorder text (Trojan-Source style): never in a name."""
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0")
"""Characters that draw nothing yet are not format controls: fillers, blank patterns, and
the default-ignorable marks (the combining grapheme joiner, the Mongolian free variation
selectors U+180B–U+180F), which draw nothing after a Latin letter: "Ann\u180b" is "Ann"."""
DEFAULT_IGNORABLE_RANGES = ((0xFE00, 0xFE0F), (0xE0000, 0xE0FFF), (0x1BCA0, 0x1BCA3), (0xFFF0, 0xFFF8))
"""Unicode's default-ignorable code points that are not in a format category: variation
selectors, tags and their reserved block, shorthand format controls."""
OVERLAY = 1
"""The canonical combining class of marks drawn through their letter (U+0334–U+0338, the
combining overlays): "A\u0336n\u0336n\u0336" draws as a struck-through "Ann"; a font without
them draws plain "Ann", so they would let one name pass for another."""


class NameProblem(Enum):
    NOT_TEXT = "not_text"
    EMPTY = "empty"
    TOO_LONG = "too_long"
    CONTROL = "control"
    BIDI = "bidi"
    INVISIBLE = "invisible"
    SYMBOL = "symbol"
    UNSUPPORTED = "unsupported"
    STACKED_MARKS = "stacked_marks"
    BAD_START = "bad_start"
    TAKEN = "taken"


class NameRefused(ValueError):
    """A name the rules refuse; ``str()`` tells the player why, ``problem`` says which rule."""

    def __init__(self, problem: NameProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def _refuse_char(char: str) -> NameRefused | None:
    """Why ``char`` (already NFKC-normalised) may not be in a name, or ``None``."""
    category = unicodedata.category(char)
    if char in BIDI_CONTROLS:
        return NameRefused(NameProblem.BIDI, f"names may not hold text-direction controls ({_describe(char)})")
    if category == "Cc" or category in ("Zl", "Zp"):
        return NameRefused(
            NameProblem.CONTROL, f"names may not hold control characters or line breaks ({_describe(char)})"
        )
    if category == "Cf" or char in INVISIBLE or any(lo <= ord(char) <= hi for lo, hi in DEFAULT_IGNORABLE_RANGES):
        return NameRefused(NameProblem.INVISIBLE, f"names may not hold invisible characters ({_describe(char)})")
    if unicodedata.combining(char) == OVERLAY:
        return NameRefused(NameProblem.SYMBOL, f"names may not hold marks drawn through a letter ({_describe(char)})")
    if category in ("Co", "Cn", "Cs"):
        return NameRefused(NameProblem.UNSUPPORTED, f"this character cannot be shown ({_describe(char)})")
    if category[0] == "S" or category == "Me" or (category[0] == "P" and char not in PUNCTUATION):
        return NameRefused(
            NameProblem.SYMBOL,
            f"names hold letters, digits, spaces and {' '.join(PUNCTUATION)} only, not {char!r}",
        )
    return None


def _collapse_spaces(text: str) -> str:
    return " ".join(
        part for part in "".join(" " if unicodedata.category(c) == "Zs" else c for c in text).split(" ") if part
    )


def normalise_name(raw: object) -> str:
    """``raw`` as it would be stored, or :class:`NameRefused` saying why it cannot be."""
    if not isinstance(raw, str):
        raise NameRefused(NameProblem.NOT_TEXT, "a name must be text")
    if len(raw) > MAX_RAW_LENGTH:
        raise NameRefused(NameProblem.TOO_LONG, f"names are at most {MAX_LENGTH} characters")
    try:
        text = unicodedata.normalize("NFKC", raw)
    except UnicodeError:  # lone surrogates cannot be normalised
        raise NameRefused(NameProblem.UNSUPPORTED, "this text holds characters that cannot be shown") from None
    for char in text:
        if unicodedata.category(char) != "Zs":
            refusal = _refuse_char(char)
            if refusal is not None:
                raise refusal
    name = _collapse_spaces(text)
    if not name:
        raise NameRefused(NameProblem.EMPTY, "a name needs at least one letter or digit")
    if unicodedata.category(name[0])[0] not in "LN":
        raise NameRefused(NameProblem.BAD_START, "a name starts with a letter or a digit")
    marks = 0
    letters = 0
    for char in name:
        if unicodedata.category(char)[0] == "M":
            marks += 1
            if marks > MAX_MARKS:
                raise NameRefused(NameProblem.STACKED_MARKS, f"at most {MAX_MARKS} accents on one letter")
        else:
            marks = 0
            letters += 1
    if letters > MAX_LENGTH:
        raise NameRefused(NameProblem.TOO_LONG, f"names are at most {MAX_LENGTH} characters, not {letters}")
    return name


def name_key(name: str) -> str:
    """What makes two names the same name: case folded, compatibility forms and spacing
    normalised ("ANN  lee" and "Ann Lee" are one name)."""
    return unicodedata.normalize("NFKC", _collapse_spaces(unicodedata.normalize("NFKC", name)).casefold())


def validate_name(raw: object, taken: Container[str] = frozenset()) -> str:
    """The normalised name for ``raw``; :class:`NameRefused` when the rules refuse it or
    its :func:`name_key` is in ``taken`` (the keys of the names already registered)."""
    name = normalise_name(raw)
    if name_key(name) in taken:
        raise NameRefused(NameProblem.TAKEN, f"the name {name!r} is taken (names ignore case and spacing)")
    return name
