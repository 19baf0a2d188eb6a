"""Cabinet figures: frame render, press → LED latency, start-up time, memory in a match."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.bench.harness import Figure, percentile

TITLE = "Cabinet: rendering, press-to-LED latency, start-up, memory"


def _render_times(frames: int = 900) -> list[float]:
    """ms per frame: draw the Punch! play screen and flip the (dummy) display."""
    from display.models import PlayScreen, StationLook
    from display.renderer import Renderer
    from display.window import Window
    from games.bots import RandomBot
    from games.punch import Punch, PunchOptions

    window = Window((1280, 720))
    renderer = Renderer()
    game = Punch(PunchOptions(), 2, seed=1)
    bots = [RandomBot(1), RandomBot(2)]
    looks = (StationLook("Red", (229, 57, 53)), StationLook("Blue", (30, 136, 229)))
    events: list = []
    times = []
    for i in range(frames):
        if i % 30 == 0 and not game.over:  # a new exchange every half second of frames
            for seat in sorted(game.to_act()):
                events += [(i * 16_667, e) for e in game.apply(bots[seat].choose(game, seat))]
        screen = PlayScreen(
            game="punch",
            title="Punch!",
            seats=looks,
            view=game.public_view(),
            events=tuple(events[-40:]),
            now_us=i * 16_667,
        )
        t0 = time.perf_counter()
        window.present(renderer.draw(screen))
        times.append((time.perf_counter() - t0) * 1000)
    window.close()
    return times[30:]  # first frames fill the text cache


def _press_to_led(samples: int = 400) -> list[float]:
    """ms from a mock pin driven low to the LED bar pins showing the new stamina.

    The second boxer's press completes an exchange; only exchanges that change a stamina
    count (others change no LED)."""
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.scenes import Play
    from firmware_py.runtime.store import Store
    from games.punch import Card, Phase
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.events import ACTION_BUTTONS, Button
    from hal.sim import SimCabinet
    from tests.cabinet_driving import press, run_for, start_game

    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = replace(load_config(), data_dir=Path(tmp))
        while len(out) < samples:
            clock = ManualClock(1_000_000)
            sim = SimCabinet(config, clock)
            store = Store(Path(tmp) / f"bench{len(out)}.sqlite3")
            cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=len(out))
            play = start_game(cabinet, sim)
            engine = play.session.engine
            while not engine.over and isinstance(cabinet.scene, Play) and len(out) < samples:
                view = engine.public_view()
                if view.phase is Phase.REDEAL:
                    for seat in sorted(engine.to_act()):
                        press(cabinet, sim, seat, Button.START)
                    continue
                cards = [next(c for c in Card if engine.view(s).hand[c.index]) for s in (0, 1)]
                press(cabinet, sim, 0, ACTION_BUTTONS[cards[0].index])
                before = [sim.led_levels(s) for s in (0, 1)]
                pin = sim.button_pin(1, ACTION_BUTTONS[cards[1].index])
                lit_at: list[float] = []
                real_set = sim.gpio.set_led_level

                def timed_set(station: int, level: float, real_set=real_set, lit_at=lit_at) -> None:
                    real_set(station, level)
                    lit_at.append(time.perf_counter())

                sim.gpio.set_led_level = timed_set
                t0 = time.perf_counter()
                pin.drive_low()
                cabinet.step(clock.now_us())
                del sim.gpio.set_led_level
                if [sim.led_levels(s) for s in (0, 1)] != before:
                    out.append((lit_at[-1] - t0) * 1000)
                pin.drive_high()
                run_for(cabinet, sim, 100_000, render=False)
            sim.close()
            store.close()
    return out


def _journal_commit_ms(n: int = 300) -> list[float]:
    """ms per durable action commit (WAL, synchronous=FULL): the floor under press → LED."""
    from firmware_py.runtime.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "commit.sqlite3")
        game = store.begin_game("punch", {}, 2, 1, (0, 1))
        out = []
        for i in range(n):
            t0 = time.perf_counter()
            store.append_action(game, i, {"type": "PlayCard", "player": 0, "card": "block"})
            out.append((time.perf_counter() - t0) * 1000)
        store.close()
    return out


def _start_to_attract(runs: int = 5) -> list[float]:
    """ms from launching ``ringside selftest`` to its attract screen being flipped."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_py.tools.cli", "selftest"], stdout=subprocess.PIPE, text=True
        )
        for line in proc.stdout:
            if "attract screen shown" in line:
                out.append((time.perf_counter() - t0) * 1000)
                break
        proc.wait()
    return out


def _peak_rss_mb(tmp: str) -> float:
    """Peak resident memory of a whole headless exhibition game (a child process)."""
    subprocess.run(
        [sys.executable, "-m", "firmware_py.tools.cli", "run", "--headless", "--seed", "3", "--data", tmp],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def run() -> list[Figure]:
    render = _render_times()
    latency = _press_to_led()
    commit = _journal_commit_ms()
    start = _start_to_attract()
    with tempfile.TemporaryDirectory() as tmp:
        rss = _peak_rss_mb(tmp)
    return [
        Figure(
            "frame render 1280×720 (Punch! play screen + flip), median",
            statistics.median(render),
            "ms",
            "≤ 4 ms",
            f"{len(render)} frames, dummy SDL driver",
        ),
        Figure("frame render, p99", percentile(render, 99), "ms", "", ""),
        Figure(
            "sim press (mock pin) → LED bar pins changed, p50",
            percentile(latency, 50),
            "ms",
            "",
            f"{len(latency)} exchanges that moved stamina",
        ),
        Figure("sim press → LED bar pins changed, p99", percentile(latency, 99), "ms", "≤ 20 ms", ""),
        Figure(
            "journal commit (fsync) per action, median",
            statistics.median(commit),
            "ms",
            "",
            "included in press → LED: an action is durable before its effect shows",
        ),
        Figure(
            "start → attract screen flipped, median",
            statistics.median(start),
            "ms",
            "≤ 2000 ms",
            f"{len(start)} launches of `ringside selftest`, incl. interpreter start",
        ),
        Figure("peak RSS during a whole Punch! game", rss, "MB", "≤ 150 MB", "headless exhibition, seed 3"),
    ]
