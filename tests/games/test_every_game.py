"""The shared engine protocol, checked on every registered game with no per-game driver:
random playouts from several seeds and every player count end, keep the game's own
invariants, replay from their journal, and give a structured outcome."""

from __future__ import annotations

from enum import Enum

import pytest

from games import registry
from games.protocol import CABINET, Engine, IllegalAction
from tests.games.playout import random_playout

CASES = [
    (engine_type, players)
    for engine_type in registry.engines()
    for players in range(engine_type.spec.min_players, engine_type.spec.max_players + 1)
]


def _id(case: tuple[type[Engine], int]) -> str:
    return f"{case[0].spec.name}-{case[1]}p"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_playouts_end_keep_invariants_and_replay(case: tuple[type[Engine], int]) -> None:
    engine_type, players = case
    for seed in range(3):
        engine = engine_type(engine_type.spec.options_type(), players, seed)
        random_playout(engine, bot_seed=seed, max_actions=60_000, replay_every=None)
        outcome = engine.outcome()
        assert outcome is not None and isinstance(outcome.how, Enum)
        assert outcome.winner is None or 0 <= outcome.winner < players


@pytest.mark.parametrize("engine_type", registry.engines(), ids=lambda e: e.spec.name)
def test_same_seed_and_actions_give_the_same_game(engine_type: type[Engine]) -> None:
    spec = engine_type.spec
    a = random_playout(engine_type(spec.options_type(), spec.min_players, 11), bot_seed=4, replay_every=0)
    b = engine_type(spec.options_type(), spec.min_players, 11)
    for action in a.journal:
        b.apply(action)
    assert b.public_view() == a.public_view() and b.outcome() == a.outcome()


@pytest.mark.parametrize("engine_type", registry.engines(), ids=lambda e: e.spec.name)
def test_an_illegal_action_is_refused_and_changes_nothing(engine_type: type[Engine]) -> None:
    """Legality is checked inside apply, once: a refused action leaves no trace."""
    spec = engine_type.spec
    engine = engine_type(spec.options_type(), spec.min_players, 3)
    before = engine.to_json()
    seat = next(iter(engine.seats_to_act()), 0)
    foreign = [a for a in engine.legal_actions(seat)] + [a for a in engine.legal_actions(CABINET)]
    # A finished game refuses everything: play one out and try its opening moves again.
    done = random_playout(engine_type(spec.options_type(), spec.min_players, 3), bot_seed=1, replay_every=0)
    finished = done.to_json()
    for action in foreign[:5]:
        with pytest.raises(IllegalAction):
            done.apply(action)
    assert done.to_json() == finished and engine.to_json() == before


def test_an_unknown_game_names_the_valid_ones() -> None:
    with pytest.raises(registry.UnknownGame, match=r"choose one of .*punch"):
        registry.engine_type("chess")
