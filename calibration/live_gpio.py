"""gpio-edge comparator lines as a calibration source.

A comparator gives edges, not a signal: every edge before the mask is recorded as a hit
(velocity 0), which is what the gpio-edge fit needs to see a slap's chatter and a
flurry's gaps.  There are no detector settings on the line; what the fit finds (mask
time) is stored in the profile and applied by the cabinet when it opens the lines.
Pads are the stations whose slap source is gpio-edge, in station order.
"""

from __future__ import annotations

from dataclasses import replace

from calibration.capture import Capture, Recording
from hal.clock import Clock
from hal.config import CabinetConfig
from hal.edge_timing import EdgeWalk
from hal.gpio_edge import GpioEdgeSource
from hal.padboard.messages import PadHit
from hal.padboard.settings import PadSettings
from hal.timing import GPIO_EDGE_SETTLE_US


class LiveGpioEdge:
    analog = False
    realtime = True
    sample_period_us = 1

    def __init__(self, sources: list[GpioEdgeSource], stations: list[int], clock: Clock) -> None:
        self.sources = sources
        self.stations = stations
        self.pads = len(stations)
        self.clock = clock
        self._pad_of = {station: pad for pad, station in enumerate(stations)}
        self._settings = [PadSettings() for _ in stations]

    def now_us(self) -> int:
        return self.clock.now_us()

    def read_settings(self, pad: int) -> PadSettings:
        return self._settings[pad]

    def write_settings(self, pad: int, settings: PadSettings) -> PadSettings:
        """A comparator line has no detector to configure: kept only so the wizard's
        restore-on-abort has something to restore."""
        self._settings[pad] = settings
        return settings

    def save_settings(self) -> None:
        """Nothing lives on the line itself; the profile holds the mask times."""

    def begin(self, rec: Recording) -> None:
        rec.start(self.now_us())

        def edge(station: int, t_us: int) -> None:
            pad = self._pad_of.get(station)
            if pad is not None:
                rec.add_hit(PadHit(pad, t_us, 0, 0))

        for source in self.sources:
            source.on_edge = edge

    def pump(self, rec: Recording, until_us: int) -> None:
        """Edges arrive on the pin's thread by themselves."""

    def end(self, rec: Recording) -> Capture:
        for source in self.sources:
            source.on_edge = None
        return rec.capture(self.now_us())


def gpio_edge_stations(config: CabinetConfig) -> list[int]:
    """The stations whose slap pads are gpio-edge lines: the pads of a gpio-edge profile."""
    return [i for i, s in enumerate(config.stations) if s.slap.source == "gpio-edge"]


def apply_gpio_masks(config: CabinetConfig, masks: dict[int, int]) -> CabinetConfig:
    """The config with each gpio-edge station's mask time taken from a profile's fit."""
    stations = list(config.stations)
    for pad, station in enumerate(gpio_edge_stations(config)):
        if pad in masks:
            stations[station] = replace(stations[station], slap=replace(stations[station].slap, mask_us=masks[pad]))
    return replace(config, stations=tuple(stations))


def apply_gpio_rings(config: CabinetConfig, rings: dict[int, int]) -> CabinetConfig:
    """The config with each gpio-edge station's ring period (its stamps corrected for the
    force by the first pulse's width) and a settle window that also covers that pulse: the
    slap is reported when the pulse ends."""
    stations = list(config.stations)
    for pad, station in enumerate(gpio_edge_stations(config)):
        ring = rings.get(pad, 0)
        if ring:
            slap = stations[station].slap
            settle = max(slap.settle_us, GPIO_EDGE_SETTLE_US + EdgeWalk(ring).longest_pulse_us)
            stations[station] = replace(stations[station], slap=replace(slap, ring_us=ring, settle_us=settle))
    return replace(config, stations=tuple(stations))
