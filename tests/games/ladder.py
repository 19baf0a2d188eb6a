"""Series between two kinds of computer player, for the level tests and the ladder
benchmark (this module holds no tests itself).

A series plays whole games between fresh bots, the first kind taking each seat in turn
so neither profits from a seat, every game with its own seed; it counts the first kind's
wins.  :func:`wilson` gives the 95 % interval of a win rate (Wilson's score interval,
sound near 0 and 1 and for small series, unlike the plain normal one).
"""

from __future__ import annotations

from collections.abc import Callable
from math import sqrt
from typing import Any

from games.protocol import Engine

BotMaker = Callable[[int], Any]
"""A bot of one kind, from a seed (anything with ``choose(engine, player)``)."""


def play_game(engine: Engine, bots: tuple[Any, Any]) -> int | None:
    """Play ``engine`` to its end with ``bots[seat]``; the winning seat."""
    while not engine.over:
        for player in sorted(engine.seats_to_act()):
            engine.apply(bots[player].choose(engine, player))
    outcome = engine.outcome()
    assert outcome is not None
    return outcome.winner


def series(
    new_game: Callable[[int], Engine], first: BotMaker, second: BotMaker, games: int, seed: int = 0
) -> tuple[int, int]:
    """(wins of ``first``, games decided) over ``games`` games from seed ``seed`` on."""
    wins = decided = 0
    for n in range(games):
        game_seed = seed + n
        a, b = first(2 * game_seed), second(2 * game_seed + 1)
        first_seat = n % 2
        bots = (a, b) if first_seat == 0 else (b, a)
        winner = play_game(new_game(game_seed), bots)
        if winner is not None:
            decided += 1
            wins += winner == first_seat
    return wins, decided


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % (``z`` = 1.96) Wilson score interval of the win rate ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half
