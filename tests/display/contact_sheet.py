"""Contact sheets of every screen, at 1280×720 and 1920×1080, for a person to review:

    make screens        # out/screens/<size>/sheets/NN-<group>.png, one PNG per screen

One sheet per group (the menus, each game's playout at each table size, each HIL
scenario), at most 16 tiles, so that each sheet can be looked at whole.  Each tile is a
screen at that resolution (shrunk for the sheet), named, with a red frame and the first
problem written under it when the layout check finds one.  The full-size PNGs sit beside
the sheets (out/screens/<size>/<name>.png).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from display.layout import LayoutRecord, problems
from display.renderer import Renderer
from tests.display.screen_states import every_screen

SIZES = ((1280, 720), (1920, 1080))
OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
TILE = (480, 270)
COLUMNS = 4
PER_SHEET = 16
"""Tiles on one sheet: 4 × 4 at 480×270 is about 1,970 × 1,250 px, small enough for an
image viewer to show whole (one sheet of 325 screens was 17,000 px tall: nobody saw it)."""


def group_of(name: str) -> str:
    """The sheet a screen goes on: the menus, one game's playout at one table size, or one
    HIL scenario (``hil-punch-every_pairing-3`` → ``hil-punch-every_pairing``)."""
    if name.startswith("hil-"):
        return name.rsplit("-", 1)[0]
    played = re.match(r"^(\w+-\d+p)-", name)
    return played.group(1) if played else "menus"


def sheets_of(screens: list[tuple[str, Any]]) -> list[tuple[str, list[tuple[str, Any]]]]:
    """The screens by group, in their order, a group longer than :data:`PER_SHEET` in parts."""
    groups: dict[str, list[tuple[str, Any]]] = {}
    for named in screens:
        groups.setdefault(group_of(named[0]), []).append(named)
    out = []
    for group, members in groups.items():
        parts = [members[i : i + PER_SHEET] for i in range(0, len(members), PER_SHEET)]
        for k, part in enumerate(parts):
            out.append((group if len(parts) == 1 else f"{group}-{k + 1}", part))
    return out


def write_sheets(out: Path = OUT, hil: bool = True) -> list[Path]:
    """Every screen as a full-size PNG, and sheets of them; returns the sheets' paths."""
    pygame.font.init()
    screens = list(every_screen(hil))
    font = pygame.font.Font(None, 22)
    sheets = []
    for size in SIZES:
        renderer = Renderer(size=size)
        folder = out / f"{size[0]}x{size[1]}"
        (folder / "sheets").mkdir(parents=True, exist_ok=True)
        for old in (folder / "sheets").glob("*.png"):
            old.unlink()
        for n, (title, members) in enumerate(sheets_of(screens)):
            rows = -(-len(members) // COLUMNS)
            sheet = pygame.Surface((COLUMNS * (TILE[0] + 8) + 8, 36 + rows * (TILE[1] + 40) + 8))
            sheet.fill((40, 40, 48))
            sheet.blit(font.render(f"{title}  ({size[0]}x{size[1]})", True, (255, 255, 255)), (8, 10))
            for i, (name, screen) in enumerate(members):
                record = LayoutRecord()
                canvas = renderer.draw(screen, record)
                pygame.image.save(canvas, str(folder / f"{name}.png"))
                found = problems(record)
                x, y = 8 + (i % COLUMNS) * (TILE[0] + 8), 36 + (i // COLUMNS) * (TILE[1] + 40)
                sheet.blit(pygame.transform.smoothscale(canvas, TILE), (x, y))
                if found:
                    pygame.draw.rect(sheet, (255, 40, 40), (x - 3, y - 3, TILE[0] + 6, TILE[1] + 6), 3)
                label = f"{name}" + (f"  ✗ {found[0]}" if found else "")
                color = (255, 90, 90) if found else (220, 220, 220)
                sheet.blit(font.render(label[:60], True, color), (x, y + TILE[1] + 6))
            path = folder / "sheets" / f"{n:02d}-{title}.png"
            pygame.image.save(sheet, str(path))
            sheets.append(path)
    return sheets


if __name__ == "__main__":
    for p in write_sheets(hil="--no-hil" not in sys.argv):
        print(p)
