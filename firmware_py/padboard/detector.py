"""Slap onset detector: piezo samples of every pad in, hits out.

The overview is the comment below: the board compiles this file as it boots and holds
every docstring in its heap until the compile ends (27 KB of them; issue 31, i31j)."""

# This file runs unchanged on the board (MicroPython) and on the host (CPython), so the
# simulator and the tests exercise the very code the board runs.  It keeps to the
# MicroPython subset: builtins and ``math`` only, integer arithmetic on the per-sample
# path, no allocation while nothing happens.
#
# Samples arrive as the board's DMA writes them: a ring of frames, one sample per pad per
# frame, interleaved (frame ``k`` of pad ``i`` is ``ring[(k % frames) * pads + i]``), every
# frame ``frame_us`` after the one before (:meth:`Detector.feed`).  :meth:`Detector.process`
# takes one frame at a time into a ring of the detector's own, for callers without DMA.
#
# Two rates.  The state machine below looks at one frame every ``STATE_US`` (4 kHz):
# settings such as the baseline follow are tuned per such frame; the state frames where
# nothing can happen but the baselines following run in :func:`_gate`, machine code on
# the board (viper: MicroPython alone did not keep up).  Onsets are looked for on every
# frame the ADC took (20 kHz on the board): at each state frame, the samples since the
# one before too, either way (a real pad's first lobe can be narrower than a state frame).
# The onset is then measured on those frames, which the ring still holds:
#
# - Per pad, the baseline follows a slow IIR (frozen while a hit is scanned); a hit starts
#   at the first sample whose distance from the baseline reaches the threshold, and the scan that
#   follows finds its peak (the velocity: the strike's main swing, whichever way it goes).
#   The mask time then blocks new onsets, after which a retrigger threshold, starting at a
#   share of the last peak and decaying exponentially, keeps the ring of that hit from
#   firing again.  The ring model (``second_pct`` set; calibration fits it to a pad whose
#   ring no mask can cover): the line is the ring, fading with the pad's own time
#   constant from over its peak, on top of the threshold; a hit that rises less than
#   ``second_pct`` % of the last slap over that ring (the palm's second contact), or whose
#   peak is under the threshold, is no slap, and its ring joins the line.  Once the mask
#   has ended the ring is fitted with its phase (on the samples that did not clip) and
#   predicted on: then only a rise over that prediction starts a hit, and the hit's edge
#   is timed with the predicted ring taken off (``Detector._over_ring``).
# - The onset is *not* the threshold crossing: a palm presses for a millisecond or so and
#   the signal leaves the baseline smoothly, so a soft slap crosses the threshold near its
#   peak and a hard one early, up to a millisecond apart for the same contact time.  The
#   detector times the rising edge where it is steepest and least disturbed by noise, at
#   half the hit's own peak (a straight line fitted through the full-rate samples between
#   a quarter and three quarters of the peak: constant-fraction timing), and subtracts
#   the pad's delay from contact to that point.  A real pad's strike timed on its first
#   lobe (a narrow swing against the main one, crossing or not), the contact's own
#   answer, subtracts the pad's lobe delay; one timed on a pre swing (narrow, the main
#   swing's way, from the contact) is timed where its edge's line meets the baseline.
#   Timed on a smooth swing, the delay depends a little on the force:
#   ``onset_us`` at a peak of ``ONSET_REF`` counts, times (peak/ONSET_REF)^(−onset_exp/1000).
#   Calibration measures that curve per pad (docs/slap-timing.md).
# - Crosstalk: a finished hit waits until every onset within its crosstalk window is known
#   and scanned, and is dropped if another pad's hit in that window is stronger than its
#   own peak by more than the crosstalk ratio and could have caused it.  Crosstalk never
#   starts before the slap that causes it, and it carries that slap's force (a short,
#   hard contact), so the candidate is timed as a slap that hard on its pad would be; if
#   that still puts it clearly before the other hit, it is a real slap that came first
#   and is kept.
#
# Times are board ticks (µs) that wrap at 2**30, as MicroPython's ``ticks_us`` does;
# every comparison goes through :func:`ticks_diff`.

import math
from array import array

try:  # on the board wire.py sits beside this file
    from hal.padboard import wire
except ImportError:
    import wire

TICKS_PERIOD = 1 << 30
TICKS_MASK = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD >> 1

CLIP_LOW = 64  # read_u16 counts at or beyond which a sample counts as clipped
CLIP_HIGH = 65535 - 64

STATE_US = 250  # the state machine's frame period
ONSET_REF = 10000  # the peak (counts above baseline) at which the onset delay is onset_us
EDGE_BACK_US = 6000  # the rising edge is searched this far before the threshold crossing
FIT_NEAR_US = 100  # the edge's line is kept within this of the sample pair crossing half the peak
LOBE_BACK_US = 1200  # a first lobe under the threshold is looked for this far before the main swing's crossing
BASE_FROM_US = 4000  # the edge's baseline: the samples from this long before the crossing ...
BASE_TO_US = 1500  # ... to this long before it (a soft slap's contact is ~1.2 ms before it)
PH_REFIT_FRAMES = 40  # the ring's phase is fitted again on this many state frames (10 ms), once they stand
SECOND_HOLD_US = 45000  # a palm's second contact comes up to this long after its slap (26–40 ms: issue 31)
REBASE_SKIP_US = 200000  # frames skipped this long: drift has moved where a pad rests, its ring has gone
XTALK_LEAD_US = 40  # a crosstalk onset may seem this much earlier than its source's (estimate error)
OWN_RING_FRAMES = 256  # frames kept by process() for callers without a DMA ring
FRAME_BITS = 22  # frame numbers wrap here (small ints on the board: ~3.5 min at 20 kHz)
FRAMES = 1 << FRAME_BITS
FRAME_MASK = FRAMES - 1
_FHALF = FRAMES >> 1

IDLE = 0
SCAN = 1
MASK = 2
RETRIG = 3

_NOTHING = ()
_NEVER = 0x3FFFFFFF  # a level nothing reaches; stays a small int

try:  # MicroPython: its compiler knows the decorator by this very spelling
    import micropython
    from micropython import const

    _MACHINE_CODE = True
except ImportError:  # CPython (the host's simulator and tests): the same code as plain Python
    _MACHINE_CODE = False

    class micropython:  # stands in for the module
        @staticmethod
        def viper(f):
            return f

        @staticmethod
        def native(f):
            return f

    def const(x):
        return x

    def ptr16(buf):
        return buf

    def ptr32(buf):
        return buf


# The gate's state array (compile-time constants on the board, so _gate reads no globals):
_HEAD = const(8)  # its header: pads, ring size, samples per state frame, shift, clip levels,
# frames before the first state frame to look at too, and before each of the others
_PAD_FIELDS = const(12)  # then per pad: mode, level, baseline, noise, baseline shift, clipped, peak
# (mode 3: the baseline under the ring), and the ring predicted with its phase (modes 3 and 4): a1 (+ _PH_OFF),
# -a2 (Q12), the last two predictions (+ _PH_OFF), its level (mode 4, a scan over it: the largest rise over
# it so far; its baseline in the level's place)
_PH_Q = const(12)  # the ring predictor's coefficients are fixed point with this many bits
_PH_OFF = const(1 << 20)  # a1 and the predictions are kept this much up in the gate's array (never negative there)

# The walks' array (Detector._wk; the ring's layout comes from the gate's header): what a
# walk is given (never negative: viper on a 64-bit host reads an "i" array's -1 as 2**32 - 1) ...
_WK_COUNT = const(0)  # samples walked
_WK_BASE = const(1)  # the baseline subtracted
_WK_BACK = const(2)  # the peak's average may start this many frames before the first sample ...
_WK_FWD = const(3)  # ... and end this many after it
_WK_STEP = const(4)  # frames averaged for the peak
_WK_BEST = const(5)  # the largest |deviation| (the peak walk's result, the edge walk's given)
# ... and what it found (read by Python only, so any sign): the peak's sample and sign, its average
_WK_AT = const(6)
_WK_SGN = const(7)
_WK_TOP = const(8)  # the largest sum of STEP samples ...
_WK_TOP_END = const(9)  # ... and its last sample
_WK_X = const(10)  # the edge: the first sample under half the peak, counted back ...
_WK_V = const(11)  # ... its value ...
_WK_ABOVE = const(12)  # ... and the one after it
_WK_PAIRS = const(13)  # how many samples lie between a quarter and three quarters of the peak ...
_WK_HEAD = const(14)  # ... listed from here as (samples back, value)
_ERR_Q = const(24)  # a fit's squared error is taken with its coefficients fixed point with this many bits

# The signal left under a hit over a ring predicted with its phase (Detector._ring_left): one
# pad's frames with that ring taken off, walked by the same walks as the ring (a header laid
# out as the gate's: one pad, shift 0), halfwords kept this far up from the ring's baseline
_LEFT_MID = const(32768)
_ROT_Q = const(28)  # the ring is carried back by a recursion whose coefficients are fixed point with this many bits
_ROT_TOP = const(1 << 28)  # the ring, fixed point, stays under this (its products under 2**30)


try:  # MicroPython: the C version, which allocates nothing on the per-sample path
    from time import ticks_diff
except ImportError:

    def ticks_diff(a, b):
        """a - b on the wrapping tick circle (same as MicroPython's ``time.ticks_diff``)."""
        return ((a - b + _HALF) & TICKS_MASK) - _HALF


def frame_diff(a, b):
    """a - b on the wrapping circle of frame numbers."""
    return ((a - b + _FHALF) & FRAME_MASK) - _FHALF


@micropython.viper
def _gate(ring, st, at, count) -> int:
    """The state machine's frames while nothing can happen but the baselines following,
    in machine code on the board (viper)."""
    # ``count`` state frames of the ring's halfwords from sample ``at``, every pad as
    # ``st`` says (``Detector._plan`` fills it: per pad mode, level, baseline, noise,
    # baseline shift, clipped samples, peak).
    # Stops before the first state frame where a pad reaches its level, either way, on
    # its sample or on any frame since the state frame before (the Python state machine
    # takes that frame) and returns how many frames it took; in mode 3 (a ring predicted
    # with its phase, :meth:`Detector._phase_fit`) also where its sample less the
    # predicted ring reaches the prediction's level. Each frame does exactly what
    # ``Detector._frame`` does to a pad that crosses nothing: count clipped samples,
    # follow the baseline (mode 0, 1 and 3; mode 0 is idle and follows the noise too;
    # mode 3 steps its prediction on) or, mode 2 (scanning), keep the peak; mode 4
    # (scanning over a ring predicted with its phase) keeps the peak, steps the
    # prediction on and keeps the largest rise over it. Machine ints: every value here
    # stays under 2**25, but the predictor's products (under 2**30).
    r = ptr16(ring)
    s = ptr32(st)
    n = int(s[0])
    size = int(s[1])
    stride = int(s[2])
    sh = int(s[3])
    lo = int(s[4])
    hi = int(s[5])
    back = int(s[6])
    every = int(s[7])
    pos = int(at)
    left = int(count)
    f = 0
    while f < left:
        i = 0
        q = pos
        o = _HEAD
        while i < n:  # first: does any pad reach its level here, or since the state frame before?
            m = int(s[o])
            if m != 2 and m != 4:
                b = int(s[o + 2]) >> 8
                if m == 3:  # the sample over the ring predicted with its phase (from the baseline in o + 6)?
                    y = (
                        (int(s[o + 7]) - _PH_OFF) * (int(s[o + 9]) - _PH_OFF)
                        - int(s[o + 8]) * (int(s[o + 10]) - _PH_OFF)
                    ) >> _PH_Q
                    x = int(r[q]) << sh
                    y = x - int(s[o + 6]) - y
                    if (y > 0 and x <= lo) or (y < 0 and x >= hi):  # clipped short of the ring: says nothing
                        y = 0
                    if y < 0:
                        y = 0 - y
                    if y >= int(s[o + 11]):
                        return f
                up = (b + int(s[o + 1]) + (1 << sh) - 1) >> sh  # a ring value this high or this
                down = b - int(s[o + 1])  # low (unshifted) reaches the level
                if down < 0:
                    down = -1
                else:
                    down = down >> sh
                a = q - back * n
                if a >= 0:  # the frames lie in order in the ring (all but a few at its end)
                    while a <= q:
                        x = int(r[a])
                        if x >= up or x <= down:
                            return f
                        a += n
                else:
                    a += size
                    j = 0
                    while j <= back:
                        x = int(r[a])
                        if x >= up or x <= down:
                            return f
                        a += n
                        if a >= size:
                            a -= size
                        j += 1
            q += 1
            if q >= size:
                q -= size
            o += _PAD_FIELDS
            i += 1
        i = 0
        q = pos
        o = _HEAD
        while i < n:
            x = int(r[q]) << sh
            if x <= lo or x >= hi:
                s[o + 5] = int(s[o + 5]) + 1
            b = int(s[o + 2])
            dev = x - (b >> 8)
            if dev < 0:
                dev = 0 - dev
            m = int(s[o])
            if m == 2 or m == 4:
                if dev > int(s[o + 6]):
                    s[o + 6] = dev
            else:
                s[o + 2] = b + (((x << 8) - b) >> int(s[o + 4]))
                if m == 0:
                    z = int(s[o + 3])
                    s[o + 3] = z + (((dev << 8) - z) >> 8)
            if m >= 3:  # the ring predicted with its phase steps on
                z = int(s[o + 9])
                y = ((int(s[o + 7]) - _PH_OFF) * (z - _PH_OFF) - int(s[o + 8]) * (int(s[o + 10]) - _PH_OFF)) >> _PH_Q
                s[o + 9] = y + _PH_OFF
                s[o + 10] = z
                if m == 4:  # Detector._predict's rise over it
                    y = x - int(s[o + 1]) - y
                    if (y > 0 and x <= lo) or (y < 0 and x >= hi):
                        y = 0
                    if y < 0:
                        y = 0 - y
                    if y > int(s[o + 11]):
                        s[o + 11] = y
            q += 1
            if q >= size:
                q -= size
            o += _PAD_FIELDS
            i += 1
        pos += stride
        if pos >= size:
            pos -= size
        back = every
        f += 1
    return f


@micropython.viper
def _first_over(ring, st, at, back, base, level) -> int:
    """How many frames before ring index ``at`` (one pad's sample; the ring laid out as
    ``st``'s header says) the first of the ``back`` samples before it lies whose
    distance from ``base`` reaches ``level``, either way; 0 if none does."""
    # In machine code: the state machine asks it for every pad at every frame it takes.
    r = ptr16(ring)
    s = ptr32(st)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    b = int(base)
    lv = int(level)
    j = int(back)
    a = int(at) - j * n
    while a < 0:
        a += size
    while j > 0:
        dev = (int(r[a]) << sh) - b
        if dev < 0:
            dev = 0 - dev
        if dev >= lv:
            return j
        a += n
        if a >= size:
            a -= size
        j -= 1
    return 0


@micropython.viper
def _walk_peak(ring, st, wk, at, want) -> int:
    """:meth:`Detector._peak` on one pad's raw signal, in machine code."""
    # ``wk[_WK_COUNT]`` samples from ring index ``at`` (one a frame, laid out as
    # ``st``'s header says), less ``wk[_WK_BASE]``; the largest deviation (of sign
    # ``want``, 0 either), its sample and sign, then the largest sum of ``wk[_WK_STEP]``
    # consecutive samples from two steps before it to one after (within ``_WK_BACK`` /
    # ``_WK_FWD``), and where it ends.
    # Returns the largest deviation; the rest goes into ``wk``.
    r = ptr16(ring)
    s = ptr32(st)
    w = ptr32(wk)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    b = int(w[_WK_BASE])
    cnt = int(w[_WK_COUNT])
    want_ = int(want)
    q = int(at)
    best = 0
    rp = 0
    sgn = want_
    if sgn == 0:
        sgn = 1
    j = 0
    while j < cnt:
        d = (int(r[q]) << sh) - b
        if d < 0:
            if 0 - d > best and want_ <= 0:
                best = 0 - d
                rp = j
                sgn = -1
        elif d > best and want_ >= 0:
            best = d
            rp = j
            sgn = 1
        q += n
        if q >= size:
            q -= size
        j += 1
    w[_WK_BEST] = best
    w[_WK_AT] = rp
    w[_WK_SGN] = sgn
    step = int(w[_WK_STEP])
    if step <= 1 or best <= 0:
        return best
    a = rp - 2 * step  # as offsets from the first sample
    back = int(w[_WK_BACK])
    if a < 0 - back:
        a = 0 - back
    end = rp + step
    fwd = int(w[_WK_FWD])
    if end > fwd:
        end = fwd
    cnt = end - a + 1
    q = int(at) + a * n
    while q < 0:
        q += size
    while q >= size:
        q -= size
    tail = q  # the sample leaving the sum
    acc = 0
    j = 0
    while j < step and j < cnt:
        acc += (int(r[q]) << sh) - b
        q += n
        if q >= size:
            q -= size
        j += 1
    top = acc
    top_end = a + step - 1
    j = step
    while j < cnt:
        acc += ((int(r[q]) << sh) - b) - ((int(r[tail]) << sh) - b)
        if sgn * (acc - top) > 0:
            top = acc
            top_end = a + j
        q += n
        if q >= size:
            q -= size
        tail += n
        if tail >= size:
            tail -= size
        j += 1
    w[_WK_TOP] = top
    w[_WK_TOP_END] = top_end
    return best


@micropython.viper
def _walk_edge(ring, st, wk, at, sgn) -> int:
    """:meth:`Detector._half_time`'s walk on one pad's raw signal, in machine code."""
    # Back from ring index ``at`` (laid out as ``st``'s header says) over up to
    # ``wk[_WK_COUNT]`` samples, each less ``wk[_WK_BASE]`` times ``sgn``, until one is
    # at most a fifth of ``wk[_WK_BEST]``: the first under half of it (``_WK_X``,
    # ``_WK_V``, ``_WK_ABOVE``) and those between a quarter and three quarters of it
    # (from ``_WK_HEAD``; ``wk`` holds ``_WK_HEAD + 2 * wk[_WK_COUNT]``).
    # Integer tests, the same as the float ones on any peak under 2**21. Returns 1 if a
    # sample came under half the peak, else 0.
    r = ptr16(ring)
    s = ptr32(st)
    w = ptr32(wk)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    b = int(w[_WK_BASE])
    cnt = int(w[_WK_COUNT])
    best = int(w[_WK_BEST])
    g = int(sgn)
    q = int(at)
    found = 0
    above = best
    o = _WK_HEAD
    j = 0
    while j < cnt:
        v = g * ((int(r[q]) << sh) - b)
        if found == 0 and 2 * v < best:
            found = 1
            w[_WK_X] = j
            w[_WK_V] = v
            w[_WK_ABOVE] = above
        if 5 * v <= best:
            break
        if 4 * v >= best and 4 * v <= 3 * best:
            w[o] = j
            w[o + 1] = v
            o += 2
        above = v
        q -= n
        if q < 0:
            q += size
        j += 1
    w[_WK_PAIRS] = (o - _WK_HEAD) >> 1
    return found


@micropython.viper
def _walk_spread(ring, st, wk, at) -> int:
    """The sum of |sample - ``wk[_WK_BASE]``| over ``wk[_WK_COUNT]`` samples of one pad
    from ring index ``at`` (laid out as ``st``'s header says), in machine code."""
    r = ptr16(ring)
    s = ptr32(st)
    w = ptr32(wk)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    b = int(w[_WK_BASE])
    cnt = int(w[_WK_COUNT])
    q = int(at)
    total = 0
    j = 0
    while j < cnt:
        d = (int(r[q]) << sh) - b
        if d < 0:
            d = 0 - d
        total += d
        q += n
        if q >= size:
            q -= size
        j += 1
    return total


@micropython.viper
def _walk_width(ring, st, at, back, fwd, base, sgn, top) -> int:
    """How many samples of one pad around ring index ``at`` (one a frame, laid out as
    ``st``'s header says), less ``base``, times ``sgn``, are at least half of ``top`` in
    one run with it, looking at most ``back`` frames before it and ``fwd`` after: a
    swing's own width at half its height (not another swing's the same way beyond where
    it ends), in machine code."""
    r = ptr16(ring)
    s = ptr32(st)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    b = int(base)
    g = int(sgn)
    t = int(top)
    q = int(at)
    over = 0
    j = int(fwd)
    while j >= 0:  # from the swing's sample on
        if 2 * g * ((int(r[q]) << sh) - b) < t:
            break
        over += 1
        q += n
        if q >= size:
            q -= size
        j -= 1
    if over == 0:
        return 0
    q = int(at) - n
    if q < 0:
        q += size
    j = int(back)
    while j > 0:  # and before it
        if 2 * g * ((int(r[q]) << sh) - b) < t:
            break
        over += 1
        q -= n
        if q < 0:
            q += size
        j -= 1
    return over


@micropython.viper
def _walk_move(ring, st, at, count, gap, level) -> int:
    """The first of ``count`` samples of one pad from ring index ``at`` on (laid out as
    ``st`` says) that is ``level`` or more from the one ``gap`` frames before it: its
    offset + 1, negative where it fell, 0 if none is; a pair with a sample at exactly
    ``_LEFT_MID`` (clipped short of the ring: :func:`_ring_left`) is passed over.  In
    machine code."""
    r = ptr16(ring)
    s = ptr32(st)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    lv = int(level)
    cnt = int(count)
    q = int(at)
    e = q - int(gap) * n
    while e < 0:
        e += size
    j = 0
    while j < cnt:
        x = int(r[q])
        y = int(r[e])
        if x != _LEFT_MID and y != _LEFT_MID:
            v = (x << sh) - (y << sh)
            if v >= lv:
                return j + 1
            if 0 - v >= lv:
                return 0 - j - 1
        q += n
        if q >= size:
            q -= size
        e += n
        if e >= size:
            e -= size
        j += 1
    return 0


@micropython.viper
def _ring_left(ring, st, left, at, count, base, y0, y1, a, b, fb) -> int:
    """One pad's ``count`` samples up to ring index ``at`` (laid out as ``st`` says) less
    ``base`` and the ring under them, into ``left`` (oldest first, ``_LEFT_MID`` up, held
    in 0..65535), in machine ints.  A sample clipped short of the ring says nothing of
    what is left (as :meth:`Detector._predict` takes it): it is put at exactly
    ``_LEFT_MID`` (the ring itself), which :func:`_walk_move` skips; returns how many were."""
    # The ring: y0 now, y1 a frame later (fixed point, fb bits), carried back by its
    # recursion, each frame a times the one after less b times the one after that (_ROT_Q
    # bits: twice the frame's angle's cosine over its fade, one over the fade squared).
    # Exact on the board's 32 bits: each product in 15-bit halves, rounded to the nearest
    # (the ring under _ROT_TOP, a and b under 2**30); its value in whole counts toward 0.
    # With _ROT_Q bits the angle drifts by ~2**-29 over its sine a frame: under a count
    # over the DMA's ring (Q12, as the gate steps it per state frame, drifted by tens of
    # counts over a 20 kHz edge).
    r = ptr16(ring)
    s = ptr32(st)
    o = ptr16(left)
    n = int(s[0])
    size = int(s[1])
    sh = int(s[3])
    clo = int(s[4])
    chi = int(s[5])
    base_ = int(base) - _LEFT_MID
    p1 = int(y0)
    p2 = int(y1)
    f = int(fb)
    ahi = int(a) >> 15  # the coefficients' halves
    alo = int(a) & 0x7FFF
    bhi = int(b) >> 15
    blo = int(b) & 0x7FFF
    q = int(at)
    clipped = 0
    j = int(count) - 1
    while j >= 0:
        if p1 >= 0:
            v = p1 >> f
        else:
            v = 0 - ((0 - p1) >> f)
        x = int(r[q]) << sh
        v = x - base_ - v
        if (v < _LEFT_MID and x >= chi) or (v > _LEFT_MID and x <= clo):
            v = _LEFT_MID
            clipped += 1
        elif v < 0:
            v = 0
        elif v > 65535:
            v = 65535
        o[j] = v
        hi = p1 >> 15
        lo = p1 & 0x7FFF
        y = 4 * hi * ahi + ((hi * alo + lo * ahi + ((lo * alo) >> 15) + 0x1000) >> 13)  # p1 a
        hi = p2 >> 15
        lo = p2 & 0x7FFF
        y -= 4 * hi * bhi + ((hi * blo + lo * bhi + ((lo * blo) >> 15) + 0x1000) >> 13)  # - p2 b
        p2 = p1
        p1 = y
        q -= n
        if q < 0:
            q += size
        j -= 1
    return clipped


def _drift(left, x, d):
    """The larger of how far what is left (``_LEFT_MID`` up) moved over each of the two
    spans of ``d`` frames before index ``x``, leaving out a span with a sample clipped
    short of the ring (exactly ``_LEFT_MID``: :func:`_ring_left`)."""
    most = 0
    y = x - 2 * d
    while d > 0 and y >= 0 and y + d <= x:
        u = left[y]
        v = left[y + d]
        if u != _LEFT_MID and v != _LEFT_MID:
            v -= u
            if v < 0:
                v = -v
            if v > most:
                most = v
        y += d
    return most


def _fixed(x, bits):
    """``x`` in fixed point with ``bits`` bits, rounded to the nearest (halves away from 0)."""
    return int(x * (1 << bits) + 0.5) if x > 0 else -int(-x * (1 << bits) + 0.5)


def _frames_before(rem, span):
    """State frames ``span`` µs apart, the first now, that come before ``rem`` µs pass."""
    return (rem + span - 1) // span if rem > 0 else 0


def _line(p, dt):
    """Pad ``p``'s retrigger level ``dt`` µs after its line started, 0 once the line has
    ended: the line fading from ``rt_level`` (a share of the last peak), over the
    threshold while above it."""
    # With ``second_pct`` set (the ring model calibration applies) the line is the ring
    # over the threshold, so a ring riding on a lagging baseline needs the threshold on
    # top of it, and holds until the ring is a quarter of the threshold.
    ring = p.rt_level * math.exp(-dt / p.rt_tau)
    if p.second:
        return p.thr + ring if 4 * ring > p.thr else 0
    return ring if ring > p.thr else 0


def _lag_freq(d, ok, m, r2, c, dw, sh):
    """The ring's frequency from its phase over a lag of up to ``m // 4`` state frames."""
    # The damped sinusoid ``d`` (``m`` state frames, oldest first, fading by ``r2`` per
    # two) holds ``d[j] = 2 r^L cos(L w) d[j-L] - r^2L d[j-2L]`` for any lag ``L``,
    # whose least squares fit knows ``L w`` about as well as the one-frame fit knows
    # ``w``: ``w`` ``L`` times better, where ``L w`` is not near a whole turn or half
    # turn (the lag where ``L sin(L w)`` is largest).
    # Of the angles whose cosine that is, the one nearest ``L`` times the one-frame
    # fit's (``c``: cos w, known to ``dw``); only on the samples ``ok`` says are not
    # clipped. Returns (cos w, its error as the frequency's) where that is better than
    # ``dw``, else None.
    w1 = math.acos(c)
    lag = 0
    gain = 0.0
    for q in range(2, m // 4 + 1):
        g = q * abs(math.sin(q * w1))
        if g > gain:
            lag = q
            gain = g
    if lag < 2:
        return None
    rl = math.pow(r2, lag / 2)
    r2l = rl * rl
    g = _gram(d, ok, m, lag, sh)
    n = g[0]
    if n < 6:
        return None
    sx = g[2]  # with a constant too: a baseline a little off biases the lag's fit
    sy = g[1] + r2l * g[3]
    den = g[5] - sx * sx / n
    if den <= 0:
        return None
    a = (g[7] + r2l * g[8] - sx * sy / n) / den
    k = (sy - a * sx) / n
    cl = a / (2 * rl)
    if not -1 < cl < 1:
        return None
    th = math.acos(cl)
    near = lag * w1
    turns = math.floor(near / (2 * math.pi) + 0.5)
    w = 2 * math.pi * turns
    best = None
    for x in (w - th, w + th, w + 2 * math.pi - th, w - 2 * math.pi + th):
        if best is None or abs(x - near) < abs(best - near):
            best = x
    err = _sq_err(g, a, r2l) - n * k * k  # about its mean
    dl = math.sqrt((err if err > 0 else 0.0) / (n - 2) / den) / (2 * rl * math.sin(th)) / lag
    if dl >= dw or abs(best - near) > lag * 2 * dw + math.pi / 4:  # no better, or another turn than the fit's
        return None
    return math.cos(best / lag), dl


@micropython.native
def _gram(d, ok, m, lag, sh):
    """[frames, Σu, Σv, Σw, Σuu, Σvv, Σww, Σuv, Σvw, Σuw] over the samples ``d`` (``m``,
    oldest first) from ``2 * lag`` on whose sample ``u`` and those ``lag`` and
    ``2 * lag`` before (``v``, ``w``) did not clip (``ok``), each ``>> sh``: exact ints,
    small ones on the board (12-bit samples, their squares' sums under 2**30)."""
    n = su = sv = sw = uu = vv = ww = uv = vw = uw = 0
    for j in range(2 * lag, m):
        if ok[j] and ok[j - lag] and ok[j - 2 * lag]:
            u = d[j] >> sh
            v = d[j - lag] >> sh
            w = d[j - 2 * lag] >> sh
            n += 1
            su += u
            sv += v
            sw += w
            uu += u * u
            vv += v * v
            ww += w * w
            uv += u * v
            vw += v * w
            uw += u * w
    return [n, su, sv, sw, uu, vv, ww, uv, vw, uw]


def _sq_err(g, a, c):
    """The sum over :func:`_gram`'s frames ``g`` of (u - a v + c w)², exact with ``a`` and
    ``c`` fixed point (``_ERR_Q`` bits), a float at the end: its terms cancel, and in the
    board's single floats would leave nothing."""
    q = 1 << _ERR_Q
    x = _fixed(a, _ERR_Q)
    y = _fixed(c, _ERR_Q)
    e = q * q * g[4] + x * x * g[5] + y * y * g[6] - 2 * q * x * g[7] + 2 * q * y * g[9] - 2 * x * y * g[8]
    return e / (q * q)


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


def onset_delay_us(peak, onset_us, onset_exp):
    """µs from contact to the point where the rising edge reaches half the peak."""
    if onset_us <= 0 or peak <= 0:
        return 0
    return int(onset_us * math.pow(peak / ONSET_REF, -onset_exp / 1000) + 0.5)


class _Pad:
    def __init__(self):
        self.base_fp = -1  # baseline << 8; -1 until the first sample
        self.noise_fp = 0  # mean |deviation| << 8 while idle
        self.peak_max = 0
        self.clipped = 0
        self.phase = IDLE
        self.crossed = False  # reached the threshold at least once
        self.cross = 0  # ticks of the state frame that reached the threshold ...
        self.cross_k = 0  # ... its frame number ...
        self.cbase = 0  # ... and the baseline then
        self.onset = 0  # the last hit's (or second contact's): the mask counts from it
        self.peak = 0
        self.last_peak = 0  # the last slap's peak ...
        self.last_rise = 0  # ... what it rose by itself (over a ring predicted with its phase: Detector._scanned) ...
        self.slap_t = 0  # ... and its onset
        self.rt_level = 0.0  # the retrigger line: this high at ticks line_t, fading from there
        self.line_t = 0
        self.cross_line = 0.0  # the line where the threshold was reached (0: not in a ring)
        self.ph_on = False  # the ring is predicted with its phase (Detector._phase_fit) ...
        self.ph_a1 = 0  # ... as a1 * the last prediction - a2n * the one before (Q12) ...
        self.ph_a2n = 0
        self.ph_p1 = 0
        self.ph_p2 = 0
        self.ph_level = 0  # ... and a sample that far off it starts a hit
        self.ph_wait = False  # ... is fitted once ticks ph_fit_t come (ph_clip: put off, the ring clipped)
        self.ph_clip = False
        self.ph_fit_t = 0
        self.ph_dw = 0.0  # the frequency's error in the last fit that read it (0: none yet)
        self.ph_base = 0  # ... the ring's baseline: the tracked one before the strike (it follows the ring)
        self.ph_peak = 0  # this hit rose this much at most over the predicted ring in its scan ...
        self.ring_off = False  # ... and its edge was timed with that ring taken off (Detector._over_ring)
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
        self.onset_us = s["onset_us"]
        self.onset_exp = s["onset_exp"]
        self.xt_from = [s[name] if s[name] <= 100 else self.xt_pct for name in wire.XTALK_FROM]
        self.xt_on = self.xt_pct > 0 or max(self.xt_from) > 0  # crosstalk cancel at all
        self.xgain = [s[name] for name in wire.XGAIN_FROM]
        self.xlag = [s[name] for name in wire.XLAG_FROM]
        self.xclean = s["xclean_pct"]
        self.second = s["second_pct"]
        self.lobe_us = s["lobe_us"]

    def xt_ratio(self, src):
        """The crosstalk ratio (pct) for hits on pad ``src``."""
        return self.xt_from[src] if src < len(self.xt_from) else self.xt_pct


class Detector:
    """Onset detection for ``pads`` pads; ``settings`` is a list of per-pad dicts
    (fields as in ``wire.SETTINGS_FIELDS``; missing fields take their defaults)."""

    gated = _MACHINE_CODE
    """Whether :func:`_gate` takes the frames where only baselines move.  On the board,
    yes: machine code.  Under CPython its plain-Python stand-in is slower than the state
    machine it shortcuts, so the state machine takes every frame there: the same hits,
    which tests/board/test_micropython.py checks bit for bit against the board's run
    and tests/firmware_py/padboard/test_gate.py against this class gated on the host."""

    def __init__(self, pads, settings=None):
        self.npads = pads
        self.pads = [_Pad() for _ in range(pads)]
        # [pad, onset, peak, delay subtracted, clean peak, subtracted pads (bits)] of hits
        self.pending = []  # scanned, awaiting the crosstalk verdict
        self.recent = []  # emitted, kept for the crosstalk window
        self.scans = 0  # hits scanned (slaps and second contacts): their garbage is collected once at rest (main.serve)
        self.ring = None  # where the frames are: the DMA's ring or our own
        self.ring_frames = 1
        self.frame_us = STATE_US
        self.step = 1  # the state machine looks at every step-th frame
        self.shift = 0  # ring values << shift = read_u16 counts (4 for the ADC's 12 bits)
        self.stagger = False  # pads sampled one after another across the frame (round robin)
        self._k0 = 0  # frame number and ticks of the latest block's first frame
        self._t0 = 0
        self._newest = 0
        self._own = None
        self._own_k = 0
        self._own_t = None
        self._src_clipped = False
        self._rise = 1.0  # the edge's rise per frame where _half_time's last edge crossed half its peak
        self._left = None  # the signal left under a hit's edge with the predicted ring taken off (_ring_left) ...
        self._left_st = array("i", [1, 0, 0, 0, 0, 0, 0, 0])  # ... its walks' header (one pad, shift 0) ...
        self._left_lo = 0  # ... the frame its first sample is (from k) ...
        self._left_on = False  # ... and whether the walks walk it (Detector._walked)
        self._left_clipped = 0  # samples in it clipped short of the ring (_ring_left)
        self._st = array("i", [0] * (_HEAD + _PAD_FIELDS * pads))  # the gate's state (_plan)
        self._st[0] = pads
        self._st[4] = CLIP_LOW
        self._st[5] = CLIP_HIGH
        self._wk = array("i", bytes(4 * _WK_HEAD))  # the walks' (_peak, _half_time, _edge_base)
        self._held = False  # a plan runs on into the next block: the pads' baselines, noise and clip counts are in _st
        self._plan_t = 0  # the plan's first state frame (ticks), their spacing (µs) ...
        self._plan_span = 0
        self._plan_done = 0  # ... how many the gate has taken, how many more it may ...
        self._plan_left = 0
        self._plan_next = 0  # ... and, while held, the frame number it goes on from
        self._run_k = 0  # the first frame of the unbroken run the latest block belongs to
        self._next = -1  # the frame after the last one fed and its ticks: the frames before a block
        self._next_t = -1  # are known only when it follows on from them, in number and in time
        if settings:
            for i in range(pads):
                self.configure(i, settings[i])

    def configure(self, pad, settings):
        if self._held:
            self._unplan()
        self.pads[pad].configure(settings)

    def process(self, t, samples):
        """Feed one frame: ``t`` board ticks, one read_u16 sample per pad (frames are
        taken to come at the spacing of the last two).  Returns the hits decided at this
        frame as ``(pad, onset_ticks, velocity, peak)`` tuples."""
        n = self.npads
        if self._own is None:
            self._own = array("H", bytes(2 * OWN_RING_FRAMES * n))
        k = self._own_k
        pos = (k * n) % len(self._own)
        for i in range(n):
            self._own[pos + i] = samples[i]
        dt = STATE_US if self._own_t is None else ticks_diff(t, self._own_t)
        self._own_t = t
        self._own_k = (k + 1) & FRAME_MASK
        return self.feed(self._own, k, 1, t, dt if dt > 0 else STATE_US)

    @micropython.native
    def feed(self, ring, first, count, t_first, frame_us, shift=0, stagger=False):
        """Frames ``first`` .. ``first + count - 1`` of the sampler (frame numbers count
        up and wrap at ``FRAMES``; sample ``i`` of frame ``k`` is ``ring[(k * pads + i)
        % len(ring)]``, and ``len(ring)`` must divide ``FRAMES * pads``), the first
        taken at ticks ``t_first`` and each ``frame_us`` after the one before."""
        # ``shift``: ring values are read_u16 counts >> shift. ``stagger``: pad ``i``
        # was sampled ``i * frame_us / pads`` after the frame's time. The ring must
        # still hold the last ``EDGE_BACK_US`` plus a scan time of frames. Returns the
        # hits decided in these frames, as :meth:`process` does.
        n = self.npads
        st = self._st
        if ring is not self.ring or frame_us != self.frame_us or shift != self.shift or stagger != self.stagger:
            self.ring = ring  # the same on every block from the board's sampler: set once
            self.ring_frames = len(ring) // n
            self.frame_us = frame_us
            self.shift = shift
            self.stagger = stagger
            step = STATE_US // frame_us
            self.step = step if step > 1 else 1
            st[1] = len(ring)
            st[2] = self.step * n
            st[3] = shift
            st[7] = self.step - 1
        self._k0 = first
        self._t0 = t_first
        self._newest = (first + count - 1) & FRAME_MASK
        out = None
        step = self.step
        size = len(ring)
        span = step * frame_us
        d = (step - first % step) % step
        # frames before the first state frame to look at too: only those that came just before
        # (a simulator that skips time numbers its frames on: those in the ring are from then)
        back = step - 1 if first == self._next and t_first == self._next_t else d
        if first != self._next or t_first != self._next_t:
            self._run_k = first  # frames before this one were skipped: the ring's older ones are not the ring's past
            if ticks_diff(t_first, self._next_t) >= REBASE_SKIP_US:
                self._rebase()
        self._next = (first + count) & FRAME_MASK
        self._next_t = (t_first + count * frame_us) & TICKS_MASK
        if self._held and (((first + d) & FRAME_MASK) != self._plan_next or span != self._plan_span):
            self._unplan()  # frames were skipped, or come at another spacing: the plan no longer fits
        while d < count:
            left = (count - 1 - d) // step + 1
            if self._held:  # the plan made in an earlier block goes on: its state is in the gate's array
                g = self._plan_left
            else:
                g = self._plan(left, (t_first + d * frame_us) & TICKS_MASK, span)
            if g:  # state frames where only the baselines move: in machine code
                todo = g if g < left else left
                st[6] = back
                done = _gate(ring, st, (((first + d) & FRAME_MASK) * n) % size, todo)
                if done:
                    back = step - 1
                d += done * step
                self._plan_done += done
                self._plan_left = g - done
                if done < g and done == todo:  # the block ran out first: the plan goes on in the next
                    self._held = True
                    self._plan_next = (first + d) & FRAME_MASK
                    break
                self._unplan()
                if d >= count:
                    break
            hits = self._frame((first + d) & FRAME_MASK, (t_first + d * frame_us) & TICKS_MASK, back)
            back = step - 1
            if hits:
                if out is None:
                    out = []
                out.extend(hits)
            d += step
        return out if out is not None else _NOTHING

    def _rebase(self):
        """After a long skip, where a pad rests has moved with drift: each pad not scanning
        sets its baseline from its next frame (a step is no slap), and a ring predicted with
        its phase (a step a frame) goes on no more: the retrigger line, fading with time,
        decides."""
        if self._held:
            self._unplan()  # the gate's copy of the pads' state goes back to them first
        for p in self.pads:
            if p.phase != SCAN:
                p.base_fp = -1
                p.ph_on = p.ph_wait = p.ph_clip = False

    @micropython.native
    def _plan(self, left, t, span):
        """How many of the next state frames (``span`` µs apart, the first at ticks
        ``t``) :func:`_gate` may take."""
        # As many as pass before a scan, mask, retrigger decay or crosstalk wait ends
        # (the Python state machine takes the frame where one does), ``FRAMES`` if none
        # will; while a retrigger threshold decays and decides, at most ``left`` (this
        # block's).
        # Fills the gate's state with each pad's; the level a pad must reach for the
        # gate to stop is its threshold, none while masked, and while the retrigger
        # threshold decays, the lowest it comes to in those frames (the state machine
        # then decides the frame); none where the line decides nothing (over a ring
        # predicted with its phase the rise over it does; a ring that clipped waits for
        # its refit), whose plan runs on to the line's end. 0: the next frame is the
        # state machine's. A plan longer than the block runs on into the next
        # (``_held``).
        if not self.gated:
            return 0
        self._plan_t = t
        self._plan_span = span
        self._plan_done = 0
        g = FRAMES
        for c in self.pending:  # decided per state frame once its window has passed
            pad = self.pads[c[0]]
            if not pad.xt_on:
                return 0
            w = _frames_before(pad.xt_win - ticks_diff(t, c[1]), span)
            if w < g:
                g = w
        st = self._st
        o = _HEAD
        decaying = False
        for p in self.pads:
            if p.base_fp < 0:
                return 0
            ph = p.phase
            st[o] = 0
            st[o + 1] = p.thr
            if ph == SCAN:
                st[o] = 2
                w = _frames_before(p.scan - ticks_diff(t, p.cross), span)
                if p.ph_on:  # the prediction steps on through the scan, the rise over it kept
                    st[o] = 4
                    st[o + 7] = p.ph_a1 + _PH_OFF
                    st[o + 8] = p.ph_a2n
                    st[o + 9] = p.ph_p1 + _PH_OFF
                    st[o + 10] = p.ph_p2 + _PH_OFF
                    st[o + 11] = p.ph_peak
                    st[o + 1] = p.ph_base
            elif ph == MASK:
                st[o] = 1
                st[o + 1] = _NEVER
                w = _frames_before(p.mask - ticks_diff(t, p.onset), span)
            else:
                w = g
                if ph == RETRIG:
                    st[o] = 1
                    if p.ph_wait:  # the state machine fits the ring then
                        w = _frames_before(ticks_diff(p.ph_fit_t, t), span)
                    if p.ph_on or p.ph_clip:  # the line decides nothing (_frame): the gate runs on, across
                        st[o + 1] = _NEVER  # blocks, until the line ends (not a plan a block: BENCHMARKS.md)
                        e = self._line_frames(p, t, span)
                        if e < w:
                            w = e
                    else:
                        decaying = True
                    if p.ph_on:
                        st[o] = 3
                        st[o + 7] = p.ph_a1 + _PH_OFF
                        st[o + 8] = p.ph_a2n
                        st[o + 9] = p.ph_p1 + _PH_OFF
                        st[o + 10] = p.ph_p2 + _PH_OFF
                        st[o + 11] = p.ph_level
            if w < g:
                g = w
            if g <= 0:
                return 0
            st[o + 2] = p.base_fp
            st[o + 3] = p.noise_fp
            st[o + 4] = p.shift
            st[o + 5] = 0
            st[o + 6] = p.ph_base if st[o] == 3 else p.peak
            o += _PAD_FIELDS
        if decaying:
            if g > left:
                g = left
            o = _HEAD
            for p in self.pads:
                if p.phase == RETRIG and not (p.ph_on or p.ph_clip):
                    g = self._decay(p, o, g, t, span)
                    if g <= 0:
                        return 0
                o += _PAD_FIELDS
        return g

    def _line_frames(self, p, t, span):
        """State frames ``span`` µs apart, the first at ticks ``t``, before pad ``p``'s
        retrigger line ends (:func:`_line`)."""
        # From where the fading line meets the level it ends at, then checked with
        # :func:`_line` itself at the frames either side, as the state machine checks it
        # at each frame.
        dt = ticks_diff(t, p.line_t)
        end = p.thr / 4 if p.second else p.thr
        f = 0
        if p.rt_level > end:
            f = _frames_before(int(p.rt_tau * math.log(p.rt_level / end)) - dt, span)
        while f > 0 and not _line(p, dt + (f - 1) * span):
            f -= 1
        while _line(p, dt + f * span):
            f += 1
        return f

    @micropython.native
    def _decay(self, p, o, g, t, span):
        """Frames of the ``g`` a retriggering pad stays retriggering for (its threshold
        decays to its plain one after that), with the lowest its threshold comes to over
        them as its level in the gate's state (offset ``o``)."""
        dt = ticks_diff(t, p.line_t)
        lowest = _line(p, dt + (g - 1) * span)
        if not lowest:  # it ends in these frames: find where, as _frame would
            f = 0
            while f < g:
                dyn = _line(p, dt + f * span)
                if not dyn:
                    break
                lowest = dyn
                f += 1
            g = f
        self._st[o + 1] = int(lowest)
        return g

    @micropython.native
    def _unplan(self):
        """Takes back what :func:`_gate` did under the plan (in this block and, while it
        was held, the ones before)."""
        self._held = False
        st = self._st
        o = _HEAD
        for p in self.pads:
            p.clipped += st[o + 5]
            st[o + 5] = 0
            if p.phase == SCAN:
                p.peak = st[o + 6]
                if st[o] == 4:
                    p.ph_p1 = st[o + 9] - _PH_OFF
                    p.ph_p2 = st[o + 10] - _PH_OFF
                    p.ph_peak = st[o + 11]
            else:
                p.base_fp = st[o + 2]
                if p.phase == IDLE:
                    p.noise_fp = st[o + 3]
                elif st[o] == 3:
                    p.ph_p1 = st[o + 9] - _PH_OFF
                    p.ph_p2 = st[o + 10] - _PH_OFF
            o += _PAD_FIELDS
        if self._plan_done > 0 and self.pending and self.recent:  # _decide forgets the old hits at every frame
            t = (self._plan_t + (self._plan_done - 1) * self._plan_span) & TICKS_MASK  # the gate's last
            self.recent = [r for r in self.recent if ticks_diff(t, r[1]) <= 20000 + self.pads[r[0]].scan]
        self._plan_done = 0

    @micropython.native
    def _frame(self, k, t, back):
        """State frame ``k`` at ticks ``t``: a pad not scanning starts a hit at the first
        of its samples from ``back`` frames before ``k`` to ``k`` that reaches its level,
        either way (a real pad's first lobe can be narrower than a state frame)."""
        ring = self.ring
        size = len(ring)
        at = k * self.npads  # a frame may straddle the end of the ring (3 pads, 4096 samples)
        sh = self.shift
        i = 0
        for p in self.pads:
            x = ring[(at + i) % size] << sh
            if x <= CLIP_LOW or x >= CLIP_HIGH:
                p.clipped += 1
            if p.base_fp < 0:
                p.base_fp = x << 8
            dev = x - (p.base_fp >> 8)
            if dev < 0:
                dev = -dev
            ph = p.phase
            if ph == SCAN:
                if dev > p.peak:
                    p.peak = dev
                if p.ph_on:
                    y = self._predict(p, x)
                    if y > p.ph_peak:
                        p.ph_peak = y
                if ticks_diff(t, p.cross) >= p.scan:
                    self._scanned(i, p, k)
            else:
                level = p.thr
                masked = ph == MASK  # then the samples before this frame were too
                if masked:
                    if ticks_diff(t, p.onset) < p.mask:
                        level = _NEVER
                    else:
                        ph = p.phase = RETRIG
                        self._phase_fit(i, p, k, t)
                rise = 0  # over the ring predicted with its phase
                if ph == RETRIG:
                    dyn = _line(p, ticks_diff(t, p.line_t))
                    if dyn:
                        level = dyn
                        if p.ph_wait and ticks_diff(t, p.ph_fit_t) >= 0:
                            self._phase_fit(i, p, k, t)
                        if p.ph_on:
                            rise = self._predict(p, x)
                    else:
                        ph = p.phase = IDLE
                        p.ph_on = p.ph_wait = p.ph_clip = False
                r = 0
                if back and not masked:
                    lv = int(level)
                    if lv < level:
                        lv += 1
                    r = _first_over(ring, self._st, (at + i) % size, back, p.base_fp >> 8, lv)
                if p.ph_on:  # the ring predicted with its phase decides (a ring that clipped crosses the
                    hit = rise >= p.ph_level  # line, read short of it from its clipped peak)
                    if not hit:
                        r = 0
                elif p.ph_clip:  # a ring that clipped, fitted again 12 ms after it crossed (fast slaps come 15
                    hit = r = 0  # ms apart or more): the line, read from its clipped peak, lies under it
                else:
                    hit = dev >= level or r
                if hit:
                    if ph == IDLE:
                        p.ph_base = p.base_fp >> 8
                    p.ph_peak = rise
                    p.crossed = True
                    p.cross = (t - r * self.frame_us) & TICKS_MASK
                    p.cross_k = (k - r) & FRAME_MASK
                    p.cbase = p.base_fp >> 8
                    p.cross_line = level if ph == RETRIG else 0
                    p.peak = dev
                    p.phase = SCAN
                    if p.scan <= 0:
                        self._scanned(i, p, k)
                else:
                    p.base_fp += ((x << 8) - p.base_fp) >> p.shift
                    if ph == IDLE:
                        p.noise_fp += ((dev << 8) - p.noise_fp) >> 8
            i += 1
        if self.pending:
            return self._decide(t)
        return _NOTHING

    def _phase_fit(self, i, p, k, t):
        """Pad ``i``'s mask ended at state frame ``k`` (ticks ``t``)."""
        # With the ring model set, fit the ring as it stands, phase and all, so a new
        # slap is seen as a rise over it (one meeting the ring in its opposite swing
        # sums to less than either and never rises over a line that knows only the
        # ring's size).
        # The ring is a damped sinusoid: each state frame's sample is ``a1`` times the
        # one before less ``r²`` times the one before that, ``r`` its fade per state
        # frame (the pad's own time constant); ``a1`` (its frequency) is fitted by least
        # squares on the state frames from 2 ms after the threshold was crossed (the
        # contact's force is over) to here (later, if there are not six yet), and the
        # prediction starts from the last two; fitted again once ``PH_REFIT_FRAMES``
        # such frames stand (10 ms of ring, before a fast slap can come: a dozen frames
        # pinned the frequency too loosely for the level, up to ~3,000 counts at gain ×
        # 1), the frequency then read from the phase over a lag of several frames
        # (:func:`_lag_freq`), the first fit kept where that one fails. Its level: the
        # threshold, ``second_pct`` % of the last slap (second contacts stay under it)
        # and what the fit leaves, the phase it may lose included. Off (the line alone)
        # where the ring is under the threshold or the fit leaves more than a tenth of
        # it (a second swing or mode, noise).
        on = p.ph_on  # a fit stands: this is the refit
        p.ph_on = False
        p.ph_wait = False
        p.ph_clip = False
        if not p.second or not p.rt_pct:
            return
        m = ticks_diff(t, p.cross) // STATE_US - 8  # the main swing's force is over 2 ms on
        if m > PH_REFIT_FRAMES:
            m = PH_REFIT_FRAMES
        run = frame_diff(k, self._run_k) // self.step  # state frames since frames were last skipped
        if m > run:
            m = run
        if m < 6:  # fitted once six state frames stand clear of it (and of frames skipped)
            p.ph_on = on
            p.ph_wait = True
            p.ph_fit_t = (p.cross + 14 * STATE_US) & TICKS_MASK
            return
        n = self.npads
        ring = self.ring
        size = len(ring)
        sh = self.shift
        b = p.ph_base
        step = self.step
        d = [ring[((k - j * step) * n + i) % size] << sh for j in range(m, 0, -1)]  # oldest first
        ok = [CLIP_LOW < x < CLIP_HIGH for x in d]  # a hard slap's ring clips: fitted where it does not
        for j in range(m):
            d[j] -= b
        g = _gram(d, ok, m, 1, sh)  # the fit's sums (exact ints) over the triples that did not clip
        nf = g[0]
        u2 = 1 << (2 * sh)  # squared sums in the sums' units (>> sh) times this are in counts
        if nf < m - 2 and (m < PH_REFIT_FRAMES or nf < 6):  # a few ms of a ring that clips: too few left to fit
            if m < PH_REFIT_FRAMES or not p.ph_dw or not self._state_fit(p, d, ok, m, b):
                self._fit_again(p, on, m, True)
            return
        r2 = math.exp(-2 * step * self.frame_us / p.rt_tau)
        den = g[5] * u2
        if den < nf * p.thr * p.thr / 4:
            self._fit_again(p, on, m, nf < m - 2)
            return
        a1 = (g[7] + r2 * g[8]) / g[5]  # least squares: sum (u + r2 w) v / sum v v
        lim = 2 * math.sqrt(r2)
        if a1 > lim:
            a1 = lim
        elif a1 < -lim:
            a1 = -lim
        err = _sq_err(g, a1, r2) * u2
        if 100 * err > den:
            self._fit_again(p, on, m, nf < m - 2)
            return
        c = a1 / lim
        dw = math.sqrt(err / nf / den) / (lim * math.sqrt(1 - c * c) + 1e-6)  # a1's error as the frequency's
        if m >= PH_REFIT_FRAMES:
            lag = _lag_freq(d, ok, m, r2, c, dw, sh)
            if lag:
                c, dw = lag
                a1 = lim * c
                err = _sq_err(g, a1, r2) * u2
        p.ph_a1 = _fixed(a1, _PH_Q)
        p.ph_a2n = int(r2 * (1 << _PH_Q) + 0.5)
        j = m - 1  # the prediction starts from the last two samples that did not clip, stepped on to here
        while not (ok[j] and ok[j - 1]):
            j -= 1
        p.ph_p1 = d[j]
        p.ph_p2 = d[j - 1]
        while j < m - 1:
            y = (p.ph_a1 * p.ph_p1 - p.ph_a2n * p.ph_p2) >> _PH_Q
            p.ph_p2 = p.ph_p1
            p.ph_p1 = y
            j += 1
        rms = math.sqrt(err / nf)
        dw += 0.5 / (1 << _PH_Q) / (lim * math.sqrt(1 - c * c) + 1e-6)  # and a1's rounding to Q12
        p.ph_dw = dw
        self._level(p, rms, math.sqrt(2 * den / nf), dw)
        if not on and m < PH_REFIT_FRAMES:  # fitted again on the longer ring, before a fast slap can come
            p.ph_wait = True
            p.ph_fit_t = (p.cross + (8 + PH_REFIT_FRAMES) * STATE_US) & TICKS_MASK

    def _level(self, p, rms, amp, dw):
        """Pad ``p``'s level over the ring predicted with its phase, on."""
        # The threshold, ``second_pct`` % of what the last slap rose by, 8 times the
        # fit's rms and twice what of the ring (``amp`` high) a phase drifting with the
        # frequency known to ``dw`` (~2 standard errors) may miss, at worst by where the
        # ring has faded by e.
        drift = dw * p.rt_tau / (self.step * self.frame_us * math.e)
        lost = amp * (drift if drift < 1 else 1)
        p.ph_level = p.thr + p.second * p.last_rise // 100 + int(8 * rms + 2 * lost)
        p.ph_on = True

    def _state_fit(self, p, d, ok, m, b):
        """Pad ``p``'s ring on ``m`` state frames ``d`` (less its baseline ``b``; ``ok``:
        not clipped) that clip too much for the frequency to be fitted."""
        # (A ring of one and a half times the rails' reach, 12 ms after two hard slaps.)
        # The frequency and fade of the pad's last fit, its amplitude and phase fitted by
        # least squares on the samples that did not clip (the ring is ``α u + β v``, ``u``
        # and ``v`` the recursion's sequences from (1, 0) and (0, 1)).
        # Refused (False) where it leaves more than a tenth, stands on fewer than eight
        # samples, or puts a clipped sample's ring short of the rail it reached.
        q = 1 << _PH_Q
        a1 = p.ph_a1 / q
        r2 = p.ph_a2n / q
        suu = suv = svv = sud = svd = sdd = 0.0
        cnt = 0
        ua = ub = va = vb = 0.0
        for j in range(m):
            u = 1.0 if j == 0 else a1 * ub - r2 * ua
            v = 1.0 if j == 1 else a1 * vb - r2 * va
            if ok[j]:
                x = d[j]
                suu += u * u
                suv += u * v
                svv += v * v
                sud += u * x
                svd += v * x
                sdd += x * x
                cnt += 1
            ua, ub, va, vb = ub, u, vb, v
        det = suu * svv - suv * suv
        if cnt < 8 or det <= 0:
            return False
        al = (sud * svv - svd * suv) / det
        be = (svd * suu - sud * suv) / det
        err = sdd - al * sud - be * svd
        if 100 * err > sdd:
            return False
        rms = math.sqrt(err / cnt if err > 0 else 0.0)
        ua = ub = va = vb = 0.0
        for j in range(m):  # each clipped sample: the ring predicted there reaches its rail (less the noise)
            u = 1.0 if j == 0 else a1 * ub - r2 * ua
            v = 1.0 if j == 1 else a1 * vb - r2 * va
            if not ok[j]:
                y = al * u + be * v + b
                if (d[j] + b >= CLIP_HIGH and y < CLIP_HIGH - 8 * rms) or (
                    d[j] + b <= CLIP_LOW and y > CLIP_LOW + 8 * rms
                ):
                    return False
            ua, ub, va, vb = ub, u, vb, v
        y1 = al * ub + be * vb
        y2 = al * ua + be * va
        p.ph_p1 = int(y1)
        p.ph_p2 = int(y2)
        r = math.sqrt(r2)
        c = a1 / (2 * r)
        sn = math.sqrt(1 - c * c) if -1 < c < 1 else 1e-6
        z = (y1 * c - y2 * r) / sn
        self._level(p, rms, math.sqrt(y1 * y1 + z * z), p.ph_dw)
        return True

    def _fit_again(self, p, on, m, clipped):
        """Pad ``p``'s ring could not be fitted on ``m`` state frames."""
        # The fit standing (``on``) is kept; with none, a ring that clipped (a hard
        # slap's: on its first few ms too few samples are left between its clipped
        # swings, and a fit on them predicted rings far off) is fitted again on
        # ``PH_REFIT_FRAMES`` once they stand (``ph_clip``: nothing starts a hit until
        # then; the line, read from a clipped peak, lies under such a ring, its
        # crossings were taken for slaps or for second contacts that put the fit off
        # again, and fast slaps come 15 ms apart or more).
        p.ph_on = on
        if clipped and not on and m < PH_REFIT_FRAMES:
            p.ph_wait = p.ph_clip = True
            p.ph_fit_t = (p.cross + (8 + PH_REFIT_FRAMES) * STATE_US) & TICKS_MASK

    def _predict(self, p, x):
        """|Pad ``p``'s sample ``x`` less the ring's baseline and the ring predicted for it|,
        stepping the prediction on a state frame (as :func:`_gate` does in mode 3)."""
        y = (p.ph_a1 * p.ph_p1 - p.ph_a2n * p.ph_p2) >> _PH_Q
        p.ph_p2 = p.ph_p1
        p.ph_p1 = y
        y = x - p.ph_base - y
        if (y > 0 and x <= CLIP_LOW) or (y < 0 and x >= CLIP_HIGH):  # clipped short of the ring: says nothing
            return 0
        return y if y >= 0 else -y

    @micropython.native
    def _scanned(self, i, p, k):
        """Pad ``i``'s scan ended at frame ``k``."""
        # Its hit is pending (the crosstalk verdict), or, reached while the last slap's
        # ring held the retrigger line up and rising less than ``second_pct`` % of that
        # slap's peak over the ring (the line less its margin), the palm's second
        # contact: no hit, and its ring joins the line; so too up to ``SECOND_HOLD_US``
        # after the slap once a short ring has gone.
        # With ``second_pct`` set, so does a hit whose peak is under the threshold.
        # Where the ring was predicted with its phase (:meth:`_phase_fit`), a hit that
        # rose over that prediction by its level (which holds second contacts out) is a
        # slap too, its peak the larger of that rise and the sum it made with the ring
        # (a slap meeting the ring's opposite swing sums to less). A hit that crossed
        # over a ring (the line or the prediction) whose edge lies further before the
        # crossing than its own rise takes (the onset curve's delay, at least a third of
        # the scan, and a state frame) was timed on a swing of that ring: it is timed
        # from the crossing less that delay (not one timed with the predicted ring taken
        # off: :meth:`_over_ring`).
        self.scans += 1
        onset, peak, clean, delay, subtracted = self._onset(i, p, k)
        rose = p.ph_on  # the ring was predicted with its phase: the rise over it decides
        p.ph_on = p.ph_wait = p.ph_clip = False
        over = rose and p.ph_peak >= p.ph_level
        if over and p.ph_peak > peak:  # its own swing, met by the ring's opposite one
            peak = p.ph_peak
        if (over or p.cross_line) and not p.ring_off:  # over a ring, timed with it (not with it taken off):
            rise = onset_delay_us(peak, p.onset_us, p.onset_exp)  # an edge further before the crossing than
            # a rise takes is a swing of the ring before the slap
            if ticks_diff(p.cross, onset + delay) > (rise if 3 * rise > p.scan else p.scan // 3) + STATE_US:
                onset = (p.cross - rise) & TICKS_MASK
        p.onset = onset
        p.peak = peak
        p.phase = MASK
        if peak > p.peak_max:
            p.peak_max = peak
        own = peak * p.rt_pct / 100
        if p.second and p.rt_pct:
            ring = (p.cross_line - p.thr) * 100 / p.rt_pct if p.cross_line else 0
            # under the threshold once measured on the quiet baseline before it: the ring
            # of a strike, whose slow part the tracked baseline lags after it, crossed
            d = ticks_diff(onset, p.slap_t)
            held = p.cross_line or 0 <= d < SECOND_HOLD_US  # the ring stands, or its slap was just now
            small = peak < p.thr or (held and peak < p.thr + ring + p.second * p.last_peak / 100)
            if (not over) if rose else small:  # (the line reads a clipped ring short: the prediction decides)
                dt = ticks_diff(onset, p.line_t)  # < 0: a line from before the ticks wrapped, long gone
                line = p.rt_level * math.exp(-dt / p.rt_tau) if dt >= 0 else 0.0
                p.rt_level = own if own > line else line
                p.line_t = onset
                return
        self.pending.append([i, onset, peak, delay, clean, subtracted])
        p.last_peak = peak
        p.last_rise = p.ph_peak if over else peak  # a slap over a ring sums with it: its palm's second
        # contact is a share of what it rose by itself (the sum held a soft slap after a hard one out)
        p.slap_t = onset
        p.rt_level = own
        p.line_t = onset

    @micropython.native
    def _sources(self, i, p, k):
        """What is subtracted from pad ``i``'s signal before its edge is timed (its scan
        ended at frame ``k``)."""
        # Every other pad with a crosstalk gain here that crossed its threshold from
        # ``EDGE_BACK_US`` before this hit's crossing until now with a slap of its own
        # (:meth:`_slapped`; a pad that only carries a third pad's crosstalk would take
        # that slap away twice), as ``(pad, gain, its baseline, lag in frames, its
        # crosstalk)``, where its crosstalk lists the same for the other slapped pads:
        # subtracted from it first, so its own signal is what is subtracted.
        # (Not this pad's: if this hit is only crosstalk, that pad carries none of it;
        # if it is a slap, what that pad carries of it is a few % of it, half a
        # millisecond late, and costs its stamp a few µs.) None when there is nothing to
        # subtract.
        n = self.npads
        active = []
        for j in range(n):
            q = self.pads[j]
            if j != i and q.crossed and ticks_diff(p.cross, q.cross) <= EDGE_BACK_US:
                active.append(j)
        if not active:
            return None
        slapped = [i]
        for j in active:
            if self._slapped(j, k, active + [i]):
                slapped.append(j)
        out = None
        for j in slapped:
            g = p.xgain[j] if j < len(p.xgain) else 0
            if j == i or g <= 0:
                continue
            q = self.pads[j]
            echo = []
            for m in slapped:
                gm = q.xgain[m] if m < len(q.xgain) else 0
                if m != j and m != i and gm > 0:
                    echo.append((m, gm / 1000, self.pads[m].cbase, self._lag(q, j, m)))
            if out is None:
                out = []
            out.append((j, g / 1000, q.cbase, self._lag(p, i, j), echo))
        return out

    @micropython.native
    def _slapped(self, j, k, pads):
        """True when pad ``j``'s latest hit is a slap of its own."""
        # Over its frames up to ``k`` (its scan, or as much as there is), its signal
        # less the crosstalk of the other ``pads`` still stands as a hit does in
        # :meth:`_onset` (averaged over a state frame, at least the threshold and
        # ``xclean_pct`` % of what was taken).
        q = self.pads[j]
        r_min = frame_diff(self._newest, k) - self.ring_frames + 1
        lo = frame_diff(q.cross_k, k) - self.step + 1
        if lo < r_min:
            lo = r_min
        hi = lo + (q.scan + STATE_US) // self.frame_us
        if hi > 0:
            hi = 0
        src = []
        for m in pads:
            g = q.xgain[m] if m < len(q.xgain) else 0
            if m != j and g > 0:
                src.append((m, g / 1000, self.pads[m].cbase, self._lag(q, j, m), _NOTHING))
        if not src:
            return True
        _top, raw, _rp, sgn = self._peak(j, k, lo, hi, r_min, q.cbase, None, 0)
        _top, clean, _rp, _sgn = self._peak(j, k, lo, hi, r_min, q.cbase, src, sgn)
        return clean >= q.thr and clean * 100 >= q.xclean * (raw - clean)

    @micropython.native
    def _lag(self, p, i, j):
        """Frames from pad ``j``'s signal to its crosstalk on pad ``i`` (settings ``p``)."""
        lag = p.xlag[j]
        if self.stagger:  # pad j is sampled (j - i) / pads of a frame after pad i in each frame
            lag += (j - i) * self.frame_us / self.npads
            if lag < 0:
                lag = 0
        return lag / self.frame_us

    @micropython.native
    def _at(self, j, k, x, b, r_min):
        """Pad ``j``'s signal less ``b`` at fractional frame ``k + x`` (linear between
        frames; 0 where the ring no longer holds it).  A clipped sample sets
        ``_src_clipped``: the crosstalk it made was larger than what is subtracted."""
        m = int(math.floor(x))
        if m < r_min:
            return 0
        ring = self.ring
        size = len(ring)
        n = self.npads
        sh = self.shift
        a = ring[((k + m) * n + j) % size] << sh
        if a <= CLIP_LOW or a >= CLIP_HIGH:
            self._src_clipped = True
        f = x - m
        if f > 0:
            c = ring[((k + m + 1) * n + j) % size] << sh
            if c <= CLIP_LOW or c >= CLIP_HIGH:
                self._src_clipped = True
            a += (c - a) * f
        return a - b

    @micropython.native
    def _dev(self, i, k, r, b, src):
        """Pad ``i``'s signal at frame ``k + r`` less its baseline ``b`` and, with
        ``src`` (:meth:`_sources`), less each source pad's own signal (its signal less
        the crosstalk it carries) scaled by its gain, its lag earlier."""
        v = (self.ring[((k + r) * self.npads + i) % len(self.ring)] << self.shift) - b
        if src is not None:
            r_min = frame_diff(self._newest, k) - self.ring_frames + 1
            for j, g, bj, lag, echo in src:
                x = r - lag
                own = self._at(j, k, x, bj, r_min)
                for m, gm, bm, lm in echo:
                    own -= gm * self._at(m, k, x - lm, bm, r_min)
                v -= g * own
        return v

    @micropython.native
    def _peak(self, i, k, lo, hi, r_min, b, src, want):
        """(largest |deviation|, peak, its frame, sign) of pad ``i``'s signal (less the
        sources in ``src``) over frames ``k + lo`` .. ``k + hi``."""
        # ``want``: only that sign, 0 either. The peak is, with several
        # frames per state frame, the largest of the signal averaged over ``STATE_US``
        # around the largest sample (the largest of many noisy samples is too high).
        # With sources, the largest sample is looked for on every state frame only (the
        # average around it looks at every frame). The raw signal's (integers, or what
        # is left under a ring: :meth:`_walked`) is walked by :func:`_walk_peak`, every
        # frame; with sources (whose subtraction leaves fractions) the same walk runs
        # here.
        w = self.step
        if src is None:
            wk = self._wk
            wk[_WK_COUNT] = hi - lo + 1 if hi >= lo else 0
            wk[_WK_BASE] = b
            wk[_WK_BACK] = lo - r_min
            wk[_WK_FWD] = -lo
            wk[_WK_STEP] = w
            buf, st, at = self._walked(i, k, lo)
            best = _walk_peak(buf, st, wk, at, want)
            rp = lo + wk[_WK_AT]
            sgn = wk[_WK_SGN]
            if w <= 1 or best <= 0:
                return best, best, rp, sgn
            return best, int(sgn * wk[_WK_TOP] / w), lo + wk[_WK_TOP_END] - w // 2, sgn
        best = 0
        rp = lo
        sgn = want if want else 1
        r = lo
        while r <= hi:
            d = self._dev(i, k, r, b, src)
            if d < 0:
                if -d > best and want <= 0:
                    best = -d
                    rp = r
                    sgn = -1
            elif d > best and want >= 0:
                best = d
                rp = r
                sgn = 1
            r += w
        if w <= 1 or best <= 0:
            return best, best, rp, sgn
        a = rp - 2 * w
        if a < r_min:
            a = r_min
        end = rp + w
        if end > 0:
            end = 0
        vals = [self._dev(i, k, r, b, src) for r in range(a, end + 1)]
        acc = 0
        for x in range(w if w <= len(vals) else len(vals)):
            acc += vals[x]
        top = acc
        top_end = a + w - 1
        x = w
        while x < len(vals):
            acc += vals[x] - vals[x - w]
            if sgn * (acc - top) > 0:
                top = acc
                top_end = a + x
            x += 1
        return best, int(sgn * top / w), top_end - w // 2, sgn

    @micropython.native
    def _half_time(self, i, k, rp, best, sgn, stop, b, src):
        """Frames from ``k`` to where the rising edge before frame ``k + rp`` reached
        half of ``best`` (a straight line through the samples between a quarter and
        three quarters of it; constant-fraction timing), or None if it runs past
        ``stop``.  That line's rise per frame goes into ``_rise``."""
        # The raw signal's edge (integers, or what is left under a ring:
        # :meth:`_walked`) is walked by :func:`_walk_edge`, one with sources (fractions)
        # here; the sums are floats in the same order either way.  Where too few samples
        # stand in the band for a line, or its line strays, the line is the one through
        # the two samples around half the peak.
        half = best / 2
        sx = sy = sxx = sxy = 0.0
        m = 0
        x50 = None
        if src is None:
            count = rp - stop if rp > stop else 0
            wk = self._wk
            if len(wk) < _WK_HEAD + 2 * count:
                self._wk = wk = array("i", bytes(4 * (_WK_HEAD + 2 * count)))
            wk[_WK_COUNT] = count
            wk[_WK_BASE] = b
            wk[_WK_BEST] = best
            buf, st, at = self._walked(i, k, rp - 1)
            if not _walk_edge(buf, st, wk, at, sgn):
                return None
            v = wk[_WK_V]
            rise = wk[_WK_ABOVE] - v
            x50 = -1 - wk[_WK_X] + (half - v) / rise  # the sample pair around half the peak
            m = wk[_WK_PAIRS]
            o = _WK_HEAD
            for _ in range(m):
                x = -1 - wk[o]
                v = wk[o + 1]
                sx += x
                sy += v
                sxx += x * x
                sxy += x * v
                o += 2
        else:
            band_lo = best / 4
            band_hi = best - band_lo
            floor = best / 5
            above = best
            r = rp - 1
            while r >= stop:
                v = sgn * self._dev(i, k, r, b, src)
                if x50 is None and v < half:
                    rise = above - v
                    x50 = r - rp + (half - v) / rise
                if v <= floor:
                    break
                if band_lo <= v <= band_hi:
                    x = r - rp
                    sx += x
                    sy += v
                    sxx += x * x
                    sxy += x * v
                    m += 1
                above = v
                r -= 1
            if x50 is None:
                return None
        if m >= 3:
            den = m * sxx - sx * sx
            if den > 0:
                slope = (m * sxy - sx * sy) / den
                if slope > 0:
                    fit = (half - (sy - slope * sx) / m) / slope
                    near = FIT_NEAR_US / self.frame_us  # a line through noise is trusted this near the crossing
                    if near < 1:
                        near = 1
                    if x50 - near <= fit <= x50 + near:
                        x50 = fit
                        rise = slope
        if x50 < 0 and rise * -x50 < half:
            # No slower than the line from half to the top sample: a rise that is concave
            # (a half sine's, a ramp's) is steeper at half its height than above it.  A line
            # through noise on a small pre swing's edge (7 noise sigmas) ran back to a start
            # 183 µs before wood's contact (issue 31).
            rise = half / -x50
        self._rise = rise
        return rp + x50

    @micropython.native
    def _onset(self, i, p, k):
        """(onset ticks, peak, clean peak, delay, subtracted pads) of pad ``i``'s hit,
        whose scan ended at frame ``k``."""
        # The peak over every frame since the state frame before the crossing, and the
        # time the rising edge reached half of it, less the pad's delay from contact to
        # there.
        # With crosstalk gains set, the other pads that had hits near this one are
        # subtracted first (their crosstalk rides on this edge and raises this peak):
        # the clean peak and the edge are measured on what is left, if a slap of this
        # pad's own stands there (at least the threshold, and ``xclean_pct`` % of what
        # was subtracted); ``subtracted`` is a bit mask of those pads (0: measured on
        # the raw signal). ``peak`` is the raw peak of the strike's main swing,
        # whichever way it goes and whatever the edge was timed on (velocity, the ring
        # after it and crosstalk cancel compare raw peaks). Frames are relative to
        # ``k``.
        r_min = frame_diff(self._newest, k) - self.ring_frames + 1  # older frames are overwritten
        rc = frame_diff(p.cross_k, k)
        b = self._edge_base(i, p, k, rc, r_min)
        lo = rc - self.step + 1
        if lo < r_min:
            lo = r_min
        top, best, rp, sgn = self._peak(i, k, lo, 0, r_min, b, None, 0)
        if top + abs(b - p.cbase) < p.peak:  # the ring no longer holds the edge: keep what the state frames saw
            return p.cross, p.peak, p.peak, 0, 0
        main, msgn = self._main(i, k, lo, r_min, b, top, best, rp, sgn)  # the velocity and the ring after it
        stop = rc - EDGE_BACK_US // self.frame_us
        if stop < r_min:
            stop = r_min
        p.ring_off = False
        if p.ph_on:  # over a ring predicted with its phase: the edge is the slap's once the ring is taken off
            over = self._over_ring(i, p, k, rc, lo, stop, r_min)
            if over is not None:
                x50, best, lobe = over
                p.ring_off = True
                return self._stamped(i, p, k, x50, main, best, lobe, 0)
        first = 1 if self._dev(i, k, rc, b, None) >= 0 else -1
        lobe = 0  # timed on a narrow swing (a first lobe or a pre swing): its sign times the main swing's
        if first != sgn:  # the strike opened the other way (a first lobe, or clipped at both rails): time
            end = rp
            top, best, rp, sgn = self._peak(i, k, lo, end, r_min, b, None, first)  # that swing, before the main one
            lobe = sgn * msgn if self._narrow(i, k, rp, sgn, top, b) else 0
            if lobe:  # at half its own largest sample, as a lobe under the threshold is (one rule for both)
                best, rp = self._top(i, k, lo, end, sgn, b)
        else:  # a first lobe under the threshold just before the main swing (at the full rate)?
            found = self._lobe_before(i, p, k, rc, -sgn, b, r_min) if self.frame_us * 2 <= STATE_US else None
            if found:
                best, rp = found
                sgn = -sgn
                lobe = sgn * msgn
            elif self._narrow(i, k, rp, sgn, top, b):  # or the swing that crossed is itself a narrow swing
                lobe = sgn * msgn
                best, rp = self._top(i, k, lo, 0, sgn, b)
        if lobe < 0 and self.frame_us * 2 <= STATE_US:  # the first lobe is the first one (at the full rate)
            best, rp = self._first_lobe(i, p, k, rp, sgn, b, r_min, best)
        if best <= 0:  # a wide swing whose state frame's average the ring's opposite swing outweighs:
            best = top  # its own largest sample (a negative peak timed nothing, and differed on the board)
        raw = best
        src = None if lobe else self._sources(i, p, k)
        subtracted = 0
        x50 = None
        if src is not None:
            self._src_clipped = False
            # up to the raw peak and in its direction: past their first swing the pads'
            # rings drift out of phase, and what is left of the crosstalk there is not a slap
            hi = rp + self.step
            if hi > 0:
                hi = 0
            _top, c_best, c_rp, c_sgn = self._peak(i, k, lo, hi, r_min, b, src, sgn)
            if c_best >= p.thr and c_best * 100 >= p.xclean * (raw - c_best):
                x50 = self._half_time(i, k, c_rp, c_best, c_sgn, stop, b, src)
                if self._src_clipped:
                    x50 = None
                if x50 is not None:
                    best = c_best
                    for j, _g, _b, _l, _e in src:
                        subtracted |= 1 << j
        if x50 is None:
            x50 = self._half_time(i, k, rp, best, sgn, stop, b, None)
        return self._stamped(i, p, k, x50, main, best, lobe, subtracted)

    @micropython.native
    def _stamped(self, i, p, k, x50, main, best, lobe, subtracted):
        """What :meth:`_onset` returns for pad ``i``'s hit whose edge reached half of
        ``best`` ``x50`` frames from ``k`` (None: the edge runs past the history kept, so
        the crossing is the stamp)."""
        # ``lobe``: 0, the main swing was timed (the onset curve comes off); else a narrow
        # swing, its sign times the main swing's: against it (< 0) a first lobe (the pad's
        # lobe delay comes off), the main swing's way a pre swing, which rises from the
        # contact itself: at the full rate it is timed where its edge's line (``_rise``,
        # through its half height) meets the baseline (at half its height it came 50-80 µs
        # after the contact on wood, a sixth of its width and more: issue 31); at 4 kHz it
        # is a sample or two, the line through them up to a frame early, so at its half
        # height there.
        if x50 is None:
            return p.cross, main, best, 0, 0
        t50 = self._t0 + frame_diff(k, self._k0) * self.frame_us + int(x50 * self.frame_us + 0.5)
        if self.stagger:
            t50 += i * self.frame_us // self.npads
        if lobe < 0:
            delay = p.lobe_us
        elif lobe:
            delay = int(best * self.frame_us / (2 * self._rise) + 0.5) if self.frame_us * 2 <= STATE_US else 0
        else:
            delay = onset_delay_us(best, p.onset_us, p.onset_exp)
        onset = (t50 - delay) & TICKS_MASK
        if ticks_diff(onset, p.cross) > 0:  # contact came before the signal crossed the threshold
            onset = p.cross
        return onset, main, best, delay, subtracted

    def _over_ring(self, i, p, k, rc, lo, stop, r_min):
        """(half-peak frame, peak, the swing timed as :meth:`_stamped` takes it) of pad ``i``'s hit that rose over
        the ring predicted with its phase (crossing at frame ``k + rc``), measured on its
        signal less the ring's baseline and that ring (:meth:`_ring_left`): on the raw
        signal the edge carries the ring's slope, and half the peak of slap and ring
        summed lies on whichever swing of the ring met it (fast slaps were stamped
        0.1–2 ms off so).  None where the ring cannot be predicted back over the edge."""
        # What is left is computed once, in machine code, and walked by the ring's walks
        # (_walked): walked frame by frame in Python, a hit cost the board 23-39 ms (i31j).
        d = self.step
        under = stop - d  # the ring is taken off from here on
        if not self._ring_left(i, p, k, under, r_min):
            return None
        left = self._left
        st = self._left_st
        if r_min < self._left_lo:
            r_min = self._left_lo
        b = _LEFT_MID  # what is left is kept this far up from the ring's baseline
        a = rc - LOBE_BACK_US // self.frame_us  # where the slap opened: the first frame where what is left moved
        if a < under + 2 * d:  # by the threshold within a state frame (a narrow first lobe can pass between the
            a = under + 2 * d  # state frames, and the level the crossing needed is over the threshold; the ring's
        first = 0  # baseline drifts by hundreds of counts, and the prediction's error grows slowly)
        if a <= rc:  # by the threshold (where the ring clipped, over what the error moved by before: a fit
            x = a - self._left_lo  # between clipped swings is off by hundreds of counts, and its error moves)
            m = _drift(left, x, d) if self._left_clipped else 0
            moved = _walk_move(left, st, x, rc - a + 1, d, p.thr + m)
            if moved:
                first = 1 if moved > 0 else -1
                a += first * moved - 1
            else:
                a = rc + 1
        if first:  # what is left just before: the baseline the slap is measured from
            wk = self._wk
            wk[_WK_COUNT] = d + 1
            wk[_WK_BASE] = 0  # (what is left is never negative: this sums it)
            m = _walk_spread(left, st, wk, a - 2 * d - self._left_lo) - (d + 1) * _LEFT_MID
            b += m // (d + 1) if m >= 0 else -((-m) // (d + 1))  # toward zero
        o = a  # where it opened (the peaks are looked for from the state frame before the crossing, if earlier)
        if a > lo:
            a = lo
        self._left_on = True
        top, best, rp, sgn = self._peak(i, k, a, 0, r_min, b, None, 0)
        _main, msgn = self._main(i, k, a, r_min, b, top, best, rp, sgn)
        lobe = 0
        if first:  # the swing it opened with, to where it turns: a first lobe (narrow) is what is timed, and
            e = o + _walk_width(left, st, o + 1 - self._left_lo, 0, -o - 1, b, first, 1)  # a wide swing the other
            top, low, rl, _sgn = self._peak(i, k, o, e, r_min, b, None, first)  # way than the largest is timed
            w = 2 * (STATE_US // self.frame_us)  # as a raw strike's is
            narrow = top > 0 and 0 < self._width(i, k, rl, first, top, b) <= w
            if top > 0 and (first != sgn or narrow):  # (a narrow one at half its own largest sample, a wide one
                lobe = first * msgn if narrow else 0  # at half its average, or its largest sample where the swing
                if lobe > 0 and self._left_clipped and self._railed(i, k, o, e, first):  # after outweighs its
                    lobe = 0  # average). No pre swing (a few % of the main swing) reaches the rail: the main
                    narrow = False  # swing, its opening clipped short of the ring, its top at the rail (so narrow)
                best, rp = self._top(i, k, o, e, first, b) if narrow else (low if low > 0 else top, rl)
                sgn = first
            elif self.frame_us * 2 <= STATE_US:  # Or a narrow first lobe under the threshold before it (as
                z = o - LOBE_BACK_US // self.frame_us  # _lobe_before finds one)
                if z < under:
                    z = under
                if o - z >= 2:
                    top, _low, rl, lsgn = self._peak(i, k, z, o - 1, r_min, b, None, -sgn)
                    if lsgn == -sgn and 3 * top >= p.thr and top >= 5 * (p.noise_fp >> 8):
                        if 0 < self._width(i, k, rl, -sgn, top, b) <= w:
                            best, rp = self._top(i, k, z, o - 1, -sgn, b)
                            sgn, lobe = -sgn, -sgn * msgn
        x50 = self._half_time(i, k, rp, best, sgn, stop, b, None) if best > 0 else None
        self._left_on = False
        return x50, best, lobe

    def _railed(self, i, k, lo, hi, sgn):
        """True where one of pad ``i``'s samples from frame ``k + lo`` to ``k + hi`` sat at
        the rail the way of ``sgn`` (a swing that went further than the ADC reads)."""
        ring = self.ring
        size = len(ring)
        sh = self.shift
        r = lo
        while r <= hi:
            x = ring[((k + r) * self.npads + i) % size] << sh
            if (x >= CLIP_HIGH) if sgn > 0 else (x <= CLIP_LOW):
                return True
            r += 1
        return False

    def _ring_left(self, i, p, k, lo, r_min):
        """Pad ``i``'s signal less its ring's baseline and the ring predicted with its
        phase from frame ``k + lo`` (``lo`` < 0) to ``k`` into ``_left``
        (:func:`_ring_left`)."""
        # False where the fit's angle is a whole or half turn (the ring's state then
        # does not say its phase) or the ring carried back outgrows the fixed point.
        # The same damped sinusoid at the sampler's rate (its angle and fade per frame a
        # step-th of the state frame's), from its state here and a state frame before
        # (ph_p1, ph_p2); from two state frames and a frame before lo, which the walks may
        # look back over, but not before r_min (the ring no longer holds it) unless lo is.
        q = 1 << _PH_Q
        r2 = p.ph_a2n / q
        if r2 <= 0:
            return False
        r = math.sqrt(r2)
        c = p.ph_a1 / q / (2 * r)
        if not -0.999 < c < 0.999:
            return False
        w = math.acos(c)
        y0 = p.ph_p1
        z = (y0 * c - p.ph_p2 * r) / math.sin(w)  # y(x) = r^x (y0 cos wx + z sin wx), x in state frames
        step = self.step
        first = lo - 2 * step - 1
        if first < r_min:
            first = r_min if r_min < lo else lo
        n = 1 - first
        wf = w / step
        rf = math.pow(r, 1 / step)
        if rf <= 0.5:  # the recursion's coefficients stay under 2**30
            return False
        grown = math.sqrt(y0 * y0 + z * z) / math.pow(rf, n)  # its envelope at its largest (a frame past lo's)
        fb = 12  # fixed point bits: whole counts, up to 12 bits under them
        while grown * (1 << fb) >= _ROT_TOP:
            if fb == 0:
                return False
            fb -= 1
        left = self._left
        if left is None or len(left) < n:
            self._left = left = array("H", bytes(2 * n))  # kept: one block, the largest edge so far
            self._left_st[1] = n
        self._left_lo = first
        at = (k * self.npads + i) % len(self.ring)  # frame k: the newest
        self._left_clipped = _ring_left(
            self.ring,
            self._st,
            left,
            at,
            n,
            p.ph_base,
            y0 << fb,
            _fixed(rf * (y0 * math.cos(wf) + z * math.sin(wf)), fb),  # the frame after
            _fixed(2 * math.cos(wf) / rf, _ROT_Q),
            _fixed(1 / (rf * rf), _ROT_Q),
            fb,
        )
        return True

    @micropython.native
    def _main(self, i, k, lo, r_min, b, top, best, rp, sgn):
        """(peak, sign) of pad ``i``'s main swing from frame ``k + lo`` on, whichever way it
        goes, given the largest (``_peak``'s ``top``, ``best``, ``rp``, ``sgn``)."""
        # The peak: the larger of the two signs' averaged peaks (a narrow lobe's sample may
        # outdo a wider swing's, its average not). The sign, by which a first lobe against
        # the main swing is told from a pre swing with it: the wide swing's, the earlier of
        # two wide ones (where no average is taken, a state frame a sample, a lobe's sample
        # outdoes the main swing; over a ring the swing after the main one may, what the
        # prediction missed added to it); else the larger's.
        top2, other, rp2, _sgn = self._peak(i, k, lo, 0, r_min, b, None, -sgn)
        peak = other if other > best else best
        if other > 0:
            wide = not self._narrow(i, k, rp, sgn, top, b)
            if not self._narrow(i, k, rp2, -sgn, top2, b) and (not wide or rp2 < rp):
                return peak, -sgn
            if wide:
                return peak, sgn
        return peak, -sgn if other > best else sgn

    @micropython.native
    def _narrow(self, i, k, rp, sgn, top, b):
        """True when pad ``i``'s swing of sign ``sgn`` peaking ``top`` at frame ``k +
        rp`` is over half its height for at most two state frames."""
        # A strike's first lobe or pre swing (the contact's own answer, as long as a
        # soft palm's contact at most), not a resonator's swing (a third of its period:
        # 1.3 ms at 250 Hz).
        # Its own run over half its height: a wooden strike's pre swing is followed,
        # after its narrow lobe the other way, by the main swing its way, which is no
        # part of it.
        return self._width(i, k, rp, sgn, top, b) <= 2 * (STATE_US // self.frame_us)

    @micropython.native
    def _width(self, i, k, rp, sgn, top, b):
        """How many frames pad ``i``'s swing of sign ``sgn`` at frame ``k + rp`` stays over
        half of ``top`` in one run with that frame (0 if that frame is not), looking at
        most two state frames and one frame each way (:func:`_walk_width`)."""
        w = 2 * (STATE_US // self.frame_us)
        z = rp + w + 1
        if z > 0:  # frames after k are not taken yet
            z = 0
        buf, st, at = self._walked(i, k, rp)
        return _walk_width(buf, st, at, w + 1, z - rp, b, sgn, top)

    @micropython.native
    def _walked(self, i, k, r):
        """(samples, their walks' header, index) of pad ``i``'s frame ``k + r`` for the
        walks: the ring's, or while a hit over a predicted ring is timed (:meth:`_over_ring`)
        what is left with that ring taken off (``_left``, from frame ``k + _left_lo``)."""
        if self._left_on:
            return self._left, self._left_st, r - self._left_lo
        return self.ring, self._st, ((k + r) * self.npads + i) % len(self.ring)

    @micropython.native
    def _first_lobe(self, i, p, k, rp, sgn, b, r_min, top):
        """(its height, its frame) of the earliest narrow lobe of sign ``sgn`` that stands
        (:meth:`_lobe_before`) in the ``LOBE_BACK_US`` before pad ``i``'s lobe of height
        ``top`` at frame ``k + rp``, one before another: that one if none."""
        # The taken lobe is the largest that way, and a neighbour's hard slap just after a
        # soft one here puts its own first lobe on this pad 250 µs on, larger than this
        # slap's: rubber x 8's soft slaps were stamped on it, 99-354 µs late, and Karate
        # Fight gave the Hit to the fighter who slapped 100 µs later (issue 31).  A
        # strike's first answer to the contact comes first.
        floor = rp - LOBE_BACK_US // self.frame_us  # no further back than a lobe under the threshold is looked for
        if floor < r_min:
            floor = r_min
        while True:
            s = rp
            while s > floor and sgn * self._dev(i, k, s - 1, b, None) > 0:  # back to where this lobe rose
                s -= 1
            found = self._lobe_before(i, p, k, s, sgn, b, floor)
            if not found:
                return top, rp
            top, rp = found

    @micropython.native
    def _lobe_before(self, i, p, k, rc, sgn, b, r_min):
        """(its peak, its frame) of a narrow lobe of sign ``sgn`` in the ``LOBE_BACK_US``
        before frame ``k + rc`` (where pad ``i``'s main swing crossed the threshold, or where
        a lobe rose), standing at least a third of the threshold and five times the noise: a
        strike's first lobe too small to cross it; or None."""
        a = rc - LOBE_BACK_US // self.frame_us
        if a < r_min:
            a = r_min
        if rc - a < 2:
            return None
        top, rl = self._top(i, k, a, rc - 1, sgn, b)
        if 3 * top < p.thr or top < 5 * (p.noise_fp >> 8):
            return None
        if not self._narrow(i, k, rl, sgn, top, b):
            return None
        return top, rl

    @micropython.native
    def _top(self, i, k, lo, hi, sgn, b):
        """(largest deviation of sign ``sgn``, its frame) of pad ``i``'s signal less ``b``
        over frames ``k + lo`` .. ``k + hi`` (0 and ``lo`` if none goes that way)."""
        # The height a narrow swing is timed by, whether it crossed the threshold or not:
        # half a state frame's average, which the crossing ones took, lies lower on a
        # swing narrower than the state frame, so the two kinds' lobes came 12-21 µs apart
        # against one lobe delay (issue 31, i31s).
        wk = self._wk
        wk[_WK_COUNT] = hi - lo + 1 if hi >= lo else 0
        wk[_WK_BASE] = b
        wk[_WK_STEP] = 1
        buf, st, at = self._walked(i, k, lo)
        top = _walk_peak(buf, st, wk, at, sgn)
        return top, lo + wk[_WK_AT]

    @micropython.native
    def _edge_base(self, i, p, k, rc, r_min):
        """The baseline under a hit's edge (crossing at frame ``k + rc``)."""
        # The mean of the samples from ``BASE_FROM_US`` to ``BASE_TO_US`` before the
        # crossing, if they were quiet (their mean deviation from it at most twice the
        # idle noise's); else the tracked baseline.
        # The tracked one follows slowly (for a steady threshold) and so lags a drifting
        # baseline by up to ~150 counts, a few % of a soft slap: its half-peak level,
        # and so its stamp, moved by tens of µs.
        a = rc - BASE_FROM_US // self.frame_us
        z = rc - BASE_TO_US // self.frame_us
        if a < r_min:
            a = r_min
        if z - a < 8:
            return p.cbase
        wk = self._wk
        st = self._st
        at = ((k + a) * self.npads + i) % len(self.ring)
        wk[_WK_COUNT] = z - a
        wk[_WK_BASE] = 0
        m = _walk_spread(self.ring, st, wk, at) // (z - a)  # ints, as the tracked baseline: peaks go out as integers
        wk[_WK_BASE] = m
        if _walk_spread(self.ring, st, wk, at) > (z - a) * (2 * (p.noise_fp >> 8) + 8):
            return p.cbase
        return m

    @micropython.native
    def _decide(self, t):
        out = []
        keep = []
        for c in self.pending:
            pad = self.pads[c[0]]
            if pad.xt_on and not self._settled(c, pad, t):
                keep.append(c)
                continue
            if pad.xt_on and self._crosstalk(c, pad):
                continue
            out.append((c[0], c[1], velocity(c[2], pad.thr, pad.sens, pad.curve), c[2]))
            self.recent.append(c)
        self.pending = keep
        if self.recent:
            self.recent = [r for r in self.recent if ticks_diff(t, r[1]) <= 20000 + self.pads[r[0]].scan]
        return out

    @micropython.native
    def _settled(self, c, pad, t):
        """True once every onset within this hit's window is known and fully scanned (a
        pad still scanning crossed its threshold after its onset, so any that crossed
        since the window opened may hold an onset inside it)."""
        if ticks_diff(t, c[1]) < pad.xt_win:
            return False
        for j in range(len(self.pads)):
            q = self.pads[j]
            if j != c[0] and q.phase == SCAN and ticks_diff(q.cross, c[1]) >= -pad.xt_win:
                return False
        return True

    @micropython.native
    def _crosstalk(self, c, pad):
        """True when another pad's hit within the window is stronger than this one by
        the crosstalk ratio, and this one could have come from it."""
        # Crosstalk carries the other slap's force, so this hit is timed as a slap that
        # hard would be on this pad (the same share of a hard slap: a peak in the other
        # pad's counts is another force here when the pads' gains differ), and crosstalk
        # never starts before the slap that causes it. A hit timed on a first lobe or a
        # pre swing took that swing's own delay, which force does not shorten: a slap
        # that hard would have been timed the same (real pads' crosstalk is often
        # lobe-timed, and the main swing's curve put its onset before its source's).
        # A hit whose edge was timed with that pad's signal subtracted is a slap of its
        # own (what was left stood clear: ``_onset``), not its crosstalk, if it came
        # first: later, what the subtraction leaves on a pad that rings unlike that one
        # can stand as clear as a slap (the rough cabinet's 180 Hz pad failed
        # verification so), and a later slap is dropped as it was before the
        # subtraction.
        bar = c[2] * 100
        t50 = c[1] + c[3]
        for lst in (self.pending, self.recent):
            for o in lst:
                if o[0] != c[0] and o[2] * pad.xt_ratio(o[0]) > bar:
                    d = ticks_diff(c[1], o[1])
                    if (c[5] >> o[0]) & 1 and d <= XTALK_LEAD_US:
                        continue
                    if d > pad.xt_win:
                        continue
                    here = o[2] * pad.sens / self.pads[o[0]].sens  # as hard: the same share of a hard slap
                    rise = onset_delay_us(here, pad.onset_us, pad.onset_exp)
                    if ticks_diff(t50 - (c[3] if c[3] < rise else rise), o[1]) >= -XTALK_LEAD_US:
                        return True
        return False

    def edge(self, pad, onset, before_us, after_us, most):
        """Pad ``pad``'s samples around a hit's ``onset`` (ticks) as the sampler took
        them (every frame, not one in ``step``)."""
        # ``(ticks of the first, µs apart, [read_u16 counts])`` from ``before_us``
        # before the onset to ``after_us`` after, at most ``most``, of the frames the
        # ring still holds. Calibration reads the palm's contact from them
        # (``calibration.onset_fit``).
        fu = self.frame_us
        at = ticks_diff(onset, self._t0)
        first = (at - before_us) // fu
        last = (at + after_us) // fu
        newest = frame_diff(self._newest, self._k0)
        if first < newest - self.ring_frames + 1:
            first = newest - self.ring_frames + 1
        if last > newest:
            last = newest
        if last > first + most - 1:
            last = first + most - 1
        t = self._t0 + first * fu
        if self.stagger:
            t += (pad * fu) // self.npads
        n = self.npads
        ring = self.ring
        size = len(ring)
        sh = self.shift
        k = self._k0
        out = [ring[((k + r) * n + pad) % size] << sh for r in range(first, last + 1)]
        return t & TICKS_MASK, fu, out

    def resting(self):
        """True while every pad is idle (no hit, mask or ring line) and no hit awaits its
        verdict: a slap can still come, but no burst is under way."""
        if self.pending:
            return False
        for p in self.pads:
            if p.phase != IDLE:
                return False
        return True

    def health(self, pad):
        """(baseline, noise, largest peak since the last call, clipped samples) of a pad."""
        if self._held:
            self._unplan()
        p = self.pads[pad]
        peak = p.peak_max
        p.peak_max = 0
        return (max(p.base_fp, 0) >> 8, p.noise_fp >> 8, peak, p.clipped)
