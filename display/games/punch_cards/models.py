"""What Punch Cards at the cabinet puts on screen, as plain data: the lobby (a desk per
station where players sign in or register), the duel table, the trade table, and each
station's private display.  Punch Cards' scenes at the cabinet
(``firmware_py/games/punch_cards/``) build them, its screens here draw them
(:data:`PunchCardsTable` and :data:`PunchCardsPrivate` list every kind).  A PIN is only
ever in a private model; the main screen gets how many letters were typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from display.models import PlayScreen, PrivateScreen, StationLook
from games.punch_cards import Card, DuelPlayerView, DuelPublicView, Standing


class DeskStep(Enum):
    IDLE = "idle"
    NAME = "name"
    PIN = "pin"
    NEW_PIN = "new_pin"
    REPEAT_PIN = "repeat_pin"
    MENU = "menu"


@dataclass(frozen=True, kw_only=True)
class KeyboardView:
    """The name keyboard: what each button shows now, as (button, characters): a page's
    keys of six characters, or (``opened``) the six characters of the key picked, one per
    button."""

    keys: tuple[tuple[str, tuple[str, ...]], ...]
    opened: bool
    text: str


@dataclass(frozen=True, kw_only=True)
class DeskView:
    """One station's desk on the main screen.  ``player``: the name being signed in, or
    the signed-in player; ``pin_length``: letters typed (shown masked)."""

    look: StationLook
    step: DeskStep
    player: str
    keyboard: KeyboardView | None
    pin_length: int
    cards: int | None
    points: int | None
    message: str
    bad: bool
    hints: tuple[str, ...]


@dataclass(frozen=True)
class LobbyView:
    desks: tuple[DeskView, ...]
    board: tuple[Standing, ...]
    status: str
    """The event's state: the closing time, CLOSED, or the ledger not answering."""
    alert: bool = False
    """The status is bad news (closed, the ledger not answering): said in red."""
    web_url: str = ""
    """Where phones see the live standings, drawn as a QR code; empty: none."""


@dataclass(frozen=True, kw_only=True)
class DeskPrivate:
    """A desk on its station's private display: the PIN in clear (only here)."""

    step: DeskStep
    player: str
    keyboard: KeyboardView | None
    pin: str
    message: str
    hints: tuple[str, ...]
    cards: int | None = None
    bad: bool = False
    """The message is a refusal (shown in full on the OLED)."""


@dataclass(frozen=True, kw_only=True)
class DuelTable:
    """A duel on the main screen.  ``challenge``: what the challenge rule says about this
    one; ``result``: the verdict once the ledger recorded it (or why it was not);
    ``waiting``: why the result is not shown yet (the ledger has not committed it).  Until
    then the public view carries no final reveal and no winner."""

    public: DuelPublicView
    players: tuple[str, str]
    practice: bool
    challenge: str
    result: tuple[str, ...]
    waiting: str
    leaves: bool = False
    """START now goes back to the lobby (the result has been read): the footer offers it
    only then, never during the time START is ignored (issue 30)."""


@dataclass(frozen=True, kw_only=True)
class DuelPrivate:
    """A duellist's private display: their view, the card under their cursor while
    staking, and the result line (only once it is recorded)."""

    view: DuelPlayerView
    cursor: int
    result: str
    waiting: str


@dataclass(frozen=True, kw_only=True)
class TradeTableView:
    players: tuple[str, str]
    gives: tuple[tuple[Card, ...], tuple[Card, ...]]
    confirmed: tuple[bool, bool]
    message: str


@dataclass(frozen=True, kw_only=True)
class TradePrivate:
    collection: tuple[Card, ...]
    cursor: int
    giving: frozenset[int]
    confirmed: bool
    message: str


PunchCardsTable: TypeAlias = LobbyView | DuelTable | TradeTableView | DuelPublicView
"""What Punch Cards' main screen shows: the lobby, a duel (or an exhibition duel's bare
public view, with no ledger), or a trade."""
PunchCardsPlay: TypeAlias = PlayScreen[PunchCardsTable, None]
PunchCardsPrivate: TypeAlias = PrivateScreen[DeskPrivate | DuelPrivate | TradePrivate]
