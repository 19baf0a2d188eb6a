"""Big Time Boxing: engine speed on full random 12-round fights, the computer boxer's
decision time and strength, and the frame render of the ring scene.

Fights are recorded first (random legal choices for both boxers, every window answered
by the boxer) and then replayed action by action on fresh engines, so the timed work is
the engine alone: construction, dealing, ``apply`` with its ``check``, the journal.  The
computer boxer is timed per decision over whole fights against the greedy boxer, and its
strength is its score (win 1, draw ½) over series against a random and a greedy boxer,
alternating seats, with a 95% interval (normal approximation of the mean score).  The
ring is drawn (and flipped on the dummy display) frame after frame through a 12-round
fight between computer boxers, a new action every half second of frames, so the cards
turning over, banners, the round-score panel and the window countdown are all in it.
"""

from __future__ import annotations

import os
import random
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from games.big_time_boxing import BigTimeBoxing, BigTimeBoxingOptions
from games.big_time_boxing.bot import BoxerBot, GreedyBot, Level
from games.bots import RandomBot
from tests.bench.harness import Figure, median_rate, percentile
from tests.games.big_time_boxing.helpers import Boxer, duel

TITLE = "Big Time Boxing engine, computer boxer and ring display"

RECORDED = 60
REPEATS = 5
TIMED_FIGHTS = 40
SERIES = 1000
DECISION_GOAL_MS = 50
FRAMES = 900
FRAME_US = 16_667
TWELVE = BigTimeBoxingOptions(rounds=12)


def record(fights: int) -> list[tuple[int, list]]:
    """(seed, journal) of ``fights`` random 12-round fights."""
    rng = random.Random(2024)
    recorded = []
    for seed in range(fights):
        e = BigTimeBoxing(TWELVE, 2, seed)
        while not e.over:
            (seat,) = e.seats_to_act()
            actions = e.legal_actions(seat)
            e.apply(actions[rng.randrange(len(actions))])
        recorded.append((seed, list(e.journal)))
    return recorded


def replay(recorded: list[tuple[int, list]]) -> int:
    """Replay every journal on a fresh engine; the number of actions applied."""
    actions = 0
    for seed, journal in recorded:
        apply = BigTimeBoxing(TWELVE, 2, seed).apply
        for action in journal:
            apply(action)
        actions += len(journal)
    return actions


def series(make: type[RandomBot] | type[GreedyBot], fights: int, level: Level = Level.EXPERT) -> list[float]:
    return [duel(BoxerBot(s, level), make(s + 1), seed=s)[0] for s in range(fights)]


def interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean score and its 95% interval."""
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.pstdev(scores) / len(scores) ** 0.5
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def decision_times(fights: int) -> list[float]:
    """Seconds per computer-boxer decision over ``fights`` 12-round fights against the greedy boxer."""
    times: list[float] = []
    opponent: Boxer
    for s in range(fights):
        opponent = GreedyBot(s + 1)
        times += duel(BoxerBot(s), opponent, seed=s, options=TWELVE, clock=time.perf_counter)[1]
    return times


def render_times(frames: int = FRAMES) -> list[float]:
    """ms per frame: draw the ring scene and flip the (dummy) display, as the cabinet does."""
    from display.models import PlayScreen, StationLook
    from display.renderer import Renderer
    from display.window import Window

    window = Window((1280, 720))
    renderer = Renderer()
    game = BigTimeBoxing(TWELVE, 2, seed=1)
    bots = (BoxerBot(1), BoxerBot(2))
    looks = (StationLook("Red", (229, 57, 53)), StationLook("Blue", (30, 136, 229)))
    events: list = []
    times = []
    for i in range(frames + 30):
        now = i * FRAME_US
        if i % 30 == 0 and not game.over:  # an action every half second of frames
            (seat,) = game.seats_to_act()
            events += [(now, e) for e in game.apply(bots[seat].choose(game, seat))]
        screen = PlayScreen(
            game="big_time_boxing",
            title="Big Time Boxing",
            seats=looks,
            view=game.public_view(),
            events=tuple(events[-48:]),
            now_us=now,
        )
        t0 = time.perf_counter()
        window.present(renderer.draw(screen))
        times.append((time.perf_counter() - t0) * 1000)
    window.close()
    return times[30:]  # the first frames fill the text cache


def run(
    recorded_fights: int = RECORDED, timed_fights: int = TIMED_FIGHTS, fights: int = SERIES, frames: int = FRAMES
) -> list[Figure]:
    renders = render_times(frames)
    recorded = record(recorded_fights)
    actions_per_fight = sum(len(j) for _, j in recorded) / len(recorded)
    action_rate, _ = median_rate(lambda: replay(recorded), REPEATS)
    fight_rate, _ = median_rate(lambda: replay(recorded) and len(recorded), REPEATS)
    times = decision_times(timed_fights)
    note = f"median of {REPEATS} runs, {recorded_fights} replayed fights each, one thread"
    figures = [
        Figure(
            "random 12-round fights/s (engine only)",
            fight_rate,
            "fights/s",
            "",
            f"{actions_per_fight:.0f} actions per fight on average; {note}",
        ),
        Figure("actions/s (engine only)", action_rate, "actions/s", "", note),
        Figure(
            "computer boxer decision time p99",
            percentile(times, 99) * 1000,
            "ms",
            f"≤ {DECISION_GOAL_MS}",
            f"{len(times)} decisions in {timed_fights} 12-round fights against the greedy boxer; median {statistics.median(times) * 1000:.2f} ms",
        ),
    ]
    figures += [
        Figure(
            "frame render 1280×720 (ring scene + flip), median",
            statistics.median(renders),
            "ms",
            "≤ 4 ms",
            f"{len(renders)} frames of a 12-round fight between computer boxers, dummy SDL driver",
        ),
        Figure("frame render, p99", percentile(renders, 99), "ms"),
    ]
    for name, make in (("random", RandomBot), ("greedy", GreedyBot)):
        scores = series(make, fights)
        mean, low, high = interval(scores)
        wins, draws = scores.count(1.0), scores.count(0.5)
        figures.append(
            Figure(
                f"computer boxer's score against the {name} boxer",
                mean * 100,
                "%",
                "> 50",
                f"95% interval {low * 100:.1f}–{high * 100:.1f}%; {fights} 4-round fights, seats alternating: "
                f"{wins} won, {draws} drawn, {fights - wins - draws} lost (win 1, draw ½)",
            )
        )
    return figures
