"""What a boxer (or the cabinet) can do in Big Time Boxing.

Cards are named by id (see :mod:`games.big_time_boxing.cards`).  Every window the rules
open (a defense response, a combo, an escape) can always be answered with :class:`Pass`,
and the cabinet ends one that runs out of time with :class:`WindowClosed`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.protocol import CABINET, Action


@dataclass(frozen=True)
class ChooseAttribute(Action):
    """Pick one of your Attribute cards for the fight (optional rule, before round 1)."""

    attribute: int


@dataclass(frozen=True)
class Throw(Action):
    """Throw the punch on ``card``; the token moves itself to the area it is thrown from
    (move-and-punch)."""

    card: int


@dataclass(frozen=True)
class Combo(Action):
    """Add ``card`` as the second punch of a combination (it cannot be defended)."""

    card: int


@dataclass(frozen=True)
class Defend(Action):
    """Cancel the punch coming at you with a J/C or H/U/B Defense card."""

    card: int


@dataclass(frozen=True)
class Escape(Action):
    """Escape the Ropes or the Corner with a card showing that feature."""

    card: int


@dataclass(frozen=True)
class Pass(Action):
    """Answer a window without a card: let the punch land, throw no combo, stay trapped."""


@dataclass(frozen=True)
class MoveAway(Action):
    """Discard ``card`` (or, with Saving Something for Later, keep it face down: ``save``)
    and step back to the O/S area."""

    card: int
    save: bool = False


@dataclass(frozen=True)
class Clinch(Action):
    """At Round Energy 1 or 2: discard ``card`` and draw a Result card for its Clinch section."""

    card: int


@dataclass(frozen=True)
class CoverUp(Action):
    """At Round Energy 0, the only turn left: discard ``card``."""

    card: int


@dataclass(frozen=True)
class UseAttribute(Action):
    """Play an Attribute card that is played by choice on your turn (before you act)."""

    attribute: int


@dataclass(frozen=True, kw_only=True)
class WindowClosed(Action):
    """The cabinet: the open window's time ran out with no answer (as :class:`Pass`)."""

    player: int = CABINET


BTB_ACTIONS: tuple[type, ...] = (
    ChooseAttribute,
    Throw,
    Combo,
    Defend,
    Escape,
    Pass,
    MoveAway,
    Clinch,
    CoverUp,
    UseAttribute,
    WindowClosed,
)

BigTimeBoxingAction = (
    ChooseAttribute | Throw | Combo | Defend | Escape | Pass | MoveAway | Clinch | CoverUp | UseAttribute | WindowClosed
)
