"""One random playout for every game (after OpenSpiel's random_sim_test).

Seeded random bots act for every actor :meth:`~games.protocol.Engine.to_act` names, the
cabinet (:data:`~games.protocol.CABINET`) included, until the game ends.  After every
action the engine audits its own invariants and, as often as asked, the journal must
replay to an identical game.  Nothing here knows any game's internals.
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
    replay_every: int | None = 1,
) -> Engine:
    """Play ``engine`` to the end with random legal actions; return it.

    ``invariant``: an extra check after every action (the engine's own :meth:`audit`
    always runs).  ``replay_every``: check the JSON round trip every n actions; ``None``
    checks it after actions 1, 2, 4, 8… (long games stay linear)."""
    bots: dict[int, RandomBot] = {}
    for n in range(max_actions):
        if engine.over:
            break
        acting = sorted(engine.to_act())
        assert acting, "game not over but nobody may act"
        player = acting[n % len(acting)]
        bot = bots.setdefault(player, RandomBot(bot_seed * 31 + player))
        engine.apply(bot.choose(engine, player))
        engine.audit()
        if invariant is not None:
            invariant(engine)
        if (n & (n + 1) == 0) if replay_every is None else (replay_every and n % replay_every == 0):
            assert_replays(engine)
    else:
        raise AssertionError(f"game not over after {max_actions} actions")
    assert engine.to_act() == frozenset(), "a finished game still names actors"
    assert_replays(engine)
    return engine


def assert_replays(engine: Engine) -> None:
    """The journal, saved and loaded, rebuilds the same game (views and outcome)."""
    again = type(engine).from_json(engine.to_json())
    assert again.public_view() == engine.public_view()
    for p in range(engine.players):
        assert again.view(p) == engine.view(p)
    assert again.outcome() == engine.outcome()
