"""Which letters the cabinet's screens can draw.

The main display's font (pygame's bundled one, chosen for stable golden screenshots)
has Latin, Greek and Cyrillic letters but no CJK, Hebrew, Arabic or Devanagari, and it
does not join or reorder right-to-left script.  A name with a letter it lacks would show
as a row of identical boxes, so two such players could not tell their names apart; the
lobby refuses those names at entry (docs/rules/punch_cards.md, "Names on screens").
"""

from __future__ import annotations

import unicodedata
from functools import cache

import pygame

from display.theme import font

PROBE_SIZE = 32
NOT_A_CHARACTER = "\U0010fffd"
"""A private-use code point no font maps: what the font draws for a letter it lacks."""


def _drawn(char: str) -> bytes:
    surf = font(PROBE_SIZE).render(char, False, (255, 255, 255))
    return pygame.image.tobytes(surf, "RGBA") + bytes(str(surf.get_size()), "ascii")


@cache
def has_glyph(char: str) -> bool:
    """Whether the main display's font draws ``char`` as itself rather than as the
    missing-letter box."""
    if not pygame.font.get_init():
        pygame.font.init()
    return _drawn(char) != _drawn(NOT_A_CHARACTER)


def undrawable(name: str) -> str:
    """The letters of ``name`` the main display cannot draw, each once, in order (empty:
    it can draw the whole name).  Accents are not counted: one NFC cannot fold into its
    letter is left out when drawn (``TextCache.fitted``), the letter still shows."""
    missing: dict[str, None] = {}
    for char in unicodedata.normalize("NFC", name):
        if char.isspace() or unicodedata.category(char).startswith("M"):
            continue
        if not has_glyph(char):
            missing[char] = None
    return "".join(missing)
