"""Facts a Big Time Boxing action caused, for the ring display, LED bars, sound and log.

Events are public: none names a card still hidden in a hand or deck (a card saved face
down for later is reported without its id; a refill says only how many were drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.big_time_boxing.cards import BigHit, Column, Injury, Punch
from games.big_time_boxing.ring import Position, Trap
from games.big_time_boxing.scoring import Finish
from games.protocol import Event


class Window(Enum):
    """A moment the rules let one boxer answer before play goes on."""

    RESPONSE = "response"
    """The defender may cancel the punch just thrown with a Defense card."""
    COMBO = "combo"
    """The puncher may add a second punch with the same combo icon."""
    ESCAPE = "escape"
    """The trapped boxer may escape the ropes or the corner at once."""
    TRAPPED_RESPONSE = "trapped_response"
    """The trapped boxer may cancel the next of the three punches with a Defense card."""


class JudgePointCause(Enum):
    CARD = "card"
    """A card with Judge Points +1 was thrown."""
    MOVE_AWAY = "move_away"
    CLINCH = "clinch"
    GONE_MINUS = "gone_minus"
    """The opponent would have gone below 0 Judge Points."""
    FAST_HANDS = "fast_hands"
    COUNTERPUNCHER = "counterpuncher"


class EnergyCause(Enum):
    PUNCH = "punch"
    TIRED = "tired"
    """Round Energy fell to 1 or 2 for the first time this round: Fight Energy -1."""
    EXHAUSTED = "exhausted"
    """Round Energy reached 0: Fight Energy -1 more."""
    END_OF_ROUND = "end_of_round"
    CLINCH = "clinch"
    SECOND_WIND = "second_wind"
    DEEP_LUNGS = "deep_lungs"


class DamageCause(Enum):
    PUNCH = "punch"
    INJURY = "injury"
    KNOCKDOWN = "knockdown"
    HEAD_BUTT = "head_butt"
    """A Clinch result's damage (head butts, cheap shots)."""


class ShuffleReason(Enum):
    EMPTY = "empty"
    NEW_ROUND = "new_round"


@dataclass(frozen=True)
class AttributeChosen(Event):
    player: int
    attribute: int
    at_random: bool


@dataclass(frozen=True)
class AttributeUsed(Event):
    player: int
    attribute: int


@dataclass(frozen=True)
class RoundStarted(Event):
    """Hands are dealt (``reshuffled``: from all the Boxer cards, else from the set-aside)."""

    round: int
    first_player: int
    reshuffled: bool


@dataclass(frozen=True)
class ResultDeckShuffled(Event):
    reason: ShuffleReason


@dataclass(frozen=True)
class Moved(Event):
    player: int
    position: Position


@dataclass(frozen=True)
class PunchThrown(Event):
    player: int
    card: int
    punch: Punch
    column: Column
    combo: bool
    """The second punch of a combination."""


@dataclass(frozen=True)
class EnergyChanged(Event):
    player: int
    round_energy: int
    fight_energy: int
    cause: EnergyCause


@dataclass(frozen=True)
class JudgePoints(Event):
    player: int
    delta: int
    total: int
    cause: JudgePointCause


@dataclass(frozen=True)
class WindowOpened(Event):
    window: Window
    player: int
    punch: Punch | None
    """The punch the window is about (none for an escape)."""


@dataclass(frozen=True)
class Passed(Event):
    """The window closed without a card: ``timed_out`` when the cabinet closed it."""

    player: int
    window: Window
    timed_out: bool


@dataclass(frozen=True)
class Defended(Event):
    player: int
    card: int
    punch: Punch


@dataclass(frozen=True)
class ResultDrawn(Event):
    """A punch landed: ``value`` read from ``card`` (``column`` None: the better of the
    punch's two results, on the ropes or in the corner)."""

    card: int
    puncher: int
    punch: Punch
    column: Column | None
    value: int


@dataclass(frozen=True)
class DamageTaken(Event):
    """``damage``: this round's Damage die after it; ``health`` the boxer's Health total."""

    player: int
    amount: int
    damage: int
    health: int
    cause: DamageCause


@dataclass(frozen=True)
class BigHitDrawn(Event):
    """``ignored``: a trap during a trap, or a head injury from a Body Blow."""

    card: int
    big_hit: BigHit
    ignored: bool


@dataclass(frozen=True)
class Trapped(Event):
    player: int
    trap: Trap


@dataclass(frozen=True)
class Escaped(Event):
    player: int
    card: int


@dataclass(frozen=True)
class Released(Event):
    """The trap is over; both boxers are back in their O/S areas."""

    player: int


@dataclass(frozen=True)
class Injured(Event):
    player: int
    injury: Injury
    injuries: int


@dataclass(frozen=True)
class InjuryTreated(Event):
    """The Cutman attribute removed an injury tile between rounds."""

    player: int
    injury: Injury


@dataclass(frozen=True)
class KnockedDown(Event):
    player: int
    knockdowns: int
    """Knockdowns this fight, this one included."""


@dataclass(frozen=True)
class Count(Event):
    """The knockout check: ``heart`` on ``card`` means the boxer gets up."""

    card: int
    heart: bool


@dataclass(frozen=True)
class GotUp(Event):
    player: int
    by_attribute: bool


@dataclass(frozen=True)
class MovedAway(Event):
    """``card`` is None when it was saved face down for later."""

    player: int
    card: int | None
    saved: bool


@dataclass(frozen=True)
class Clinched(Event):
    player: int
    card: int
    result: int


@dataclass(frozen=True)
class Warned(Event):
    """A warning; ``foul`` for every one after the first (a round-score point off)."""

    player: int
    foul: bool


@dataclass(frozen=True)
class CoveredUp(Event):
    player: int
    card: int


@dataclass(frozen=True)
class HandRefilled(Event):
    player: int
    drawn: int


@dataclass(frozen=True)
class TurnStarted(Event):
    player: int


@dataclass(frozen=True)
class RoundScored(Event):
    """``totals``: Judge Points + Damage caused; ``scores``: the round-scores, after the
    ``knockdowns`` each boxer suffered and the ``fouls`` each committed this round (a
    line of the score sheet)."""

    round: int
    judge_points: tuple[int, int]
    damage_caused: tuple[int, int]
    totals: tuple[int, int]
    scores: tuple[int, int]
    knockdowns: tuple[int, int] = (0, 0)
    fouls: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class FightEnded(Event):
    winner: int | None
    finish: Finish
    cards: tuple[int, int]
    """Each boxer's total round-score so far."""
