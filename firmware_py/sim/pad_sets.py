"""Simulated pad sets: whole cabinets of slap pads with known faults, as virtual pads.

Each set is a few piezo pads (:class:`~firmware_py.sim.piezo.PiezoPad`: noise, gain,
ring, drift) on a table with its crosstalk.  :func:`virtual_cabinet` turns one into
:class:`~calibration.virtual.VirtualPads` running the board's own detector in virtual
time, so calibration (``ringside calibrate --sim``, the calibration scene on a cabinet
without a padboard), its tests and its benchmarks see what a real cabinet would show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calibration.virtual import VirtualPads
from firmware_py.padboard.detector import Detector
from firmware_py.sim.padboard import PROBE_IRQ_US
from firmware_py.sim.piezo import PiezoModel, PiezoPad, SlapSignal
from hal.padboard.settings import PadSettings


@dataclass(frozen=True)
class SimCabinetSpec:
    """Pads with known noise, gain, ring and drift, and the table's crosstalk."""

    name: str
    pads: tuple[PiezoPad, ...]
    crosstalk: float
    about: str


SIM_CABINETS = {
    "quiet": SimCabinetSpec(
        "quiet",
        (
            PiezoPad(noise=80, gain=1.0, ring_tau_us=8000),
            PiezoPad(noise=100, gain=0.8, ring_hz=220, ring_tau_us=9000),
        ),
        0.12,
        "2 pads, quiet room, pads on separate stands",
    ),
    "hall": SimCabinetSpec(
        "hall",
        (
            PiezoPad(noise=120, gain=1.0, ring_tau_us=10000),
            PiezoPad(noise=400, gain=2.4, ring_hz=200, ring_tau_us=9000),
            PiezoPad(noise=60, gain=0.45, ring_hz=280, ring_tau_us=7000),
        ),
        0.2,
        "3 pads on one table in a convention hall: one noisy hot pad, one insensitive pad",
    ),
    "rough": SimCabinetSpec(
        "rough",
        (
            PiezoPad(noise=150, gain=1.2, ring_hz=180, ring_tau_us=25000),
            PiezoPad(noise=100, gain=1.0, drift=2500, drift_period_s=2.0),
            PiezoPad(noise=250, gain=1.5, ring_tau_us=12000),
            PiezoPad(noise=90, gain=0.7, ring_hz=300, ring_tau_us=6000),
        ),
        0.25,
        "4 pads, shaky table: a long-ringing pad, a drifting baseline, strong crosstalk",
    ),
}


def make_detector(settings: list[dict[str, int]]) -> Detector:
    return Detector(len(settings), settings)


def virtual_cabinet(
    name: str,
    seed: int = 1,
    settings: Sequence[PadSettings] | None = None,
    comparator: Sequence[int] | None = None,
    probe: bool = False,
) -> VirtualPads:
    """The pad set ``name`` as virtual pads; ``comparator`` (counts per pad) makes them
    gpio-edge pads behind a comparator instead of the detector; ``probe``: the contact
    probe is worn."""
    spec = SIM_CABINETS[name]
    model = SlapSignal(PiezoModel(spec.pads, seed=seed, crosstalk=spec.crosstalk))
    return VirtualPads(
        model,
        make_detector,
        len(spec.pads),
        settings,
        comparator=comparator,
        probe_irq_us=PROBE_IRQ_US if probe else None,
    )
