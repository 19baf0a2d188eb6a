"""Replays a board-call trace (``tests/board/trace.py``) under MicroPython's own
interpreter and compares every result with CPython's, bit for bit.

Run as ``micropython -X heapsize=N replay.py TRACE`` with the board's files (flat, as
flashed), ``tests/board/stubs`` and this folder on ``MICROPYPATH``.  Prints one JSON
line: calls replayed and matched per call site, the first mismatches (test, call,
CPython's result, MicroPython's), and the heap's peak use.
"""

import gc
import json
import struct
import sys
from array import array

import board
import detector
import micropython
import tracecodec
import wire

MODULES = {"wire": wire, "detector": detector, "board": board}
SHOWN = 8  # mismatches written out in full


class Sink:
    """Stands in for a callable the host gave the board's code (``Board``'s ``write``):
    records what it is called with, and raises or returns what the host's did at that point."""

    def __init__(self, replay):
        self.replay = replay

    def __call__(self, *args):
        expected = self.replay.expect_fx
        n = len(self.replay.fx)
        self.replay.fx.append({"a": tracecodec.encode(list(args))})
        if n < len(expected) and "raise" in expected[n]:
            self.replay.fx[n]["raise"] = expected[n]["raise"]
            raise getattr(__import__("builtins"), expected[n]["raise"])()
        if n < len(expected) and "v" in expected[n]:
            self.replay.fx[n]["v"] = expected[n]["v"]
            return tracecodec.decode(expected[n]["v"])


def find(name):
    module, attr = name.split(".")
    return getattr(MODULES[module], attr)


class Replay:
    def __init__(self):
        self.objects = {}
        self.arrays = {}  # number -> (typecode, length, array)
        self.spare = []  # such triples the trace let go, for the next array of their shape
        self.fx = []
        self.expect_fx = []
        self.test = ""
        self.calls = {}
        self.bad = {}
        self.shown = []

    def resolve(self, e):
        if "o" in e:
            return self.objects[e["o"]]
        if "a" in e:
            return self.arrays[e["a"]][2]
        if "fn" in e:
            return Sink(self)
        raise ValueError("unknown tag " + repr(e))

    def zeroed(self, tc, n):
        """A zeroed array: one the trace let go, of the same shape, if any.  A board makes
        its DMA ring once; a fresh 8 KB ring (and its 8 KB of zeros) a test split the
        capped heap until, at some heap sizes, no 8 KB block was left whole."""
        for i, (t, length, a) in enumerate(self.spare):
            if t == tc and length == n:
                self.spare.pop(i)
                for j in range(n):
                    a[j] = 0
                return (tc, n, a)
        try:
            return (tc, n, array(tc, bytes(n * struct.calcsize(tc))))
        except MemoryError:  # the spares of other shapes held the heap (one run in make test): let them go
            self.spare.clear()
            gc.collect()
            return (tc, n, array(tc, bytes(n * struct.calcsize(tc))))

    def entry(self, e):
        if "test" in e:
            self.test = e["test"]
            return
        if "del" in e:
            self.objects.pop(e["del"], None)
            return
        if "adel" in e:
            gone = self.arrays.pop(e["adel"], None)
            if gone is not None:
                self.spare.append(gone)
            return
        if "end" in e:
            return
        if "anew" in e:
            self.arrays[e["anew"]] = self.zeroed(e["tc"], e["len"])
            return
        if "aset" in e:
            a = self.arrays[e["aset"]][2]
            for i, x in e["set"]:
                a[i] = x
            return
        args = tracecodec.decode(e["a"], self.resolve)
        kwargs = tracecodec.decode(e["k"], self.resolve)
        if "new" in e:
            site = e["c"]
            fn = find(site)
        elif "o" in e:
            obj = self.objects[e["o"]]
            site = type(obj).__name__ + "." + e["m"]
            fn = getattr(obj, e["m"])
        else:
            site = e["f"]
            fn = find(site)
        self.fx = []
        self.expect_fx = e["x"]
        try:
            result = fn(*args, **kwargs)
            got = tracecodec.encode(result) if "new" not in e else None
            if "new" in e:
                self.objects[e["new"]] = result
        except Exception as exc:  # compared with what CPython raised
            got = {"raise": type(exc).__name__}
        self.calls[site] = self.calls.get(site, 0) + 1
        if got != e["r"] or self.fx != e["x"]:
            self.bad[site] = self.bad.get(site, 0) + 1
            if len(self.shown) < SHOWN:
                self.shown.append(
                    {
                        "test": self.test,
                        "call": site,
                        "args": e["a"],
                        "cpython": [e["r"], e["x"]],
                        "micropython": [got, self.fx],
                    }
                )


def lines(f, chunk=4096):
    """The file's lines, read a chunk at a time: MicroPython's unix port reads a line
    one byte per system call (20 million calls, 11 s of system time on a full trace)."""
    buf = ""
    while True:
        more = f.read(chunk)
        if not more:
            break
        buf += more
        start = 0
        while True:
            end = buf.find("\n", start)
            if end < 0:
                break
            yield buf[start:end]
            start = end + 1
        buf = buf[start:]
    if buf:
        yield buf


def main(path):
    replay = Replay()
    with open(path) as f:
        for line in lines(f):
            replay.entry(json.loads(line))
            line = None
    gc.collect()
    print(
        json.dumps(
            {
                "calls": replay.calls,
                "mismatches": replay.bad,
                "first": replay.shown,
                "heap_peak": micropython.mem_peak() if hasattr(micropython, "mem_peak") else -1,
                "heap_free": gc.mem_free(),
            }
        )
    )


main(sys.argv[1])
