"""Karate Fight engine speed and slap-judging accuracy.

Fights are driven by the simulated cabinet of :mod:`games.karate_fight.simulate`
(reveals, early/on-time/tied/late slaps, Jan Ken).  Judging cases go through a
stamp-ordering buffer like the session's settle window, with random transport delays,
and the Hit must go to the earliest stamp every time.
"""

from __future__ import annotations

import random
import statistics
import time

from games.karate_fight import HitWon, KarateFight, KarateOptions, PlayTop
from games.karate_fight.simulate import RandomFight
from tests.bench.harness import Figure, median_rate
from tests.games.karate_fight.helpers import deliver, stacked

TITLE = "Karate Fight engine and judging"

FIGHTS_PER_RUN = 30
JUDGING_CASES = 100_000
SETTLE_US = 20_000
REVEAL_US = 1_000_000


def _fights(seed0: int) -> tuple[int, int]:
    """Play ``FIGHTS_PER_RUN`` random fights (2, 3, 4 fighters in turn); (fights, actions)."""
    actions = 0
    for i in range(FIGHTS_PER_RUN):
        seed = seed0 + i
        e = KarateFight(KarateOptions(), 2 + i % 3, seed)
        actions += sum(1 for _ in RandomFight(e, random.Random(seed)).run(100_000))
        assert e.over
    return FIGHTS_PER_RUN, actions


def _judging(cases: int, rng: random.Random) -> tuple[int, int]:
    """Random near ties: 2–4 fighters, stamps 1–500 µs apart, each input delayed 0..settle.
    Returns (correct, cases)."""
    deals = {n: KarateOptions(deal=stacked(*(["Sd"] + ["dd"] * (n - 1)))) for n in (2, 3, 4)}
    correct = 0
    for _ in range(cases):
        players = rng.randint(2, 4)
        order = rng.sample(range(players), players)
        t = REVEAL_US + rng.randint(0, 400_000)
        inputs: list[tuple[int, int | None]] = [(REVEAL_US, None)]
        for f in order:
            inputs.append((t, f))
            t += rng.randint(1, 500)
        arrivals = [(s + rng.randint(0, SETTLE_US), s, f) for s, f in inputs]
        e = KarateFight(deals[players], players, 0)
        e.apply(PlayTop(0, REVEAL_US - 30_000))
        winner = None
        for action in deliver(arrivals, SETTLE_US):
            for ev in e.apply(action):
                if isinstance(ev, HitWon):
                    winner = ev.winner
        correct += winner == order[0]
    return correct, cases


def run() -> list[Figure]:
    seeds = iter(range(0, 10_000, FIGHTS_PER_RUN))
    action_counts: list[int] = []

    def work() -> int:
        fights, actions = _fights(next(seeds))
        action_counts.append(actions)
        return fights

    fights_per_s, rates = median_rate(work, repeats=7)
    actions_per_fight = statistics.median(action_counts) / FIGHTS_PER_RUN

    t0 = time.perf_counter()
    correct, cases = _judging(JUDGING_CASES, random.Random(2026))
    judged_per_s = cases / (time.perf_counter() - t0)
    return [
        Figure(
            "full random fights (2–4 fighters)",
            fights_per_s,
            "fights/s",
            note=f"median of {len(rates)} runs of {FIGHTS_PER_RUN}; ~{actions_per_fight:,.0f} actions per fight",
        ),
        Figure(
            "engine actions in random fights",
            fights_per_s * actions_per_fight,
            "actions/s",
            note="reveals, slaps and Jan Ken throws included; the simulated cabinet's own time counted",
        ),
        Figure(
            "judging accuracy on random near ties",
            100 * correct / cases,
            "% correct",
            goal="100%",
            note=f"{cases:,} cases, 2–4 fighters, stamps 1–500 µs apart, delays 0–{SETTLE_US // 1000} ms",
        ),
        Figure(
            "judging cases (new fight + reveal + slaps)",
            judged_per_s,
            "cases/s",
            note="through a stamp-ordering settle buffer",
        ),
    ]
