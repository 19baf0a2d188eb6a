"""Frozen dataclasses <-> JSON-ready dicts, driven by their type hints.

Actions are journalled and events logged as JSON; this one codec serves every game so no
game writes its own.  Supported field types: int, float, str, bool, None, Enum, nested
dataclasses, tuples (``tuple[X, ...]`` and fixed), and ``X | None``.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any


def encode(obj: Any) -> Any:
    """A JSON-ready value for ``obj``; dataclasses carry their class name as ``type``."""
    if is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {"type": type(obj).__name__}
        for f in fields(obj):
            out[f.name] = encode(getattr(obj, f.name))
        return out
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (tuple, list, frozenset)):
        return [encode(x) for x in obj]
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, raw: Any) -> Any:
    """Rebuild a value of type ``tp`` from what :func:`encode` produced."""
    if raw is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"cannot decode ambiguous union {tp}")
        return decode(options[0], raw)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], x) for x in raw)
        return tuple(decode(a, x) for a, x in zip(args, raw, strict=True))
    if origin is frozenset:
        (arg,) = typing.get_args(tp)
        return frozenset(decode(arg, x) for x in raw)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(raw)
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(raw, dict):
            raise TypeError(f"{tp.__name__} expects an object, got {raw!r}")
        hints = _hints(tp)
        kwargs = {f.name: decode(hints[f.name], raw[f.name]) for f in fields(tp) if f.name in raw}
        return tp(**kwargs)
    if tp is float and isinstance(raw, int):
        return float(raw)
    return raw
