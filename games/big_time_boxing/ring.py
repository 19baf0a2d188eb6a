"""Where the boxers stand, and which column of a Result card that makes a punch land in."""

from __future__ import annotations

from enum import Enum

from games.big_time_boxing.cards import Column, Punch


class Position(Enum):
    OUTSIDE = "os"
    INSIDE = "is"
    ON_THE_ROPES = "ropes"
    IN_THE_CORNER = "corner"


class Trap(Enum):
    """Where a Big Hit can trap a boxer, and the three punches he then takes there."""

    ROPES = "ropes"
    CORNER = "corner"

    @property
    def punches(self) -> tuple[Punch, Punch, Punch]:
        if self is Trap.ROPES:
            return (Punch.JAB, Punch.CROSS, Punch.HOOK)
        return (Punch.CROSS, Punch.HOOK, Punch.UPPERCUT)

    @property
    def position(self) -> Position:
        return Position.ON_THE_ROPES if self is Trap.ROPES else Position.IN_THE_CORNER


def area_for(punch: Punch) -> Position:
    """The area a punch is thrown from (move-and-punch puts the token there first)."""
    return Position.OUTSIDE if punch.outside else Position.INSIDE


def column_for(punch: Punch, puncher: Position, target: Position) -> Column:
    """The Result card column for ``punch`` thrown from ``puncher`` at a boxer in ``target``.

    A Hook thrown from O/S (only as the second punch of a Jab/Hook or Cross/Hook combo)
    always reads OS/IS, as the rulebook says: a Hook has no OS/OS column."""
    if punch is Punch.HOOK and puncher is Position.OUTSIDE:
        return Column.OS_IS
    inside = (puncher is Position.INSIDE) + (target is Position.INSIDE)
    return (Column.OS_OS, Column.OS_IS, Column.IS_IS)[inside]
