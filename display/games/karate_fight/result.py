"""Karate Fight's result screen: the story of the fight.  Every Hit's reaction times as a
chart (who was fastest, Hit after Hit), each fighter's best, and the fastest-slap records
ever and today.  Drawn from a frozen :class:`KarateStory` the cabinet tells from the
fight's journal and its store; registered as Karate Fight's result in ``display.games.registry``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import pygame

from display import draw, theme
from display.canvas import Canvas
from display.games.karate_fight.photo_finish import duration
from display.layout import MIN_SIZE
from display.models import ResultScreen, StationLook
from display.screens import draw_result, story_frame
from display.text import TextCache
from display.widgets import panel, seat_name
from games.karate_fight import HitKind, KaratePublicView


@dataclass(frozen=True)
class HitLine:
    """One Hit of the fight: ``reactions`` (fighter, µs from the reveal), fastest first:
    the winning slap(s) and every late slap inside the grace."""

    number: int
    hit: HitKind
    winner: int | None
    """None: a dead heat (``jan_ken_winner`` then took the Hit)."""
    reactions: tuple[tuple[int, int], ...]
    jan_ken_winner: int | None = None


@dataclass(frozen=True)
class FastSlap:
    """A fastest-slap record: who (the station's name), the reaction, and whether this
    fight set it."""

    who: str
    reaction_us: int
    this_game: bool


@dataclass(frozen=True, kw_only=True)
class KarateStory:
    hits: tuple[HitLine, ...]
    best: tuple[int | None, ...]
    """Per fighter: the fastest reaction of the fight (None: never slapped a Hit)."""
    cowards_blows: tuple[int, ...]
    fastest_ever: tuple[FastSlap, ...]
    fastest_today: tuple[FastSlap, ...]
    counted: bool
    """False: a computer fought, so this fight's slaps are not in the records."""

    def hits_won(self, fighter: int) -> int:
        return sum(1 for h in self.hits if fighter in (h.winner, h.jan_ken_winner))


CHART_HITS = 40
"""Hits on the chart at most (the latest): more would not read from two metres."""
CHART_CAP_US = 1_600_000
"""Reactions slower than this are drawn at the chart's top edge (a Hit left showing)."""


KarateResult: TypeAlias = ResultScreen[KaratePublicView, KarateStory]
"""Karate Fight's result: the reactions per Hit."""


def draw_karate_result(surf: Canvas, text: TextCache, r: KarateResult) -> None:
    story = r.story
    if story is None or r.final is None:  # a result told without its story: the common screen
        draw_result(surf, text, r)
        return
    seats = r.final.seats
    story_frame(surf, text, r, f"{len(story.hits)} Hits")
    _chart(surf, text, seats, story, pygame.Rect(30, 176, 800, 336))
    _bests(surf, text, seats, story, pygame.Rect(850, 176, 400, 336))
    _records(surf, text, "FASTEST EVER", story.fastest_ever, pygame.Rect(30, 526, 600, 152))
    _records(surf, text, "FASTEST TODAY", story.fastest_today, pygame.Rect(650, 526, 600, 152))


def _chart(
    surf: Canvas, text: TextCache, seats: tuple[StationLook, ...], story: KarateStory, area: pygame.Rect
) -> None:
    """Reaction (ms) per Hit: a dot per fighter who slapped it, the winner's ringed white."""
    panel(surf, area, theme.PANEL, theme.PANEL_EDGE, 12)
    text.draw(surf, "REACTION PER HIT", 30, theme.GOLD, (area.x + 18, area.y + 24), "midleft", bold=True)
    plot = pygame.Rect(area.x + 70, area.y + 56, area.width - 96, area.height - 100)
    if not story.hits:
        text.draw(surf, "no Hit was slapped", 36, theme.DIM, plot.center, "center")
        return
    hits = story.hits[-CHART_HITS:]
    scope = (
        "ms after the card showed"
        if len(hits) == len(story.hits)
        else f"ms · the last {len(hits)} of {len(story.hits)} Hits"
    )
    text.draw(surf, scope, 28, theme.DIM, (area.right - 18, area.y + 24), "midright")
    slowest = max(us for line in hits for _f, us in line.reactions)
    top = _nice_ceiling(min(slowest, CHART_CAP_US))
    for i in range(5):
        value = top * i // 4
        y = plot.bottom - plot.height * i // 4
        draw.line(surf, theme.PANEL_EDGE, (plot.x, y), (plot.right, y), 1)
        text.draw(surf, f"{value // 1000}", 24, theme.DIM, (plot.x - 10, y), "midright", detail=True)
    n, first = len(hits), hits[0].number

    def x_of(number: int) -> int:
        return plot.x + round((number - first + 0.5) * plot.width / n)

    def y_of(us: int) -> int:
        return plot.bottom - round(min(us, top) * plot.height / top)

    for fighter, look in enumerate(seats):  # each fighter's thread through the Hits they slapped
        points = [(x_of(line.number), y_of(us)) for line in hits for f, us in line.reactions if f == fighter]
        if len(points) > 1:
            draw.lines(surf, theme.shade(look.color, 0.7), False, points, 2)
    radius = max(5, min(11, plot.width // (3 * n)))
    for line in hits:
        for fighter, us in reversed(line.reactions):  # the fastest drawn last, on top
            centre = (x_of(line.number), y_of(us))
            won = fighter == line.winner or (line.winner is None and us == line.reactions[0][1])
            if won:
                draw.circle(surf, theme.WHITE, centre, radius + 3)
            draw.circle(surf, seats[fighter].color, centre, radius if won else radius - 2)
    step = max(1, -(-n // 12))
    for number in range(first, first + n, step):
        text.draw(surf, str(number), 24, theme.DIM, (x_of(number), plot.bottom + 16), "center", detail=True)
    text.draw(surf, "Hit", 24, theme.DIM, (plot.x - 10, plot.bottom + 16), "midright", detail=True)


def _nice_ceiling(us: int) -> int:
    """The smallest chart top (its quarters round ms) at least ``us``."""
    for step in (200_000, 400_000, 600_000, 800_000, 1_000_000, 1_200_000, 1_600_000):
        if us <= step:
            return step
    return us


def _bests(
    surf: Canvas, text: TextCache, seats: tuple[StationLook, ...], story: KarateStory, area: pygame.Rect
) -> None:
    """Each fighter's best reaction of the fight, Hits won and Coward's Blows."""
    panel(surf, area, theme.PANEL, theme.PANEL_EDGE, 12)
    text.draw(surf, "BEST SLAP", 30, theme.GOLD, (area.x + 18, area.y + 24), "midleft", bold=True)
    row = min(70, (area.height - 90) // max(1, len(story.best)))
    for fighter, best in enumerate(story.best):
        look = seats[fighter]
        y = area.y + 52 + fighter * row
        name = seat_name(surf, text, look.name.upper(), MIN_SIZE, 150)  # "CPU · NORMAL" was cut: "CPU"
        text.draw_fitted(surf, name, 34, look.color, (area.x + 18, y + 18), 150, "midleft", True)
        time = duration(best) if best is not None else "—"
        text.draw(surf, time, 38, theme.WHITE, (area.right - 18, y + 18), "midright", bold=True)
        won = story.hits_won(fighter)
        blows = story.cowards_blows[fighter]
        tally = f"{won} Hit{'s' if won != 1 else ''} won" + (
            f" · {blows} coward's blow{'s' if blows != 1 else ''}" if blows else ""
        )
        text.draw(surf, tally, 28, theme.DIM, (area.x + 18, y + 46), "midleft")
    if not story.counted:
        note = "against the computer: not in the records"
        text.draw_fitted(surf, note, 28, theme.GOLD, (area.centerx, area.bottom - 20), area.width - 30, "center")


def _records(surf: Canvas, text: TextCache, title: str, records: tuple[FastSlap, ...], area: pygame.Rect) -> None:
    panel(surf, area, theme.PANEL, theme.PANEL_EDGE, 12)
    text.draw(surf, title, 30, theme.GOLD, (area.x + 18, area.y + 24), "midleft", bold=True)
    text.draw(surf, "people only", 28, theme.DIM, (area.right - 18, area.y + 24), "midright")
    if not records:
        text.draw(surf, "no slap recorded yet", 30, theme.DIM, (area.centerx, area.y + 90), "center")
        return
    for i, rec in enumerate(records):
        y = area.y + 62 + i * 32
        colour = theme.GOLD if rec.this_game else theme.TEXT
        text.draw(surf, f"{i + 1}.", 30, theme.DIM, (area.x + 18, y), "midleft")
        text.draw_fitted(surf, rec.who, 30, colour, (area.x + 60, y), 220, "midleft", True)
        text.draw(surf, duration(rec.reaction_us), 30, colour, (area.x + 300, y), "midleft", bold=rec.this_game)
        if rec.this_game:
            text.draw(surf, "this fight!", 28, theme.GOLD, (area.right - 18, y), "midright", bold=True)
