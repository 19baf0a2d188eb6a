"""Counts said in plain words, the same on every screen and private display: "1 card",
"2 cards" ("1 points" or "1 knockdown(s)" reads as a mistake to a newcomer)."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """``1 point``, ``2 points`` (``pt``, ``card``, ``knockdown`` alike)."""
    return f"{count} {word}{'' if count == 1 else 's'}"
