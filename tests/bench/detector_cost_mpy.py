"""The detector's per-sample cost under MicroPython (run with ``micropython``, not CPython).

    micropython tests/bench/detector_cost_mpy.py [pads]

Feeds the board's own ``detector.py`` (with ``wire.py`` beside it, as on the board) a
DMA-style ring of idle noise, in blocks of 40 frames, and prints the µs it took per
sample and in iterations of a bare ``while`` loop (the unit to carry to another machine): the idle path, every sample looked at (issue 31), which
is what must fit the sample budget (20 kHz × pads).  A host's MicroPython is faster than
the RP2040's: the figure is a ratio to scale, docs/slap-timing.md says how.
"""

import sys
import time

sys.path.insert(0, "firmware_py/padboard")
sys.path.insert(0, "hal/padboard")

import detector

FRAME_US = 50
BLOCK = 40
RING = 4096


def run(pads, seconds):
    from array import array

    ring = array("H", [0] * RING)
    seed = 12345
    for i in range(RING):  # 12-bit samples around mid-scale, ±~3 LSB of noise
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        ring[i] = 2048 + ((seed >> 16) % 7) - 3
    det = detector.Detector(pads, [{"threshold": 2000, "xtalk_pct": 0}] * pads)
    frames = RING // pads
    blocks = seconds * 1_000_000 // (FRAME_US * BLOCK)
    k = 0
    t = 0
    start = time.ticks_us()
    for _ in range(blocks):
        det.feed(ring, k, BLOCK, t, FRAME_US, 4, True)
        k = (k + BLOCK) % (frames - frames % BLOCK) if frames >= BLOCK else 0
        t += BLOCK * FRAME_US
    took = time.ticks_diff(time.ticks_us(), start)
    samples = blocks * BLOCK * pads
    return took, samples


def loop_ref(n):
    """A bare ``while`` loop of n iterations: the unit to compare machines by."""
    start = time.ticks_us()
    i = 0
    while i < n:
        i += 1
    return time.ticks_diff(time.ticks_us(), start)


pads = int(sys.argv[1]) if len(sys.argv) > 1 else 4
took = ref = None
for _ in range(7):  # the fastest of several, each against a bare loop right after it: a loaded machine only slows
    t, samples = run(pads, 1)
    r = loop_ref(samples)
    took = t if took is None or t < took else took
    ref = r if ref is None or r < ref else ref
print("pads", pads, "samples per run", samples, "fastest run us", took)
print("us per sample", took / samples, "bare loop us per iteration", ref / samples)
print("cost per sample in bare loop iterations", took / ref)
print("share of one core at 20 kHz on this machine", took / 1_000_000)
