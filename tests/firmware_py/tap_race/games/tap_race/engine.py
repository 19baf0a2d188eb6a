"""Tap Race's rules: every racer may tap at any time; each tap counts one; the first to
reach ``taps_to_win`` wins and the race is over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from games.protocol import Action, Engine, Event, GameSpec, IllegalAction, Outcome


@dataclass(frozen=True)
class TapRaceOptions:
    taps_to_win: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.taps_to_win <= 10:
            raise ValueError(f"taps_to_win must be 1-10, not {self.taps_to_win}")


class TapRaceEnding(Enum):
    FIRST_THERE = "first_there"


@dataclass(frozen=True)
class Tap(Action):
    """One press of the racer's tap button."""


@dataclass(frozen=True)
class Tapped(Event):
    player: int
    taps: int


@dataclass(frozen=True)
class RaceWon(Event):
    player: int


@dataclass(frozen=True)
class TapRaceView:
    """Nothing is secret in a tap race: every racer sees the public view."""

    taps: tuple[int, ...]
    taps_to_win: int
    winner: int | None


SPEC = GameSpec("tap_race", "Tap Race", min_players=2, max_players=4, options_type=TapRaceOptions)


class TapRace(Engine[TapRaceOptions, Tap, TapRaceView, TapRaceView]):
    spec = SPEC
    action_types = (Tap,)

    def __init__(self, options: TapRaceOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        self.taps = [0] * players
        self.winner: int | None = None

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.winner is not None else frozenset(range(self.players))

    def legal_actions(self, player: int) -> Sequence[Tap]:
        return (Tap(player),) if player in self.to_act() else ()

    def check(self, action: Tap) -> None:
        if self.winner is not None:
            raise IllegalAction("The race is over")
        if not 0 <= action.player < self.players:
            raise IllegalAction(f"Seat {action.player} is not in this race")

    def _apply(self, action: Tap) -> tuple[Event, ...]:
        p = action.player
        self.taps[p] += 1
        events: list[Event] = [Tapped(p, self.taps[p])]
        if self.taps[p] == self.options.taps_to_win:
            self.winner = p
            events.append(RaceWon(p))
        return tuple(events)

    def view(self, player: int) -> TapRaceView:
        return self.public_view()

    def public_view(self) -> TapRaceView:
        return TapRaceView(tuple(self.taps), self.options.taps_to_win, self.winner)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, TapRaceEnding.FIRST_THERE, tuple(self.taps))

    def audit(self) -> None:
        target = self.options.taps_to_win
        assert all(0 <= t <= target for t in self.taps), self.taps
        there = [p for p, t in enumerate(self.taps) if t == target]
        assert there == ([] if self.winner is None else [self.winner]), (there, self.winner)
        assert sum(self.taps) == len(self.journal)
