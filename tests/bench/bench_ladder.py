"""The computer opponents' ladder: how each level does against every other.

Punch!: every level against every other level, against random play (``RandomBot``) and
against today's ``PunchBot``, whole games (first to 3 matches), seats alternating, win
rates with 95 % Wilson intervals.  Karate Fight: each level's reaction times (mean and
spread against the level's target, misses and Coward's Blows), and the share of Hits
each level wins against each other in two-fighter fights through the engine's judging.
Decision time per choice, p99 per level, on the wall clock of one process.

``RINGSIDE_LADDER_GAMES`` sets the games a Punch! pair (default 2,000; a smoke run uses
a handful); pairs run in parallel on every core.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.bots import RandomBot
from games.karate_fight import CardPlayed, CowardsBlow, HitWon, KarateFight, KarateOptions
from games.karate_fight.bot_fight import BotFight
from games.karate_fight.fighter_bot import REFLEXES, KarateFighterBot
from games.levels import Level
from games.punch import Punch, PunchOptions
from games.punch.bot import PunchBot
from games.punch.levels import ComputerBoxer
from tests.bench.harness import Figure, percentile
from tests.games.ladder import play_game, series, wilson

TITLE = "Computer opponents: the ladder"

GAMES = int(os.environ.get("RINGSIDE_LADDER_GAMES", "2000"))
TIMED_GAMES = max(2, GAMES // 40)
"""Games per level played on their own, one process, to time each decision."""
KARATE_FIGHTS = max(4, GAMES // 20)
REACTION_DRAWS = 20_000

LEVELS = list(Level)
OTHERS = ("random", "punchbot")


def _punch_player(name: str) -> Any:
    if name == "random":
        return RandomBot
    if name == "punchbot":
        return PunchBot
    level = Level(name)
    return lambda seed: ComputerBoxer(level, seed)


def _punch_series(pair: tuple[str, str]) -> tuple[str, str, int, int]:
    first, second = pair
    wins, decided = series(
        lambda seed: Punch(PunchOptions(), 2, seed), _punch_player(first), _punch_player(second), GAMES, seed=10_000
    )
    return first, second, wins, decided


class _Timed:
    """A bot whose every choice is timed, on the wall clock and in CPU time (the machine
    is shared: CPU time is what the choice costs, the wall clock what a player waits)."""

    def __init__(self, bot: Any, times: list[tuple[float, float]]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, engine: Any, player: int) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(engine, player)
        self.times.append((time.perf_counter() - wall, time.process_time() - cpu))
        return action


def _punch_decision_times(level: Level) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of every choice of ``level`` in games against the level below
    it (EASY: random)."""
    below = LEVELS[LEVELS.index(level) - 1] if level is not Level.EASY else None
    times: list[tuple[float, float]] = []
    for seed in range(TIMED_GAMES):
        me = _Timed(ComputerBoxer(level, seed), times)
        other = ComputerBoxer(below, seed + 1) if below is not None else RandomBot(seed + 1)
        play_game(Punch(PunchOptions(), 2, seed), (me, other) if seed % 2 == 0 else (other, me))
    return times


def _punch_figures() -> list[Figure]:
    names = [level.value for level in LEVELS]
    strongest_first = range(len(names) - 1, -1, -1)
    pairs = [(names[i], names[j]) for i in strongest_first for j in range(i - 1, -1, -1)]
    pairs += [(name, other) for other in OTHERS for name in names]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(_punch_series, pairs))
    figures = []
    for first, second, wins, decided in results:
        low, high = wilson(wins, decided)
        adjacent = second not in OTHERS and names.index(first) - names.index(second) == 1
        goal = ""
        if adjacent or (first == Level.EXPERT.value and second == "punchbot"):
            goal = "clearly > 50 (interval above 55)"
        figures.append(
            Figure(
                f"Punch! {first} v {second}",
                100 * wins / decided if decided else 0.0,
                "% won",
                goal,
                f"95 % interval {100 * low:.1f}–{100 * high:.1f}; {decided:,} games, first to 3 matches",
            )
        )
    for level in LEVELS:
        times = _punch_decision_times(level)
        wall, cpu = [w for w, _c in times], [c for _w, c in times]
        figures.append(
            Figure(
                f"Punch! {level.value} decision time p99",
                1000 * percentile(wall, 99),
                "ms",
                "≤ 20",
                f"wall clock; median {1000 * statistics.median(wall):.2f} ms, max {1000 * max(wall):.1f} ms; "
                f"CPU time p99 {1000 * percentile(cpu, 99):.2f} ms; "
                f"{len(times):,} choices (exchanges, re-deals) in {TIMED_GAMES} games",
            )
        )
    return figures


def _karate_fights(first: Level, second: Level) -> tuple[int, int, dict[Level, int], dict[Level, int]]:
    """Hits won by ``first`` and in all; Coward's Blows and cards played per level."""
    won = total = 0
    blows = {first: 0, second: 0}
    cards = {first: 0, second: 0}
    for n in range(KARATE_FIGHTS):
        seats = (first, second) if n % 2 == 0 else (second, first)
        e = KarateFight(KarateOptions(), 2, n)
        bots = [KarateFighterBot(level, 10 * n + seat) for seat, level in enumerate(seats)]
        for _action, events in BotFight(e, bots, random.Random(n)).run(50_000):
            for ev in events:
                if isinstance(ev, HitWon):
                    total += 1
                    won += seats[ev.winner] is first
                elif isinstance(ev, CowardsBlow):
                    blows[seats[ev.fighter]] += 1
                elif isinstance(ev, CardPlayed):
                    cards[seats[ev.fighter]] += 1
    return won, total, blows, cards


def _karate_figures() -> list[Figure]:
    figures = []
    for level in LEVELS:
        bot = KarateFighterBot(level, 1)
        target = REFLEXES[level]
        start = time.perf_counter()
        times = [bot.reaction_time() for _ in range(REACTION_DRAWS)]
        per_draw = (time.perf_counter() - start) / REACTION_DRAWS
        figures.append(
            Figure(
                f"Karate {level.value} reaction mean",
                statistics.mean(times) / 1000,
                "ms",
                f"{target.mean_us / 1000:.0f}",
                f"median {statistics.median(times) / 1000:.0f} ms, 5th–95th percentile "
                f"{percentile(times, 5) / 1000:.0f}–{percentile(times, 95) / 1000:.0f} ms; {REACTION_DRAWS:,} draws",
            )
        )
        figures.append(
            Figure(
                f"Karate {level.value} reaction spread",
                statistics.pstdev(times) / 1000,
                "ms",
                f"{target.spread_us / 1000:.0f}",
                f"ex-Gaussian, never under {target.floor_us / 1000:.0f} ms; "
                f"misses {100 * target.miss:.0f} %, fooled {100 * target.fooled:.0f} % by a card that looks like a Hit; "
                f"{1e6 * per_draw:.1f} µs per draw",
            )
        )
    for i, first in enumerate(LEVELS):
        for second in LEVELS[:i]:
            won, total, blows, cards = _karate_fights(first, second)
            low, high = wilson(won, total)
            figures.append(
                Figure(
                    f"Karate {first.value} v {second.value}: Hits won",
                    100 * won / total if total else 0.0,
                    "%",
                    "clearly > 50" if i - LEVELS.index(second) == 1 else "",
                    f"95 % interval {100 * low:.1f}–{100 * high:.1f}; {total:,} Hits in {KARATE_FIGHTS} fights; "
                    f"Coward's Blows per 100 cards played: {first.value} "
                    f"{100 * blows[first] / max(1, cards[first]):.1f}, {second.value} "
                    f"{100 * blows[second] / max(1, cards[second]):.1f}",
                )
            )
    return figures


def run() -> list[Figure]:
    return _punch_figures() + _karate_figures()
