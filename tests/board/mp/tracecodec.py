"""Values of a board-call trace as JSON, the same on CPython and MicroPython.

Shared by the recorder (``tests/board/trace.py``, CPython) and the replayer
(``replay.py``, MicroPython's own interpreter), so a result is compared in one form:
floats by their IEEE-754 bits, bytes as hex, tuples apart from lists, dicts by sorted
key (MicroPython's dicts keep no insertion order).  MicroPython subset only.
"""

import struct
from array import array
from binascii import hexlify, unhexlify


def _hex(data):
    return hexlify(bytes(data)).decode()


def encode(v, lookup=None):
    """``v`` as JSON-able data; ``lookup(v)`` tags what only the caller can name (traced
    objects, arrays by reference, callables), or returns None."""
    if v is None or v is True or v is False or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return {"f": _hex(struct.pack("<d", v))}
    if lookup is not None:
        tag = lookup(v)
        if tag is not None:
            return tag
    if isinstance(v, bytes):
        return {"b": _hex(v)}
    if isinstance(v, bytearray):
        return {"ba": _hex(v)}
    if isinstance(v, memoryview):
        return {"mv": _hex(v)}
    if isinstance(v, tuple):
        return {"t": [encode(x, lookup) for x in v]}
    if isinstance(v, list):
        return [encode(x, lookup) for x in v]
    if isinstance(v, dict):
        return {"d": [[encode(k, lookup), encode(v[k], lookup)] for k in sorted(v)]}
    if isinstance(v, array):
        return {"av": list(v)}
    raise TypeError("cannot trace a " + type(v).__name__)


def decode(e, resolve=None):
    """The value :func:`encode` made ``e`` of; ``resolve(e)`` gives back what ``lookup`` tagged."""
    if isinstance(e, list):
        return [decode(x, resolve) for x in e]
    if not isinstance(e, dict):
        return e
    if "t" in e:
        return tuple(decode(x, resolve) for x in e["t"])
    if "f" in e:
        return struct.unpack("<d", unhexlify(e["f"]))[0]
    if "b" in e:
        return unhexlify(e["b"])
    if "ba" in e:
        return bytearray(unhexlify(e["ba"]))
    if "mv" in e:
        return memoryview(unhexlify(e["mv"]))
    if "d" in e:
        return {decode(k, resolve): decode(v, resolve) for k, v in e["d"]}
    if "av" in e:
        return array("i", e["av"])
    return resolve(e)
