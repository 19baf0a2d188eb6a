"""The DMA ring's memory, claimed at boot while the heap is whole: main.py imports this
before the board's other files, whose compiling leaves no 16 KB piece of it whole."""

# Issue 31: after the boot compiled board.py and detector.py the largest free piece was
# 18.8-20 KB, and DmaSampler's store (twice the ring, to hold an aligned ring wherever it
# lands, made from as many bytes of zeros) no longer fit.  Claimed before that compile, the
# 16 KB store made the compile run out (MemoryError in detector.py, allocating 1,968 B):
# only the ring itself is claimed here, 8 KB, aligned by what is allocated before it and
# let go after (first fits in a heap still whole).  A module runs once: `import main` at
# the REPL (tests/board/mp/budget.py) finds this one in sys.modules, with the same STORE.

import gc
from array import array

from uctypes import addressof

RING_BITS = 13  # an 8 KiB ring: 4096 samples, 68 ms at 3 pads × 20 kHz
RING_BYTES = 1 << RING_BITS


def _claim():
    """The ring at an address the DMA's wrapping needs (a multiple of RING_BYTES), or None."""
    held = []  # rings that came out unaligned, and fillers after them: let go on return
    over = 0  # bytes between a filler's end and the next ring (small objects, unless in holes)
    for _ in range(4):
        ring = array("H", range(RING_BYTES >> 1))  # from a range: no temporary of its size
        off = addressof(ring) & (RING_BYTES - 1)
        if not off:
            for i in range(len(ring)):
                ring[i] = 0
            return ring
        if held:  # the filler before it missed the aligned address by this much
            over += off if off < RING_BYTES // 2 else off - RING_BYTES
        held.append(ring)
        held.append(bytearray((-off - over) & (RING_BYTES - 1)))  # up to the next aligned address
    return None


STORE = _claim()
"""None where no try came out aligned: DmaSampler then allocates twice the ring itself."""
gc.collect()  # what moved the ring on goes back to the compile
