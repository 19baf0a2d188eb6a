"""Random playouts shared by every engine's tests (after OpenSpiel's random_sim_test).

A playout lets seeded random bots act until the game ends, checking after every action
that the journal replays to an identical game and that the game-specific invariant holds.
"""

from __future__ import annotations

from collections.abc import Callable

from games.bots import RandomBot
from games.protocol import Engine


def random_playout(
    engine: Engine,
    bot_seed: int,
    max_actions: int = 20_000,
    invariant: Callable[[Engine], None] | None = None,
    replay_every: int = 1,
) -> Engine:
    """Play ``engine`` to the end with random legal actions; return it.

    ``replay_every``: check the JSON round trip every n actions (1 = always)."""
    bots = {p: RandomBot(bot_seed * 31 + p) for p in range(engine.players)}
    for n in range(max_actions):
        if engine.over:
            break
        acting = sorted(engine.to_act())
        assert acting, "game not over but nobody may act"
        player = acting[n % len(acting)]
        engine.apply(bots[player].choose(engine, player))
        if invariant is not None:
            invariant(engine)
        if replay_every and n % replay_every == 0:
            assert_replays(engine)
    else:
        raise AssertionError(f"game not over after {max_actions} actions")
    assert_replays(engine)
    return engine


def assert_replays(engine: Engine) -> None:
    """The journal, saved and loaded, rebuilds the same game (views and outcome)."""
    again = type(engine).from_json(engine.to_json())
    assert again.public_view() == engine.public_view()
    for p in range(engine.players):
        assert again.view(p) == engine.view(p)
    assert again.outcome() == engine.outcome()
