"""Screen models: plain frozen data the cabinet hands the renderer, one per scene.

The cabinet decides what is on screen; the renderer only decides how it looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from games.protocol import Event

if TYPE_CHECKING:
    from display.calibration_screen import CalibrationScreen

ViewT = TypeVar("ViewT")
"""The engine's view a screen shows (a game's public view, or one seat's view)."""
StoryT = TypeVar("StoryT")
"""A game's own frozen model of what happened (its controls tell it; None: no story)."""

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
    qr: str = ""
    """An address for phones (the live standings), drawn as a QR code; empty: none."""


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


@dataclass(frozen=True, kw_only=True)
class PlayScreen(Generic[ViewT, StoryT]):
    """A game in play: ``view`` is the engine's public view; ``events`` the recent engine
    events with the µs they happened, for animation; ``paused`` explains a pause.  A
    game's screen names its own types (``PlayScreen[PunchPublicView, None]``).

    Fair by construction: everything here is public (the public view, public events, a
    pause everyone waits on).  There is no place for a word to one seat: a refused press
    says why on that player's own display (:attr:`PrivateScreen.refusal`), since in a
    game of hidden cards "You have no Punch 2 left" tells the opponent what you hold
    (docs/rules/punch.md §12)."""

    now_us: int
    """First: frames are compared field by field in this order (a loop draws a frame only
    when its model changed), and a changed frame is told apart by its clock before the
    view is compared deep (a demo's drawn frames did that compare each, ~0.05 M instructions)."""
    events: tuple[tuple[int, Event], ...]
    game: str
    title: str
    seats: tuple[StationLook, ...]
    view: ViewT
    paused: str | None = None
    story: StoryT | None = None
    """A game's own frozen model of what just happened, built by its controls from the
    engine's events (Karate Fight: the photo finish of the last Hit); None: nothing."""
    computers: tuple[bool, ...] = ()
    """Per seat: a computer plays it.  A hint for that seat names no key: nobody stands
    at that station to press it (issue 30: "A–D throw that card" during the computer's turn)."""

    def computer(self, seat: int) -> bool:
        """A computer plays ``seat``."""
        return seat < len(self.computers) and self.computers[seat]


@dataclass(frozen=True, kw_only=True)
class PrivateScreen(Generic[ViewT]):
    """One seat's private display in a game: only what that player may see.

    ``view`` is the engine's view for that seat; ``to_act`` says the game waits on them;
    ``held`` is what the cabinet holds for them that the engine has not been told yet
    (Punch!'s draft picks before START confirms them); ``refusal`` says why the rules
    refused this player's last press, for a moment ("" none): it is shown here and only
    here (:func:`display.private.draw_private` draws it over the layout's foot).  The
    game's private layout (``display.games.registry``) decides how the rest looks on the
    1-bit OLED."""

    game: str
    seat: int
    view: ViewT
    to_act: bool
    held: tuple[Any, ...] = ()
    refusal: str = ""
    name: str = ""
    """The seat's name as the main screen writes it ("Red"); empty: not known."""


@dataclass(frozen=True)
class PrivateText:
    """A private display outside a game's own layout (menus, a station not in the game):
    up to five rows of text, ``inverted`` the row drawn reversed (None: none)."""

    lines: tuple[str, ...]
    inverted: int | None = None


@dataclass(frozen=True, kw_only=True)
class ResultScreen(Generic[ViewT, StoryT]):
    """The end of a game; ``ViewT`` is the final play screen's view, ``StoryT`` the story
    of the whole game (not the play screen's story of the last moment)."""

    game: str
    winner: StationLook | None
    headline: str
    lines: tuple[str, ...]
    final: PlayScreen[ViewT, Any] | None = None
    """The game's last play screen, for games that draw a result of their own from it
    (Big Time Boxing's score sheet: ``display.games.registry``'s ``result``)."""
    story: StoryT | None = None
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

    play: AnyPlayScreen
    title: str
    blink: bool


AnyPlayScreen: TypeAlias = PlayScreen[Any, Any]
"""Some game's play screen, as the cabinet-wide code holds it."""
AnyPrivateScreen: TypeAlias = PrivateScreen[Any]
AnyResultScreen: TypeAlias = ResultScreen[Any, Any]
PrivateModel: TypeAlias = PrivateScreen[Any] | PrivateText
"""What a station's private display shows: a game's private screen or plain rows; the
cabinet compares it frame by frame and draws the OLED again only when it changed."""

# A string: CalibrationScreen lives beside its drawing code (pygame), named here for type checkers only.
Screen: TypeAlias = (
    "AttractScreen | DemoScreen | SelectScreen | JoinScreen | OptionsScreen | AnyPlayScreen | AnyResultScreen"
    " | ServiceScreen | CalibrationScreen"
)
