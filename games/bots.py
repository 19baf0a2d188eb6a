"""Computer players: pure, seeded, and deciding from what their seat may see.

Fair play is built into the shape: a bot's :meth:`Bot.decide` is handed the seat's view
(``engine.view(player)``, exactly what that player's display shows) and the legal
actions, never the engine, so it cannot read an opponent's hand or a deck's order.  The
:meth:`Bot.choose` adapter keeps the older ``choose(engine, player)`` callers working;
it passes nothing else on.  A bot may remember the views it was shown (a person
remembers what was played); it keeps all its chance in its own seeded RNG.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from games.protocol import CABINET, Action, Engine

V = TypeVar("V")
A = TypeVar("A", bound=Action)


class Bot(ABC, Generic[V, A]):
    """A computer player of one seat.  ``seed`` makes its choices repeatable."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def decide(self, view: V, legal: Sequence[A]) -> A:
        """One of ``legal`` (never empty), chosen from ``view`` alone."""

    def choose(self, engine: Engine[Any, A, Any, Any], player: int) -> A:
        """Ask ``engine`` only for what ``player`` may see and do, then :meth:`decide`.

        Raises ``ValueError`` when ``player`` has nothing to do now."""
        legal = engine.legal_actions(player)
        if not legal:
            raise ValueError(f"player {player} has nothing to do now")
        view = engine.public_view() if player == CABINET else engine.view(player)
        return self.decide(view, legal)


class RandomBot(Bot[Any, Action]):
    """Plays a uniformly random legal action; the exhibition's opponent and the fuzzer's.

    It looks at nothing but the legal actions, so :meth:`choose` skips building a view
    (the random playouts call it for every action of every game, the cabinet's too)."""

    def decide(self, view: Any, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)

    def choose(self, engine: Engine[Any, Action, Any, Any], player: int) -> Action:
        legal = engine.legal_actions(player)
        if not legal:
            raise ValueError(f"player {player} has nothing to do now")
        return self.decide(None, legal)
