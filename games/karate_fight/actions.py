"""What fighters and the cabinet do.  Stamped actions reach the engine in stamp order."""

from __future__ import annotations

from dataclasses import dataclass

from games.karate_fight.jan_ken import Sign
from games.protocol import CABINET, Action


@dataclass(frozen=True)
class PlayTop(Action):
    """The fighter whose turn it is plays the top card of their pile (button A)."""

    t_us: int


@dataclass(frozen=True, kw_only=True)
class Shown(Action):
    """The frame showing the last played card was flipped at ``t_us`` (display report).

    From then a Hit that card caused is showing and may be slapped.  ``cards_played``
    is how many cards the game had played when that frame was drawn: behind the settle
    window a newer card may have been applied since, and a frame that did not show it
    must not reveal it (None: trust the report, as tests and tools may)."""

    t_us: int
    cards_played: int | None = None
    player: int = CABINET


@dataclass(frozen=True, kw_only=True)
class Slaps(Action):
    """Every fighter who slapped at exactly ``t_us`` (usually one)."""

    t_us: int
    fighters: tuple[int, ...]
    player: int = CABINET


@dataclass(frozen=True)
class Throw(Action):
    """A fighter's secret Jan Ken sign; revealed when every fighter still in it threw."""

    sign: Sign


@dataclass(frozen=True, kw_only=True)
class TimeCheck(Action):
    """The cabinet's clock reached ``t_us`` with no other input to hand over (time limit
    variant): nothing happens unless that is at or past the time limit, when regulation
    ends.  The session sends one when its clock passes ``ends_us`` so a fight nobody
    touches still ends on time."""

    t_us: int
    player: int = CABINET
