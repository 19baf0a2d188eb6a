"""Frames as the cabinet flipped them, for the frame check (display.frame_check): every
frame of every shipped HIL scenario, the attract mode's demo games, a test's own cabinet.

Each frame comes with the words the private displays were saying to one player only at
the time (the live session's refusals): they must never be on the main screen."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from display.frame_check import Shown, runs
from display.renderer import Renderer
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract
from firmware_py.runtime.store import Store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from hal.clock import ManualClock
from hal.config import load_config
from hal.sim import SimCabinet

HIL = Path(__file__).resolve().parents[1] / "hil"
Frame = tuple[str, Any, tuple[str, ...]]


@contextmanager
def flipped(name: Callable[[int], str]) -> Iterator[list[Frame]]:
    """Every screen model a cabinet draws while inside, with the refusals then shown."""
    frames: list[Frame] = []
    secrets: list[tuple[str, ...]] = [()]
    draw, render = Renderer.draw, Cabinet.render

    def spy_render(self: Cabinet) -> Any:
        session = self.scene.live_session()
        secrets[0] = tuple(text for _until, text in session.refusals.values()) if session is not None else ()
        return render(self)

    def spy_draw(self: Renderer, screen: Any, record: Any = None) -> Any:
        frames.append((name(len(frames)), screen, secrets[0]))
        return draw(self, screen, record)

    Cabinet.render = spy_render  # type: ignore[method-assign]
    Renderer.draw = spy_draw  # type: ignore[method-assign]
    try:
        yield frames
    finally:
        Cabinet.render = render  # type: ignore[method-assign]
        Renderer.draw = draw  # type: ignore[method-assign]


def scenarios() -> list[Path]:
    """Every shipped HIL scenario, found as ``ringside hil`` finds them."""
    from firmware_py.hil.runner import expand

    return expand([HIL])


def hil_frames(path: Path) -> list[Shown]:
    """Every frame the cabinet flipped running the scenario at ``path`` on the sim backend."""
    from firmware_py.hil.scenario import load_scenario
    from firmware_py.hil.sim_backend import SimRun

    label = f"{path.parent.name}/{path.stem}"
    with flipped(lambda i: f"{label} frame {i}") as frames, tempfile.TemporaryDirectory() as tmp:
        SimRun(load_scenario(path), Path(tmp), window=False).run()
    return list(runs(frames))


def attract_frames(seconds: float, fps: int = 20) -> list[Shown]:
    """The attract mode as an idle cabinet shows it for ``seconds``: title cards and the
    computer players' demo games, flipped at ``fps``."""
    with tempfile.TemporaryDirectory() as tmp:
        config = replace(load_config(), data_dir=Path(tmp) / "data")
        clock = ManualClock(1_000_000)
        sim = SimCabinet(config, clock)
        store = Store(config.data_dir / "ringside.sqlite3")
        try:
            cabinet = Cabinet(config, sim, clock, store, window=None, log=lambda _line: None, seed=7)
            cabinet.scene = Attract(cabinet.ctx, clock.now_us())
            with flipped(lambda i: f"attract frame {i}") as frames:
                VirtualTimeDriver(cabinet, 1_000_000 // fps).advance(round(seconds * 1_000_000))
        finally:
            store.close()
            sim.close()
    return list(runs(frames))
