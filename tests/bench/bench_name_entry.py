"""Punch Cards' name entry on the station buttons: presses to type a name (and START),
for the names players type (``TYPICAL`` in the name-entry tests), on today's keyboard
(a key of six, then its letter) and on the one it replaced (a cursor walking five rows
of characters with A/B, C/D, F typing: issue 23 counted 13 presses for "Zed", 41 for
"Alexandra", 77 for "Ringside Rita").  Counts, not times: no machine dependence."""

from __future__ import annotations

import statistics

from firmware_py.games.punch_cards.keyboard import presses_for
from tests.bench.harness import Figure
from tests.firmware_py.test_punch_cards_name_entry import TYPICAL

TITLE = "Punch Cards: presses to enter a name on the station buttons"

CURSOR_ROWS = ("ABCDEFGHIJKLM", "NOPQRSTUVWXYZ", "abcdefghijklm", "nopqrstuvwxyz", "0123456789 -'.&_")
"""The replaced keyboard's rows (after a capital the cursor dropped to the small letters,
after a space it went back to the capitals)."""


def cursor_presses(name: str) -> int:
    """Presses on the replaced keyboard: shortest wrapping moves to each character, F, and START."""
    row, col, total = 0, 0, 0
    for char in name:
        target = next(r for r, chars in enumerate(CURSOR_ROWS) if char in chars)
        down = (target - row) % len(CURSOR_ROWS)
        total += min(down, len(CURSOR_ROWS) - down)
        row, col = target, min(col, len(CURSOR_ROWS[target]) - 1)
        right = (CURSOR_ROWS[row].index(char) - col) % len(CURSOR_ROWS[row])
        total += min(right, len(CURSOR_ROWS[row]) - right) + 1
        col = CURSOR_ROWS[row].index(char)
        if row in (0, 1):
            row += 2
        elif char == " ":
            row, col = 0, 0
    return total + 1


def run() -> list[Figure]:
    now = {n: len(presses_for(n)) for n in TYPICAL}
    before = {n: cursor_presses(n) for n in TYPICAL}
    figures = [
        Figure(
            f"{n!r}",
            now[n],
            "presses",
            "< 20" if " " not in n else "",
            f"was {before[n]} (×{before[n] / now[n]:.1f})",
        )
        for n in ("Zed", "Alexandra", "Ringside Rita")
    ]
    median_now, median_before = statistics.median(now.values()), statistics.median(before.values())
    figures += [
        Figure(
            f"median of {len(TYPICAL)} typical names",
            median_now,
            "presses",
            "< 20",
            f"was {median_before:g} (×{median_before / median_now:.1f}); START included, the PIN not (5 presses, twice for a new player)",
        ),
        Figure(
            "worst one-word typical name",
            max(v for n, v in now.items() if " " not in n),
            "presses",
            "< 20",
            max((n for n in TYPICAL if " " not in n), key=lambda n: now[n]),
        ),
        Figure(
            "presses per character",
            2,
            "presses",
            "",
            "any letter, space or hyphen; +2 for an unusual capital (Aa), +2 to reach digits or ' . & _ (123)",
        ),
    ]
    return figures
