"""Punch Cards on the main display: the lobby (a desk per station, the leaders), the duel
table (stakes, who has chosen, the numbers seen "through the holes" at each reveal, the
challenge rule, the result once recorded) and the trade table.  Every name is drawn
fitted to its place: the ledger holds whatever names the rules accept, from any cabinet.
The scenes at the cabinet build its models (:mod:`display.games.punch_cards.models`); it
draws whichever of them the play screen carries.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

import pygame

from display import draw, motion, theme
from display.canvas import Canvas, live
from display.cards import card_back
from display.games.punch_cards.models import (
    DeskStep,
    DeskView,
    DuelTable,
    KeyboardView,
    LobbyView,
    PunchCardsPlay,
    TradeTableView,
)
from display.qr import draw_qr
from display.text import TextCache
from display.widgets import FOOTER_Y, PLAY_TOP, banner, panel, paused_overlay, title_bar
from display.words import plural
from games.punch_cards import Call, DuelPublicView, Phase, Revealed

HINT = (200, 204, 220)
"""A desk's button legends: lighter than the cabinet's dim grey, which reads at 3.1:1 on
the gold station's desk (the least a player must read is 4.5:1)."""
HINT_PITCH = 30
CALL_WORDS = {Call.HIGH: "HIGH", Call.LOW: "LOW", Call.BOTH: "BOTH"}
AGAIN_WORDS = {
    "high_against_low": "High against Low: play again",
    "full_tie": "A full tie: play again",
    "no_double_winner": "Both against Both, nobody won both ways: play again",
}
PHASE_WORDS = {
    Phase.ANSWER: "The challenged answers",
    Phase.STAKE: "Stake a card: A/B browse, START stakes (secret until both have)",
    Phase.CORNER: "Pick a corner in secret: A-D",
    Phase.CALL: "Call in secret: A High, B Low, C Both",
    Phase.OVER: "",
}


def wrapped(text: TextCache, words: str, size: int, max_width: int, max_lines: int) -> list[str]:
    """``words`` in lines no wider than ``max_width`` (the last one fitted when cut)."""
    font = theme.font(size)
    lines: list[str] = []
    for word in words.split():
        if lines and font.size(lines[-1] + " " + word)[0] <= max_width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return lines


def draw_lines(
    surf: Canvas,
    text: TextCache,
    words: str,
    size: int,
    color: tuple[int, int, int],
    pos: tuple[int, int],
    max_width: int,
    max_lines: int = 2,
    anchor: str = "midtop",
) -> int:
    """Draw wrapped, fitted text; return the y below it."""
    x, y = pos
    for line in wrapped(text, words, size, max_width, max_lines):
        r = text.draw_fitted(surf, line, size, color, (x, y), max_width, anchor)
        y = r.bottom + 2
    return y


# -- the lobby ------------------------------------------------------------------------------
def draw_desk(surf: Canvas, text: TextCache, d: DeskView, rect: pygame.Rect) -> None:
    active = d.step is not DeskStep.IDLE
    panel(surf, rect, theme.shade(d.look.color, 0.35) if d.step is DeskStep.MENU else theme.PANEL, d.look.color)
    inner = rect.width - 32
    cx = rect.centerx
    text.draw_fitted(surf, d.look.name.upper(), 40, d.look.color, (cx, rect.y + 14), inner, "midtop", True)
    y = rect.y + 64
    if d.step is DeskStep.IDLE:
        text.draw(surf, "press START", 48, theme.DIM, (cx, rect.y + 150), "center")
        text.draw_fitted(surf, "to sign in or register", 32, theme.DIM, (cx, rect.y + 200), inner, "center")
    elif d.step is DeskStep.NAME and d.keyboard is not None:
        kb = d.keyboard
        text.draw_fitted(surf, (kb.text or " ") + "_", 44, theme.WHITE, (cx, y), inner, "midtop", True)
        draw_keys(surf, text, kb, pygame.Rect(rect.x + 12, y + 52, rect.width - 24, 6 * 36))
    elif d.step in (DeskStep.PIN, DeskStep.NEW_PIN, DeskStep.REPEAT_PIN):
        text.draw_fitted(surf, d.player, 44, theme.WHITE, (cx, y), inner, "midtop", True)
        prompt = {DeskStep.PIN: "PIN", DeskStep.NEW_PIN: "choose a PIN", DeskStep.REPEAT_PIN: "the PIN again"}
        text.draw(surf, prompt[d.step], 32, theme.DIM, (cx, y + 60), "midtop")
        for i in range(4):
            centre = (cx + (i - 1.5) * 54, y + 140)
            draw.circle(surf, theme.GOLD, centre, 18, 0 if i < d.pin_length else 3)
        text.draw(surf, "on your private display", 28, theme.DIM, (cx, y + 180), "midtop")
    else:
        text.draw_fitted(surf, d.player, 52, theme.WHITE, (cx, y), inner, "midtop", True)
        if d.cards is not None and d.points is not None:  # known once the ledger has read them
            counts = f"{plural(d.cards, 'card')} · {plural(d.points, 'point')}"
            text.draw(surf, counts, 34, theme.GOLD, (cx, y + 62), "midtop")
    hint_y = rect.bottom - HINT_PITCH * len(d.hints) - 8
    if d.message:
        color = theme.BAD if d.bad else theme.GOOD
        draw_lines(surf, text, d.message, 28, color, (cx, hint_y - 66), inner, 2)
    if active or d.step is DeskStep.IDLE:
        for i, hint in enumerate(d.hints if active else ()):
            text.draw_fitted(surf, hint, 28, HINT, (cx, hint_y + i * HINT_PITCH), inner, "midtop")


def draw_keys(surf: Canvas, text: TextCache, kb: KeyboardView, area: pygame.Rect) -> None:
    """The name keyboard, a row per button: its cap and what it types now (a key's six
    characters, or once a key is picked, the one character each button types)."""
    row_h = area.height // max(1, len(kb.keys))
    for i, (button, cells) in enumerate(kb.keys):
        y = area.y + i * row_h + row_h // 2
        draw.circle(surf, theme.GOLD, (area.x + 18, y), 17)
        text.draw(surf, button, 28, theme.BACKGROUND, (area.x + 18, y), "center", bold=True)
        words = " ".join(cells)
        wide = area.width > 400  # two desks: room for bigger letters
        size = (48 if wide else 36) if kb.opened else (38 if wide else 30)
        text.draw_fitted(surf, words, size, theme.WHITE, (area.x + 46, y), area.width - 50, "midleft", kb.opened)


def draw_lobby(surf: Canvas, text: TextCache, s: PunchCardsPlay, v: LobbyView) -> None:
    w = surf.get_width()
    surf.fill(theme.BACKGROUND)
    if v.alert:  # the event closed, the ledger not answering: across the title, in red
        title_bar(surf, text, s.title)
        left = text.measure(surf, s.title, 52, bold=True)[0] + 24
        text.draw_fitted(surf, v.status, 34, theme.BAD, (w // 2, 32), w - 2 * left - 40, "center", True)
    else:
        title_bar(surf, text, s.title, "Sign in · duel · collect names", v.status)
    n = len(v.desks)
    cw = (w - 40) // n
    for i, desk in enumerate(v.desks):
        draw_desk(surf, text, desk, pygame.Rect(20 + i * cw + 8, 80, cw - 16, 500))
    strip = pygame.Rect(20, 592, w - 40, 116)
    panel(surf, strip)
    text.draw(surf, "LEADERS", 30, theme.GOLD, (strip.x + 16, strip.y + 12))
    qr = 300 if v.web_url else 0  # a QR code to the live standings at the strip's right end
    if v.web_url:
        draw_qr(surf, v.web_url, (strip.right - 116, strip.y + 4, 108, 108))
        for i, line in enumerate(("standings", "on your phone")):
            text.draw_fitted(surf, line, 28, theme.DIM, (strip.right - 124, strip.y + 26 + 32 * i), 176, "topright")
    slot = (strip.width - 32 - qr) // 5
    for i, st in enumerate(v.board[:5]):
        x = strip.x + 16 + i * slot
        text.draw_fitted(surf, f"{st.rank}. {st.name}", 32, theme.WHITE, (x, strip.y + 46), slot - 12)
        text.draw_fitted(
            surf, f"{plural(st.points, 'pt')} · {plural(st.cards, 'card')}", 28, theme.DIM, (x, strip.y + 78), slot - 12
        )
    if not v.board:
        text.draw(surf, "nobody yet: be the first", 28, theme.DIM, (strip.x + 16, strip.y + 50))


# -- the duel -------------------------------------------------------------------------------
PAPER = (238, 228, 196)
"""A Punch Card's card stock."""
INK = (40, 36, 52)
HOLE = (12, 12, 20)
CARD_SIZE = (280, 380)
WINDOW = (120, 104)
"""One corner's hole: the numbers behind it show through at the reveal."""
SIDE_WIDTH = 470
CENTRE_X = 640
CARD_TOP = 234
OPEN_US = 320_000
"""At a reveal the chosen corners' holes open over this long; the numbers, the calls and
how High and Low went show once they are open (an effect with the cards it comes from)."""
RESULT_READ_US = 1_000_000
"""The result's banner (WINS!, REFUSED, NOT RECORDED) is up this long before START may
leave it for the lobby: a player pressing START as if to confirm still reads it (issue 30;
the read time of a Punch! reveal)."""


def draw_duel(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: DuelTable) -> None:
    """Both staked cards face to face, the centrepiece: face down while staking, then their
    serial and name, four punched corners, and at the reveal the chosen corner's numbers
    "through the holes", the calls under the cards, and how High and Low went between them.
    The result (once the ledger has it) is the banner, the loser's card stamped LOST."""
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    v = t.public
    again = v.last_reveal is not None and v.last_reveal.again is not None
    if again and (v.phase is Phase.CALL or (v.phase is Phase.CORNER and any(v.locked))):
        # one moment at a time: the last play's reveal goes once the next play is under way
        v = replace(v, last_reveal=None)
        t = replace(t, public=v)
    if t.practice:
        centre = f"{t.players[0]} practises against the computer"
    else:
        centre = f"{t.players[0]} challenges {t.players[1]}"
    title_bar(surf, text, s.title, centre)
    if t.practice:  # gold, not dim: it says that nothing here counts
        text.draw(surf, "PRACTICE", 34, theme.GOLD, (w - 24, 32), "midright", bold=True)
    elif v.play > 1 and v.phase is not Phase.OVER:
        text.draw(surf, f"PLAY {v.play}", 34, theme.GOLD, (w - 24, 32), "midright", bold=True)
    reveal = v.last_reveal
    opened = motion.ease_out(motion.progress(s.now_us, _revealed_at(s), OPEN_US))
    if opened < 1:  # the result comes with the numbers it comes from, not before
        t = replace(t, result=())
    for seat in (0, 1):
        side = pygame.Rect(30 if seat == 0 else w - 30 - SIDE_WIDTH, PLAY_TOP, SIDE_WIDTH, 530)
        _duellist(surf, text, s, t, seat, side, opened)
    text.draw(surf, "VS", 64, theme.GOLD, (CENTRE_X, CARD_TOP + CARD_SIZE[1] // 2), "center", bold=True)
    if reveal is not None and opened >= 1:
        _comparisons(surf, text, s, t, reveal)
    _duel_banner(surf, text, s, t)
    _duel_footer(surf, text, t, h)
    if t.waiting:  # one plain line (the ledger's error itself is in the log)
        paused_overlay(surf, text, t.waiting)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _revealed_at(s: PunchCardsPlay) -> int:
    """When the last reveal happened (long ago when the events no longer say)."""
    return next((t for t, ev in reversed(s.events) if isinstance(ev, Revealed)), -OPEN_US)


def _duellist(
    surf: Canvas, text: TextCache, s: PunchCardsPlay, t: DuelTable, seat: int, side: pygame.Rect, opened: float
) -> None:
    """One duellist: the name in their colour, what they are doing, their staked card and,
    once revealed (``opened`` 1: the holes are open), their call."""
    v = t.public
    look = s.seats[seat]
    name = t.players[seat]
    text.draw(surf, name.upper(), 52, look.color, (side.centerx, side.y + 26), "center", True, side.width - 20)
    status, colour = _status(t, seat)
    if status:
        shown = text.draw(surf, status, 32, colour, (side.centerx, side.y + 64), "center", True, side.width - 20)
        live(surf, shown, f"{name}'s status")
    card = pygame.Rect(0, 0, *CARD_SIZE)
    card.midtop = (side.centerx, CARD_TOP)
    reveal = v.last_reveal
    if v.stakes is None or v.stake_names is None:
        if v.locked[seat] or v.phase is not Phase.STAKE:
            card_back(surf, card, look.color)
        else:  # the card is still being chosen: its place on the table, empty
            draw.rect(surf, theme.PANEL, card, border_radius=14)
            draw.rect(surf, theme.PANEL_EDGE, card, width=3, border_radius=14)
            text.draw(surf, "?", 120, theme.DIM, card.center, "center", bold=True)
    else:
        shown_corner = reveal.corners[seat].value if reveal is not None else None
        numbers = reveal.numbers[seat] if reveal is not None else ()
        # practice: the computer's packet is nobody's card, so it has no serial to show
        label = "practice" if t.practice and seat == 1 else f"#{v.stakes[seat]}"
        punch_card(surf, text, card, look.color, label, v.stake_names[seat], shown_corner, numbers, opened)
        if _lost(t, seat):
            stamp(surf, text, "LOST", theme.BAD, (card.centerx, card.centery + 40))
    live(surf, card, f"{name}'s card")
    if reveal is not None and opened >= 1:
        call = CALL_WORDS[reveal.calls[seat]]
        text.draw(surf, f"called {call}", 40, theme.GOLD, (side.centerx, card.bottom + 30), "center", bold=True)


def _status(t: DuelTable, seat: int) -> tuple[str, tuple[int, int, int]]:
    v = t.public
    if v.phase is Phase.OVER:
        if t.result and v.winner is not None and t.public.stakes is not None and not t.practice:
            if seat == v.winner:
                return f"takes card #{t.public.stakes[1 - seat]}", theme.GOOD
            return f"loses card #{t.public.stakes[seat]}", theme.BAD
        return "", theme.DIM
    if v.phase is Phase.ANSWER:
        if seat == 0:
            return "waits for the answer", theme.DIM
        return ("ANSWERED", theme.GOLD) if v.locked[seat] else ("answers…", theme.DIM)
    step = {Phase.STAKE: "staking", Phase.CORNER: "picking a corner", Phase.CALL: "calling"}[v.phase]
    return ("LOCKED IN", theme.GOLD) if v.locked[seat] else (f"{step}…", theme.DIM)


def _lost(t: DuelTable, seat: int) -> bool:
    """This seat's staked card went to the winner (a recorded duel, never a practice)."""
    winner = t.public.winner
    return bool(t.result) and not t.practice and winner is not None and seat != winner


def punch_card(
    surf: Canvas,
    text: TextCache,
    rect: pygame.Rect,
    edge: tuple[int, int, int],
    label: str,
    name: str,
    shown: int | None,
    numbers: tuple[int, ...],
    opened: float = 1.0,
) -> None:
    """A Punch Card: card stock with its ``label`` (its serial) and the name written on it, a hole punched
    in each corner (top left, top right, bottom left, bottom right: buttons A–D); the
    ``shown`` corner's hole shows ``numbers`` through it, the others stay dark (their
    numbers are secret).  ``opened`` below 1: the shown hole is still opening, its numbers
    not yet readable.  Drawn at any size (the trade's cards are small): the duel's card,
    :data:`CARD_SIZE`, is the scale."""
    k = rect.width / CARD_SIZE[0]
    small = k < 0.75  # a card in a list: smaller holes, room for the name on two lines
    kh = k * 0.7 if small else k
    margin, hole = round(16 * k), (round(WINDOW[0] * kh), round(WINDOW[1] * kh))
    draw.rect(surf, (0, 0, 0), rect.move(round(6 * k), round(8 * k)), border_radius=round(14 * k))
    draw.rect(surf, PAPER, rect, border_radius=round(14 * k))
    draw.rect(surf, edge, rect, width=max(2, round(5 * k)), border_radius=round(14 * k))
    for corner in range(4):
        window = pygame.Rect(0, 0, *hole)
        x = rect.x + margin if corner % 2 == 0 else rect.right - margin - hole[0]
        y = rect.y + margin if corner < 2 else rect.bottom - margin - hole[1]
        window.topleft = (x, y)
        if corner == shown and opened >= 1:
            _holes_open(surf, text, window, numbers)
        elif corner == shown:  # opening: light grows from the hole's middle
            draw.rect(surf, HOLE, window, border_radius=22)
            light = window.inflate(-round(window.width * (1 - opened)), -round(window.height * (1 - opened)))
            draw.rect(surf, theme.WHITE, light, border_radius=max(2, round(22 * opened)))
        else:  # punched, dark, with the button that picks this corner (where it reads)
            draw.rect(surf, HOLE, window, border_radius=round(22 * k))
            draw.rect(surf, theme.shade(PAPER, 0.6), window, width=max(1, round(3 * k)), border_radius=round(22 * k))
            if not small:
                text.draw(surf, "ABCD"[corner], 40, theme.DIM, window.center, "center", bold=True)
    middle = rect.inflate(round(-24 * k), -2 * (margin + hole[1]) - round(8 * k))
    top = text.draw(surf, label, max(24, round(44 * k)), INK, (middle.centerx, middle.y + 2), "midtop", bold=True)
    if small:
        draw_lines(surf, text, name, 26, INK, (middle.centerx, top.bottom), middle.width, 2)
    else:
        text.draw_fitted(surf, name, round(40 * k), INK, (middle.centerx, top.bottom), middle.width, "midtop", True)


def _holes_open(surf: Canvas, text: TextCache, window: pygame.Rect, numbers: tuple[int, ...]) -> None:
    """The chosen corner's hole with its numbers seen through it, two to a row."""
    draw.rect(surf, theme.WHITE, window, border_radius=22)
    draw.rect(surf, theme.GOLD, window, width=5, border_radius=22)
    rows = [numbers[i : i + 2] for i in range(0, len(numbers), 2)]
    for r, row in enumerate(rows):
        y = window.centery + round((r - (len(rows) - 1) / 2) * 44)
        for c, n in enumerate(row):
            x = window.centerx + round((c - (len(row) - 1) / 2) * 54)
            text.draw(surf, str(n), 44, INK, (x, y), "center", bold=True)


def stamp(surf: Canvas, text: TextCache, words: str, colour: tuple[int, int, int], centre: tuple[int, int]) -> None:
    """A rubber stamp across a card (LOST)."""
    box = pygame.Rect(0, 0, 200, 62)
    box.center = centre
    draw.rect(surf, theme.shade(colour, 1.75), box, border_radius=8)
    draw.rect(surf, colour, box, width=6, border_radius=8)
    text.draw(surf, words, 56, colour, box.center, "center", bold=True)


def deciding_pair(a: tuple[int, ...], b: tuple[int, ...], descending: bool) -> tuple[int, int] | None:
    """The first unequal pair High (``descending``) or Low compares, as (seat 0's number,
    seat 1's); None when every pair was equal."""
    return next(
        ((x, y) for x, y in zip(sorted(a, reverse=descending), sorted(b, reverse=descending), strict=False) if x != y),
        None,
    )


def _comparisons(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: DuelTable, r: Revealed) -> None:
    """Between the cards: who won High and who won Low, with the numbers that decided."""
    names = [n.upper() for n in t.players]
    for i, (label, winner, descending) in enumerate((("HIGH", r.high, True), ("LOW", r.low, False))):
        y = CARD_TOP + 6 + i * 250
        text.draw(surf, label, 36, theme.GOLD, (CENTRE_X, y), "midtop", bold=True)
        pair = deciding_pair(*r.numbers, descending)
        if pair is None or winner is None:
            text.draw(surf, "tied", 36, theme.TEXT, (CENTRE_X, y + 40), "midtop")
            continue
        sign = ">" if pair[0] > pair[1] else "<"
        text.draw(surf, f"{pair[0]} {sign} {pair[1]}", 40, theme.WHITE, (CENTRE_X, y + 40), "midtop", bold=True)
        shown = text.draw(surf, names[winner], 30, s.seats[winner].color, (CENTRE_X, y + 84), "midtop", True, 180)
        live(surf, shown, f"{label} won by")


def _duel_banner(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: DuelTable) -> None:
    """The result once recorded (WINS!, REFUSED, NOT RECORDED), or why the duellists play
    again, in the banner band."""
    v = t.public
    if t.result:
        if v.winner is not None:
            words = f"{t.players[v.winner].upper()} WINS!"
            banner(surf, text, ("PRACTICE: " if t.practice else "") + words, s.seats[v.winner].color)
        else:
            banner(surf, text, t.result[0].upper(), theme.BAD if "NOT" in t.result[0].upper() else theme.PANEL_EDGE)
    elif (
        v.last_reveal is not None
        and v.last_reveal.again is not None
        and v.phase is not Phase.OVER
        and _revealed_at(s) + OPEN_US <= s.now_us
    ):
        banner(surf, text, AGAIN_WORDS[v.last_reveal.again.value].upper(), theme.PANEL_EDGE)


def _duel_footer(surf: Canvas, text: TextCache, t: DuelTable, h: int) -> None:
    """What happens now: the result's details and the way back, the challenge rule while
    answering and staking, or the buttons for this step."""
    w = surf.get_width()
    if t.result:
        words = " · ".join([*t.result[1:3], *(["START: back to the lobby"] if t.leaves else [])])
    elif t.public.phase in (Phase.ANSWER, Phase.STAKE) and t.challenge:
        words = f"{PHASE_WORDS[t.public.phase]}  ·  {t.challenge}"
    else:
        words = PHASE_WORDS[t.public.phase]
    if words:
        shown = text.draw(surf, words, 30, theme.TEXT, (w // 2, FOOTER_Y), "center", max_width=w - 40)
        live(surf, shown, "what happens now")


# -- trades ---------------------------------------------------------------------------------
TRADE_CARD = (168, 220)
TRADE_SHOWN = 6
"""Cards drawn per side (more are counted)."""


def draw_trade(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: TradeTableView) -> None:
    """Each side's offer as the cards themselves (serial and name; their numbers stay
    the holders'), who has confirmed, and what happened."""
    w = surf.get_width()
    surf.fill(theme.BACKGROUND)
    title_bar(surf, text, s.title, f"Trade: {t.players[0]} and {t.players[1]}")
    half = (w - 60) // 2
    for seat in (0, 1):
        rect = pygame.Rect(20 + seat * (half + 20), PLAY_TOP - 64, half, 540)
        look = s.seats[seat]
        panel(surf, rect, theme.shade(look.color, 0.3), look.color)
        who = f"{t.players[seat].upper()} GIVES"
        text.draw(surf, who, 44, look.color, (rect.centerx, rect.y + 30), "center", True, half - 30)
        gives = t.gives[seat]
        cols = 3
        for i, card in enumerate(gives[:TRADE_SHOWN]):
            place = pygame.Rect(0, 0, *TRADE_CARD)
            place.topleft = (
                rect.centerx + (i % cols - 1) * (TRADE_CARD[0] + 22) - TRADE_CARD[0] // 2,
                rect.y + 62 + (i // cols) * (TRADE_CARD[1] + 14),
            )
            punch_card(surf, text, place, look.color, f"#{card.serial}", card.name, None, ())
        if not gives:
            text.draw(surf, "nothing yet", 36, theme.DIM, (rect.centerx, rect.y + 200), "center")
        more = len(gives) - TRADE_SHOWN
        ok = t.confirmed[seat]
        status = ("CONFIRMED" if ok else "not confirmed") + (f"  ·  and {more} more" if more > 0 else "")
        shown = text.draw(
            surf, status, 36, theme.GOOD if ok else theme.DIM, (rect.centerx, rect.bottom - 28), "center", ok
        )
        live(surf, shown, f"{t.players[seat]}'s confirmation")
    if t.message:
        text.draw(surf, t.message, 32, theme.WHITE, (w // 2, 652), "center", max_width=w - 80)
    text.draw(
        surf, "A/B browse · C give/keep · START confirm · E call off", 30, theme.TEXT, (w // 2, FOOTER_Y), "center"
    )


def draw_punch_cards(surf: Canvas, text: TextCache, s: PunchCardsPlay) -> None:
    match s.view:
        case LobbyView() as lobby:
            draw_lobby(surf, text, s, lobby)
        case DuelTable() as duel:
            draw_duel(surf, text, s, duel)
        case TradeTableView() as trade:
            draw_trade(surf, text, s, trade)
        case DuelPublicView() as view:  # an exhibition duel (no ledger): everything shows
            names = (s.seats[0].name, s.seats[1].name)
            result: tuple[str, ...] = ()
            if view.phase is Phase.OVER:
                result = (f"{names[view.winner].upper()} WINS!" if view.winner is not None else "Challenge refused",)
            draw_duel(
                surf,
                text,
                s,
                DuelTable(public=view, players=names, practice=False, challenge="", result=result, waiting=""),
            )
        case unknown:
            assert_never(unknown)
