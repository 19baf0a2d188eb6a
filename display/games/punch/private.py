"""A Punch! boxer's private display: their hand (one card kind per button A–F), the
draft while it is being picked, and what the game waits for from them."""

from __future__ import annotations

from typing import TypeAlias

from PIL import Image

from display.models import PrivateScreen
from display.private import grid
from games.punch import CARDS, Card, Phase, PunchPlayerView
from games.punch.cards import HAND_SIZE

PunchPrivate: TypeAlias = PrivateScreen[PunchPlayerView]

BUTTONS = "ABCDEF"
"""The action buttons as printed on a station, one per card kind in card order."""
OLED_LABEL = {
    Card.PUNCH_1: "Punch 1",
    Card.PUNCH_2: "Punch 2",
    Card.PUNCH_3: "Punch 3",
    Card.DO_NOTHING: "Do Nothing",
    Card.BLOCK: "Block",
    Card.DODGE: "Dodge",
}
"""Card names that fit the OLED's 21-character line."""
SHORT = {
    Card.PUNCH_1: "P1",
    Card.PUNCH_2: "P2",
    Card.PUNCH_3: "P3",
    Card.DO_NOTHING: "Rest",
    Card.BLOCK: "Blk",
    Card.DODGE: "Dge",
}


def draw_punch_private(screen: PunchPrivate, size: tuple[int, int]) -> Image.Image:
    """``screen.held`` are the draft picks not yet confirmed with START."""
    v = screen.view
    pub = v.public
    title = f"Round {pub.round}  Stamina {pub.stamina[screen.seat]}"
    if pub.phase is Phase.DRAFT and v.draft_pool is not None:
        picks = screen.held
        cells = [f"{b} {SHORT[c]} {picks.count(c)}/{v.draft_pool[c.index]}" for b, c in zip(BUTTONS, CARDS)]
        footer = f"Picked {len(picks)}/10 " + ("START=ok" if len(picks) == HAND_SIZE else "START=undo")
    else:
        cells = [f"{b} {SHORT[c]} x{v.hand[c.index]}" for b, c in zip(BUTTONS, CARDS)]
        if pub.phase is Phase.REDEAL and screen.to_act:
            footer = "A=redeal START=keep" if v.redeal_offered else "START = keep hand"
        elif pub.phase is Phase.REDEAL:
            footer = "Kept: wait"
        elif v.locked_card is not None:
            footer = f"LOCKED: {OLED_LABEL[v.locked_card]}"
        elif pub.phase is Phase.OVER:
            footer = "Game over"
        else:
            footer = "Choose a card A-F"
    return grid(title, cells, footer, size)
