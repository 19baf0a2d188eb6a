"""Slap onset detector: one piezo sample per pad per frame in, hits out.

This file runs unchanged on the board (MicroPython) and on the host (CPython), so the
simulator and the tests exercise the very code the board runs.  It keeps to the
MicroPython subset: builtins and ``math`` only, integer arithmetic on the per-sample
path, no allocation while nothing happens.

Per pad: the baseline follows a slow IIR (frozen while a hit is being scanned); an
onset is the first sample whose distance from the baseline reaches the threshold, and
it is stamped then, interpolated back along the rising edge between that sample and
the one before.  The scan time that follows only measures the peak (the velocity); it
never moves the stamp.  The mask time blocks new onsets, after which a retrigger
threshold, starting at a share of the last peak and decaying exponentially, keeps the
ring of that hit from firing again.  Crosstalk: a finished hit waits until every onset
within its crosstalk window is known and scanned, and is dropped if another pad's hit
in that window is stronger than its own peak by more than the crosstalk ratio.

Times are board ticks (µs) that wrap at 2**30, as MicroPython's ``ticks_us`` does;
every comparison goes through :func:`ticks_diff`.
"""

import math

try:  # on the board wire.py sits beside this file
    from hal.padboard import wire
except ImportError:
    import wire

TICKS_PERIOD = 1 << 30
TICKS_MASK = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD >> 1

CLIP_LOW = 64  # read_u16 counts at or beyond which a sample counts as clipped
CLIP_HIGH = 65535 - 64

IDLE = 0
SCAN = 1
MASK = 2
RETRIG = 3

_NOTHING = ()


try:  # MicroPython: the C version, which allocates nothing on the per-sample path
    from time import ticks_diff
except ImportError:

    def ticks_diff(a, b):
        """a - b on the wrapping tick circle (same as MicroPython's ``time.ticks_diff``)."""
        return ((a - b + _HALF) & TICKS_MASK) - _HALF


def velocity(peak, threshold, sensitivity, curve):
    """MIDI-style velocity 1..127 of a hit whose peak is ``peak`` counts above baseline."""
    span = sensitivity - threshold
    if span <= 0 or peak >= sensitivity:
        return 127
    x = (peak - threshold) / span
    if x <= 0:
        return 1
    v = 1 + int(126 * math.pow(x, curve / 100) + 0.5)
    return 127 if v > 127 else v


class _Pad:
    def __init__(self):
        self.base_fp = -1  # baseline << 8; -1 until the first sample
        self.noise_fp = 0  # mean |deviation| << 8 while idle
        self.peak_max = 0
        self.clipped = 0
        self.phase = IDLE
        self.onset = 0
        self.peak = 0
        self.rt_level = 0.0
        self.prev_t = 0
        self.prev_dev = 0
        self.quiet_t = 0
        self.configure({})

    def configure(self, settings):
        s = wire.clamp_settings(settings)
        self.thr = s["threshold"]
        self.sens = s["sensitivity"]
        self.curve = s["curve"]
        self.scan = s["scan_us"]
        self.mask = s["mask_us"]
        self.rt_pct = s["retrigger_pct"]
        self.rt_tau = s["retrigger_decay_us"]
        self.xt_pct = s["xtalk_pct"]
        self.xt_win = s["xtalk_window_us"]
        self.shift = s["baseline_shift"]


class Detector:
    """Onset detection for ``pads`` pads; ``settings`` is a list of per-pad dicts
    (fields as in ``wire.SETTINGS_FIELDS``; missing fields take their defaults)."""

    def __init__(self, pads, settings=None):
        self.pads = [_Pad() for _ in range(pads)]
        self.pending = []  # [pad, onset, peak] scanned, awaiting the crosstalk verdict
        self.recent = []  # [pad, onset, peak] emitted, kept for the crosstalk window
        if settings:
            for i in range(pads):
                self.configure(i, settings[i])

    def configure(self, pad, settings):
        self.pads[pad].configure(settings)

    def process(self, t, samples):
        """Feed one frame: ``t`` board ticks, one read_u16 sample per pad.  Returns the
        hits decided at this frame as ``(pad, onset_ticks, velocity, peak)`` tuples."""
        i = 0
        for p in self.pads:
            x = samples[i]
            if x <= CLIP_LOW or x >= CLIP_HIGH:
                p.clipped += 1
            if p.base_fp < 0:
                p.base_fp = x << 8
                p.prev_t = p.quiet_t = t
            dev = x - (p.base_fp >> 8)
            if dev < 0:
                dev = -dev
            ph = p.phase
            if ph == SCAN:
                if dev > p.peak:
                    p.peak = dev
                if ticks_diff(t, p.onset) >= p.scan:
                    self._scanned(i, p)
            else:
                level = p.thr
                if ph == MASK:
                    el = ticks_diff(t, p.onset)
                    if el < p.mask:
                        level = 0x3FFFFFFF  # nothing fires; stays a small int
                    else:
                        ph = p.phase = RETRIG
                if ph == RETRIG:
                    dyn = p.rt_level * math.exp(-ticks_diff(t, p.onset) / p.rt_tau)
                    if dyn > level:
                        level = dyn
                    else:
                        ph = p.phase = IDLE
                if dev >= level:
                    p.onset = self._stamp(p, t, dev)
                    p.peak = dev
                    p.phase = SCAN
                    if p.scan <= 0:
                        self._scanned(i, p)
                else:
                    p.base_fp += ((x << 8) - p.base_fp) >> p.shift
                    if ph == IDLE:
                        p.noise_fp += ((dev << 8) - p.noise_fp) >> 8
                    p.prev_t = t
                    p.prev_dev = dev
                    if dev <= p.thr >> 2:
                        p.quiet_t = t
            i += 1
        if self.pending:
            return self._decide(t)
        return _NOTHING

    def _scanned(self, i, p):
        self.pending.append([i, p.onset, p.peak])
        if p.peak > p.peak_max:
            p.peak_max = p.peak
        p.rt_level = p.peak * p.rt_pct / 100
        p.phase = MASK

    def _stamp(self, p, t, dev):
        """Onset time: extrapolate the edge through the previous sample back to the
        baseline, but not before the last sample that was still within a quarter of
        the threshold (nor more than four frame periods back)."""
        dt = ticks_diff(t, p.prev_t)
        rise = dev - p.prev_dev
        if dt <= 0 or rise <= 0:
            return t
        back = dt * dev // rise
        limit = ticks_diff(t, p.quiet_t)
        if limit > 4 * dt:
            limit = 4 * dt
        if back > limit:
            back = limit
        return (t - back) & TICKS_MASK

    def _decide(self, t):
        out = []
        keep = []
        for c in self.pending:
            pad = self.pads[c[0]]
            if pad.xt_pct > 0 and not self._settled(c, pad, t):
                keep.append(c)
                continue
            if pad.xt_pct > 0 and self._crosstalk(c, pad):
                continue
            out.append((c[0], c[1], velocity(c[2], pad.thr, pad.sens, pad.curve), c[2]))
            self.recent.append(c)
        self.pending = keep
        if self.recent:
            self.recent = [r for r in self.recent if ticks_diff(t, r[1]) <= 20000 + self.pads[r[0]].scan]
        return out

    def _settled(self, c, pad, t):
        """True once every onset within this hit's window is known and fully scanned."""
        if ticks_diff(t, c[1]) < pad.xt_win:
            return False
        for j in range(len(self.pads)):
            q = self.pads[j]
            if j != c[0] and q.phase == SCAN and abs(ticks_diff(q.onset, c[1])) <= pad.xt_win:
                return False
        return True

    def _crosstalk(self, c, pad):
        bar = c[2] * 100
        for lst in (self.pending, self.recent):
            for o in lst:
                if o[0] != c[0] and o[2] * pad.xt_pct > bar and abs(ticks_diff(o[1], c[1])) <= pad.xt_win:
                    return True
        return False

    def health(self, pad):
        """(baseline, noise, largest peak since the last call, clipped samples) of a pad."""
        p = self.pads[pad]
        peak = p.peak_max
        p.peak_max = 0
        return (max(p.base_fp, 0) >> 8, p.noise_fp >> 8, peak, p.clipped)
