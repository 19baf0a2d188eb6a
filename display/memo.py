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
import operator
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, ParamSpec, TypeVar

from display.models import PlayScreen

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound="PlayScreen[Any, Any]")
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


def per_story(answer: Callable[[S], R]) -> Callable[[S], R]:
    """``answer(screen)`` of a play screen computed once for the same story: the same events
    (the same event objects at the same times, in a tuple made again or not) told to the
    same seats, whatever its time.  For an answer that reads nothing else of the screen
    (when each event is said, the newest play's cards): a demo's clock steps several times
    a second with nothing new to say, and each step is a new model (:func:`per_model`
    would walk the events again).  The events are compared by identity, so an answer
    holds the very events of the screen asked."""
    kept: list[tuple[S, R]] = []

    @functools.wraps(answer)
    def remembered(screen: S) -> R:
        for i, (seen, result) in enumerate(kept):
            if seen is screen:
                return result
            if _same_events(seen.events, screen.events) and seen.seats == screen.seats:
                kept[i] = (screen, result)  # the frame's later questions find it by identity
                return result
        result = answer(screen)
        kept.insert(0, (screen, result))  # held: compared by identity first
        del kept[KEPT:]
        return result

    return remembered


_second = operator.itemgetter(1)


def _same_events(a: tuple[tuple[int, object], ...], b: tuple[tuple[int, object], ...]) -> bool:
    """The same events at the same times, each event the same object (compared without a
    Python call per event: they are most of a screen's model)."""
    return a is b or (a == b and all(map(operator.is_, map(_second, a), map(_second, b))))
