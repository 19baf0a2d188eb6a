"""Series between two kinds of computer player, for the level tests and the ladder
benchmark (this module holds no tests itself).

A series plays whole games between fresh bots, the first kind taking each seat in turn
so neither profits from a seat, every game with its own seed; it counts the first kind's
wins.  :func:`beats` plays the same games one at a time and stops as soon as they decide
whether the first kind clearly beats the second (Wald's sequential probability ratio
test, as engine testers use: a large margin is shown in a few dozen games, a narrow one
takes more).  :func:`wilson` gives the 95 % interval of a win rate (Wilson's score interval,
sound near 0 and 1 and for small series, unlike the plain normal one).  A
:class:`Ladder` is one game's players by name, so every game's ladder (Punch!, Big Time
Boxing) is played, timed and judged by the same code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import log, sqrt
from typing import Any

from games.levels import Level
from games.protocol import Engine

BotMaker = Callable[[int], Any]
"""A bot of one kind, from a seed (anything with ``choose(engine, player)``)."""

LEVELS = tuple(Level)
CLEAR_MARGIN = 0.55
"""A level beats another "by a clear margin" when it wins more than this share: shown by
its win rate's 95 % interval lying above it (the benchmark's 2,000 games), or by
:func:`beats` (the tests)."""


def play_game(engine: Engine, bots: tuple[Any, Any]) -> int | None:
    """Play ``engine`` to its end with ``bots[seat]``; the winning seat."""
    while not engine.over:
        for player in sorted(engine.seats_to_act()):
            engine.apply(bots[player].choose(engine, player))
    outcome = engine.outcome()
    assert outcome is not None
    return outcome.winner


def game_of_series(
    new_game: Callable[[int], Engine], first: BotMaker, second: BotMaker, n: int, seed: int = 0
) -> bool | None:
    """Game ``n`` of a series from seed ``seed``: whether ``first`` won it (None: undecided).
    Fresh bots, the game's own seed, ``first`` in seat ``n % 2``."""
    game_seed = seed + n
    a, b = first(2 * game_seed), second(2 * game_seed + 1)
    first_seat = n % 2
    winner = play_game(new_game(game_seed), (a, b) if first_seat == 0 else (b, a))
    return None if winner is None else winner == first_seat


def series(
    new_game: Callable[[int], Engine], first: BotMaker, second: BotMaker, games: int, seed: int = 0
) -> tuple[int, int]:
    """(wins of ``first``, games decided) over ``games`` games from seed ``seed`` on."""
    results = [game_of_series(new_game, first, second, n, seed) for n in range(games)]
    return sum(r is True for r in results), sum(r is not None for r in results)


@dataclass(frozen=True)
class Verdict:
    """What :func:`beats` decided: ``clear`` (the margin is shown), ``wins`` of
    ``decided`` games, and the log-likelihood ratio it stopped at."""

    clear: bool
    wins: int
    decided: int
    llr: float


def beats(
    new_game: Callable[[int], Engine],
    first: BotMaker,
    second: BotMaker,
    *,
    margin: float = CLEAR_MARGIN,
    strong: float = CLEAR_MARGIN + 0.1,
    error: float = 0.05,
    max_games: int = 600,
    seed: int = 0,
) -> Verdict:
    """Whether ``first`` wins more than ``margin`` of decided games against ``second``:
    Wald's test of "win rate ``margin``" against "win rate ``strong``", each wrongly
    accepted with probability at most ``error``.  Games are those of :func:`series` (the
    same seeds and seats, in the same order), played until the ratio crosses a bound;
    ``max_games`` undecided is not clear."""
    accept, reject = log((1 - error) / error), log(error / (1 - error))
    win_step, loss_step = log(strong / margin), log((1 - strong) / (1 - margin))
    wins = decided = 0
    llr = 0.0
    for n in range(max_games):
        won = game_of_series(new_game, first, second, n, seed)
        if won is None:
            continue
        wins, decided = wins + won, decided + 1
        llr += win_step if won else loss_step
        if llr >= accept or llr <= reject:
            break
    return Verdict(llr >= accept, wins, decided, llr)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % (``z`` = 1.96) Wilson score interval of the win rate ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


@dataclass(frozen=True)
class Ladder:
    """One game's ladder: its levels' bots by level name, plus ``others`` (baseline bots
    by name: ``random``, a game's older bot) that every level also meets.

    ``new_game(seed)``: a fresh game with the ladder's rules; ``level_bot(level, seed)``;
    ``others``: name → bot maker; ``must_beat``: the baselines the top level must beat
    by a clear margin (besides the level below it)."""

    game: str
    new_game: Callable[[int], Engine]
    level_bot: Callable[[Level, int], Any]
    others: dict[str, BotMaker]
    must_beat: tuple[str, ...] = ()

    def player(self, name: str) -> BotMaker:
        """The bot maker of a level (by its value) or a baseline (by its name)."""
        if name in self.others:
            return self.others[name]
        level = Level(name)
        return lambda seed: self.level_bot(level, seed)

    def pairs(self) -> list[tuple[str, str]]:
        """Every level against every weaker one (strongest first), then every level
        against each baseline."""
        names = [level.value for level in LEVELS]
        strongest_first = range(len(names) - 1, -1, -1)
        pairs = [(names[i], names[j]) for i in strongest_first for j in range(i - 1, -1, -1)]
        return pairs + [(name, other) for other in self.others for name in names]

    def needs_clear_margin(self, first: str, second: str) -> bool:
        """Whether the issue asks ``first`` to beat ``second`` by a clear margin: the
        level just below it, or (the top level) a named baseline."""
        names = [level.value for level in LEVELS]
        if second in self.others:
            return first == LEVELS[-1].value and second in self.must_beat
        return names.index(first) - names.index(second) == 1

    def series(self, first: str, second: str, games: int, seed: int) -> tuple[int, int]:
        """(wins of ``first``, games decided) over ``games`` games (see :func:`series`)."""
        return series(self.new_game, self.player(first), self.player(second), games, seed)

    def decision_times(self, level: Level, games: int) -> list[tuple[float, float]]:
        """(wall, CPU) seconds of every choice of ``level`` in ``games`` games against
        the level below it (EASY: the first baseline), seats alternating."""
        index = LEVELS.index(level)
        below = self.player(LEVELS[index - 1].value if index else next(iter(self.others)))
        times: list[tuple[float, float]] = []
        for seed in range(games):
            me = Timed(self.level_bot(level, seed), times)
            other = below(seed + 1)
            play_game(self.new_game(seed), (me, other) if seed % 2 == 0 else (other, me))
        return times


class Timed:
    """A bot whose every choice is timed, on the wall clock and in CPU time (the machine
    is shared: CPU time is what the choice costs, the wall clock what a player waits).
    Only real choices count: a step with one legal action is answered untimed."""

    def __init__(self, bot: Any, times: list[tuple[float, float]]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, engine: Any, player: int) -> Any:
        if len(engine.legal_actions(player)) == 1:
            return self.bot.choose(engine, player)
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(engine, player)
        self.times.append((time.perf_counter() - wall, time.process_time() - cpu))
        return action
