"""The calibration wizard on screen, and the live view of the pads.

The display step's page is the whole screen white or black (``flash``), nothing else: a
light sensor on a corner times when the panel really shows each flip.

Left: the step (prompt, progress) and the wizard's words (fitted values and why, the
verdict and what to do).  Right: one strip per pad with its signal (deviation from the
baseline, min/max per pixel column so no spike is lost), the threshold drawn at ±T, the
mask drawn as a shaded band after each detected slap, and every detected slap marked
with its velocity.  The same drawing, taller, is the session's PNG report.

The models are plain data built by the cabinet (``firmware_py.runtime.calibration_scene``):
this module knows nothing of calibration, only how it looks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pygame

from display import draw, theme
from display.canvas import Canvas
from display.text import STAND_INS, TextCache
from display.theme import font
from display.widgets import panel, title_bar


@dataclass(frozen=True, kw_only=True)
class PadTrace:
    """One pad's signal over [t0_us, t1_us]: ``values`` are deviations from the baseline."""

    label: str
    t0_us: int
    t1_us: int
    times: tuple[int, ...]
    values: tuple[int, ...]
    threshold: int
    mask_us: int
    hits: tuple[tuple[int, int], ...]  # (t_us, velocity)
    scale: int  # counts at the strip's edge
    status: str = ""  # PASS / FAIL / a fault word
    color: tuple[int, int, int] = theme.GOLD


@dataclass(frozen=True, kw_only=True)
class CalibrationScreen:
    title: str
    step: str
    progress: float  # 0..1
    lines: tuple[str, ...]
    traces: tuple[PadTrace, ...]
    footer: str
    alert: bool = False  # something failed: the lines say what to do
    flash: bool | None = None  # the display step: the whole screen white (True) or black (False)


def _columns(tr: PadTrace, width: int) -> list[tuple[int, int] | None]:
    span = max(1, tr.t1_us - tr.t0_us)
    cols: list[tuple[int, int] | None] = [None] * width
    for t, v in zip(tr.times, tr.values):
        x = (t - tr.t0_us) * width // span
        if 0 <= x < width:
            c = cols[x]
            cols[x] = (v, v) if c is None else (min(c[0], v), max(c[1], v))
    return cols


def draw_trace(surf: Canvas | pygame.Surface, text: TextCache, rect: pygame.Rect, tr: PadTrace) -> None:
    panel(surf, rect, (10, 12, 20), theme.PANEL_EDGE, 8)
    inner = rect.inflate(-16, -34)
    inner.y = rect.y + 28
    mid = inner.centery
    half = inner.height // 2
    span = max(1, tr.t1_us - tr.t0_us)
    scale = max(1, tr.scale)

    def y_of(v: float) -> int:
        return mid - int(max(-1.0, min(1.0, v / scale)) * half)

    for t, _v in tr.hits:  # mask bands first, under the signal
        x0 = inner.x + (t - tr.t0_us) * inner.width // span
        w = max(2, tr.mask_us * inner.width // span)
        band = pygame.Rect(x0, inner.y, w, inner.height).clip(inner)
        if band.width > 0:
            draw.rect(surf, (40, 40, 78), band)
    draw.line(surf, theme.PANEL_EDGE, (inner.x, mid), (inner.right, mid))
    for yy in (y_of(tr.threshold), y_of(-tr.threshold)):
        draw.line(surf, theme.BAD, (inner.x, yy), (inner.right, yy))
    for x, c in enumerate(_columns(tr, inner.width)):
        if c is not None:
            draw.line(surf, tr.color, (inner.x + x, y_of(c[0])), (inner.x + x, y_of(c[1])))
    for t, vel in tr.hits:
        x = inner.x + (t - tr.t0_us) * inner.width // span
        if inner.x <= x <= inner.right:
            draw.line(surf, theme.WHITE, (x, inner.y), (x, inner.y + 10), 2)
            text.draw(surf, str(vel), 20, theme.WHITE, (x + 3, inner.y + 1))
    status_color = theme.GOOD if tr.status == "PASS" else theme.BAD if tr.status else theme.DIM
    label = text.draw(surf, tr.label, 26, theme.TEXT, (rect.x + 10, rect.y + 6), bold=True)
    text.draw(
        surf,
        # what each mark is, in words beside the numbers: the red lines, the shaded bands
        f"red: a slap past ±{tr.threshold} · shaded: deaf {tr.mask_us / 1000:.0f} ms after · {len(tr.hits)} slap"
        + ("" if len(tr.hits) == 1 else "s"),
        22,
        theme.DIM,
        (label.right + 16, rect.y + 9),
        max_width=rect.right - label.right - 110,  # clear of the PASS/FAIL on the right
    )
    if tr.status:
        text.draw(surf, tr.status, 26, status_color, (rect.right - 10, rect.y + 6), "topright", bold=True)


STEP_SIZE = 32
LINE_SIZE = 21
LINE_PX = 21
TRACES_LEFT = 510
"""Where the traces start: the text panel ends 20 px before them (full width without traces)."""


def text_panel(s: CalibrationScreen, size: tuple[int, int]) -> pygame.Rect:
    """The left panel of the words: beside the traces, or the whole width (a text page)."""
    w, h = size
    return pygame.Rect(20, 80, (TRACES_LEFT - 40) if s.traces else w - 40, h - 140)


def wrap_px(line: str, width_px: int, size: int, bold: bool = False) -> list[str]:
    """``line`` in parts no wider than ``width_px`` in the bundled font at ``size``, cut
    between words (a word wider than the line stays whole); continued parts are indented
    two spaces more than the line."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = font(size, bold)
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    out: list[str] = []
    cur = ""
    for word in line.split(" "):
        candidate = f"{cur} {word}" if cur else word
        if cur and cur.strip() and f.size(candidate.translate(STAND_INS))[0] > width_px:
            out.append(cur)
            cur = indent + word
        else:
            cur = candidate
    if cur or not out:
        out.append(cur)
    return out


def layout(s: CalibrationScreen, size: tuple[int, int]) -> tuple[list[str], list[str], int]:
    """What the text panel shows: the step's parts, every line's parts, and how many of
    the latter fit under the step (the rest would be cut: :func:`paginate` makes pages)."""
    panel_rect = text_panel(s, size)
    inner = panel_rect.width - 28
    step = wrap_px(s.step, inner, STEP_SIZE, bold=True)
    body = [part for line in s.lines for part in wrap_px(line, inner, LINE_SIZE)]
    top = panel_rect.y + 14 + STEP_SIZE * len(step) + 8
    room = max(1, (panel_rect.bottom - 24 - top) // LINE_PX + 1)
    return step, body, room


def paginate(s: CalibrationScreen, size: tuple[int, int]) -> list[CalibrationScreen]:
    """``s`` as as many screens as its lines need, so nothing is cut: each line whole on
    one page where it fits (a line too long for any page is split between parts), the
    pages after the first titled "(continued)"."""
    _step, _body, room = layout(s, size)
    inner = text_panel(s, size).width - 28
    pages: list[list[str]] = [[]]
    used = 0
    for line in s.lines:
        parts = wrap_px(line, inner, LINE_SIZE)
        if used + len(parts) > room and pages[-1]:
            pages.append([])
            used = 0
        while len(parts) > room:  # longer than a page on its own
            pages[-1].append(" ".join(p.strip() for p in parts[:room]))
            pages.append([])
            parts, used = parts[room:], 0
        pages[-1].append(
            line if len(parts) == len(wrap_px(line, inner, LINE_SIZE)) else " ".join(p.strip() for p in parts)
        )
        used += len(parts)
    return [
        replace(s, lines=tuple(lines), title=s.title if i == 0 else f"{s.title} (continued)")
        for i, lines in enumerate(pages)
    ]


def line_color(part: str) -> tuple[int, int, int]:
    stripped = part.lstrip()
    if stripped.startswith(("✗", "→", "!")) or " FAILED" in part or "not usable" in part or "cannot be set up" in part:
        return theme.BAD
    return theme.GOOD if "PASS" in part or ": good" in part else theme.TEXT


def draw_calibration(surf: Canvas | pygame.Surface, text: TextCache, s: CalibrationScreen) -> None:
    if s.flash is not None:  # nothing else: the light sensor sees the panel, not a picture
        surf.fill(theme.WHITE if s.flash else (0, 0, 0))
        return
    w, h = surf.get_size()
    surf.fill((8, 14, 20))
    title_bar(surf, text, "CALIBRATION", s.title, f"{int(s.progress * 100)} %")
    left = text_panel(s, (w, h))
    panel(surf, left, (16, 22, 30), theme.GOLD if s.alert else theme.PANEL_EDGE, 10)
    step, body, room = layout(s, (w, h))
    y = left.y + 14
    for line in step:
        text.draw(surf, line, STEP_SIZE, theme.GOLD, (left.x + 14, y), bold=True)
        y += STEP_SIZE
    y += 8
    for i, part in enumerate(body):
        if i == room - 1 and len(body) > room:  # never a silent cut
            text.draw(surf, f"… {len(body) - i} more lines", LINE_SIZE, theme.DIM, (left.x + 14, y))
            break
        text.draw(surf, part, LINE_SIZE, line_color(part), (left.x + 14, y))
        y += LINE_PX
    n = max(1, len(s.traces))
    area = pygame.Rect(TRACES_LEFT, 80, w - TRACES_LEFT - 20, h - 140)
    sh = area.height // n
    for i, tr in enumerate(s.traces):
        draw_trace(surf, text, pygame.Rect(area.x, area.y + i * sh, area.width, sh - 8), tr)
    bar = pygame.Rect(20, h - 52, w - 40, 8)
    draw.rect(surf, theme.PANEL, bar)
    draw.rect(surf, theme.GOLD, (bar.x, bar.y, int(bar.width * max(0.0, min(1.0, s.progress))), bar.height))
    text.draw(surf, s.footer, 26, theme.DIM, (20, h - 22), "midleft")


REPORT_SIZE = (1600, 900)


def save_png(screens: list[CalibrationScreen], path: Path, size: tuple[int, int] = REPORT_SIZE) -> Path:
    """The session report: each screen model (one per pad, or per step), over as many
    pages as its lines need (:func:`paginate`), stacked into one PNG."""
    if not pygame.font.get_init():
        pygame.font.init()
    text = TextCache()
    pages = [page for s in screens for page in paginate(s, size)]
    sheet = pygame.Surface((size[0], size[1] * max(1, len(pages))))
    for i, s in enumerate(pages):
        page = pygame.Surface(size)
        draw_calibration(page, text, s)
        sheet.blit(page, (0, i * size[1]))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(path))
    return path
