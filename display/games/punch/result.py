"""Punch!'s result screen: the story of the game, one small stamina chart per match (both
boxers' stamina exchange after exchange, the rounds, the breaks, how it ended).  Drawn
from a frozen :class:`PunchStory` the cabinet tells from the game's journal; registered
as Punch!'s result in ``display.games.registry``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import pygame

from display import draw, theme
from display.canvas import Canvas
from display.models import ResultScreen, StationLook
from display.screens import draw_result, story_frame
from display.text import TextCache
from display.widgets import panel
from games.punch import PunchPublicView
from games.punch.events import MatchEndReason

MAX_STAMINA = 10


@dataclass(frozen=True)
class StaminaPoint:
    """Both boxers' stamina after an exchange (``break_`` True: after a break's rest)."""

    stamina: tuple[int, int]
    break_: bool = False


@dataclass(frozen=True, kw_only=True)
class MatchStamina:
    """One match: stamina from its start (10, 10) through every exchange and break;
    ``rounds_at``: the index in ``points`` where each round after the first began."""

    match: int
    points: tuple[StaminaPoint, ...]
    rounds_at: tuple[int, ...]
    winner: int | None
    """None: a tie (the match was fought again), or a match still on."""
    reason: MatchEndReason | None

    @property
    def exchanges(self) -> int:
        return sum(1 for p in self.points[1:] if not p.break_)


@dataclass(frozen=True)
class PunchStory:
    matches: tuple[MatchStamina, ...]
    match_wins: tuple[int, int]


ENDING = {MatchEndReason.KNOCKOUT: "by knockout", MatchEndReason.STAMINA: "on stamina", MatchEndReason.TIE: "tie"}


PunchResult: TypeAlias = ResultScreen[PunchPublicView, PunchStory]
"""Punch!'s result: the stamina story of each match."""


def draw_punch_result(surf: Canvas, text: TextCache, r: PunchResult) -> None:
    story = r.story
    if story is None or r.final is None:  # a result told without its story: the common screen
        draw_result(surf, text, r)
        return
    seats = r.final.seats
    w, h = surf.get_size()
    story_frame(surf, text, r, f"{len(story.matches)} match{'es' if len(story.matches) != 1 else ''}")
    score = f"{seats[0].name}  {story.match_wins[0]} – {story.match_wins[1]}  {seats[1].name}"
    text.draw(surf, score, 40, theme.WHITE, (w // 2, 186), "center", bold=True)
    charts = pygame.Rect(30, 214, w - 60, h - 262)
    n = len(story.matches)
    cols = n if n <= 3 else -(-n // 2)
    rows = 1 if n <= 3 else 2
    gap = 16
    cw, ch = (charts.width - gap * (cols - 1)) // cols, (charts.height - gap * (rows - 1)) // rows
    for i, match in enumerate(story.matches):
        rect = pygame.Rect(charts.x + (i % cols) * (cw + gap), charts.y + (i // cols) * (ch + gap), cw, ch)
        _match_chart(surf, text, seats, match, rect)


def _match_chart(
    surf: Canvas, text: TextCache, seats: tuple[StationLook, ...], m: MatchStamina, area: pygame.Rect
) -> None:
    """Stamina 0–10 over the exchanges: a line per boxer in their colour, rounds marked."""
    edge = seats[m.winner].color if m.winner is not None else theme.PANEL_EDGE
    panel(surf, area, theme.PANEL, edge, 12)
    big = area.height > 300
    title = f"MATCH {m.match}"
    text.draw(surf, title, 32 if big else 28, theme.GOLD, (area.x + 16, area.y + 22), "midleft", bold=True)
    if m.winner is not None and m.reason is not None:
        verdict, colour = f"{seats[m.winner].name} {ENDING[m.reason]}", seats[m.winner].color
    else:
        verdict, colour = ("tie: fought again" if m.reason is MatchEndReason.TIE else "unfinished"), theme.TEXT
    # under the title, the chart's width: beside it, half a third of the screen cut "CPU 2 · NORMAL by kn…"
    text.draw_fitted(surf, verdict, 28, colour, (area.x + 16, area.y + 54), area.width - 32, "midleft", True)
    plot = pygame.Rect(area.x + 44, area.y + 80, area.width - 64, area.height - 136)
    for level in (0, 5, 10):
        y = plot.bottom - plot.height * level // MAX_STAMINA
        draw.line(surf, theme.PANEL_EDGE, (plot.x, y), (plot.right, y), 1)
        text.draw(surf, str(level), 24, theme.DIM, (plot.x - 8, y), "midright", detail=True)
    last = max(1, len(m.points) - 1)

    def x_of(i: int) -> int:
        return plot.x + round(i * plot.width / last)

    for n, at in enumerate(m.rounds_at, 2):  # round boundaries, named below the plot
        x = x_of(at)
        draw.line(surf, theme.DIM, (x, plot.y), (x, plot.bottom), 1)
        text.draw(surf, f"R{n}", 24, theme.DIM, (x, plot.bottom + 14), "center", detail=True)
    text.draw(surf, "R1", 24, theme.DIM, (plot.x, plot.bottom + 14), "midleft", detail=True)
    for seat in (1, 0):
        look = seats[seat]
        offset = -2 if seat == 0 else 2  # equal stamina: both lines stay visible
        points = [
            (x_of(i), plot.bottom - round(p.stamina[seat] * plot.height / MAX_STAMINA) + offset)
            for i, p in enumerate(m.points)
        ]
        if len(points) > 1:
            draw.lines(surf, look.color, False, points, 4)
        end = points[-1]
        draw.circle(surf, look.color, end, 7)
    text.draw(surf, f"{m.exchanges} exchanges", 28, theme.DIM, (area.x + 16, area.bottom - 18), "midleft")
    x = area.right - 16  # the final stamina, each in its boxer's colour, right to left
    for words, colour in (
        (str(m.points[-1].stamina[1]), seats[1].color),
        (" – ", theme.TEXT),
        (str(m.points[-1].stamina[0]), seats[0].color),
        ("stamina ", theme.DIM),
    ):
        x = text.draw(surf, words, 28, colour, (x, area.bottom - 18), "midright", bold=colour != theme.DIM).left
