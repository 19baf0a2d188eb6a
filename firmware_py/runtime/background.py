"""Calls that may wait, run off the main loop.

A call that can wait on a server (a game's database across the network), on a disk other
than the journal's own commit, or on a long computation (a slow password hash, a big
table) must never run on the main loop: frames, LED bars, buttons and slaps go on at
full rate.  A :class:`Worker` runs such calls one at a time on a thread of its own (one
worker per client, so its calls keep their order and one connection is never used by two
threads at once); :meth:`Worker.submit` hands back a :class:`Job` at once, and the scene
reads it on a later frame without blocking: :meth:`Job.ready` then :meth:`Job.result`.

Every job has a deadline (on the worker's own monotonic clock, never the loop's, so a
virtual-time run does not time calls out by jumping its clock).  Past it, the job is
ready and its result raises :class:`NoAnswer`; a call still running then is left to
finish on the worker (its answer, when it comes, is dropped: a write that a scene wants
to be sure of is sent again with the same idempotency key), and a job whose deadline
passes before the worker reaches it is never run.

In virtual time (tests, the exhibition, HIL scenarios) background work takes no virtual
time: :func:`settle` waits, in real time, until every worker is idle or its running job
is past its deadline, and the virtual-time driver calls it before each step.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

IDLE_EXIT_S = 30.0
"""A worker's thread ends after this long with nothing to do (the next job starts one)."""
NICE = 10
"""A worker's thread runs this much nicer than the main loop (Linux schedules threads
one by one): when the cores are busy, a frame goes first and the background call waits.
Measured on 2 busy cores (load 8), the longest frame while the worker worked out 5,000
players' standings: 64 / 26 / 25 ms plain, 36 / 26 / 22 ms niced."""


class NoAnswer(TimeoutError):
    """The call did not answer by its deadline (it may still be running, or never ran)."""

    def __init__(self, what: str, timeout_s: float) -> None:
        super().__init__(f"{what}: no answer within {timeout_s:g} s")
        self.what = what
        self.timeout_s = timeout_s


class Job(Generic[T]):
    """One call given to a :class:`Worker`: ready once it has answered or its deadline
    has passed; :meth:`result` then gives its value or raises what it raised (or
    :class:`NoAnswer`)."""

    def __init__(self, what: str, call: Callable[[], T], timeout_s: float, clock: Callable[[], float]) -> None:
        self.what = what
        self.timeout_s = timeout_s
        self._call = call
        self._clock = clock
        self.submitted = clock()
        self.deadline = self.submitted + timeout_s
        self.started: float | None = None
        self.finished: float | None = None
        self._value: T | None = None
        self._error: BaseException | None = None

    @property
    def answered(self) -> bool:
        """The call ran to its end (in time or late)."""
        return self.finished is not None

    @property
    def overdue(self) -> bool:
        """Its deadline passed before it answered (it may have answered since)."""
        return (self.finished if self.finished is not None else self._clock()) > self.deadline

    def ready(self) -> bool:
        """Whether :meth:`result` answers now, without waiting."""
        return self.answered or self.overdue

    def result(self) -> T:
        """The call's value; what it raised; :class:`NoAnswer` when it did not answer by
        its deadline.  Only once :meth:`ready`."""
        if self.overdue:
            raise NoAnswer(self.what, self.timeout_s)
        if not self.answered:
            raise RuntimeError(f"{self.what}: result() asked before the job was ready")
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set by the worker with finished

    def _run(self) -> None:
        self.started = self._clock()
        try:
            self._value = self._call()
        except BaseException as e:  # handed to whoever reads the result
            self._error = e
        self.finished = self._clock()


_workers: weakref.WeakSet[Worker] = weakref.WeakSet()


class Worker:
    """Runs one client's calls in order on a thread of its own (started when there is
    work, ended after :data:`IDLE_EXIT_S` idle).  ``clock``: monotonic seconds for
    deadlines (tests pass their own)."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.clock = clock
        self._queue: deque[Job[object]] = deque()
        self._running: Job[object] | None = None
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self._closed = False
        _workers.add(self)

    def submit(self, what: str, call: Callable[[], T], timeout_s: float) -> Job[T]:
        """Queue ``call``; returns at once.  ``timeout_s`` counts from now (time spent
        waiting behind earlier calls included)."""
        job: Job[T] = Job(what, call, timeout_s, self.clock)
        with self._cond:
            if self._closed:
                raise RuntimeError(f"worker {self.name} is closed")
            self._queue.append(job)  # type: ignore[arg-type]
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name=f"worker {self.name}", daemon=True)
                self._thread.start()
            self._cond.notify_all()
        return job

    @property
    def busy(self) -> bool:
        """A call is running or waiting."""
        with self._cond:
            return self._running is not None or bool(self._queue)

    def stuck(self) -> bool:
        """The running call is past its deadline (later calls wait behind it)."""
        with self._cond:
            return self._running is not None and self._running.overdue

    def _serve(self) -> None:
        _lower_priority()
        while True:
            with self._cond:
                if not self._queue:
                    self._cond.wait_for(lambda: bool(self._queue) or self._closed, IDLE_EXIT_S)
                if not self._queue:
                    self._thread = None
                    self._cond.notify_all()
                    return
                job = self._queue.popleft()
                if job.overdue:  # nobody waits for it any more: never run it
                    self._cond.notify_all()
                    continue
                self._running = job
            try:
                job._run()
            finally:
                with self._cond:
                    self._running = None
                    self._cond.notify_all()

    def wait_settled(self, limit_s: float) -> bool:
        """Block (real time) until idle, or until what runs is past its deadline, or
        ``limit_s``; True when settled.  For virtual-time runs, never the main loop."""
        end = time.monotonic() + limit_s
        with self._cond:
            while not self._settled_locked():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.01))  # deadlines pass without a notify
            return True

    def _settled_locked(self) -> bool:
        if self._running is not None:
            return self._running.overdue
        return all(job.overdue for job in self._queue)

    def close(self) -> None:
        """Queue nothing more; calls already queued still run (the thread is a daemon:
        one stuck on a dead server never holds the process at exit)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()


def _lower_priority() -> None:
    """Make the calling thread nicer by :data:`NICE` (where the OS schedules threads so;
    elsewhere it stays as it is: nothing depends on it)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + NICE)
    except (AttributeError, OSError):
        pass


def settle(limit_s: float = 60.0) -> None:
    """Virtual time: let every worker finish what it has (or run past its deadline)
    before the clock moves on, so background calls take no virtual time."""
    end = time.monotonic() + limit_s
    for worker in list(_workers):
        worker.wait_settled(max(0.0, end - time.monotonic()))
