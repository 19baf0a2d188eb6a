"""Timing the main display with a light sensor: how long after the flip a frame is seen.

The calibration wizard's display step (when the cabinet has a ``[display]
photodiode_pin``): the screen goes dark, then bright, ``flashes`` times; each bright
frame's flip time (the cabinet's clock, the time a reveal counts from today) is paired
with the sensor's first light-on edge after it.  The panel's lag varies with where in
its scan-out the sensor sits and with the frame's phase, so the median of the flashes is
the figure, and their spread is reported with it.  The result goes into the profile
(``display_latency_us``) and from there into ``[display] latency_us``, which the
cabinet adds to every flip it reports: a card counts as revealed when it is visible.

:class:`FlashRun` is the measurement, stepped by its front end: the cabinet's calibration
scene flashes its whole screen frame by frame and reports each flip; :func:`measure`
drives it from a screen (``show(bright) -> flip µs``) and a wait (``wait(µs)``: virtual
time in the simulator).
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


class FlashRun:
    """The flashes as a sequence a front end steps through frame by frame: it shows what
    :meth:`bright` asks (a full-screen white or black frame), reports each flip with
    :meth:`flipped` and calls :meth:`poll` as time passes.  Each flash is dark for
    ``DARK_US`` from its first dark flip, then bright until the sensor's first light-on
    edge after the first bright flip (its lag) or ``WAIT_US`` (missed).  The cabinet's
    calibration scene drives it from its frames; :func:`measure` from a show/wait pair."""

    def __init__(self, sensor: Sensor, flashes: int = FLASHES) -> None:
        self.sensor = sensor
        self.flashes = flashes
        self.lags: list[int] = []
        self.missed = 0
        self._bright = False
        self._since: int | None = None  # the first flip of the current phase
        self._count = 0

    @property
    def done(self) -> bool:
        return self._count >= self.flashes

    @property
    def bright(self) -> bool:
        """What the screen should show now (dark once every flash is done)."""
        return self._bright and not self.done

    @property
    def progress(self) -> tuple[int, int]:
        return self._count, self.flashes

    def flipped(self, bright: bool, flip_us: int) -> None:
        """A frame showing ``bright`` was flipped at ``flip_us`` (the cabinet's clock)."""
        if bright == self._bright and self._since is None:
            self._since = flip_us

    def poll(self, now_us: int) -> None:
        if self.done or self._since is None:
            return
        if not self._bright:
            if now_us - self._since >= DARK_US:
                self._bright, self._since = True, None
            return
        seen = self.sensor.first_light_after(self._since)
        if seen is not None:
            self.lags.append(seen - self._since)
        elif now_us - self._since < WAIT_US:
            return
        else:
            self.missed += 1
        self._count += 1
        self._bright, self._since = False, None

    def result(self) -> DisplayLatency:
        lags, flashes, missed = self.lags, self.flashes, self.missed
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


def measure(
    show: Callable[[bool], int],
    wait: Callable[[int], None],
    sensor: Sensor,
    flashes: int = FLASHES,
) -> DisplayLatency:
    """Flash the screen ``flashes`` times and time each flash's light at the sensor
    (:class:`FlashRun`, with ``show(bright) -> flip µs`` flipping a frame now and
    ``wait(µs)`` letting time pass)."""
    run = FlashRun(sensor, flashes)
    shown = None
    now = 0
    while not run.done:
        if run.bright != shown:
            shown = run.bright
            now = show(shown)
            run.flipped(shown, now)
        run.poll(now)
        if not run.done and run.bright == shown:
            wait(STEP_US)
            now += STEP_US
    show(False)
    return run.result()
