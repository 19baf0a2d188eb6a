"""A Karate Fighter's private display: their pile, whose turn it is, the Hit to slap,
their own Jan Ken throw (secret until the round is revealed) and their best reaction."""

from __future__ import annotations

from typing import TypeAlias

from PIL import Image

from display.models import PrivateScreen
from display.private import text_lines
from games.karate_fight import FighterStatus, KaratePlayerView, WinReason

KaratePrivate: TypeAlias = PrivateScreen[KaratePlayerView]


def draw_karate_private(screen: KaratePrivate, size: tuple[int, int]) -> Image.Image:
    seat = screen.seat
    pv = screen.view
    v = pv.public
    me = v.fighters[seat]
    lines = [f"{screen.name or 'You'}: {me.pile_size} cards"]  # the seat's name, as on the main screen
    if v.winner is not None:
        won = "KARATE MASTER" if v.win_reason is WinReason.KARATE_MASTER else "YOU WIN ON TIME"
        lines += ["", won if v.winner == seat else "Fight over"]
    elif me.status is FighterStatus.OUT:
        lines += ["", "You are out"]
    elif v.jan_ken is not None and seat in v.jan_ken.remaining:
        lines += [
            "JAN KEN POI!",
            "B rock C paper",
            "D scissors",
            f"Locked: {pv.own_sign.value}" if pv.own_sign else "Throw now!",
        ]
    elif v.hit_showing is not None:
        lines += ["", "HIT!  SLAP!"]
    elif v.turn == seat:
        lines += ["", "Your turn:", "A = play top card"]
    else:
        lines += ["", "Watch for Hits"]
    if me.fastest_us is not None and len(lines) < 5:
        lines += [""] * (4 - len(lines)) + [f"Best {me.fastest_us / 1000:.1f} ms"]
    return text_lines(lines, 0, size)
