"""Punch Cards on a station's private 128×64 display: the name being typed with the
keyboard row under the cursor, the PIN (only here, never on the main screen), the card
being staked or offered with its numbers, the secret corner and call, and the player's
result once the ledger has recorded it."""

from __future__ import annotations

import textwrap
from typing import assert_never

from PIL import Image

from display.games.punch_cards.models import (
    DeskPrivate,
    DeskStep,
    DuelPrivate,
    PunchCardsPrivate,
    TradePrivate,
)
from display.private import oled_safe
from display.private import text_lines as _text_lines
from display.words import plural
from games.punch_cards import CORNERS, Card, Phase

WIDTH = 21
"""Characters on one line of the bitmap font."""
CORNER_SHORT = ("TL", "TR", "BL", "BR")
PROMPT = {DeskStep.PIN: "PIN for", DeskStep.NEW_PIN: "NEW PIN for", DeskStep.REPEAT_PIN: "REPEAT PIN for"}


ROWS = 5
"""Rows of the bitmap font on the 64-px display (six at its own 10-pixel pitch)."""


def text_lines(lines: list[str], inverted_row: int | None, size: tuple[int, int], rows: int = ROWS) -> Image.Image:
    """Up to ``rows`` rows of at most :data:`WIDTH` characters the font has.  Callers
    lay their rows out to fit (:func:`fit`, :func:`wrap`, :func:`pack`); the cut here is
    only a guard."""
    return _text_lines([oled_safe(line)[:WIDTH] for line in lines[:rows]], inverted_row, size, rows)


def fit(text: str, width: int = WIDTH) -> str:
    """``text`` in ``width`` characters, a name cut with ".." rather than mid-word silence."""
    return text if len(text) <= width else text[: width - 2] + ".."


def numbers(nums: tuple[int, ...]) -> str:
    return " ".join(str(n) for n in nums)


def card_line(card: Card) -> str:
    return fit(f"#{card.serial} {card.name}")


def wrap(text: str, lines: int) -> list[str]:
    """``text`` wrapped at spaces into at most ``lines`` rows (the last one cut with "..")."""
    out = textwrap.wrap(oled_safe(text), WIDTH, break_long_words=True) or [""]
    if len(out) > lines:
        out = [*out[: lines - 1], fit(" ".join(out[lines - 1 :]))]
    return out


def pack(items: list[str], gap: str = "  ") -> list[str]:
    """Legends side by side while they fit on a row, never cut: ``["B trade", "C
    practice"]`` is one row, a legend too long for the row with another gets its own."""
    rows: list[str] = []
    for item in items:
        if rows and len(rows[-1]) + len(gap) + len(item) <= WIDTH:
            rows[-1] += gap + item
        else:
            rows.append(fit(item))
    return rows


OLED_LABEL = {"space": "sp", "delete": "del"}


def key_legends(d: DeskPrivate) -> list[str]:
    """The name keyboard on the OLED: each button and what it types now (E, delete, is
    on the foot row with START)."""
    assert d.keyboard is not None
    legends = []
    for button, cells in d.keyboard.keys:
        if cells == ("delete",):
            continue
        shown = [OLED_LABEL.get(c, c) for c in cells]
        joined = "".join(shown) if all(len(c) == 1 for c in shown) else " ".join(shown)
        legends.append(f"{button} {joined}")
    return pack(legends)


def desk_image(d: DeskPrivate, size: tuple[int, int]) -> Image.Image:
    if d.step is DeskStep.IDLE:
        return text_lines(["PUNCH CARDS", *wrap(d.message, 2), "START: sign in", "or register"], 0, size)
    if d.step is DeskStep.NAME and d.keyboard is not None:
        kb = d.keyboard
        head = f"{kb.text[-(WIDTH - 1) :]}_"
        foot = "START back" if kb.opened else "E del  START done"
        if d.bad and d.message:  # a refusal, in full, until the next press
            return text_lines([head, *wrap(d.message, ROWS - 2), foot], 0, size)
        return text_lines([head, *key_legends(d), foot], 0, size)
    if d.step in PROMPT:
        pin = d.pin + "_" * (4 - len(d.pin))
        body = wrap(d.message, 3) if d.message else ["A-F: PIN letters"]
        return text_lines([fit(f"{PROMPT[d.step]} {d.player}"), f"{pin}  START OK/undo", *body], 0, size)
    held = f" ({plural(d.cards, 'card')})" if d.cards is not None else ""
    if d.cards is not None and len(oled_safe(d.player)) + len(held) > WIDTH:
        held = f" ({d.cards})"  # the name first: the count in short
    legends = pack(list(d.hints))
    message = wrap(d.message, 2) if d.message else []  # the news in full, not cut at 21 characters
    lines = [f"{fit(d.player, WIDTH - len(held))}{held}", *message, *legends]
    return text_lines(lines, 0, size, ROWS if len(lines) <= ROWS else ROWS + 1)  # six at the font's pitch


def duel_image(d: DuelPrivate, size: tuple[int, int], to_act: bool) -> Image.Image:
    v = d.view
    phase = v.public.phase
    if d.waiting:
        return text_lines(["DUEL OVER", "", d.waiting, "the ledger first"], 0, size)
    if phase is Phase.OVER:
        return text_lines(["DUEL OVER", *wrap(d.result or "Result on screen", 3)], 0, size)
    if phase is Phase.ANSWER:
        if v.may_refuse:
            return text_lines(["CHALLENGE!", "You may refuse it:", "A: accept", "B: refuse"], 0, size)
        return text_lines(["CHALLENGE SENT", "", "Waiting for your", "rival to answer"], 0, size)
    if phase is Phase.STAKE:
        cards = v.collection
        i = d.cursor % len(cards)
        card = next((c for c in cards if c.serial == v.stake), cards[i])
        head = "STAKED" if v.stake is not None else f"{i + 1}/{len(cards)}"
        rows = [f"{CORNER_SHORT[k]} {numbers(card.corners[k])}" for k in range(4)]
        return text_lines([fit(f"{head} #{card.serial} {card.name}"), *rows], 0, size)
    staked = next(c for c in v.collection if c.serial == v.stake)
    if phase is Phase.CORNER:
        if v.corner is not None:
            return text_lines(
                [
                    "CORNER (secret)",
                    f"{CORNER_SHORT[v.corner.value]}: {numbers(staked.numbers(v.corner))}",
                    "",
                    "wait for rival",
                ],
                0,
                size,
            )
        rows = [f"{b} {CORNER_SHORT[i]} {numbers(staked.corners[i])}" for i, b in enumerate("ABCD")]
        return text_lines(["PICK A CORNER", *rows], 0, size)
    corner = v.corner or CORNERS[0]
    mine = f"{CORNER_SHORT[corner.value]}: {numbers(staked.numbers(corner))}"
    if v.call is not None:
        return text_lines(["CALL (secret)", mine, f"called {v.call.value.upper()}", "wait for rival"], 0, size)
    return text_lines(["CALL (secret)", mine, "A High  B Low", "C Both"], 0, size)


def draw_trade(t: TradePrivate, size: tuple[int, int]) -> Image.Image:
    if not t.collection:
        return text_lines(["TRADE", "", "no cards"], 0, size)
    i = t.cursor % len(t.collection)
    card = t.collection[i]
    state = "GIVING it" if card.serial in t.giving else "keeping it"
    foot = [t.message] if t.message else ["CONFIRMED" if t.confirmed else "START: confirm"]
    giving = [f"giving {len(t.giving)}  E: off"]
    if len(oled_safe(foot[0])) > WIDTH:  # a message in full over two rows, not cut at 21 characters
        giving, foot = [], wrap(foot[0], 2)
    return text_lines(
        [f"TRADE {i + 1}/{len(t.collection)}  A< >B", card_line(card), f"{state}  C: change", *giving, *foot],
        0,
        size,
    )


def draw_punch_cards_private(screen: PunchCardsPrivate, size: tuple[int, int]) -> Image.Image:
    match screen.view:
        case DeskPrivate() as desk:
            return desk_image(desk, size)
        case DuelPrivate() as duel:
            return duel_image(duel, size, screen.to_act)
        case TradePrivate() as trade:
            return draw_trade(trade, size)
        case unknown:
            assert_never(unknown)
