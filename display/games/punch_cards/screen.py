"""Punch Cards on the main display: the lobby (a desk per station, the leaders), the duel
table (stakes, who has chosen, the numbers seen "through the holes" at each reveal, the
challenge rule, the result once recorded) and the trade table.  Every name is drawn
fitted to its place: the ledger holds whatever names the rules accept, from any cabinet.
Registers Punch Cards' screens (this and the private layout) with ``display.games.registry``.
"""

from __future__ import annotations

import pygame

from display import draw, theme
from display.art import Pose, Style, draw_figure
from display.canvas import Canvas
from display.games.punch_cards.models import DeskStep, DeskView, DuelTable, LobbyView, PunchCardsPlay, TradeTableView
from display.text import TextCache
from display.widgets import banner, panel, paused_overlay
from games.punch_cards import Call, DuelPublicView, Phase, Revealed

CORNER_WORDS = ("top left", "top right", "bottom left", "bottom right")
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


def title(surf: Canvas, text: TextCache, centre: str, right: str, right_color: tuple[int, int, int]) -> None:
    w = surf.get_width()
    draw.rect(surf, theme.PANEL, (0, 0, w, 64))
    draw.line(surf, theme.GOLD, (0, 64), (w, 64), 3)
    left = text.draw(surf, "PUNCH CARDS", 52, theme.GOLD, (24, 32), "midleft", bold=True)
    if centre:
        text.draw_fitted(surf, centre, 36, theme.TEXT, (left.right + 30, 32), 480, "midleft")
    if right:
        text.draw_fitted(surf, right, 30, right_color, (w - 24, 32), w - left.right - 560, "midright")


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
        cell = min(38, inner // max(len(r) for r in kb.rows))
        top = y + 56
        for r, row in enumerate(kb.rows):
            x0 = cx - cell * len(row) // 2
            for c, char in enumerate(row):
                box = pygame.Rect(x0 + c * cell, top + r * (cell + 4), cell - 2, cell)
                chosen = (r, c) == (kb.row, kb.col)
                draw.rect(surf, theme.GOLD if chosen else theme.PANEL_EDGE, box, border_radius=5)
                ink = theme.BACKGROUND if chosen else theme.TEXT
                label, size = ("space", cell // 2) if char == " " else (char, cell - 8)
                text.draw(surf, label, size, ink, box.center, "center", bold=chosen)
    elif d.step in (DeskStep.PIN, DeskStep.NEW_PIN, DeskStep.REPEAT_PIN):
        text.draw_fitted(surf, d.player, 44, theme.WHITE, (cx, y), inner, "midtop", True)
        prompt = {DeskStep.PIN: "PIN", DeskStep.NEW_PIN: "choose a PIN", DeskStep.REPEAT_PIN: "the PIN again"}
        text.draw(surf, prompt[d.step], 32, theme.DIM, (cx, y + 60), "midtop")
        for i in range(4):
            centre = (cx + (i - 1.5) * 54, y + 140)
            draw.circle(surf, theme.GOLD, centre, 18, 0 if i < d.pin_length else 3)
        text.draw(surf, "on your private display", 26, theme.DIM, (cx, y + 180), "midtop")
    else:
        text.draw_fitted(surf, d.player, 52, theme.WHITE, (cx, y), inner, "midtop", True)
        text.draw(
            surf,
            f"{d.cards} cards · {d.points} point{'s' if d.points != 1 else ''}",
            34,
            theme.GOLD,
            (cx, y + 62),
            "midtop",
        )
    hint_y = rect.bottom - 28 * len(d.hints) - 8
    if d.message:
        color = theme.BAD if d.bad else theme.GOOD
        draw_lines(surf, text, d.message, 28, color, (cx, hint_y - 66), inner, 2)
    if active or d.step is DeskStep.IDLE:
        for i, hint in enumerate(d.hints if active else ()):
            text.draw_fitted(surf, hint, 26, theme.DIM, (cx, hint_y + i * 28), inner, "midtop")


def draw_lobby(surf: Canvas, text: TextCache, s: PunchCardsPlay, v: LobbyView) -> None:
    w = surf.get_width()
    surf.fill(theme.BACKGROUND)
    bad = "CLOSED" in v.status or "unreachable" in v.status
    title(surf, text, "Sign in · duel · collect names", v.status, theme.BAD if bad else theme.DIM)
    n = len(v.desks)
    cw = (w - 40) // n
    for i, desk in enumerate(v.desks):
        draw_desk(surf, text, desk, pygame.Rect(20 + i * cw + 8, 80, cw - 16, 500))
    strip = pygame.Rect(20, 592, w - 40, 116)
    panel(surf, strip)
    text.draw(surf, "LEADERS", 30, theme.GOLD, (strip.x + 16, strip.y + 12))
    slot = (strip.width - 32) // 5
    for i, st in enumerate(v.board[:5]):
        x = strip.x + 16 + i * slot
        text.draw_fitted(surf, f"{st.rank}. {st.name}", 32, theme.WHITE, (x, strip.y + 46), slot - 12)
        text.draw(surf, f"{st.points} pts · {st.cards} cards", 24, theme.DIM, (x, strip.y + 80))
    if not v.board:
        text.draw(surf, "nobody yet: be the first", 28, theme.DIM, (strip.x + 16, strip.y + 50))


# -- the duel -------------------------------------------------------------------------------
def draw_reveal(surf: Canvas, text: TextCache, r: Revealed, names: tuple[str, str], rect: pygame.Rect) -> None:
    panel(surf, rect, (20, 22, 34))
    text.draw(surf, f"REVEAL {r.play}: through the holes", 30, theme.GOLD, (rect.centerx, rect.y + 10), "midtop")
    half = rect.width // 2
    for seat in (0, 1):
        cx = rect.x + half // 2 + seat * half
        who = f"{names[seat]}: {CORNER_WORDS[r.corners[seat].value]}"
        text.draw_fitted(surf, who, 28, theme.TEXT, (cx, rect.y + 46), half - 30, "midtop")
        nums = r.numbers[seat]
        for i, n in enumerate(nums):
            x = cx + int((i - (len(nums) - 1) / 2) * 68)
            draw.circle(surf, (240, 232, 200), (x, rect.y + 118), 29)
            text.draw(surf, str(n), 36, theme.BACKGROUND, (x, rect.y + 118), "center", bold=True)
        text.draw(surf, CALL_WORDS[r.calls[seat]], 40, theme.GOLD, (cx, rect.y + 158), "midtop", bold=True)
    if r.again is not None:
        text.draw(surf, AGAIN_WORDS[r.again.value], 32, theme.WHITE, (rect.centerx, rect.bottom - 30), "center")
    else:
        parts = []
        if r.high is not None:
            parts.append(f"High: {names[r.high]}")
        if r.low is not None:
            parts.append(f"Low: {names[r.low]}")
        text.draw_fitted(
            surf, "   ".join(parts), 30, theme.WHITE, (rect.centerx, rect.bottom - 30), rect.width - 40, "center"
        )


def draw_duel(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: DuelTable) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    v = t.public
    right = "START: back to the lobby" if t.result else ""
    title(
        surf,
        text,
        f"{t.players[0]} challenges {t.players[1]}",
        "PRACTICE" if t.practice else right,
        theme.BAD if t.practice else theme.DIM,
    )
    if t.practice:
        text.draw(surf, "PRACTICE", 150, (40, 40, 58), (w // 2, h // 2), "center", bold=True)
    half = (w - 60) // 2
    for seat in (0, 1):
        rect = pygame.Rect(20 + seat * (half + 20), 80, half, 150)
        look = s.seats[seat]
        panel(surf, rect, theme.shade(look.color, 0.3), look.color)
        text.draw_fitted(surf, t.players[seat], 48, theme.WHITE, (rect.centerx, rect.y + 14), half - 30, "midtop", True)
        if v.stakes is not None and v.stake_names is not None:
            stake = f"stakes card #{v.stakes[seat]} ({v.stake_names[seat]})"
            text.draw_fitted(surf, stake, 30, theme.TEXT, (rect.centerx, rect.y + 70), half - 30, "midtop")
        if v.phase is not Phase.OVER:
            done = v.locked[seat]
            words = "chosen" if done else ("answers…" if v.phase is Phase.ANSWER and seat == 1 else "choosing…")
            if v.phase is Phase.ANSWER and seat == 0:
                words = "waits"
            text.draw(surf, words, 32, theme.GOOD if done else theme.DIM, (rect.centerx, rect.y + 112), "midtop")
    phase = PHASE_WORDS[v.phase] + (f"   (play {v.play})" if v.play > 1 and v.phase is not Phase.OVER else "")
    if phase:
        text.draw_fitted(surf, phase, 36, theme.WHITE, (w // 2, 244), w - 80, "midtop")
    if v.last_reveal is not None:
        draw_reveal(surf, text, v.last_reveal, t.players, pygame.Rect(140, 284, w - 280, 250))
    for seat in (0, 1):  # the two duellists face each other across the table
        stand = pygame.Rect(10 if seat == 0 else w - 130, 330, 120, 150)
        draw_figure(surf, stand, s.seats[seat].color, _duellist_pose(t, seat), Style.BOXER, facing_right=seat == 0)
    if t.result:
        color = s.seats[v.winner].color if v.winner is not None else theme.PANEL_EDGE
        banner(surf, text, t.result[0], color, pygame.Rect(0, 546, w, 78), 60)
        y = 632
        for line in t.result[1:3]:
            y = draw_lines(surf, text, line, 32, theme.WHITE, (w // 2, y), w - 120, 1)
    else:
        draw_lines(surf, text, t.challenge, 26, theme.DIM, (w // 2, 600), w - 80, 2)
    if t.waiting:
        paused_overlay(surf, text, "")
        draw_lines(surf, text, t.waiting, 34, theme.WHITE, (w // 2, h // 2 + 40), w - 120, 3)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _duellist_pose(t: DuelTable, seat: int) -> Pose:
    """Ready while the duel runs; once the ledger has recorded it, the winner's arms go up
    and the loser reels (a void or a draw: both stay ready)."""
    winner = t.public.winner
    if not t.result or winner is None:
        return Pose.READY
    return Pose.WIN if seat == winner else Pose.HIT


# -- trades ---------------------------------------------------------------------------------
def draw_trade(surf: Canvas, text: TextCache, s: PunchCardsPlay, t: TradeTableView) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    title(surf, text, f"Trade: {t.players[0]} and {t.players[1]}", "", theme.DIM)
    half = (w - 60) // 2
    for seat in (0, 1):
        rect = pygame.Rect(20 + seat * (half + 20), 80, half, 480)
        look = s.seats[seat]
        panel(surf, rect, theme.shade(look.color, 0.3), look.color)
        text.draw_fitted(
            surf, f"{t.players[seat]} gives", 44, theme.WHITE, (rect.centerx, rect.y + 14), half - 30, "midtop", True
        )
        for i, card in enumerate(t.gives[seat][:9]):
            text.draw_fitted(
                surf, f"#{card.serial}  {card.name}", 32, theme.TEXT, (rect.x + 24, rect.y + 80 + i * 38), half - 48
            )
        if len(t.gives[seat]) > 9:
            text.draw(surf, f"… and {len(t.gives[seat]) - 9} more", 28, theme.DIM, (rect.x + 24, rect.y + 80 + 9 * 38))
        ok = t.confirmed[seat]
        text.draw(
            surf,
            "CONFIRMED" if ok else "not confirmed",
            36,
            theme.GOOD if ok else theme.DIM,
            (rect.centerx, rect.bottom - 44),
            "midtop",
            bold=ok,
        )
    if t.message:
        draw_lines(surf, text, t.message, 32, theme.WHITE, (w // 2, 580), w - 80, 2)
    text.draw(surf, "A/B browse · C give/keep · START confirm · E call off", 28, theme.DIM, (w // 2, h - 30), "center")


def draw_punch_cards(surf: Canvas, text: TextCache, s: PunchCardsPlay) -> None:
    view = s.view
    if isinstance(view, LobbyView):
        draw_lobby(surf, text, s, view)
    elif isinstance(view, DuelTable):
        draw_duel(surf, text, s, view)
    elif isinstance(view, TradeTableView):
        draw_trade(surf, text, s, view)
    elif isinstance(view, DuelPublicView):  # an exhibition duel (no ledger): everything shows
        names = (s.seats[0].name, s.seats[1].name)
        result: tuple[str, ...] = ()
        if view.phase is Phase.OVER:
            result = (f"{names[view.winner]} wins" if view.winner is not None else "Challenge refused",)
        draw_duel(
            surf,
            text,
            s,
            DuelTable(public=view, players=names, practice=False, challenge="", result=result, waiting=""),
        )
    else:
        raise TypeError(f"no Punch Cards screen for {type(view).__name__}")
