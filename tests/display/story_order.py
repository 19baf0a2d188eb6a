"""Issue 30, "the story in order": a game played at the simulated cabinet by computer
players, each frame of its play screen drawn with a layout record, so a test can see
what was on the main screen when — which banner, which words — and tie each to the
event that causes it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from display.layout import Cover, LayoutRecord
from display.private import draw_private, image_text
from display.renderer import Renderer
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.controls import AnyControls
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.store import Store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from games.levels import Level
from hal.clock import ManualClock
from hal.config import load_config
from hal.sim import SimCabinet

FRAME_US = 50_000
"""Frames 20 a second: fine enough against the read times (≥ 1 s), quick to draw."""


@dataclass(frozen=True)
class Frame:
    """One play-screen frame: its model, the banners and the strings drawn on it."""

    now_us: int
    model: Any
    banners: tuple[str, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Waiting:
    """At one frame: the seats the game waits on, and what each station's private display said."""

    now_us: int
    asked: tuple[int, ...]
    privates: tuple[tuple[str, ...], ...]


waits: list[Waiting] = []
"""What :func:`played_models` saw the game wait on, frame by frame (its last run)."""


def played_models(
    tmp_path, controls: AnyControls, options: Any, players: int, seed: int, limit_us: int
) -> list[tuple[int, Any]]:
    """A whole game between computers (expert level) at a ``players``-station cabinet:
    the play-screen model of every frame, to the result."""
    cfg = replace(load_config("hal/data/cabinet-4.toml" if players > 2 else None), data_dir=tmp_path)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    store = Store(None)
    cabinet = Cabinet(cfg, sim, clock, store, log=lambda _line: None, seed=seed)
    levels = dict.fromkeys(range(players), Level.EXPERT)
    play = Play.start(cabinet.ctx, clock.now_us(), controls, options, tuple(range(players)), levels)
    cabinet.scene = play
    models: list[tuple[int, Any]] = []

    def after(t: int, is_frame: bool) -> bool:
        if is_frame and cabinet.scene is play:
            models.append((t, play.screen(t)))
            asked = tuple(sorted(seat for seat in play.session.engine.to_act() if seat >= 0))
            privates = tuple(  # what a person in that seat would read (a computer's says "plays here")
                image_text(draw_private(play.session.private_screen(seat))) or () for seat in range(players)
            )
            waits.append(Waiting(t, asked, privates))
        return cabinet.scene is not play

    waits.clear()
    VirtualTimeDriver(cabinet, FRAME_US, render=False).run_until(clock.now_us() + limit_us, after=after)
    sim.close()
    assert cabinet.scene is not play, "the game did not end in time"
    return models


KEY_WORDS = re.compile(r"\b(?:[A-F](?:[-–/][A-F])?|START|SLAP|slap)\b")
"""A key named on a private display: A–F (or a range), START, the slap pad."""
STUCK_US = 3_000_000


def stuck(seen: list[Waiting]) -> list[str]:
    """Stretches over :data:`STUCK_US` where the game waited on a seat whose private
    display named no key to press (the station cannot know it must act, or how)."""
    out = []
    since: dict[int, int] = {}
    for w in seen:
        for seat in range(len(w.privates)):
            silent = seat in w.asked and not KEY_WORDS.search(" ".join(w.privates[seat]))
            if not silent:
                since.pop(seat, None)
                continue
            start = since.setdefault(seat, w.now_us)
            if w.now_us - start > STUCK_US:
                out.append(f"seat {seat} asked since {start} us, its display names no key: {w.privates[seat]}")
                since[seat] = w.now_us + 10**12  # said once per stretch
    return out


def drawn(models: list[tuple[int, Any]]) -> list[Frame]:
    """Each model drawn as the live cabinet draws it, with what the drawing recorded."""
    renderer = Renderer()
    frames = []
    for t, model in models:
        record = LayoutRecord()
        renderer.draw(model, record)
        banners = tuple(d.what for d, kind in record.covers if kind is Cover.BANNER)
        frames.append(Frame(t, model, banners, tuple(d.what for d in record.texts)))
    return frames
