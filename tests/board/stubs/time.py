"""The RP2040's ``time`` for the board's files under the unix port: ticks wrap at
2**30 as on the chip (the unix port's wrap at 2**62), on the real clock."""

from utime import sleep, sleep_ms, sleep_us  # noqa: F401
from utime import ticks_ms as _ms
from utime import ticks_us as _us

_PERIOD = 1 << 30
_MASK = _PERIOD - 1
_HALF = _PERIOD >> 1


def ticks_us():
    return _us() & _MASK


def ticks_ms():
    return _ms() & _MASK


def ticks_add(t, delta):
    return (t + delta) & _MASK


def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF
