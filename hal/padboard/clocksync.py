"""Board clock → HAL clock: offset and drift from ping/pong exchanges.

Each ping tells us that the board read its timer when the ping came in (``board``)
after the host sent it (``send``), and again just before it wrote the pong
(``board_sent``, the same reading from a board that reports one) before the host
received that (``recv``).  With the model ``host = c + k·(board − ref)``, the line must
pass above every ``(board, send)`` point and below every ``(board_sent, recv)`` point.
Two readings keep the board's own work on the ping (reading the rest of the frame,
decoding, answering) out of both one-way delays: with one reading it falls wholly on
one side, and shifts every stamp by half of it (issue 32, docs/board-testing.md).  Only the convex hull of each point
set can ever bind, and the hull is made of the exchanges with the shortest one-way
delay in that direction: min-RTT filtering made sharper, since the two directions'
best exchanges need not be the same ping, and slow round trips never bind at all.

The drift ``k`` is the mean of the two sides' slopes, each the line that hugs its hull
closest on average over the window (a linear programme, solved by golden-section search
within ±``max_drift_ppm``), kept within the middle half of the drifts the exchanges
allow; the offset ``c`` is the middle of the band the hulls leave at that drift, reached
by slewing: a refit moves the mapping of "now" by ``max_step_us`` at most, unless the
exchanges rule out where it was. A pong whose delay one way is the shortest yet moves
the middle by half what it tightens (170 µs seen on the emulated board): stepped, two
slaps a pong apart, a near tie's, would be timed against two different clocks. Until the
window spans ``min_span_us`` the drift is not estimated but taken from
``prior_drift_ppm`` (the driver passes the last estimate for the same board across
reconnects). A long window (60 s at 10 pings/s) pins the drift well enough that the
extrapolation to "now" stays within a few µs. Only a constant asymmetry between the two
directions' *shortest* delays stays invisible (as to any round-trip method): it shifts
every stamp by half that asymmetry.

Board ticks wrap (MicroPython's ``ticks_us`` at 2**30); they are extended to an
unbounded count around the board time predicted for when they arrived.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PingSample:
    """One exchange: host send time, extended board ticks when the ping came in, host
    receive time, extended board ticks just before the pong went out (µs)."""

    send_us: int
    board: int
    recv_us: int
    board_sent: int


class ClockSync:
    """Fits and applies the board → host mapping; pure, clock-free, thread-unsafe."""

    def __init__(
        self,
        tick_bits: int = 30,
        window: int = 600,
        max_drift_ppm: float = 300.0,
        prior_drift_ppm: float = 0.0,
        min_span_us: int = 2_000_000,
        max_step_us: float = 25.0,
    ) -> None:
        self.period = 1 << tick_bits
        self.max_drift = max_drift_ppm * 1e-6
        self.prior_k = 1 / (1 + prior_drift_ppm * 1e-6)
        self.min_span_us = min_span_us
        self.max_step_us = max_step_us
        self._samples: deque[PingSample] = deque(maxlen=window)
        self._ref: int | None = None
        self._c = 0.0
        self._k = 1.0
        self._margin = 0.0
        self._lag = 0.0
        self.rtt_min_us: int | None = None

    @property
    def count(self) -> int:
        return len(self._samples)

    @property
    def samples(self) -> tuple[PingSample, ...]:
        """The window's exchanges, oldest first, ticks extended."""
        return tuple(self._samples)

    @property
    def span_us(self) -> int:
        """Board time covered by the window; the drift is estimated once it is long enough."""
        return self._samples[-1].board - self._samples[0].board if self._samples else 0

    @property
    def drift_ppm(self) -> float:
        """How much faster the board's timer runs than the host clock."""
        return (1 / self._k - 1) * 1e6

    @property
    def uncertainty_us(self) -> float:
        """Half the width of the band at the chosen drift, plus how far the slewed mapping
        still is from its middle: the offset error bound if the drift estimate were exact,
        and nothing were known about the delays; 0 if the exchanges contradict each other
        (a board reset mid-window)."""
        return max(0.0, self._margin / 2) + self._lag

    def extend(self, ticks: int, near_host_us: int) -> int:
        """Wrapped board ``ticks`` as an unbounded count, picking the wrap nearest to the
        board time predicted at host time ``near_host_us``."""
        if self._ref is None:
            return ticks
        predicted = self._ref + (near_host_us - self._c) / self._k
        return ticks + self.period * round((predicted - ticks) / self.period)

    def add(self, send_us: int, board_ticks: int, recv_us: int, board_sent_ticks: int | None = None) -> None:
        """Record one ping exchange and refit; ``board_sent_ticks`` (the board's reading
        just before it wrote the pong) defaults to ``board_ticks``."""
        if recv_us < send_us:
            raise ValueError("pong received before its ping was sent")
        rtt = recv_us - send_us
        self.rtt_min_us = rtt if self.rtt_min_us is None else min(self.rtt_min_us, rtt)
        board = self.extend(board_ticks, (send_us + recv_us) // 2)
        answer_ticks = board_ticks if board_sent_ticks is None else board_sent_ticks
        board_sent = board + (answer_ticks - board_ticks) % self.period  # within one wrap of it
        if self._ref is None:
            self._ref = board
            self._c = (send_us + recv_us) / 2
        self._samples.append(PingSample(send_us, board, recv_us, board_sent))
        self._fit()

    def to_host(self, board_ticks: int, near_host_us: int) -> int:
        """HAL µs of a board stamp that arrived around host time ``near_host_us``."""
        if self._ref is None:
            raise RuntimeError("no clock sync yet: no pong received")
        x = self.extend(board_ticks, near_host_us) - self._ref
        return round(self._c + self._k * x)

    def outside_us(self, send_us: int, board_ticks: int, recv_us: int) -> int:
        """How far the board's reading of a ping maps outside that ping's round trip
        (``send_us`` to ``recv_us``), beyond what the fit itself cannot tell (half its
        band: early on, half the one round trip it may rest on); 0 when it fits.  A board
        whose clock jumped (a restart) answers far outside; a host thread stalled while
        a first pong waited to be read only widened the band, and must not look like one
        (issue 29: a 159 ms stall on the first pong put the next one 77 ms "late")."""
        read_at = self.to_host(board_ticks, (send_us + recv_us) // 2)
        slack = self.uncertainty_us
        return round(max(0.0, send_us - slack - read_at, read_at - recv_us - slack))

    def _fit(self) -> None:
        ref = self._ref
        assert ref is not None  # set by the first pong, before any fit
        samples = self._samples
        lows = _hull([(s.board - ref, s.send_us) for s in samples], upper=True)
        highs = _hull([(s.board_sent - ref, s.recv_us) for s in samples], upper=False)
        mean_x = sum(s.board - ref for s in samples) / len(samples)

        def low(k: float) -> float:
            return max(t - k * x for x, t in lows)

        def high(k: float) -> float:
            return min(t - k * x for x, t in highs)

        if self.span_us < self.min_span_us:
            k = self.prior_k  # a short window cannot tell drift from delay noise
        else:
            k_low = self._golden(lambda k: low(k) + k * mean_x)
            k_high = self._golden(lambda k: -(high(k) + k * mean_x))
            k = self._within_band((k_low + k_high) / 2, lambda k: high(k) - low(k))
        lo, hi = low(k), high(k)
        middle = (lo + hi) / 2
        if lo <= hi:  # slewed: where the old mapping put the newest exchange, moved a step at most
            x = samples[-1].board - ref
            was = self._c + (self._k - k) * x
            c = min(max(middle, was - self.max_step_us), was + self.max_step_us)
            c = min(max(c, lo), hi)
        else:
            c = middle
        self._k, self._c, self._margin, self._lag = k, c, hi - lo, abs(c - middle)

    def _within_band(self, k: float, band: Callable[[float], float]) -> float:
        """``k`` moved, if need be, into the middle half of the drifts the exchanges allow
        (where the concave ``band`` is not negative), so it keeps at least a quarter of the
        widest band.  Each side's slope is one hull edge's, and over a few seconds of
        noisy delays their mean can be a drift some exchange rules out: a negative band,
        offsets of half a millisecond (issue 29's emulated board under load).  If every
        drift is ruled out (a board reset mid-window), the least contradicted one."""
        widest = self._golden(lambda k: -band(k))
        if band(widest) < 0:
            return widest
        lowest, highest = self._k_range()
        first, last = _edge(band, widest, lowest), _edge(band, widest, highest)
        quarter = (last - first) / 4
        return min(max(k, first + quarter), last - quarter)

    def _k_range(self) -> tuple[float, float]:
        """The ``k`` of the fastest and slowest board the drift allows (±``max_drift_ppm``)."""
        return 1 / (1 + self.max_drift), 1 / (1 - self.max_drift)

    def _golden(self, f: Callable[[float], float]) -> float:
        """The k in the allowed drift range that minimises the convex ``f``."""
        a, b = self._k_range()
        g = (math.sqrt(5) - 1) / 2
        k1, k2 = b - g * (b - a), a + g * (b - a)
        f1, f2 = f(k1), f(k2)
        while b - a > 1e-10:
            if f1 > f2:
                a, k1, f1 = k1, k2, f2
                k2 = a + g * (b - a)
                f2 = f(k2)
            else:
                b, k2, f2 = k2, k1, f1
                k1 = b - g * (b - a)
                f1 = f(k1)
        return (a + b) / 2


def _edge(band: Callable[[float], float], inside: float, bound: float) -> float:
    """The last drift from ``inside`` (where ``band`` ≥ 0) towards ``bound`` that keeps
    ``band`` ≥ 0: bisection, to the precision of ``ClockSync._golden``."""
    if band(bound) >= 0:
        return bound
    outside = bound
    while abs(outside - inside) > 1e-10:
        middle = (inside + outside) / 2
        if band(middle) >= 0:
            inside = middle
        else:
            outside = middle
    return inside


def _hull(points: list[tuple[float, float]], upper: bool) -> list[tuple[float, float]]:
    """Upper (or lower) convex hull of points sorted by x (monotone chain)."""
    out: list[tuple[float, float]] = []
    sign = 1 if upper else -1
    for p in points:
        while len(out) >= 2:
            (x1, y1), (x2, y2) = out[-2], out[-1]
            cross = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
            if sign * cross >= 0:
                out.pop()
            else:
                break
        out.append(p)
    return out
