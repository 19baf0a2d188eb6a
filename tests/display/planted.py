"""A test game whose play screen draws whatever a test plants: the layout and readability
checks are each shown catching a violation put on a screen of its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from display import theme
from display.canvas import Canvas
from display.games import registry
from display.models import PlayScreen
from display.text import TextCache
from tests.display.screen_states import LOOKS

Step = Callable[[Canvas, TextCache], Any]


@contextmanager
def planted_game(name: str) -> Iterator[list[Step]]:
    """Registers ``name``, whose screen is the cabinet's background and then the steps the
    test appends to the list it is given."""
    plan: list[Step] = []

    def play(surf: Canvas, text: TextCache, _s: PlayScreen[Any, Any]) -> None:
        surf.fill(theme.BACKGROUND)
        for step in plan:
            step(surf, text)

    registry.register(name, registry.GameScreens(play=play, private=lambda _s, _size: None))  # type: ignore[arg-type, return-value]
    try:
        yield plan
    finally:
        registry.unregister(name)


def planted_screen(name: str) -> PlayScreen[None, None]:
    return PlayScreen(game=name, title="Planted", seats=LOOKS[:2], view=None, events=(), now_us=0)
