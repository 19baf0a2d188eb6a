"""Which pads a calibration covers: the slap pads the cabinet's stations use, named by
their station, never a pad no station reads (a padboard has 4 inputs, the simulated
convention hall 3 pads, a cabinet often 2 stations)."""

from __future__ import annotations

from calibration.live_gpio import gpio_edge_stations
from hal.config import CabinetConfig


def station_pads(config: CabinetConfig, pads: int, kind: str) -> dict[int, str]:
    """Pad index → the name of the station that reads it, for a source of ``pads`` pads
    of ``kind``: ``padboard`` (each station's ``slap.pad``), ``gpio-edge`` (the gpio-edge
    stations in order, as :class:`~calibration.live_gpio.LiveGpioEdge` numbers them) or
    ``simulated`` (simulated pads stand in for the stations' pads, in order)."""
    if kind == "padboard":
        return {
            s.slap.pad: s.name
            for s in config.stations
            if s.slap.source == "padboard" and s.slap.pad is not None and s.slap.pad < pads
        }
    if kind == "gpio-edge":
        return {i: config.stations[st].name for i, st in enumerate(gpio_edge_stations(config)) if i < pads}
    slapping = [s for s in config.stations if s.slap.source != "none"]
    return {i: s.name for i, s in enumerate(slapping[:pads])}


def pad_names(mapping: dict[int, str], pads: int) -> list[str]:
    """The wizard's ``names`` (indexed by pad): the station's name, "unused" for the rest."""
    return [mapping.get(p, "unused") for p in range(pads)]
