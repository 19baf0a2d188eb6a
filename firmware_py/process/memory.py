"""The cabinet process asks the C allocator to hand large blocks back when they are freed.

glibc raises its mmap threshold to the size of each large block freed (up to 32 MB), so
the next blocks of that size come from the heap, and what they leave when freed stays in
the process.  A cabinet frees such blocks all the time (a score sheet's PNG being
encoded, a full-screen overlay, a headline's rendered text): measured over a soak of
exhibition games, the process kept several MB more after each new kind of game for
nothing.  Pinning the threshold at glibc's own starting value keeps every block of
128 KiB or more in a mapping of its own, returned to the system the moment it is freed.
"""

from __future__ import annotations

import ctypes

M_MMAP_THRESHOLD = -3
"""``mallopt`` parameter number (glibc's malloc.h)."""
LARGE_BLOCK_BYTES = 128 * 1024
"""glibc's default mmap threshold, kept fixed instead of rising."""


def return_large_blocks() -> bool:
    """Pin the C allocator's mmap threshold; False where the C library has no
    ``mallopt`` (not glibc: nothing to do)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK_BYTES))
