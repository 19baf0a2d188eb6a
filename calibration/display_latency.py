"""Timing the main display with a light sensor: how long after the flip a frame is seen.

The calibration wizard's display step (when the cabinet has a ``[display]
photodiode_pin``): the screen goes dark, then bright, ``flashes`` times; each bright
frame's flip time (the cabinet's clock, the time a reveal counts from today) is paired
with the sensor's first light-on edge after it.  The panel's lag varies with where in
its scan-out the sensor sits and with the frame's phase, so the median of the flashes is
the figure, and their spread is reported with it.  The result goes into the profile
(``display_latency_us``) and from there into ``[display] latency_us``, which the
cabinet adds to every flip it reports: a card counts as revealed when it is visible.

The front end supplies the screen (``show(bright) -> flip µs``) and the waiting
(``wait(µs)``: real sleeping at the cabinet, virtual time in the simulator).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

FLASHES = 10
DARK_US = 150_000  # dark before each flash: the sensor settles, the last edge is over
WAIT_US = 200_000  # the longest lag we wait for (a panel in a slow picture mode: ~100 ms)
STEP_US = 5_000


class Sensor(Protocol):
    def first_light_after(self, t_us: int) -> int | None: ...


@dataclass(frozen=True)
class DisplayLatency:
    """The measured lag (median, µs) and what it rests on; ``latency_us`` None: failed."""

    latency_us: int | None
    samples: tuple[int, ...]
    reasons: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.latency_us is not None


def measure(
    show: Callable[[bool], int],
    wait: Callable[[int], None],
    sensor: Sensor,
    flashes: int = FLASHES,
) -> DisplayLatency:
    """Flash the screen ``flashes`` times and time each flash's light at the sensor."""
    lags: list[int] = []
    missed = 0
    for _ in range(flashes):
        show(False)
        wait(DARK_US)
        flip = show(True)
        waited = 0
        seen = sensor.first_light_after(flip)
        while seen is None and waited < WAIT_US:
            wait(STEP_US)
            waited += STEP_US
            seen = sensor.first_light_after(flip)
        if seen is None:
            missed += 1
        else:
            lags.append(seen - flip)
    show(False)
    if len(lags) < max(3, flashes // 2):
        return DisplayLatency(
            None,
            tuple(lags),
            (
                f"the light sensor saw {len(lags)} of {flashes} flashes: check that it faces the screen "
                "(a corner the game never covers), that its wire is on the configured pin, and that its "
                "trim pot lets it switch between a dark and a bright screen",
            ),
        )
    median = round(statistics.median(lags))
    spread = max(lags) - min(lags)
    return DisplayLatency(
        median,
        tuple(lags),
        (
            f"display latency {median / 1000:.1f} ms: the median of {len(lags)} flashes from flip to light "
            f"at the sensor (spread {spread / 1000:.1f} ms{f'; {missed} not seen' if missed else ''}); "
            "reveals count from then",
        ),
    )
