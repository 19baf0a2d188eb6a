"""The computer opponents' ladder: how each level does against every other.

Punch! and Big Time Boxing (one :class:`~tests.games.ladder.Ladder` each): every level
against every other level and against random play (``RandomBot``), Punch!'s levels also
against today's ``PunchBot``; whole games with the default rules, seats alternating, win
rates with 95 % Wilson intervals, and each level's decision time per choice (p99).
Karate Fight: each level's reaction times (mean and spread against the level's target,
misses and Coward's Blows), and the share of Hits each level wins against each other in
two-fighter fights through the engine's judging.

``RINGSIDE_LADDER_GAMES`` sets the games a pair (default 2,000; a smoke run uses a
handful); the pairs of both games run in parallel on every core.
``RINGSIDE_LADDER_GAMES_ONLY`` (comma-separated: ``punch``, ``big_time_boxing``,
``karate_fight``) measures only those games' parts; the section still lists every game,
the other games' rows kept from BENCHMARKS.md as they stand, each such note saying the
date it was measured.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from games.big_time_boxing import BigTimeBoxing, BigTimeBoxingOptions
from games.big_time_boxing.bot import BoxerBot
from games.bots import RandomBot
from games.karate_fight import CardPlayed, CowardsBlow, HitWon, KarateFight, KarateOptions
from games.karate_fight.bot_fight import BotFight
from games.karate_fight.fighter_bot import REFLEXES, KarateFighterBot
from games.levels import Level
from games.punch import Punch, PunchOptions
from games.punch.bot import PunchBot
from games.punch.levels import ComputerBoxer
from tests.bench.harness import Figure, percentile
from tests.games.ladder import CLEAR_MARGIN, LEVELS, Ladder, wilson

TITLE = "Computer opponents: the ladder"

GAMES = int(os.environ.get("RINGSIDE_LADDER_GAMES", "2000"))
TIMED_GAMES = max(2, GAMES // 40)
"""Games per level played on their own, one process, to time each decision."""
KARATE_FIGHTS = max(4, GAMES // 20)
REACTION_DRAWS = 20_000
SEED = 10_000
"""The first game's seed of every series."""

LADDERS = {
    "Punch!": Ladder(
        "Punch!",
        lambda seed: Punch(PunchOptions(), 2, seed),
        ComputerBoxer,
        {"random": RandomBot, "punchbot": PunchBot},
        must_beat=("punchbot",),
    ),
    "Big Time Boxing": Ladder(
        "Big Time Boxing",
        lambda seed: BigTimeBoxing(BigTimeBoxingOptions(), 2, seed),
        lambda level, seed: BoxerBot(seed, level),
        {"random": RandomBot},
    ),
}
PARTS = {"punch": "Punch!", "big_time_boxing": "Big Time Boxing", "karate_fight": "Karate"}
"""``RINGSIDE_LADDER_GAMES_ONLY`` names → the game each figure's name starts with."""
KEPT = "from the run of "
"""How a kept figure's note starts."""
BENCHMARKS = Path(__file__).resolve().parents[2] / "BENCHMARKS.md"
RULES = {
    "Punch!": "first to 3 matches",
    "Big Time Boxing": "default rules; draws not counted",
}


def _series(job: tuple[str, str, str]) -> tuple[str, str, str, int, int, float]:
    """One pair's series in a worker process (a module-level function: it is pickled)."""
    game, first, second = job
    cpu = time.process_time()
    wins, decided = LADDERS[game].series(first, second, GAMES, SEED)
    return game, first, second, wins, decided, time.process_time() - cpu


def _chosen() -> set[str]:
    """The games measured this run (``RINGSIDE_LADDER_GAMES_ONLY``; every game unset)."""
    only = os.environ.get("RINGSIDE_LADDER_GAMES_ONLY", "").strip()
    if not only:
        return set(PARTS.values())
    names = {n.strip() for n in only.split(",") if n.strip()}
    unknown = names - set(PARTS)
    if unknown:
        raise SystemExit(
            f"RINGSIDE_LADDER_GAMES_ONLY: unknown game(s) {', '.join(sorted(unknown))}; choose from {', '.join(PARTS)}"
        )
    return {PARTS[n] for n in names}


def _kept_figures(text: str) -> list[Figure]:
    """The figures of this section as BENCHMARKS.md holds them, each note saying when it
    was measured (the section's date, unless the note already says one)."""
    found = re.search(r"<!-- bench:ladder -->(.*?)<!-- /bench:ladder -->", text, re.S)
    if not found:
        return []
    body = found.group(1)
    dated = re.search(r"Measured (\d{4}-\d{2}-\d{2})", body)
    when = dated.group(1) if dated else "an earlier run"
    figures = []
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("figure", "---") or cells[1].startswith("-"):
            continue
        name, value, unit, goal, note = cells
        if not note.startswith(KEPT):
            note = f"{KEPT}{when} (not re-run); {note}"
        figures.append(Figure(name, float(value.replace(",", "")), unit, goal, note))
    return figures


def _game_of(figure: Figure) -> str | None:
    return next((game for game in PARTS.values() if figure.name.startswith(game + " ")), None)


def _ladder_figures(chosen: set[str]) -> list[Figure]:
    ladders = {game: ladder for game, ladder in LADDERS.items() if game in chosen}
    if not ladders:
        return []
    jobs = [(game, first, second) for game, ladder in ladders.items() for first, second in ladder.pairs()]
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(_series, jobs))
    wall = time.perf_counter() - wall
    figures = []
    for game, first, second, wins, decided, cpu in results:
        ladder = LADDERS[game]
        low, high = wilson(wins, decided)
        goal = (
            f"clearly > 50 (interval above {100 * CLEAR_MARGIN:.0f})"
            if ladder.needs_clear_margin(first, second)
            else ""
        )
        figures.append(
            Figure(
                f"{game} {first} v {second}",
                100 * wins / decided if decided else 0.0,
                "% won",
                goal,
                f"95 % interval {100 * low:.1f}–{100 * high:.1f}; {decided:,} of {GAMES:,} games decided, "
                f"{RULES[game]}; {1000 * cpu / GAMES:.0f} ms CPU a game",
            )
        )
    figures.append(
        Figure(
            "Ladder series, all pairs"
            if len(ladders) == len(LADDERS)
            else f"Ladder series, {' and '.join(ladders)} pairs",
            wall / 60,
            "min",
            "",
            f"wall clock, {len(jobs)} pairs × {GAMES:,} games on {os.cpu_count()} worker processes; "
            f"CPU {sum(r[5] for r in results) / 60:.1f} min",
        )
    )
    for game, ladder in ladders.items():
        for level in LEVELS:
            times = ladder.decision_times(level, TIMED_GAMES)
            walls, cpus = [w for w, _c in times], [c for _w, c in times]
            figures.append(
                Figure(
                    f"{game} {level.value} decision time p99",
                    1000 * percentile(walls, 99),
                    "ms",
                    "≤ 20",
                    f"wall clock; median {1000 * statistics.median(walls):.2f} ms, max {1000 * max(walls):.1f} ms; "
                    f"CPU time p99 {1000 * percentile(cpus, 99):.2f} ms; {len(times):,} choices "
                    f"(more than one legal action) in {TIMED_GAMES} games against the level below",
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
    chosen = _chosen()
    measured = _ladder_figures(chosen) + (_karate_figures() if "Karate" in chosen else [])
    if chosen == set(PARTS.values()):
        return measured
    names = {f.name for f in measured}
    kept = [
        f
        for f in _kept_figures(BENCHMARKS.read_text() if BENCHMARKS.exists() else "")
        if _game_of(f) not in chosen and f.name not in names
    ]
    return sorted(measured + kept, key=_order)


def _order(figure: Figure) -> tuple[int, int]:
    """Where a figure goes in the section: the ladders game by game, the series times,
    the decision times game by game, then Karate Fight."""
    game = _game_of(figure)
    games = list(PARTS.values())
    if game == "Karate":
        return 3, 0
    if game is None:
        return 1, 0
    return (2 if "decision time" in figure.name else 0), games.index(game)
