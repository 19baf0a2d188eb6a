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

from dataclasses import dataclass
from pathlib import Path

import pygame

from display import draw, theme
from display.canvas import Canvas
from display.text import TextCache
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
        f"threshold ±{tr.threshold}  mask {tr.mask_us / 1000:.0f} ms  {len(tr.hits)} slaps",
        22,
        theme.DIM,
        (label.right + 16, rect.y + 9),
    )
    if tr.status:
        text.draw(surf, tr.status, 26, status_color, (rect.right - 10, rect.y + 6), "topright", bold=True)


def draw_calibration(surf: Canvas | pygame.Surface, text: TextCache, s: CalibrationScreen) -> None:
    if s.flash is not None:  # nothing else: the light sensor sees the panel, not a picture
        surf.fill(theme.WHITE if s.flash else (0, 0, 0))
        return
    w, h = surf.get_size()
    surf.fill((8, 14, 20))
    title_bar(surf, text, "CALIBRATION", s.title, f"{int(s.progress * 100)} %")
    left = pygame.Rect(20, 80, 470, h - 140)
    panel(surf, left, (16, 22, 30), theme.GOLD if s.alert else theme.PANEL_EDGE, 10)
    y = left.y + 14
    for line in _wrap(s.step, 34):
        text.draw(surf, line, 32, theme.GOLD, (left.x + 14, y), bold=True)
        y += 32
    y += 8
    for line in s.lines:
        for part in _wrap(line, 52):
            if y > left.bottom - 24:
                break
            color = (
                theme.BAD if part.lstrip().startswith(("✗", "→", "!")) else theme.GOOD if "PASS" in part else theme.TEXT
            )
            text.draw(surf, part, 21, color, (left.x + 14, y))
            y += 21
    n = max(1, len(s.traces))
    area = pygame.Rect(510, 80, w - 530, h - 140)
    sh = area.height // n
    for i, tr in enumerate(s.traces):
        draw_trace(surf, text, pygame.Rect(area.x, area.y + i * sh, area.width, sh - 8), tr)
    bar = pygame.Rect(20, h - 52, w - 40, 8)
    draw.rect(surf, theme.PANEL, bar)
    draw.rect(surf, theme.GOLD, (bar.x, bar.y, int(bar.width * max(0.0, min(1.0, s.progress))), bar.height))
    text.draw(surf, s.footer, 26, theme.DIM, (20, h - 22), "midleft")


def _wrap(line: str, width: int) -> list[str]:
    words, out, cur = line.split(" "), [], ""
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    for wd in words:
        if cur and len(cur) + 1 + len(wd) > width:
            out.append(cur)
            cur = indent + wd
        else:
            cur = f"{cur} {wd}" if cur else wd
    if cur:
        out.append(cur)
    return out


def save_png(screens: list[CalibrationScreen], path: Path, size: tuple[int, int] = (1600, 900)) -> Path:
    """The session report: each screen model (one per pad, or per step) stacked into one PNG."""
    if not pygame.font.get_init():
        pygame.font.init()
    text = TextCache()
    sheet = pygame.Surface((size[0], size[1] * max(1, len(screens))))
    for i, s in enumerate(screens):
        page = pygame.Surface(size)
        draw_calibration(page, text, s)
        sheet.blit(page, (0, i * size[1]))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(path))
    return path
