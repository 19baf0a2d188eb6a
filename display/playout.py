"""A game played by random players, as the states its screen shows: what the screen
tests draw every game with, and what the attract mode's preparation (:mod:`display.ahead`)
sketches a coming demo from."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.bots import RandomBot
from games.protocol import Engine

STEP_US = 400_000
"""Playout events are stamped this far apart (a slap at its own stamp, where it has one):
the newest event's banner is still up."""


def _stamp(action: Any, counter: int) -> int:
    return getattr(action, "t_us", None) or counter * STEP_US


def playout(engine: Engine[Any, Any, Any, Any], seed: int) -> Iterator[tuple[Any, tuple[Any, ...], int]]:
    """A random playout: after each action that changed the game, its public view, the
    newest 40 events with their µs, and a moment just after the newest."""
    bots: dict[int, RandomBot] = {}
    events: list[tuple[int, Any]] = []
    last = 0
    for n in range(20_000):
        if engine.over:
            break
        acting = sorted(engine.to_act())
        player = acting[n % len(acting)]
        action = bots.setdefault(player, RandomBot(seed * 31 + player)).choose(engine, player)
        stamp = max(last, _stamp(action, n + 1))
        new = engine.apply(action)
        if not new:
            continue
        last = stamp
        events += [(stamp, e) for e in new]
        yield engine.public_view(), tuple(events[-40:]), stamp + 100_000
