"""What a calibration step records: every pad's raw samples, every detected hit and its
rising edge at the board's full sampling rate, and every touch of the contact probe.

A :class:`Recording` is filled while the operator slaps (by a live board's reader thread
or by the virtual pads, block by block) and frozen into a :class:`Capture` when the step
ends.  It ends after its window, or early once the prompted number of slaps has been
seen on the prompted pad (hits closer than ``min_gap_us`` to the one before count as
one: an uncalibrated pad may double-trigger) and the last ring has had time to die away.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from hal.padboard.messages import PadEdge, PadHit


@dataclass(frozen=True)
class Capture:
    """One finished step: ``times[i]`` is frame ``i``'s µs, ``samples[pad][i]`` its value
    (empty when raw samples were not kept), ``hits`` what the detector reported and
    ``edges`` their rising edges as the board sampled them (none from a board without),
    ``contacts`` when the contact probe closed (µs; none without a probe)."""

    kind: str
    pad: int | None
    prompted: int
    t0_us: int
    t1_us: int
    times: tuple[int, ...]
    samples: dict[int, tuple[int, ...]]
    hits: tuple[PadHit, ...]
    frames: int
    peak_dev: dict[int, int] = field(default_factory=dict)
    edges: tuple[PadEdge, ...] = ()
    contacts: tuple[int, ...] = ()

    @property
    def duration_us(self) -> int:
        return self.t1_us - self.t0_us

    def hits_on(self, pad: int) -> list[PadHit]:
        return [h for h in self.hits if h.pad == pad]

    def edges_on(self, pad: int) -> list[PadEdge]:
        return [e for e in self.edges if e.pad == pad]


class Recording:
    """Collects frames and hits for one step (thread-safe: a live board feeds it from its
    reader thread while the UI draws :meth:`recent`)."""

    def __init__(
        self,
        kind: str,
        pads: Sequence[int],
        duration_us: int,
        pad: int | None = None,
        prompted: int = 0,
        keep_raw: bool = True,
        tail_us: int = 400_000,
        live_frames: int = 8000,
        min_gap_us: int = 150_000,
    ) -> None:
        self.kind = kind
        self.pads = tuple(pads)
        self.duration_us = duration_us
        self.pad = pad
        self.prompted = prompted
        self.keep_raw = keep_raw
        self.tail_us = tail_us
        self.min_gap_us = min_gap_us
        self.t0_us: int | None = None
        self.last_us = 0
        self._lock = threading.Lock()
        self._times: list[int] = []
        self._samples: dict[int, list[int]] = {p: [] for p in self.pads}
        self._hits: list[PadHit] = []
        self._edges: list[PadEdge] = []
        self._contacts: list[int] = []
        self._frames = 0
        self._live: deque[tuple[int, tuple[int, ...]]] = deque(maxlen=live_frames)

    def start(self, t_us: int) -> None:
        self.t0_us = t_us
        self.last_us = t_us

    @property
    def deadline_us(self) -> int:
        assert self.t0_us is not None, "recording not started"
        return self.t0_us + self.duration_us

    def add_frames(self, times: Sequence[int], rows: Sequence[Sequence[int]]) -> None:
        """Frames whose samples are in the order of ``self.pads``."""
        with self._lock:
            self._frames += len(times)
            if self.keep_raw:
                self._times.extend(times)
                for j, p in enumerate(self.pads):
                    self._samples[p].extend(r[j] for r in rows)
            self._live.extend(zip(times, (tuple(r) for r in rows)))
            if times:
                self.last_us = max(self.last_us, times[-1])

    def add_hit(self, hit: PadHit) -> None:
        with self._lock:
            self._hits.append(hit)

    def add_edge(self, edge: PadEdge) -> None:
        with self._lock:
            self._edges.append(edge)

    def add_contact(self, t_us: int) -> None:
        with self._lock:
            self._contacts.append(t_us)

    def hits(self) -> list[PadHit]:
        with self._lock:
            return list(self._hits)

    def finished(self, now_us: int) -> bool:
        """Window over, or the prompted slaps are in and the last one has rung out."""
        if self.t0_us is None:
            return False
        if now_us >= self.deadline_us:
            return True
        if self.prompted and self.pad is not None:
            with self._lock:
                mine = [h.t_us for h in self._hits if h.pad == self.pad]
            distinct = [t for k, t in enumerate(mine) if k == 0 or t - mine[k - 1] >= self.min_gap_us]
            if len(distinct) >= self.prompted and now_us - mine[-1] >= self.tail_us:
                return True
        return False

    def recent(self, span_us: int) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]], list[PadHit]]:
        """The last ``span_us`` of frames and the hits in it, for the live view."""
        with self._lock:
            live = list(self._live)
            hits = list(self._hits)
        if not live:
            return (), {p: () for p in self.pads}, []
        t_end = live[-1][0]
        live = [f for f in live if f[0] >= t_end - span_us]
        times = tuple(f[0] for f in live)
        samples = {p: tuple(f[1][j] for f in live) for j, p in enumerate(self.pads)}
        return times, samples, [h for h in hits if h.t_us >= t_end - span_us]

    def capture(self, end_us: int | None = None) -> Capture:
        with self._lock:
            assert self.t0_us is not None
            return Capture(
                kind=self.kind,
                pad=self.pad,
                prompted=self.prompted,
                t0_us=self.t0_us,
                t1_us=end_us if end_us is not None else self.last_us,
                times=tuple(self._times),
                samples={p: tuple(v) for p, v in self._samples.items()},
                hits=tuple(sorted(self._hits, key=lambda h: h.t_us)),
                frames=self._frames,
                edges=tuple(sorted(self._edges, key=lambda e: e.onset_us)),
                contacts=tuple(sorted(self._contacts)),
            )
