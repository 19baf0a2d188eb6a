"""The settle window: stamped inputs are judged by their stamps, never by arrival order.

Each input is held until ``settle_us`` (no shorter than the transport's worst skew) has
passed since its stamp; then everything due is released in stamp order.  An input that
arrives later than ``settle_us`` after its stamp is released at once (and counted as
late): the window was too short for that transport, which the operator should know.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Generic, TypeVar

Item = TypeVar("Item")
"""What the window holds (the cabinet's stamped inputs)."""


class SettleBuffer(Generic[Item]):
    def __init__(self, settle_us: int) -> None:
        if settle_us < 0:
            raise ValueError("settle window cannot be negative")
        self.settle_us = settle_us
        self._heap: list[tuple[int, int, int, Item]] = []
        self._seq = itertools.count()
        self.late = 0

    def add(self, t_us: int, item: Item, now_us: int, rank: int = 1) -> None:
        """Hold ``item`` stamped ``t_us``; ``rank`` orders items with equal stamps
        (lower first: a reveal before the slaps stamped at the same µs)."""
        if now_us - t_us > self.settle_us:
            self.late += 1
        heapq.heappush(self._heap, (t_us, rank, next(self._seq), item))

    def release(self, now_us: int) -> list[tuple[int, Item]]:
        """Items whose window has passed, as (stamp, item) in stamp order."""
        out: list[tuple[int, Item]] = []
        while self._heap and self._heap[0][0] + self.settle_us <= now_us:
            t, _rank, _seq, item = heapq.heappop(self._heap)
            out.append((t, item))
        return out

    def next_due(self) -> int | None:
        """When the earliest held item will be released."""
        return self._heap[0][0] + self.settle_us if self._heap else None

    def __len__(self) -> int:
        return len(self._heap)
