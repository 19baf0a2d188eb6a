"""A Punch! boxer's private display: their hand (one card kind per button A–F, each by
the name the main screen and the cards use), the draft while it is being picked, and
what the game waits for from them."""

from __future__ import annotations

from typing import TypeAlias

from PIL import Image

from display.games.punch.screen import LEGEND
from display.models import PrivateScreen
from display.private import LINE_CHARS, card_rows
from games.punch import CARDS, Phase, PunchPlayerView
from games.punch.cards import HAND_SIZE

PunchPrivate: TypeAlias = PrivateScreen[PunchPlayerView]

BUTTONS = "ABCDEF"
"""The action buttons as printed on a station, one per card kind in card order."""


def draw_punch_private(screen: PunchPrivate, size: tuple[int, int]) -> Image.Image:
    """``screen.held`` are the draft picks not yet confirmed with START.  Each card is
    named as printed ("Do Nothing", not a nickname): the same words as the main screen's
    button legend and the card faces.  The hand lists only the cards still held, each by
    its button, from the top: a refusal's band over the foot never hides the last cards
    left (issue 30: "A Punch 1 x0 … D Do Nothing x0" and "You have no Punch 1 left" over
    the Block and Dodge still in hand, so a newcomer pressed A–D again and again)."""
    v = screen.view
    pub = v.public
    if pub.phase is Phase.DRAFT and v.draft_pool is not None:
        picks = screen.held
        rows = [(f"{b} {LEGEND[c]}", f"{picks.count(c)}/{v.draft_pool[c.index]}") for b, c in zip(BUTTONS, CARDS)]
        footer = f"Picked {len(picks)}/10 " + ("START=ok" if len(picks) == HAND_SIZE else "START=undo")
    else:
        rows = [(f"{b} {LEGEND[c]}", f"x{v.hand[c.index]}") for b, c in zip(BUTTONS, CARDS) if v.hand[c.index]]
        if pub.phase is Phase.REDEAL and screen.to_act:
            footer = "A=redeal START=keep" if v.redeal_offered else "START = keep hand"
        elif pub.phase is Phase.REDEAL:
            footer = "Kept: wait"
        elif v.locked_card is not None:
            footer = f"LOCKED: {LEGEND[v.locked_card]}"
        elif pub.phase is Phase.OVER:
            footer = "Game over"
        else:
            footer = play_footer(pub.stamina[screen.seat], [b for b, c in zip(BUTTONS, CARDS) if v.hand[c.index]])
    return card_rows(rows, footer, size)


def play_footer(stamina: int, keys: list[str]) -> str:
    """What to press: the keys of the cards still held and nothing else (issue 30: "play
    A-F" with only Do Nothing left sent a newcomer through five refused keys), as runs
    ("A-F", "B-D", "A/C-F"); the stamina before it when the row has room."""
    runs: list[list[str]] = []
    for key in keys:
        if runs and BUTTONS.index(key) == BUTTONS.index(runs[-1][-1]) + 1:
            runs[-1].append(key)
        else:
            runs.append([key])
    play = "play " + "/".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
    fits = [line for line in (f"Stamina {stamina}  {play}", f"Stamina {stamina} {play}") if len(line) <= LINE_CHARS]
    return fits[0] if fits else play
