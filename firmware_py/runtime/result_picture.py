"""Keeping a game's result screen as a PNG beside its record (Big Time Boxing's score
sheet), for games whose controls name one (``GameControls.result_picture``)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pygame

from display.models import AnyResultScreen
from display.renderer import Renderer

FOLDER = "results"


def result_picture_path(data_dir: Path, game_id: int, name: str) -> Path:
    """Where game ``game_id``'s picture ``name`` is kept: ``<data>/results/game-<id>-<name>.png``."""
    return data_dir / FOLDER / f"game-{game_id}-{name}.png"


def save_result_picture(model: AnyResultScreen, path: Path) -> Path:
    """Render ``model`` off screen and write it to ``path`` whole or not at all (a power
    cut mid-write leaves no half picture: it is written beside and then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.stem + ".part.png")
    pygame.image.save(_offscreen().draw(model), str(part))
    os.replace(part, path)
    return path


@cache
def _offscreen() -> Renderer:
    """The one renderer every picture is drawn with.  A new one per picture (a 3.7 MB
    canvas and a text cache of its own, freed after) left a long-running process ~6 MB
    bigger from the second Big Time Boxing game on: the allocator keeps what blocks
    that large leave behind."""
    return Renderer()
