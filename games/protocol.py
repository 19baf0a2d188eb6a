"""The shape every rule engine offers, so sessions, replays and tests treat all games alike.

An engine is a mutable game in progress (like python-chess's Board): it owns its seeded
RNG, accepts actions, returns the events each action caused and keeps the journal of
every action applied.  It never reads a clock and does no I/O: times arrive as fields of
actions.  Same options, players, seed and actions give the same game, which is what
``to_json``/``from_json`` rely on (a saved game is its journal, replayed).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, is_dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from games.codec import decode, encode


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why, for the player."""


@dataclass(frozen=True)
class GameSpec:
    """What a cabinet needs to know about a game before one is created."""

    name: str
    title: str
    min_players: int
    max_players: int
    options_type: type
    judges_time: bool = False
    """Inputs carry stamps that decide the game: they pass the settle window and reach
    the engine in stamp order (Karate Fight's Hits)."""
    uses_slaps: bool = False
    """The game is played on the slap pads: a lost pad link must pause it."""


CABINET = -1
"""The ``player`` of actions the cabinet itself makes (a reveal time, a batch of slaps, a
clock check, a window's end, a chance outcome).  Like OpenSpiel's chance player it is an
actor: :meth:`Engine.to_act` names it whenever the cabinet may act, and
:meth:`Engine.legal_actions` lists what it may do, so one random playout drives any game."""


@dataclass(frozen=True)
class Action:
    """Base of every engine action: who does it (a seat, or :data:`CABINET`)."""

    player: int


@dataclass(frozen=True)
class Event:
    """Base of every engine event: a fact for the display, LEDs, sound and log."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a seat index (``None``: nobody won, as in a draw).  ``how`` is the
    game's own enum of endings (a knockout, the most cards when time ran out…): screens
    and records choose words for it, never compare text.  ``score`` is whatever numbers
    the ending rests on, per seat (matches won, cards held), empty when there are none."""

    winner: int | None
    how: Enum
    score: tuple[int, ...] = ()


Opts = TypeVar("Opts")
A = TypeVar("A", bound=Action)
PlayerView = TypeVar("PlayerView")
"""What one seat may see (:meth:`Engine.view`): the private displays draw it."""
PublicView = TypeVar("PublicView")
"""What everyone may see (:meth:`Engine.public_view`): the main display draws it."""


class Engine(ABC, Generic[Opts, A, PlayerView, PublicView]):
    """A game in progress.  Subclasses implement the rules; this class keeps the journal.
    Its type arguments name its options, actions and views, so every screen a view feeds
    is checked against the engine (``display.games.registry.game_screens``)."""

    spec: ClassVar[GameSpec]
    action_types: ClassVar[tuple[type, ...]]

    def __init__(self, options: Opts, players: int, seed: int) -> None:
        spec = self.spec
        if not isinstance(options, spec.options_type):
            raise TypeError(f"{spec.title} needs {spec.options_type.__name__} options, got {options!r}")
        if not spec.min_players <= players <= spec.max_players:
            raise ValueError(f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {players}")
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.journal: list[A] = []
        self.opening_events: tuple[Event, ...] = ()
        """What setting the game up caused (a first deal): there is no action to return it from."""

    # -- the rules, per game ---------------------------------------------------------
    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Every actor who may act now: seats (several at once for simultaneous choices)
        and :data:`CABINET` when the cabinet may report something.  Empty only when over."""

    @abstractmethod
    def legal_actions(self, player: int) -> Sequence[A]:
        """Every action ``player`` (a seat or :data:`CABINET`) may take now: empty when it
        is not theirs to act.  Stamped cabinet actions are listed at the latest stamp."""

    @abstractmethod
    def check(self, action: A) -> None:
        """Raise :class:`IllegalAction` saying why, if ``action`` is not allowed now.

        :meth:`apply` calls it: callers apply and catch, they do not check first."""

    @abstractmethod
    def _apply(self, action: A) -> tuple[Event, ...]:
        """Apply a checked action and return the events it caused."""

    @abstractmethod
    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (their hand, never another's secret)."""

    @abstractmethod
    def public_view(self) -> PublicView:
        """What everyone may see: the main display and the LED bars."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def audit(self) -> None:
        """Raise ``AssertionError`` if the state breaks one of the game's invariants (every
        card in exactly one place, gauges in range).  Random playouts call it after every
        action; a game with nothing to audit keeps this default."""

    # -- shared machinery ------------------------------------------------------------
    def apply(self, action: A) -> tuple[Event, ...]:
        """Check and apply ``action``; append it to the journal; return its events.

        Raises :class:`IllegalAction` (and changes nothing) when the rules forbid it."""
        self.check(action)
        events = self._apply(action)
        self.journal.append(action)
        return events

    def seats_to_act(self) -> frozenset[int]:
        """The seats in :meth:`to_act`: the players a person or a bot must answer for."""
        return frozenset(p for p in self.to_act() if p != CABINET)

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    def to_dict(self) -> dict[str, Any]:
        options = encode(self.options) if is_dataclass(self.options) else {}
        return {
            "game": self.spec.name,
            "options": options,
            "players": self.players,
            "seed": self.seed,
            "actions": [encode(a) for a in self.journal],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Engine[Opts, A, PlayerView, PublicView]:
        if data.get("game") != cls.spec.name:
            raise ValueError(f"saved game is {data.get('game')!r}, not {cls.spec.name!r}")
        options = decode(cls.spec.options_type, data["options"])
        engine = cls(options, data["players"], data["seed"])
        for raw in data["actions"]:
            engine.apply(cls.decode_action(raw))
        return engine

    @classmethod
    def from_json(cls, text: str) -> Engine[Opts, A, PlayerView, PublicView]:
        return cls.from_dict(json.loads(text))

    @classmethod
    def decode_action(cls, raw: dict[str, Any]) -> A:
        by_name = {t.__name__: t for t in cls.action_types}
        kind = raw.get("type")
        if kind not in by_name:
            raise ValueError(f"unknown {cls.spec.name} action type {kind!r}")
        action: A = decode(by_name[kind], raw)
        return action
