"""A Big Time Boxing boxer's private display: his hand of four, one card per button A–D,
what the fight waits for from him and what his buttons do now.  Cards that do something
when pressed now (a punch he has the energy for, a defense against the punch thrown, a
combo card, an escape) are marked ``>``: only he sees it.

Besides the engine's view the layout draws what the station holds (:class:`Station`, in
``BigTimeBoxingPrivate.held``): the marked cards, a Move Away, Clinch or Cover Up waiting for its
card, an Attribute card waiting for START, the Attribute card under the cursor while he
picks his three.  The controls fill it in; these are its shapes."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from PIL import Image

from display.games.big_time_boxing.words import PUNCH, TRAP
from display.models import PrivateScreen
from display.private import listing
from games.big_time_boxing import CARDS, BigTimeBoxingPlayerView, Feature, Phase

BigTimeBoxingPrivate: TypeAlias = PrivateScreen[BigTimeBoxingPlayerView]


class Mode(Enum):
    """What the next card pressed does, once E or F has been pressed on a turn."""

    MOVE_AWAY = "move_away"
    SAVE = "save"
    CLINCH = "clinch"
    COVER_UP = "cover_up"
    ATTRIBUTE = "attribute"


@dataclass(frozen=True)
class Held:
    """A turn half chosen at the station (E or F pressed; a card, or START for an
    Attribute card, still to come)."""

    mode: Mode
    attribute: int | None = None


@dataclass(frozen=True)
class Station:
    """What a boxer's station holds beyond the engine's view of him."""

    live: frozenset[int] = frozenset()
    """Cards whose button does something now (marked ``>``)."""
    held: Held | None = None
    browsing: int | None = None
    """The Attribute card under his cursor while he picks (the draft)."""


BUTTONS = "ABCD"
PUNCH_OLED = {"Jab": "Jab", "Cross": "Cross", "Hook": "Hook", "Uppercut": "Upper", "Body Blow": "Body"}
FEATURE_OLED = {
    Feature.JUDGE_POINT: "Judge point",
    Feature.COMBO_A: "1-2 combo",
    Feature.COMBO_B: "Close combo",
    Feature.COMBO_AB: "Any combo",
    Feature.JC_DEFENSE: "Stops long",
    Feature.HUB_DEFENSE: "Stops close",
    Feature.ESCAPE_ROPES: "Exit ropes",
    Feature.ESCAPE_CORNER: "Exit corner",
}
"""The ring's feature names (:data:`FEATURE`) in plain words that fit a 21-character OLED
line beside the button, punch and cost (11 characters): no clipped letters ("Def Hk/Up/B",
"Esc Ropes", "In Combo") a new player has to look up.  A defense says the punches it stops
by their reach, as the window asking for it does ("DEFEND HOOK (CLOSE)?"): long, the Jab
and Cross thrown from the Outside; close, the Hook, Uppercut and Body Blow thrown from
the Inside (the rulebook's J/C and H/U/B).  The inside combo is the close one."""
REACH = {True: "LONG", False: "CLOSE"}
"""A punch's reach by :attr:`Punch.outside`, as its defense card names it."""
MODE_TITLES = {
    Mode.MOVE_AWAY: "MOVE AWAY: discard?",
    Mode.SAVE: "SAVE FOR LATER: card?",
    Mode.CLINCH: "CLINCH: discard?",
    Mode.COVER_UP: "COVER UP: discard?",
}
MODE_FOOTERS = {
    Mode.MOVE_AWAY: "E again: save / back",
    Mode.SAVE: "E again: back",
    Mode.CLINCH: "F again: next / back",
    Mode.COVER_UP: "F again: back",
}


def card_line(button: str, card_id: int, marked: bool) -> str:
    """'A>Hook  2 H/U/B Def': button, mark, punch, cost, feature (≤ 21 characters)."""
    card = CARDS.boxers[card_id]
    return (
        f"{button}{'>' if marked else ' '}{PUNCH_OLED[PUNCH[card.punch]]:<5} {card.cost} {FEATURE_OLED[card.feature]}"
    )


def draw_big_time_boxing_private(screen: BigTimeBoxingPrivate, size: tuple[int, int]) -> Image.Image:
    v = screen.view
    pub = v.public
    seat = screen.seat
    me = pub.boxers[seat]
    station = screen.held[0] if screen.held else Station()
    if pub.phase is Phase.DRAFT:
        return _draft(v, station, size)
    answering = screen.to_act and pub.phase.window is not None
    rows = [card_line(BUTTONS[i], c, c in station.live) for i, c in enumerate(v.hand)]
    saved = ""
    if v.saved is not None:
        key = "E" if answering else "S"
        saved = card_line(key, v.saved, v.saved in station.live) if v.saved_playable else "Saved: next round"
    if pub.phase is Phase.OVER:
        title = "YOU WIN!" if pub.winner == seat else ("A DRAW" if pub.winner is None else "FIGHT OVER")
        return listing(title, rows, f"Round {pub.round}", size)
    if not screen.to_act:
        title = "OTHER BOXER'S TURN" if pub.phase is Phase.TURN else "OTHER BOXER ANSWERS"
        return listing(title, rows, saved or f"Energy {me.round_energy}/{me.round_start_energy}", size)
    if answering:
        title, footer = _window_words(v)
        return listing(title, rows, saved or footer, size)
    held = station.held
    if held is not None and held.mode is Mode.ATTRIBUTE and held.attribute is not None:
        card = CARDS.attributes[held.attribute]
        return listing(f"USE {card.name.upper()}?"[:21], textwrap.wrap(card.text, 21)[:4], "START use  F next", size)
    if held is not None:
        return listing(MODE_TITLES[held.mode], rows, saved or MODE_FOOTERS[held.mode], size)
    if me.round_energy == 0:
        return listing("ENERGY 0: COVER UP", rows, saved or "F then a card", size)
    footer = "E Move Away" + ("  F Clinch" if me.round_energy <= 2 else "")
    return listing(f"YOUR TURN  Energy {me.round_energy}", rows, saved or footer, size)


def _window_words(v: BigTimeBoxingPlayerView) -> tuple[str, str]:
    pub = v.public
    if pub.phase is Phase.COMBO:
        return f"COMBO after {PUNCH_OLED[PUNCH[pub.thrown[0].punch]].upper()}?", "START = no combo"
    if pub.phase is Phase.ESCAPE and pub.trap is not None:
        return f"ESCAPE {TRAP[pub.trap].upper()}?", "START = stay"
    if pub.window_punch is None:
        return "DEFEND THE PUNCH?", "START = let it land"
    punch = PUNCH_OLED[PUNCH[pub.window_punch]].upper()
    if pub.phase is Phase.TRAPPED_RESPONSE:
        return f"TRAP: DEFEND {punch}?", "START = let it land"
    return f"DEFEND {punch} ({REACH[pub.window_punch.outside]})?", "START = let it land"


def _draft(v: BigTimeBoxingPlayerView, station: Station, size: tuple[int, int]) -> Image.Image:
    pub = v.public
    mine = [CARDS.attributes[a].name for a in pub.boxers[v.player].attributes]
    if pub.drafting != v.player or station.browsing is None:
        return listing("OTHER BOXER PICKS", mine or ["(no card yet)"], "Attribute cards", size)
    card = CARDS.attributes[station.browsing]
    use = card.use.value.replace("_", " ")
    lines = [card.name[:21], *textwrap.wrap(f"({use}) {card.text}", 21)[:3]]
    return listing(f"PICK CARD {len(mine) + 1} of 3", lines, "A/B browse START pick", size)
