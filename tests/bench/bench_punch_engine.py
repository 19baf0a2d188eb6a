"""Punch! engine speed: exchanges and whole games per second on one core.

Games are recorded first (random bots) and then replayed action by action on fresh
engines, so the timed work is the engine alone: construction, dealing, ``apply`` with its
``check``, and the journal, with no bot choosing.  One exchange = both boxers'
``PlayCard`` applied.  The reference is RLCard's figure of about 29,000 game steps/s for
its card environments, which the issue asks us to match.
"""

from __future__ import annotations

import random

from games.bots import RandomBot
from games.punch import PlayCard, Punch, PunchOptions
from tests.bench.harness import Figure, median_rate

TITLE = "Punch! engine"
RLCARD_STEPS_PER_S = 29_000
GAMES_PER_RUN = 150
REPEATS = 7


def record(options: PunchOptions, games: int) -> list[tuple[int, list]]:
    """(seed, journal) of ``games`` complete random games."""
    rng = random.Random(2024)
    recorded = []
    for seed in range(games):
        game = Punch(options, 2, seed)
        while not game.over:
            for player in sorted(game.to_act()):
                actions = game.legal_actions(player)
                game.apply(actions[rng.randrange(len(actions))])
        recorded.append((seed, list(game.journal)))
    return recorded


def replay_exchanges(options: PunchOptions, recorded: list[tuple[int, list]]) -> int:
    exchanges = 0
    for seed, journal in recorded:
        apply = Punch(options, 2, seed).apply
        for action in journal:
            apply(action)
        exchanges += sum(type(action) is PlayCard for action in journal) // 2
    return exchanges


def replay_games(options: PunchOptions, recorded: list[tuple[int, list]]) -> int:
    replay_exchanges(options, recorded)
    return len(recorded)


def bot_games(options: PunchOptions, games: int) -> int:
    for seed in range(games):
        game = Punch(options, 2, seed)
        bots = (RandomBot(seed), RandomBot(seed + 1))
        while not game.over:
            for player in sorted(game.to_act()):
                game.apply(bots[player].choose(game, player))
    return games


def run() -> list[Figure]:
    standard, no_mercy = PunchOptions(), PunchOptions(no_mercy=True)
    recorded = record(standard, GAMES_PER_RUN)
    recorded_no_mercy = record(no_mercy, GAMES_PER_RUN)
    exchanges_per_game = replay_exchanges(standard, recorded) / GAMES_PER_RUN

    exchange_rate, _ = median_rate(lambda: replay_exchanges(standard, recorded), REPEATS)
    no_mercy_rate, _ = median_rate(lambda: replay_exchanges(no_mercy, recorded_no_mercy), REPEATS)
    game_rate, _ = median_rate(lambda: replay_games(standard, recorded), REPEATS)
    bot_game_rate, _ = median_rate(lambda: bot_games(standard, GAMES_PER_RUN // 3), REPEATS)
    note = f"median of {REPEATS} runs, {GAMES_PER_RUN} replayed games each, one thread"
    return [
        Figure("exchanges/s, standard rules", exchange_rate, "exchanges/s", "≥ 30,000", note),
        Figure("exchanges/s, No Mercy", no_mercy_rate, "exchanges/s", "≥ 30,000", note),
        Figure(
            "full games/s (engine only)",
            game_rate,
            "games/s",
            "",
            f"first to 3 matches, {exchanges_per_game:.0f} exchanges per game on average",
        ),
        Figure("full games/s with two RandomBots", bot_game_rate, "games/s", "", "incl. legal_actions and bot choice"),
        Figure(
            "ratio to RLCard reference",
            exchange_rate / RLCARD_STEPS_PER_S,
            "×",
            "≥ 1",
            f"standard exchanges/s ÷ {RLCARD_STEPS_PER_S:,}/s",
        ),
    ]
