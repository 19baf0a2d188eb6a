"""What a screen works out from its model, worked out once a frame.

A game screen asks the same questions of its model many times while drawing one frame
(Punch!'s "when is each event said?" from every panel, pose and banner: seven walks over
the events a frame).  A function marked :func:`per_model` answers once for the same model
*object* (models are frozen: the same object is the same answer) and the same further
arguments; the answers for the last few models are kept.  Its answer is shared: callers
must not change it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
KEPT = 4
"""Models whose answers are kept (a frame draws one; a demo inset and its band two)."""


def per_model(answer: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """``answer(model, *args)`` computed once for the same model object and ``args``."""
    kept: list[tuple[object, tuple[Hashable, ...], R]] = []

    @functools.wraps(answer)
    def remembered(model: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            return answer(model, *args, **kwargs)
        for seen, seen_args, result in kept:
            if seen is model and seen_args == args:
                return result
        result = answer(model, *args, **kwargs)
        kept.insert(0, (model, args, result))  # the model is held: its id is not reused meanwhile
        del kept[KEPT:]
        return result

    return remembered
