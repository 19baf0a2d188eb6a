"""Computer players: pure, seeded, and working for any engine through its legal actions."""

from __future__ import annotations

import random
from typing import Any

from games.protocol import Action, Engine


class RandomBot:
    """Plays a uniformly random legal action; the exhibition's opponent and the fuzzer's."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, engine: Engine[Any, Any], player: int) -> Action:
        actions = engine.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has nothing to do now")
        action: Action = self.rng.choice(list(actions))
        return action
