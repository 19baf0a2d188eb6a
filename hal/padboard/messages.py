"""What the padboard tells the host, as typed values (decoded from ``wire`` payloads)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardInfo:
    """The board's answer to HELLO."""

    version: int
    pads: int
    tick_bits: int
    sample_period_us: int
    firmware: str


@dataclass(frozen=True)
class PadHit:
    """A detected hit with its raw peak (counts above baseline), for calibration."""

    pad: int
    t_us: int
    velocity: int
    peak: int


@dataclass(frozen=True)
class PadHealth:
    """One pad's front end: tracked baseline, mean |noise| while idle, largest peak and
    clipped samples (counts; peak since the last report, clipped since boot)."""

    baseline: int
    noise: int
    peak: int
    clipped: int


@dataclass(frozen=True)
class Health:
    """The board's sampling health: frames sampled and dropped since boot, the sample
    rate measured since the previous report, and every pad's front end."""

    t_us: int
    frames: int
    dropped: int
    sample_rate_hz: float
    pads: tuple[PadHealth, ...]


@dataclass(frozen=True)
class RawBlock:
    """Raw samples of some pads: ``t_us[i]`` (HAL µs) is when frame ``i`` was sampled and
    ``samples[i][j]`` the read_u16 value of pad ``pads[j]`` in it."""

    pads: tuple[int, ...]
    t_us: tuple[int, ...]
    samples: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class PadEdge:
    """A hit's rising edge as the board sampled it (every frame its DMA took, for
    calibration): ``samples[i]`` (read_u16 counts) at HAL µs ``t_us + i * period_us``;
    ``onset_us`` is the hit's stamp, which pairs the edge with its hit; ``lead``: the
    board timed it on its strike's narrow first lobe (and subtracted ``lead_us``), not on
    its main swing (the onset curve)."""

    pad: int
    onset_us: int
    t_us: int
    period_us: int
    samples: tuple[int, ...]
    lead: bool = False

    @property
    def times(self) -> tuple[int, ...]:
        return tuple(self.t_us + i * self.period_us for i in range(len(self.samples)))


@dataclass(frozen=True)
class LinkCounters:
    """What the link has seen since the driver started (all connections)."""

    frames_ok: int = 0
    bad_frames: int = 0  # CRC/COBS failures: garbage and bit flips
    garbage_bytes: int = 0  # bytes thrown away with them
    gaps: int = 0  # board frames found missing by sequence number
    recovered: int = 0  # ... of which a RESEND brought back
    duplicates: int = 0  # frames seen twice and dropped the second time
    malformed: int = 0  # frames with a good CRC but a payload that does not parse
    reconnects: int = 0
    resyncs: int = 0  # links dropped and synced again: a sequence number or clock it could not explain
    implausible: int = 0  # slaps dropped for a stamp far from their arrival
    stray: int = 0  # good-CRC frames no sequence number of the link explains (a replay, a forgery): dropped
    renumbered: int = 0  # the board's numbering taken up again from its pong to a ping (no handshake)
    repeats: int = 0  # slaps dropped because that pad's slap at that time was already delivered
