"""The cabinet's non-game scenes: attract, game select, join, options, result, service."""

from __future__ import annotations

import pygame

from display import draw, theme
from display.canvas import Canvas, segment
from display.games import registry
from display.models import (
    AnyResultScreen,
    AttractBoard,
    AttractScreen,
    DemoScreen,
    JoinScreen,
    OptionsScreen,
    SelectScreen,
    ServiceScreen,
    StationLook,
)
from display.qr import draw_qr
from display.text import TextCache
from display.widgets import banner, key_hint, panel, title_bar


def draw_attract(surf: Canvas, text: TextCache, s: AttractScreen) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    _attract_card(surf, text, s.games, s.featured, s.stations, s.board)
    if s.blink:
        text.draw(surf, "PRESS  START", 72, theme.WHITE, (w // 2, h - 110), "center", bold=True)
    for i, line in enumerate(s.recent[:3]):  # the ticker: read from where people stand
        text.draw(surf, line, 30, theme.TEXT, (24, 20 + i * 32))


@segment
def _attract_card(
    surf: Canvas,
    text: TextCache,
    games: tuple[str, ...],
    featured: int,
    stations: tuple[StationLook, ...],
    board: AttractBoard | None,
) -> None:
    """The title card under PRESS START and the ticker (a segment: it changes only with
    the featured game and the board)."""
    w, h = surf.get_size()
    for i, look in enumerate(stations):
        draw.rect(surf, theme.shade(look.color, 0.35), (i * w // len(stations), h - 18, w // len(stations), 18))
    text.draw(surf, "RINGSIDE", 150, theme.GOLD, (w // 2, 150), "center", bold=True)
    text.draw(surf, "four fighting card games · face to face", 38, theme.DIM, (w // 2, 235), "center")
    row = min(62, 228 // len(games))  # closer rows for more games: clear of PRESS START
    box = pygame.Rect(0, 0, 760 if board is None else 520, 80 + row * len(games))
    box.center = (w // 2, 420) if board is None else (w // 4 + 10, 420)
    panel(surf, box)
    if board is not None:
        draw_board(surf, text, board, pygame.Rect(box.right + 40, 286, w - box.right - 80, 270))
        if board.qr:  # top right, clear of the title
            draw_qr(surf, board.qr, (w - 196, 12, 184, 184))
            for i, line in enumerate(("standings", "on your phone")):
                text.draw_fitted(surf, line, 28, theme.DIM, (w - 104, 198 + 30 * i), 190, "midtop")
    for i, title in enumerate(games):
        y = box.y + 60 + i * row
        color = theme.GOLD if i == featured else theme.TEXT
        text.draw(surf, title, 56 if i == featured else 46, color, (box.centerx, y), "center", bold=i == featured)


def draw_board(surf: Canvas, text: TextCache, board: AttractBoard, rect: pygame.Rect) -> None:
    """A game's live table (a leaderboard): narrow columns at the sides, the second
    column (a name) takes the rest; every cell is fitted to its column."""
    panel(surf, rect)
    text.draw_fitted(surf, board.title, 40, theme.GOLD, (rect.centerx, rect.y + 26), rect.width - 30, "center", True)
    ncol = max(len(board.header), max((len(r) for r in board.rows), default=0))
    narrow = 76
    column = [narrow, rect.width - 30 - narrow * (ncol - 1)] + [narrow] * (ncol - 2)
    xs = [rect.x + 15 + sum(column[:i]) for i in range(ncol)]

    def widths(i: int) -> int:
        return column[i] - 8

    for i, cell in enumerate(board.header):
        text.draw_fitted(surf, cell, 28, theme.DIM, (xs[i], rect.y + 50), widths(i))
    for r, row in enumerate(board.rows[:5]):
        y = rect.y + 80 + r * 32
        for i, cell in enumerate(row):
            text.draw_fitted(surf, cell, 32, theme.WHITE if i == 1 else theme.TEXT, (xs[i], y), widths(i))
    if board.note:
        text.draw_fitted(surf, board.note, 28, theme.DIM, (rect.x + 15, rect.bottom - 30), rect.width - 30)


DEMO_BAND = 64
"""Height of the band under a demo game."""


def draw_demo(surf: Canvas, text: TextCache, s: DemoScreen) -> None:
    """The demo game as it plays, whole but a little smaller, above a band that says
    DEMO, the game, and PRESS START blinking: the band hides nothing of the game."""
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    # drawn again only when the game moved: PRESS START blinks twice a second over a still game
    _demo_game(surf).again(registry.screens(s.play.game).play, text, s.play)
    draw.line(surf, theme.GOLD, (0, h - DEMO_BAND), (w, h - DEMO_BAND), 3)
    y = h - DEMO_BAND // 2
    text.draw(surf, f"DEMO · {s.title}", 34, theme.GOLD, (24, y), "midleft", bold=True)
    if s.blink:
        text.draw(surf, "PRESS  START", 44, theme.WHITE, (w - 24, y), "midright", bold=True)


def _demo_game(surf: Canvas) -> Canvas:
    """Where a demo's game is drawn: the screen above the band, shrunk."""
    w, h = surf.get_size()
    return surf.inset((0, 0, w, h - DEMO_BAND))


def draw_demo_foreseen(surf: Canvas, text: TextCache, s: DemoScreen, part: int) -> bool:
    """Part ``part`` of what the demo's game may show beyond its first states, drawn where
    the demo draws its game (``foreseen`` of its screens: :mod:`display.ahead`'s planning
    only); False when there is no such part."""
    foreseen = registry.screens(s.play.game).foreseen
    return foreseen is not None and foreseen(_demo_game(surf), text, s.play, part)


def draw_select(surf: Canvas, text: TextCache, s: SelectScreen) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    title_bar(surf, text, "RINGSIDE", "Choose a game", f"{s.host.name} chooses")
    pitch = min(150, (h - 190) // len(s.games))  # more games, slimmer cards: clear of the key hints
    card_h = pitch - 22
    for i, (title, blurb) in enumerate(zip(s.games, s.blurbs, strict=True)):
        rect = pygame.Rect(140, 110 + i * pitch, w - 280, card_h)
        chosen = i == s.cursor
        panel(
            surf,
            rect,
            theme.shade(s.host.color, 0.45) if chosen else theme.PANEL,
            theme.GOLD if chosen else theme.PANEL_EDGE,
        )
        text.draw(
            surf,
            title,
            72,
            theme.WHITE if chosen else theme.TEXT,
            (rect.x + 40, rect.y + card_h * 44 // 128),
            "midleft",
            bold=True,
        )
        text.draw(
            surf, blurb, 32, theme.TEXT if chosen else theme.DIM, (rect.x + 40, rect.y + card_h * 96 // 128), "midleft"
        )
    x = key_hint(surf, text, "A", "previous", (140, h - 44))
    x = key_hint(surf, text, "B", "next", (x, h - 44))
    key_hint(surf, text, "S", "START: play", (x, h - 44))


def draw_join(surf: Canvas, text: TextCache, s: JoinScreen) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    players = (
        f"{s.min_players} players" if s.min_players == s.max_players else f"{s.min_players}–{s.max_players} players"
    )
    title_bar(surf, text, s.game, "Join the fight", players)
    n = len(s.stations)
    cw = (w - 80) // n
    computers = s.computers or (False,) * n
    for i, (look, joined, computer) in enumerate(zip(s.stations, s.joined, computers, strict=True)):
        rect = pygame.Rect(40 + i * cw + 12, 130, cw - 24, 380)
        panel(surf, rect, theme.shade(look.color, 0.55) if joined else theme.PANEL, look.color)
        name, _, level = look.name.partition(" · ")
        text.draw(
            surf,
            name.upper(),
            80,
            theme.WHITE if joined else look.color,
            (rect.centerx, rect.y + 90),
            "center",
            bold=True,
        )
        if computer:  # its name tag ("CPU · NORMAL") as every screen writes it: the name above, the level
            text.draw(surf, level, 56, theme.GOLD, (rect.centerx, rect.y + 190), "center", bold=True)
            continue
        state = "READY!" if joined else "press START"
        text.draw(
            surf,
            state,
            56 if joined else 44,
            theme.GOLD if joined else theme.DIM,
            (rect.centerx, rect.y + 250),
            "center",
            bold=joined,
        )
    count = sum(s.joined)
    if count >= s.min_players and (s.max_players > s.min_players or any(computers)):
        msg = f"{s.host.name}: press A to start with {count}"
    else:
        msg = f"waiting for {s.min_players - count} more" if count < s.min_players else "starting…"
    text.draw(surf, msg, 48, theme.TEXT, (w // 2, h - 150 if s.offers_computer else h - 110), "center")
    if s.offers_computer:
        x = key_hint(surf, text, "B", "computer player", (140, h - 60))
        if any(computers):
            x = key_hint(surf, text, "C", "level", (x, h - 60))
            key_hint(surf, text, "D", "no computer", (x, h - 60))


def draw_options(surf: Canvas, text: TextCache, s: OptionsScreen) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    title_bar(surf, text, s.game, "Rules for this fight", f"{s.host.name} chooses")
    top, pitch = (130, 120) if len(s.items) <= 4 else (84, (h - 160) // len(s.items))  # clear of the key hints
    row_h = pitch * 4 // 5
    label_size, value_size = min(48, row_h * 2 // 3), min(56, row_h * 3 // 4)
    for i, (label, value) in enumerate(s.items):
        rect = pygame.Rect(200, top + i * pitch, w - 400, row_h)
        chosen = i == s.cursor
        panel(
            surf,
            rect,
            theme.shade(s.host.color, 0.45) if chosen else theme.PANEL,
            theme.GOLD if chosen else theme.PANEL_EDGE,
        )
        text.draw(surf, label, label_size, theme.TEXT, (rect.x + 36, rect.centery), "midleft")
        text.draw(
            surf,
            value,
            value_size,
            theme.GOLD if chosen else theme.WHITE,
            (rect.right - 36, rect.centery),
            "midright",
            bold=True,
        )
    x = 200
    if len(s.items) > 1:  # one rule: A would do nothing, so it is not offered
        x = key_hint(surf, text, "A", "next rule", (x, h - 44))
    x = key_hint(surf, text, "B", "change", (x, h - 44))
    key_hint(surf, text, "S", "START: fight!", (x, h - 44))


def story_frame(surf: Canvas, text: TextCache, r: AnyResultScreen, count: str) -> None:
    """What every result told with its story shares: the winner's tint, the title bar
    (``count``: matches, Hits…), the headline banner and PRESS START at the foot; the game
    draws its story between y 160 and 690."""
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND if r.winner is None else theme.shade(r.winner.color, 0.22))
    title_bar(surf, text, r.game, "Result", count)
    banner(surf, text, r.headline, r.winner.color if r.winner else theme.PANEL_EDGE, pygame.Rect(0, 78, w, 80), 64)
    text.draw(surf, "press START", 30, theme.DIM, (w // 2, h - 22), "center")


def draw_result(surf: Canvas, text: TextCache, s: AnyResultScreen) -> None:
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND if s.winner is None else theme.shade(s.winner.color, 0.3))
    title_bar(surf, text, s.game, "Result")
    band = pygame.Rect(0, 170, w, 120)
    banner(surf, text, s.headline, s.winner.color if s.winner else theme.PANEL_EDGE, band, 110)
    for i, line in enumerate(s.lines[:8]):
        text.draw(surf, line, 40, theme.TEXT, (w // 2, 370 + i * 46), "center")
    text.draw(surf, "press START", 36, theme.DIM, (w // 2, h - 40), "center")


SERVICE_LINE = 27
"""Pitch of the service page's body lines: as many as fit in its panel, the rest counted."""


def draw_service(surf: Canvas, text: TextCache, s: ServiceScreen) -> None:
    w, h = surf.get_size()
    surf.fill((8, 20, 12))
    title_bar(surf, text, "SERVICE", s.title, "operator")
    pitch = min(64, (h - 160) // max(1, len(s.items)))  # a long menu closes up, clear of the footer
    for i, item in enumerate(s.items):
        chosen = i == s.cursor
        rect = pygame.Rect(30, 90 + i * pitch, 360, pitch - 10)
        panel(surf, rect, (30, 90, 50) if chosen else theme.PANEL, theme.GOLD if chosen else theme.PANEL_EDGE, 10)
        size = min(36, pitch * 3 // 5)
        color = theme.WHITE if chosen else theme.TEXT
        text.draw(surf, item, size, color, (rect.x + 20, rect.centery), "midleft", max_width=rect.width - 30)
    body = pygame.Rect(420, 90, w - 450, h - 160)
    panel(surf, body, (10, 14, 12), theme.PANEL_EDGE, 10)
    fit = (body.height - 24) // SERVICE_LINE
    shown = s.body if len(s.body) <= fit else (*s.body[: fit - 1], f"… {len(s.body) - fit + 1} more")
    for i, line in enumerate(shown):
        at = (body.x + 18, body.y + 16 + i * SERVICE_LINE)  # a long line (a folder's path) smaller, in the panel
        text.draw(surf, line, 28, (190, 255, 200), at, max_width=body.width - 36)
    text.draw(surf, s.footer, 28, theme.DIM, (30, h - 36), "midleft")
