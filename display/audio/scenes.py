"""The cabinet's own cues: the attract loop, the menus (select, join, options), the
result's fanfare and the operator's service menu."""

from __future__ import annotations

from display.audio import kit
from display.audio.cues import Cue, Kind

CABINET_CUES = {
    "attract_loop": Cue(kind=Kind.MUSIC, recipe=lambda _s: kit.loop_music(), what="attract screen's music (a loop)"),
    "menu_move": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.blip(), what="a menu's cursor moves"),
    "menu_pick": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.confirm(), what="a game or option chosen"),
    "join": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: kit.coin(83 + kit.station_step(s) - 5),
        per_station=True,
        what="a station joins the game (its own pitch)",
    ),
    "fight": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.shout("ai", 170, 0.45), what="the game begins: a kiai"),
    "fanfare": Cue(kind=Kind.MUSIC, recipe=lambda _s: kit.fanfare(), what="the result screen: the win fanfare"),
    "no_winner": Cue(kind=Kind.MUSIC, recipe=lambda _s: kit.sting_lose(), what="the result screen: nobody won"),
    "service": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.tick(1200), what="the operator's service menu opens"),
}
"""The cabinet's scenes' cues by name."""
