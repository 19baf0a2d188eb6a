"""Contact sheets of every screen, at 1280×720 and 1920×1080, for a person to review:

    make screens        # out/screens/contact-1280x720.png, contact-1920x1080.png, one PNG per screen

Each tile is a screen at that resolution (shrunk for the sheet), named, with a red frame
and the first problem written under it when the layout check finds one.  The full-size
PNGs sit beside the sheets (out/screens/<size>/<name>.png).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from display.layout import LayoutRecord, problems
from display.renderer import Renderer
from tests.display.screen_states import every_screen

SIZES = ((1280, 720), (1920, 1080))
OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
TILE = (480, 270)
COLUMNS = 6


def write_sheets(out: Path = OUT, hil: bool = True) -> list[Path]:
    pygame.font.init()
    screens = list(every_screen(hil))
    sheets = []
    for size in SIZES:
        renderer = Renderer(size=size)
        folder = out / f"{size[0]}x{size[1]}"
        folder.mkdir(parents=True, exist_ok=True)
        rows = -(-len(screens) // COLUMNS)
        sheet = pygame.Surface((COLUMNS * (TILE[0] + 8) + 8, rows * (TILE[1] + 40) + 8))
        sheet.fill((40, 40, 48))
        font = pygame.font.Font(None, 22)
        for i, (name, screen) in enumerate(screens):
            record = LayoutRecord()
            canvas = renderer.draw(screen, record)
            pygame.image.save(canvas, str(folder / f"{name}.png"))
            found = problems(record)
            x, y = 8 + (i % COLUMNS) * (TILE[0] + 8), 8 + (i // COLUMNS) * (TILE[1] + 40)
            sheet.blit(pygame.transform.smoothscale(canvas, TILE), (x, y))
            if found:
                pygame.draw.rect(sheet, (255, 40, 40), (x - 3, y - 3, TILE[0] + 6, TILE[1] + 6), 3)
            label = f"{name}" + (f"  ✗ {found[0]}" if found else "")
            sheet.blit(font.render(label[:90], True, (255, 90, 90) if found else (220, 220, 220)), (x, y + TILE[1] + 6))
        path = out / f"contact-{size[0]}x{size[1]}.png"
        pygame.image.save(sheet, str(path))
        sheets.append(path)
    return sheets


if __name__ == "__main__":
    for p in write_sheets(hil="--no-hil" not in sys.argv):
        print(p)
