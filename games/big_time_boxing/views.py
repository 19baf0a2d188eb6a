"""What the ring display, the LED bars and each boxer's private display may show.

Plain frozen dataclasses of tuples, so replays can compare them with ``==``.  Nobody sees
a deck's order or the other boxer's hand or saved card; discard piles are face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.big_time_boxing.cards import Column, Injury, Punch
from games.big_time_boxing.events import RoundScored, Window
from games.big_time_boxing.options import BigTimeBoxingOptions
from games.big_time_boxing.ring import Position, Trap
from games.big_time_boxing.scoring import Finish

HEALTH_DIE = 12


class Phase(Enum):
    """What the fight waits for: a pick of Attribute cards, the active boxer's turn, an
    answer in one of the windows, or nothing (over)."""

    DRAFT = "draft"
    TURN = "turn"
    RESPONSE = "response"
    COMBO = "combo"
    ESCAPE = "escape"
    TRAPPED_RESPONSE = "trapped_response"
    OVER = "over"

    @property
    def window(self) -> Window | None:
        return _WINDOWS.get(self)


_WINDOWS = {
    Phase.RESPONSE: Window.RESPONSE,
    Phase.COMBO: Window.COMBO,
    Phase.ESCAPE: Window.ESCAPE,
    Phase.TRAPPED_RESPONSE: Window.TRAPPED_RESPONSE,
}


def health_dice(health: int) -> tuple[int, ...]:
    """The Health dice showing ``health``: 12s and one lower die, which is the one that
    drops (and leaves the board at 0).  30 health is 12, 12, 6."""
    full, rest = divmod(health, HEALTH_DIE)
    return (HEALTH_DIE,) * full + ((rest,) if rest else ())


@dataclass(frozen=True)
class ThrownPunch:
    card: int
    punch: Punch
    column: Column


@dataclass(frozen=True)
class BoxerStatus:
    """One boxer's player board, as everyone sees it."""

    position: Position
    fight_energy: int
    round_energy: int
    round_start_energy: int
    health: int
    health_dice: tuple[int, ...]
    damage: int
    """This round's Damage die (0: not on the board)."""
    judge_points: int
    injuries: tuple[Injury, ...]
    knockdowns: int
    round_knockdowns: int
    warnings: int
    round_fouls: int
    hand_size: int
    deck_size: int
    has_saved: bool
    """A card saved face down for later (Saving Something for Later)."""
    attributes: tuple[int, ...]
    attributes_spent: tuple[int, ...]
    """Single Use cards used, and Once Per Round cards used this round."""
    round_scores: tuple[int, ...]
    knockdowns_caused: int
    injuries_caused: int


@dataclass(frozen=True)
class BigTimeBoxingPublicView:
    options: BigTimeBoxingOptions
    phase: Phase
    round: int
    active: int
    """Whose turn it is (or was, while a window is open)."""
    odd_round_first: int
    window_player: int | None
    window_punch: Punch | None
    """The punch a response window is about (the one thrown, or the next trapped punch)."""
    thrown: tuple[ThrownPunch, ...]
    """The punches thrown this turn (one, or two for a combo), face up."""
    trap: Trap | None
    trapped: int | None
    trap_punches_left: tuple[Punch, ...]
    boxers: tuple[BoxerStatus, BoxerStatus]
    discard: tuple[int, ...]
    result_discard: tuple[int, ...]
    """Result cards drawn since the deck was last shuffled, oldest first."""
    result_deck_size: int
    set_aside: int
    last_result: int | None
    drafting: int | None
    """The boxer to pick an Attribute card next."""
    winner: int | None
    finish: Finish | None
    scorecard: tuple[RoundScored, ...] = ()
    """Every round scored so far, in order: the score sheet's lines."""


@dataclass(frozen=True)
class BigTimeBoxingPlayerView:
    player: int
    public: BigTimeBoxingPublicView
    hand: tuple[int, ...]
    saved: int | None
    """This boxer's card saved face down for later."""
    saved_playable: bool
    """The saved card may be played now (it was saved in an earlier round)."""
