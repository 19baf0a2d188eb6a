"""Private OLEDs on an I2C bus that takes real time (a frame is ~90 ms at the Pi's default
100 kHz, ~23 ms at 400 kHz): with the OLED worker, Karate Fight's decision latency and
the main loop's frame time stay what they are with an instant bus.  Without the worker
(each image written by the main loop, for comparison) they do not."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable
from typing import Any

from tests.bench.bench_karate_cabinet import decision_latencies
from tests.bench.harness import Figure, percentile

TITLE = "Private OLEDs on a real-speed I2C bus: Karate decisions and frame time"

CASES = int(os.environ.get("RINGSIDE_BENCH_OLED_CASES", "150"))
"""Near-tie Hits per bus setting (the environment variable makes a quick smoke run)."""


def oleds_on(bitrate: int | None, worker: bool = True) -> Callable[[Any], Any]:
    """Put the simulated cabinet's private displays on luma's real SSD1306 driver over a
    fake-rpi bus that sleeps as long as each write takes at ``bitrate`` (None: instant)."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from hal.oled_worker import OledWorkers, PageWriter
    from tests.i2c_bus import RecordingSMBus

    def fit(sim: Any) -> Any:
        stations = sim.config.stations
        buses = {s.private_display.i2c_bus: RecordingSMBus(bitrate=bitrate) for s in stations}
        devices = [
            (
                s.private_display.i2c_bus,
                ssd1306(i2c(bus=buses[s.private_display.i2c_bus], address=s.private_display.address)),
            )
            for s in stations
        ]
        if worker:
            oleds = OledWorkers(list(devices))
            sim.show_private = oleds.show
            return oleds
        writers = [PageWriter(d) for _bus, d in devices]
        sim.show_private = lambda station, image: writers[station].write(image)
        return None

    return fit


def full_frame_bus_ms(bitrate: int) -> float:
    """Bus time of one whole 128×64 frame through luma's driver."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306
    from PIL import Image, ImageDraw

    from hal.oled_worker import PageWriter
    from tests.i2c_bus import RecordingSMBus

    bus = RecordingSMBus(bitrate=bitrate)
    writer = PageWriter(ssd1306(i2c(bus=bus, address=0x3C)))
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=255, fill=255)
    bus.busy_s = 0.0
    writer.write(image)
    return bus.busy_s * 1000


def measure(bitrate: int | None, worker: bool, cases: int) -> tuple[list[float], list[float]]:
    frames: list[float] = []
    lat, _effect, _correct = decision_latencies(
        cases=cases, seed=3, fit_hardware=oleds_on(bitrate, worker), frame_work_us=frames
    )
    return lat, frames


def run() -> list[Figure]:
    figures = [
        Figure("bus time of a whole OLED frame at 100 kHz", full_frame_bus_ms(100_000), "ms", "≈ 90 ms", "fake bus"),
        Figure("bus time of a whole OLED frame at 400 kHz", full_frame_bus_ms(400_000), "ms", "≈ 23 ms", "fake bus"),
    ]
    for label, bitrate, worker, cases in (
        ("instant bus", None, True, CASES),
        ("100 kHz bus, worker", 100_000, True, CASES),
        ("400 kHz bus, worker", 400_000, True, CASES),
        ("100 kHz bus, no worker (for comparison)", 100_000, False, max(10, CASES // 5)),
    ):
        lat, frames = measure(bitrate, worker, cases)
        figures += [
            Figure(
                f"{label}: Hit decided after the settle window, p99",
                percentile(lat, 99),
                "µs",
                "unchanged vs instant" if worker else "",
                f"{len(lat)} near-tie Hits, 4-station cabinet, luma ssd1306 on a fake-rpi bus",
            ),
            Figure(
                f"{label}: main-loop work per frame, p50",
                percentile(frames, 50) / 1000,
                "ms",
                "",
                f"{len(frames)} frames (steps + render)",
            ),
            Figure(
                f"{label}: main-loop work per frame, p99",
                percentile(frames, 99) / 1000,
                "ms",
                "unchanged vs instant" if worker else "",
                "",
            ),
        ]
    return figures
