"""Karate Fight's photo finish: after a Hit, a time strip from its reveal with every
fighter's slap marked to the microsecond, the winning margin, the Coward's Blows and the
grace where they fell.  Players argue about close calls; this shows them.

Drawn from a frozen :class:`PhotoFinish` the cabinet builds from the engine's events (the
stamps are game data); this module only decides how it looks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import pygame

from display import draw, theme
from display.canvas import Canvas, live
from display.models import StationLook
from display.text import TextCache
from display.widgets import panel, seat_name
from games.karate_fight import HitKind

SHOW_US = 4_000_000
"""How long after the winning slap the photo finish stays up (a new Hit showing ends it)."""


STEPS_US = (10_000, 25_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000)
"""Tick spacings for the strip's time axis: the finest that gives at most six ticks."""


class SlapVerdict(Enum):
    """What one slap on the strip was judged to be."""

    WON = "won"
    DEAD_HEAT = "dead heat"
    LATE = "late"
    """Inside the grace after the winning slap: ignored, but timed (the runner-up)."""
    TOO_SOON = "too soon"
    """A Coward's Blow while the Hit's card was played but not yet on screen."""
    COWARD = "coward's blow"
    """A Coward's Blow after the grace: too late for this Hit."""


@dataclass(frozen=True)
class SlapMark:
    """One slap: ``at_us`` from the reveal (negative: before the card was on screen)."""

    fighter: int
    at_us: int
    verdict: SlapVerdict
    cards_paid: int = 0


@dataclass(frozen=True, kw_only=True)
class PhotoFinish:
    """The last Hit judged, as a strip of stamps relative to its reveal.

    ``won_at_us``: the winning slap (the winner's reaction); ``grace_us``: how long after
    it slaps were still late slaps on this Hit; ``played_at_us``: when its card was played
    (negative: the frame showing it flipped later); ``margin_us``: the runner-up's reaction
    less the winner's (0: a dead heat; None: no second slap within the grace)."""

    hit: HitKind
    revealed_us: int
    played_at_us: int | None
    won_at_us: int
    grace_us: int
    slaps: tuple[SlapMark, ...]
    winner: int | None
    margin_us: int | None
    jan_ken_winner: int | None = None
    """After a dead heat: who won the Jan Ken (and with it the Hit), once known."""

    @property
    def won_us(self) -> int:
        """Game time of the winning slap."""
        return self.revealed_us + self.won_at_us

    def showing(self, now_us: int) -> bool:
        return self.won_us <= now_us <= self.won_us + SHOW_US


def duration(us: int) -> str:
    """A time to the microsecond, in the unit that reads best: ``12 µs``, ``187.345 ms``."""
    sign = "−" if us < 0 else ""
    us = abs(us)
    return f"{sign}{us} µs" if us < 1000 else f"{sign}{us // 1000}.{us % 1000:03d} ms"


def draw_photo_finish(
    surf: Canvas, text: TextCache, seats: tuple[StationLook, ...], pf: PhotoFinish, area: pygame.Rect
) -> None:
    """The photo finish in ``area``: who won and by how much, then one lane per fighter
    who slapped, on a common time axis from the reveal."""
    panel(surf, area, theme.PANEL, theme.GOLD, 14)
    live(surf, area, "the photo finish")
    pad = 16
    text.draw(surf, "PHOTO FINISH", 30, theme.GOLD, (area.x + pad, area.y + 24), "midleft", bold=True)
    text.draw(surf, pf.hit.value.replace("_", " ").title(), 28, theme.DIM, (area.right - pad, area.y + 24), "midright")
    verdict = _headline(surf, text, seats, pf, pygame.Rect(area.x + pad, area.y + 44, area.width - 2 * pad, 42))

    lanes = _lanes(pf)
    lane_h = min(44, LANES_H // len(lanes))
    name_w, time_w = 84, 150  # a name and a time to the µs at the readable size
    strip = pygame.Rect(
        area.x + pad + name_w, area.y + 108, area.width - 2 * pad - name_w - time_w, lane_h * len(lanes)
    )
    lo, hi = _span(pf)

    def x_of(at_us: int) -> int:
        return strip.x + round((at_us - lo) * strip.width / (hi - lo))

    draw.rect(surf, theme.BACKGROUND, strip)
    grace = pygame.Rect(
        x_of(pf.won_at_us), strip.y, x_of(pf.won_at_us + pf.grace_us) - x_of(pf.won_at_us), strip.height
    )
    draw.rect(surf, theme.shade(theme.GOLD, 0.28), grace)
    if pf.played_at_us is not None and pf.played_at_us < 0:  # played, not yet on screen
        hidden = pygame.Rect(x_of(pf.played_at_us), strip.y, x_of(0) - x_of(pf.played_at_us), strip.height)
        draw.rect(surf, theme.shade(theme.BAD, 0.25), hidden)
    draw.line(surf, theme.WHITE, (x_of(0), strip.y - 6), (x_of(0), strip.bottom + 6), 3)
    for i, fighter in enumerate(lanes):
        look = seats[fighter]
        y = strip.y + i * lane_h
        if i:
            draw.line(surf, theme.PANEL_EDGE, (strip.x, y), (strip.right, y), 1)
        name = seat_name(surf, text, look.name, 28, name_w - 6)
        text.draw_fitted(surf, name, 28, look.color, (area.x + pad, y + lane_h // 2), name_w - 6, "midleft", True)
        marks = [m for m in pf.slaps if m.fighter == fighter]
        for m in marks:
            _mark(surf, m, look, x_of(m.at_us), pygame.Rect(strip.x, y + 3, strip.width, lane_h - 6))
        words, colour = _lane_words(marks, look)
        text.draw_fitted(surf, words, 28, colour, (area.right - pad, y + lane_h // 2), time_w - 6, "midright", True)
    _axis(surf, text, pf, strip, x_of, lo, hi)
    pair = _winner_and_runner_up(pf)
    if pair is not None and pf.margin_us:  # a dead heat needs no close-up: the lanes read the same µs
        left = area.x + pad + 80  # the whole panel's width, right of its caption: two times to the µs side by side
        close = pygame.Rect(left, strip.bottom + 40, area.right - pad - left, area.bottom - strip.bottom - 48)
        _close_up(surf, text, seats, pair, pf.margin_us, close)
        text.draw(surf, "close-up", 22, theme.DIM, (area.x + pad, close.y + 12), "midleft", detail=True)
    elif verdict is not None:  # a dead heat: no close-up, so what it led to has the room below
        words, colour = verdict
        below = pygame.Rect(area.x + pad, strip.bottom + 34, area.width - 2 * pad, area.bottom - strip.bottom - 44)
        text.draw_fitted(surf, words, 36, colour, below.center, below.width, "center", True)


def _winner_and_runner_up(pf: PhotoFinish) -> tuple[SlapMark, SlapMark] | None:
    """The winning slap and the first late slap by someone else (None: no second slap)."""
    won = next((m for m in pf.slaps if m.verdict is SlapVerdict.WON), None)
    late = (m for m in pf.slaps if m.verdict is SlapVerdict.LATE and won is not None and m.fighter != won.fighter)
    runner = min(late, key=lambda m: m.at_us, default=None)
    return (won, runner) if won is not None and runner is not None else None


HEADLINE = 42
"""The headline's size: who won the Hit, by how much."""
LANES_H = 128
"""Height of the strip's lanes together (four fighters: 32 px each)."""


def _lanes(pf: PhotoFinish) -> list[int]:
    """Fighters with a slap on the strip: the Hit's winner(s) first, then by first slap."""
    judged = (SlapVerdict.WON, SlapVerdict.DEAD_HEAT, SlapVerdict.LATE)
    first: dict[int, tuple[int, int]] = {}
    for m in pf.slaps:
        rank = (0 if m.verdict in judged else 1, m.at_us if m.verdict in judged else 0)
        first[m.fighter] = min(first.get(m.fighter, rank), rank)
    return sorted(first, key=lambda f: (*first[f], f))


def _close_up(
    surf: Canvas,
    text: TextCache,
    seats: tuple[StationLook, ...],
    pair: tuple[SlapMark, SlapMark],
    margin_us: int,
    area: pygame.Rect,
) -> None:
    """The winning slap and the runner-up's, pulled apart so any margin shows: the
    margin between them, each time to the µs under its mark."""
    y = area.y + 12
    draw.line(surf, theme.PANEL_EDGE, (area.x, y), (area.right, y), 2)
    for m, x in zip(pair, (area.x + area.width // 5, area.right - area.width // 5), strict=True):
        look = seats[m.fighter]
        draw.rect(surf, look.color, pygame.Rect(x - 4, y - 12, 8, 24))
        if m.verdict is SlapVerdict.WON:
            draw.rect(surf, theme.WHITE, pygame.Rect(x - 7, y - 15, 14, 30), 3)
        text.draw(surf, duration(m.at_us), 28, look.color, (x, y + 30), "center", bold=True)
    text.draw(surf, duration(margin_us), 28, theme.GOLD, (area.centerx, y - 2), "midbottom", bold=True)


def _headline(
    surf: Canvas, text: TextCache, seats: tuple[StationLook, ...], pf: PhotoFinish, rect: pygame.Rect
) -> tuple[str, tuple[int, int, int]] | None:
    """The headline; for a dead heat, also the line saying what it led to (drawn below
    the strip, where a close-up would be: one line would not fit both)."""
    if pf.winner is None:
        text.draw_fitted(surf, "DEAD HEAT: 0 µs", HEADLINE, theme.WHITE, rect.midleft, rect.width, "midleft", True)
        if pf.jan_ken_winner is None:
            return "Jan Ken decides the Hit", theme.GOLD
        look = seats[pf.jan_ken_winner]
        return f"{look.name.upper()} won the Jan Ken", look.color
    look = seats[pf.winner]
    rest = " · nobody else in time" if pf.margin_us is None else f" by {duration(pf.margin_us)}"
    least = HEADLINE * 3 // 4  # the size draw_fitted shrinks to before it cuts
    room = rect.width - text.measure(surf, rest, least, True)[0]
    name = seat_name(surf, text, look.name.upper(), least, room)  # "CPU · NORMAL" cut the words: "CPU"
    text.draw_fitted(surf, name + rest, HEADLINE, look.color, rect.midleft, rect.width, "midleft", True)
    return None


def _span(pf: PhotoFinish) -> tuple[int, int]:
    """The strip's time range: the reveal, every slap and the grace, with a margin."""
    times = [0, pf.won_at_us + pf.grace_us, *(m.at_us for m in pf.slaps)]
    if pf.played_at_us is not None:
        times.append(pf.played_at_us)
    lo, hi = min(times), max(times)
    edge = max(1, (hi - lo) // 16)
    return lo - edge, hi + edge


def _mark(surf: Canvas, m: SlapMark, look: StationLook, x: int, lane: pygame.Rect) -> None:
    if m.verdict in (SlapVerdict.TOO_SOON, SlapVerdict.COWARD):  # a red cross: it cost cards
        r = lane.height // 2 - 2
        c = (x, lane.centery)
        draw.line(surf, theme.BAD, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 5)
        draw.line(surf, theme.BAD, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 5)
        return
    bar = pygame.Rect(0, lane.y, 8, lane.height)
    bar.centerx = x
    draw.rect(surf, look.color, bar)
    if m.verdict is not SlapVerdict.LATE:  # the Hit's winning slap(s): ringed white (gold is a station's colour)
        draw.rect(surf, theme.WHITE, bar.inflate(6, 6), 3)


def _lane_words(marks: list[SlapMark], look: StationLook) -> tuple[str, tuple[int, int, int]]:
    """The lane's verdict at its end: the judged reaction to the µs, or the blow."""
    judged = [m for m in marks if m.verdict in (SlapVerdict.WON, SlapVerdict.DEAD_HEAT, SlapVerdict.LATE)]
    if judged:
        return duration(judged[0].at_us), theme.WHITE if judged[0].verdict is not SlapVerdict.LATE else look.color
    verdicts = {m.verdict for m in marks}
    if len(verdicts) > 1:
        return f"{len(marks)} blows", theme.BAD
    return ("too soon" if SlapVerdict.TOO_SOON in verdicts else "too late"), theme.BAD


def _axis(
    surf: Canvas,
    text: TextCache,
    pf: PhotoFinish,
    strip: pygame.Rect,
    x_of: Callable[[int], int],
    lo: int,
    hi: int,
) -> None:
    """Under the strip: SHOWN at the reveal, a tick every round step in ms, the grace named."""
    y = strip.bottom + 16
    step = next((s for s in STEPS_US if (hi - lo) / s <= 6), STEPS_US[-1])
    shown = text.draw(surf, "shown", 22, theme.WHITE, (x_of(0), y), "center", bold=True, detail=True)
    taken = [shown.inflate(10, 0)]
    t = step
    while t < hi:
        if t > lo:
            rect = pygame.Rect((0, 0), text.measure(surf, f"{t // 1000}", 22))
            rect.center = (x_of(t), y)
            if not any(rect.colliderect(r) for r in taken) and rect.right <= strip.right + 40:
                draw.line(surf, theme.DIM, (x_of(t), strip.bottom), (x_of(t), strip.bottom + 5), 2)
                text.draw(surf, f"{t // 1000}", 22, theme.DIM, rect.center, "center", detail=True)
                taken.append(rect.inflate(10, 0))
        t += step
    grace_x = (x_of(pf.won_at_us) + x_of(pf.won_at_us + pf.grace_us)) // 2
    text.draw(surf, "grace", 22, theme.GOLD, (grace_x, strip.y - 12), "center", bold=True, detail=True)
    text.draw(surf, "ms", 22, theme.DIM, (strip.right + 6, y), "midleft", detail=True)
