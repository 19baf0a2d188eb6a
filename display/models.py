"""Screen models: plain frozen data the cabinet hands the renderer, one per scene.

The cabinet decides what is on screen; the renderer only decides how it looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from display.calibration_screen import CalibrationScreen

Color = tuple[int, int, int]


@dataclass(frozen=True)
class StationLook:
    name: str
    color: Color


@dataclass(frozen=True, kw_only=True)
class AttractBoard:
    """A game's live table on the attract screen (Punch Cards' leaderboard): a title,
    column headings and rows (the second column is the wide one, a name), and a note."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class AttractScreen:
    games: tuple[str, ...]
    featured: int
    stations: tuple[StationLook, ...]
    recent: tuple[str, ...]
    blink: bool
    board: AttractBoard | None = None


@dataclass(frozen=True, kw_only=True)
class SelectScreen:
    games: tuple[str, ...]
    blurbs: tuple[str, ...]
    cursor: int
    host: StationLook


@dataclass(frozen=True, kw_only=True)
class JoinScreen:
    game: str
    stations: tuple[StationLook, ...]
    joined: tuple[bool, ...]
    min_players: int
    max_players: int
    host: StationLook
    computers: tuple[bool, ...] = ()
    """Per station: a computer player sits there (its look's name is its tag)."""
    offers_computer: bool = False
    """The host may seat computer players (B seat, C level, D stand up)."""


@dataclass(frozen=True, kw_only=True)
class OptionsScreen:
    game: str
    items: tuple[tuple[str, str], ...]
    cursor: int
    host: StationLook


@dataclass(frozen=True)
class Notice:
    """A short message for one seat (a refused button, say) shown near that seat."""

    seat: int
    text: str


@dataclass(frozen=True, kw_only=True)
class PlayScreen:
    """A game in play: ``view`` is the engine's public view; ``events`` the recent engine
    events with the µs they happened, for animation; ``paused`` explains a pause."""

    game: str
    title: str
    seats: tuple[StationLook, ...]
    view: Any
    events: tuple[tuple[int, Any], ...]
    notices: tuple[Notice, ...]
    now_us: int
    paused: str | None = None
    story: Any = None
    """A game's own frozen model of what just happened, built by its controls from the
    engine's events (Karate Fight: the photo finish of the last Hit); None: nothing."""


@dataclass(frozen=True, kw_only=True)
class PrivateScreen:
    """One seat's private display in a game: only what that player may see.

    ``view`` is the engine's view for that seat; ``to_act`` says the game waits on them;
    ``held`` is what the cabinet holds for them that the engine has not been told yet
    (Punch!'s draft picks before START confirms them).  The game's private layout
    (``display.games.registry``) decides how it looks on the 1-bit OLED."""

    game: str
    seat: int
    view: Any
    to_act: bool
    held: tuple[Any, ...] = ()
    name: str = ""
    """The seat's name as the main screen writes it ("Red"); empty: not known."""


@dataclass(frozen=True, kw_only=True)
class ResultScreen:
    game: str
    winner: StationLook | None
    headline: str
    lines: tuple[str, ...]
    final: PlayScreen | None = None
    """The game's last play screen, for games that draw a result of their own from it
    (Big Time Boxing's score sheet: ``display.games.registry``'s ``result``)."""
    story: Any = None
    """The story of the game its controls told from the journal and the records (Punch!'s
    stamina per match, Karate Fight's reactions per Hit), for its own result screen."""


@dataclass(frozen=True, kw_only=True)
class ServiceScreen:
    title: str
    items: tuple[str, ...]
    cursor: int
    body: tuple[str, ...]
    footer: str


@dataclass(frozen=True)
class DemoScreen:
    """The attract mode's demo: computer players' game (``play``) on the main screen,
    under a band that names it and invites people to press START."""

    play: PlayScreen
    title: str
    blink: bool


# A string: CalibrationScreen lives beside its drawing code (pygame), named here for type checkers only.
Screen: TypeAlias = (
    "AttractScreen | DemoScreen | SelectScreen | JoinScreen | OptionsScreen | PlayScreen | ResultScreen"
    " | ServiceScreen | CalibrationScreen"
)
