"""The DMA ring's memory, claimed at boot while the heap is whole: main.py imports this
before the board's other files, whose loading leaves no 16 KB piece of it whole."""

# Issue 31: after the boot compiled board.py and detector.py the largest free piece was
# 18.8-20 KB, and DmaSampler's store (twice the ring, to hold an aligned ring wherever it
# lands, made from as many bytes of zeros) no longer fit.  Claimed before that compile, the
# 16 KB store made the compile run out (MemoryError in detector.py, allocating 1,968 B):
# only the ring itself is claimed here, 8 KB and the few bytes before its aligned address
# (first fits in a heap still whole).  A module runs once: `import main` at
# the REPL (tests/board/mp/budget.py) finds this one in sys.modules, with the same STORE.

import gc
from array import array

from uctypes import addressof

RING_BITS = 13  # an 8 KiB ring: 4096 samples, 68 ms at 3 pads × 20 kHz
RING_BYTES = 1 << RING_BITS


def _claim():
    """An array holding the ring at an address the DMA's wrapping needs (a multiple of
    RING_BYTES) as little past its start as the heap allows, or None."""
    held = []  # tries that came out too short for an aligned ring: let go on return
    for _ in range(4):
        probe = array("H", range(RING_BYTES >> 1))  # from a range: no temporary of its size
        gap = (-addressof(probe)) & (RING_BYTES - 1)  # to the aligned address at or after it
        if gap:
            # No free piece before the probe held a ring, so the store, a ring and the gap,
            # lands where the probe was, with an aligned ring at the gap's end.  (Rings and
            # fillers up to the next aligned address, tried before, lost the fillers to
            # earlier holes when main.py's code moved, and the ring none of four tries
            # aligned, or went 8 KB up the heap, where the compile after needs it whole.)
            probe = None
            gc.collect()
            probe = array("H", range((RING_BYTES + gap) >> 1))
        if ((-addressof(probe)) & (RING_BYTES - 1)) + RING_BYTES <= 2 * len(probe):
            for i in range(len(probe)):
                probe[i] = 0
            return probe
        held.append(probe)
    return None


STORE = _claim()
"""None where no try held an aligned ring: DmaSampler then allocates twice the ring itself."""
gc.collect()  # what moved the ring on goes back to the compile
