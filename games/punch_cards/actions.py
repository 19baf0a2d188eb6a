"""What a duellist does.  Every choice is simultaneous and secret until both have made it."""

from __future__ import annotations

from dataclasses import dataclass

from games.protocol import Action
from games.punch_cards.cards import Corner
from games.punch_cards.reveal import Call


@dataclass(frozen=True)
class Answer(Action):
    """The challenged duellist (seat 1) accepts or, where the challenge rule allows it,
    refuses the challenge."""

    accept: bool


@dataclass(frozen=True)
class Stake(Action):
    """Stake the card ``serial`` of one's own collection; the winner takes the loser's."""

    serial: int


@dataclass(frozen=True)
class PickCorner(Action):
    """Choose, in secret, the corner of one's staked card to show."""

    corner: Corner


@dataclass(frozen=True)
class CallIt(Action):
    """Call High, Low or Both, in secret; revealed with the corners."""

    call: Call


DUEL_ACTIONS: tuple[type, ...] = (Answer, Stake, PickCorner, CallIt)
