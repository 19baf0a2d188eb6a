"""The ``padboard-emulated`` backend: the sim cabinet with its slap pads behind the
padboard's own firmware (main.py and its files, MicroPython v1.28.0) on an emulated
RP2040 (``firmware_py.hil.board``), read by the cabinet's driver over ``socket://``.

Every slapping station of the scenario gets a pad of the board (the board has three:
ADC0-2), in seat order unless the config already puts it on a padboard pad.  A slap
goes in as the piezo model's waveform on every pad's ADC input at its emulated µs
(slaps that ring into each other go in together, crosstalk and all); the board samples
it at 20 kHz, stamps the onset and sends SLAP frames; the driver maps them through its
clock sync.  The cabinet's loop is paced by the emulated clock (0.05-0.4x wall time
here), so a scenario takes 3-20x its length in wall time, plus the board's boot.

What differs from ``sim``: stamps are the board's (its onset error, the clock sync's),
not the injected µs, so a check of an exact ``t_us`` passes only where the board got
it to the µs; ``delay_us`` (transport skew) is the real link's, not the file's; garbage
on the line cannot be injected (the board writes its own frames) and is skipped.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from firmware_py.hil.scenario import Input
from firmware_py.hil.sim_backend import BackendLacks, SimRun

NAME = "padboard-emulated"
LEAD_US = 300_000
"""A slap's waveform is computed and queued this long (emulated) before its contact:
the emulator runs on while the host computes it."""


class EmulatedLink:
    """The emulated padboard and the cabinet's driver on its USB serial, on the
    cabinet's clock: the board's emulated µs less ``offset`` (set once the driver is
    connected, so the scenario's µs are the cabinet's as on ``sim``, ``t_us`` fields
    and all; the driver itself runs on the emulated clock, whose µs start at power-up)."""

    def __init__(self, pads: dict[int, int], settle_us: int, workdir: Path, seed: int) -> None:
        from firmware_py.hil.board import emulator, image

        self.pad_of = {station: pad for pad, station in pads.items()}
        self.seed = seed
        self.offset = 0
        self.board = emulator.EmulatedPadboard(image.filesystem(), workdir)
        try:
            self.source = emulator.connect_driver(self.board, pads, settle_us)
        except Exception:
            self.board.close()
            raise

    def start_at(self, cabinet_us: int) -> list[Any]:
        """The cabinet's clock reads ``cabinet_us`` LEAD_US (emulated) from now; the
        driver's events until now (its handshake with the booting board: a HELLO answered
        twice can cost it a reconnect) are the board's boot, not the scenario's: returned."""
        now = self.board.clock.now_us()
        self.offset = now + LEAD_US - cabinet_us
        booting: list[Any] = self.source.poll(now)
        return booting

    def now_us(self) -> int:
        now: int = self.board.clock.now_us()
        return now - self.offset

    def sleep_until(self, t_us: int) -> None:
        """Until the cabinet's ``t_us`` has come on the emulated clock (paces the loop)."""
        while self.now_us() < t_us:
            if self.board.proc.poll() is not None:
                raise RuntimeError(f"the emulator exited (log: {self.board.log_path})")
            time.sleep(0.002)

    def handles(self, station: int) -> bool:
        return station in self.pad_of

    def slaps(self, slaps: list[tuple[int, int, int | None]]) -> None:
        """Queue (station, contact in cabinet µs, velocity or None) as one waveform on every pad."""
        from firmware_py.hil.board import slaps as board_slaps
        from firmware_py.sim.piezo import peak_for_velocity

        contacts = [
            (self.pad_of[s], t + self.offset, peak_for_velocity(v if v is not None else 64)) for s, t, v in slaps
        ]
        board_slaps.inject(self.board, contacts, seed=self.seed + contacts[0][1])

    def unplug(self) -> None:
        self.board.control(op="unplug")

    def replug(self) -> None:
        self.board.control(op="replug")

    def poll(self, now_us: int) -> list[Any]:
        """The driver's events, stamped on the cabinet's clock."""
        return [replace(e, t_us=e.t_us - self.offset) for e in self.source.poll(now_us + self.offset)]

    def close(self) -> None:
        try:
            self.source.close()
        finally:
            self.board.close()


def board_pads(config: Any, stations: tuple[int, ...]) -> dict[int, int]:
    """pad -> station: a config's own padboard pads, the other playing stations on the
    free ones in seat order."""
    from firmware_py.hil.board.slaps import PADS

    pads = {s.slap.pad: i for i, s in enumerate(config.stations) if s.slap.source == "padboard"}
    free = [p for p in range(PADS) if p not in pads]
    for station in stations:
        if station in pads.values():
            continue
        if not free:
            raise BackendLacks(
                f"the emulated padboard has {PADS} pads, this scenario slaps on {len(stations)} stations"
            )
        pads[free.pop(0)] = station
    if any(p >= PADS for p in pads):
        raise BackendLacks(f"the config puts a station on pad {max(pads)}; the emulated padboard has pads 0-{PADS - 1}")
    return pads


def clusters(slaps: list[Input], apart_us: int) -> list[list[Input]]:
    """Slaps in time order, grouped where one's waveform would still be ringing at the next."""
    out: list[list[Input]] = []
    for inp in sorted(slaps, key=lambda i: i.at_us):
        if out and inp.at_us - out[-1][-1].at_us <= apart_us:
            out[-1].append(inp)
        else:
            out.append([inp])
    return out


class EmulatedRun(SimRun):
    """One scenario with its slaps through the firmware on the emulated RP2040."""

    backend = NAME
    paced_timebase = "emulated"

    def _cabinet_config(self, data_dir: Path) -> Any:
        from hal.config import PadboardConfig
        from hal.timing import PADBOARD_SETTLE_US

        if any(i.action == "garbage" for i in self.scenario.inputs):  # said before the board boots
            raise BackendLacks("garbage on the line: the emulated board writes only its own frames")
        config = super()._cabinet_config(data_dir)
        self.pads = board_pads(config, self.scenario.stations)
        settle = config.padboard.settle_us if config.padboard is not None else PADBOARD_SETTLE_US
        stations = tuple(
            replace(s, slap=replace(s.slap, source="padboard", pin=None, pad=pad, settle_us=settle))
            if (pad := next((p for p, st in self.pads.items() if st == i), None)) is not None
            else s
            for i, s in enumerate(config.stations)
        )
        port = "socket://emulated"  # the driver is opened on the emulator's port by EmulatedLink
        return replace(config, stations=stations, padboard=PadboardConfig(port, settle))

    def _open_link(self, data_dir: Path) -> None:
        sc = self.scenario
        assert self.config.padboard is not None
        self.link = EmulatedLink(self.pads, self.config.padboard.settle_us, data_dir / "board", sc.seed)
        booting = self.link.start_at(sc.start_us)
        self.realtime = self.link
        self.rec.note(
            0,
            "timebase",
            emulated_offset_us=self.link.offset,
            why="padboard firmware on an emulated RP2040: the cabinet runs on its clock less emulated_offset_us",
        )
        if booting:
            self.rec.note(0, "board boot", link_events=[repr(e) for e in booting])

    def _start_timeline(self) -> None:
        """The timebase is the emulated board's, set as its link opens (:meth:`EmulatedLink.start_at`)."""

    def _schedule(self) -> None:
        from firmware_py.hil.board.slaps import AFTER_US, BEFORE_US

        link = self.link
        slaps = [i for i in self.scenario.inputs if i.action == "slap" and link.handles(i.station)]
        for inp in self.scenario.inputs:
            if inp not in slaps:
                self._schedule_input(inp)  # a station off the board slaps on the sim as before
        start = self.scenario.start_us
        for group in clusters(slaps, AFTER_US + BEFORE_US):
            batch = [(i.station, i.at_us, i.velocity) for i in group]
            self.sim.at(max(start, batch[0][1] - LEAD_US), partial(link.slaps, batch))

    def _padboard_input(self, inp: Input) -> None:
        """Unplug and replug cut and restore the emulated board's power and USB."""
        fire = self.link.unplug if inp.action == "unplug" else self.link.replug
        self.sim.at(inp.at_us, fire)
