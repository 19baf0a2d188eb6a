"""A pytest plugin that records every call the tests make into the board's files.

``python -m pytest -p tests.board.trace …`` with ``RINGSIDE_BOARD_TRACE=<file>``: each
public function and class of the modules in ``TRACED`` is wrapped before any test
module imports it, and every outermost call (the tests', the simulator's: calls the
board's code makes inside itself are its own business) is written as one JSON line:
its arguments, what it returned or raised, and what it wrote through the callables it
was given (``Board``'s ``write``).  ``replay.py`` makes the same calls under
MicroPython and compares, so the MicroPython run covers exactly the cases the CPython
tests do, whatever they are, without a second copy of them.

Arrays (the DMA ring the simulator writes between calls) go by reference: in full the
first time, then the elements that changed, before every call, since the board's code
keeps the ring and reads it later.  A call whose arguments cannot be written (an object
of the host's) is run untraced, and an object it was made on is dropped from the trace.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import threading
import weakref
from array import array
from collections.abc import Callable
from typing import Any, TextIO

from tests.board.mp import tracecodec

CHUNK = 256  # array elements per line
DIFF_SLICE = 64  # array elements compared at once for what changed since the last call
TRACED = {
    "hal.padboard.wire": "wire",
    "firmware_py.padboard.detector": "detector",
    "firmware_py.padboard.board": "board",
}
"""Host module -> the name the board imports it by (its files sit side by side there)."""


class _PerThread(threading.local):
    """The simulator calls the board from its own threads: each has its own depth."""

    depth = 0
    fx: list[Any] | None = None
    traced = False  # whether the last outermost call went into the trace


class Recorder:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lock = threading.RLock()  # the file, the ids and the arrays' shadows
        self.here = _PerThread()
        self.next_id = 1
        self.objects: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()
        self.arrays: dict[int, tuple[weakref.ref[array[Any]], int, array[Any]]] = {}  # id() -> (ref, number, shadow)
        self.skipped = 0

    def write(self, entry: dict[str, Any]) -> None:
        with self.lock:
            if not self.out.closed:
                self.out.write(json.dumps(entry, separators=(",", ":")) + "\n")

    def _new_id(self) -> int:
        with self.lock:
            self.next_id += 1
            return self.next_id - 1

    def _forget(self, number: int, kind: str) -> None:
        self.write({kind: number})

    def _lookup(self, v: Any) -> Any:
        if isinstance(v, array):
            known = self.arrays.get(id(v))
            if known is None:
                number = self._new_id()
                self.arrays[id(v)] = (weakref.ref(v), number, array(v.typecode, v))
                weakref.finalize(v, self._array_gone, id(v), number)
                self.write({"anew": number, "tc": v.typecode, "len": len(v)})
                self._set(number, [(i, x) for i, x in enumerate(v) if x])  # it starts zeroed
            return {"a": self.arrays[id(v)][1]}
        number = self.objects.get(v) if _weakrefable(v) else None
        if number is not None:
            return {"o": number}
        if callable(v):
            return {"fn": 0}  # replaced by a sink before the call (``_sinks``)
        return None

    def _set(self, number: int, changed: list[tuple[int, Any]]) -> None:
        """Elements of an array, in lines short enough for a board-sized heap to read."""
        for at in range(0, len(changed), CHUNK):
            self.write({"aset": number, "set": [[i, x] for i, x in changed[at : at + CHUNK]]})

    def _array_gone(self, key: int, number: int) -> None:
        with self.lock:
            self.arrays.pop(key, None)
            self.write({"adel": number})

    def _sync(self) -> None:
        """The elements of every known array that changed since the last call.  Over a
        copy of the table: an array collected meanwhile (the allocations here can run the
        garbage collector, whose finalizer drops it from the table) is skipped."""
        for ref, number, shadow in list(self.arrays.values()):
            a = ref()
            if a is None or a == shadow:
                continue
            self._set(number, _changed(a, shadow))
            shadow[:] = a

    def _sinks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Plain callables among the arguments, wrapped to record what the board calls them with
        and what they returned."""

        def wrap(v: Any) -> Any:
            if not callable(v) or isinstance(v, type) or (_weakrefable(v) and v in self.objects):
                return v
            return self._sink(v)

        return tuple(wrap(a) for a in args), {k: wrap(v) for k, v in kwargs.items()}

    def _sink(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def sink(*a: Any) -> Any:
            effect: dict[str, Any] = {"a": tracecodec.encode(list(a))}
            try:
                result = fn(*a)
                if result is not None:  # what the board reads back (Board's ``ticks``)
                    effect["v"] = tracecodec.encode(result)
                return result
            except Exception as e:
                effect["raise"] = type(e).__name__
                raise
            finally:
                if self.here.fx is not None:
                    self.here.fx.append(effect)

        return sink

    def call(self, site: dict[str, Any], fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        here = self.here
        if here.depth:
            return fn(*args, **kwargs)
        args, kwargs = self._sinks(args, kwargs)
        try:
            with self.lock:
                entry = dict(site, a=tracecodec.encode(list(args), self._lookup))
                entry["k"] = tracecodec.encode(kwargs, self._lookup)
                self._sync()
        except TypeError:
            self.skipped += 1
            here.traced = False
            if "o" in site:  # its state now differs from the replay's
                self.write({"del": site["o"]})
                for obj, number in list(self.objects.items()):
                    if number == site["o"]:
                        del self.objects[obj]
            return fn(*args, **kwargs)
        here.traced = True
        here.depth += 1
        here.fx = []
        try:
            result = fn(*args, **kwargs)
            with self.lock:
                entry["r"] = tracecodec.encode(result, self._lookup)
            return result
        except Exception as e:
            entry["r"] = {"raise": type(e).__name__}
            raise
        finally:
            here.depth -= 1
            entry["x"] = here.fx
            here.fx = None
            self.write(entry)

    def construct(
        self, name: str, init: Callable[..., None], obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        if self.here.depth:
            init(obj, *args, **kwargs)
            return
        number = self._new_id()
        box = [obj]

        def run(*a: Any, **k: Any) -> None:
            init(box[0], *a, **k)

        self.call({"new": number, "c": name}, run, args, kwargs)
        if not self.here.traced:
            return
        self.objects[obj] = number
        weakref.finalize(obj, self._forget, number, "del")


def _changed(a: array[Any], shadow: array[Any]) -> list[tuple[int, Any]]:
    """The elements of ``a`` that differ from ``shadow``, as (index, value), in order.
    Compared a slice at a time in C, element by element only where a slice differs: the
    simulator writes a block of the board's DMA ring between calls, and comparing the
    whole ring in Python cost 12 of the recording's 16 s."""
    out: list[tuple[int, Any]] = []
    for lo in range(0, min(len(a), len(shadow)), DIFF_SLICE):
        now, was = a[lo : lo + DIFF_SLICE], shadow[lo : lo + DIFF_SLICE]
        if now != was:
            out.extend((i, x) for i, (x, y) in enumerate(zip(now, was), lo) if x != y)
    return out


def _weakrefable(v: Any) -> bool:
    try:
        weakref.ref(v)
    except TypeError:
        return False
    return True


def _trace_class(rec: Recorder, name: str, cls: type) -> None:
    init = cls.__init__

    @functools.wraps(init)
    def traced_init(self: Any, *args: Any, **kwargs: Any) -> None:
        rec.construct(name, init, self, args, kwargs)

    setattr(cls, "__init__", traced_init)  # noqa: B010  (mypy: assigning to a method)
    for attr, fn in list(vars(cls).items()):
        if attr.startswith("_") or not inspect.isfunction(fn):
            continue
        setattr(cls, attr, _traced_method(rec, attr, fn))


def _traced_method(rec: Recorder, attr: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        number = rec.objects.get(self)
        if number is None:
            return fn(self, *args, **kwargs) if rec.here.depth else _untraced(rec, fn, self, args, kwargs)
        return rec.call({"o": number, "m": attr}, functools.partial(fn, self), args, kwargs)

    return method


def _untraced(rec: Recorder, fn: Callable[..., Any], self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    rec.skipped += 1
    rec.here.depth += 1
    try:
        return fn(self, *args, **kwargs)
    finally:
        rec.here.depth -= 1


def _traced_function(rec: Recorder, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def function(*args: Any, **kwargs: Any) -> Any:
        return rec.call({"f": name}, fn, args, kwargs)

    return function


def install(out: TextIO) -> Recorder:
    rec = Recorder(out)
    for host, board in TRACED.items():
        module = importlib.import_module(host)
        for attr, v in list(vars(module).items()):
            if attr.startswith("_") or getattr(v, "__module__", None) != host:
                continue
            if inspect.isclass(v):
                _trace_class(rec, f"{board}.{attr}", v)
            elif inspect.isfunction(v):
                setattr(module, attr, _traced_function(rec, f"{board}.{attr}", v))
    return rec


_PATH = os.environ.get("RINGSIDE_BOARD_TRACE")
_RECORDER = install(open(_PATH, "w")) if _PATH else None  # noqa: SIM115  (open for the whole session)


def pytest_runtest_setup(item: Any) -> None:
    if _RECORDER is not None:
        _RECORDER.write({"test": item.nodeid})


def pytest_unconfigure(config: Any) -> None:
    if _RECORDER is not None:
        _RECORDER.write({"end": _RECORDER.skipped})
        _RECORDER.out.close()
