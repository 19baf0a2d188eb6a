"""The Punch! play screen: two boxers, their stamina and match wins, the revealed pair.
Registers Punch!'s screens (this and the private layout) with ``display.games.registry``."""

from __future__ import annotations

from typing import TypeAlias

import pygame

from display import draw, motion, theme
from display.art import Pose, Style, draw_figure
from display.canvas import Canvas, live
from display.cards import card_back, card_face
from display.models import PlayScreen
from display.text import TextCache
from display.widgets import FOOTER_Y, PLAY_TOP, banner, panel, paused_overlay, segment_bar, title_bar
from games.punch import Card, Phase, PunchPublicView, Rules
from games.punch.clash import Cause
from games.punch.events import (
    Break,
    CardChosen,
    CardsRevealed,
    GameEnded,
    Knockout,
    MatchEnded,
    MatchStarted,
    Redealt,
    RoundStarted,
    StaminaChanged,
)

PunchPlay: TypeAlias = PlayScreen[PunchPublicView, None]
"""Punch!'s play screen: the public view, no story."""

CARD_SYMBOL = {
    Card.PUNCH_1: "1",
    Card.PUNCH_2: "2",
    Card.PUNCH_3: "3",
    Card.DO_NOTHING: "0",
    Card.BLOCK: "X",
    Card.DODGE: "-/*",
}
CARD_COLOR = {
    Card.PUNCH_1: (214, 96, 40),
    Card.PUNCH_2: (200, 60, 30),
    Card.PUNCH_3: (170, 20, 20),
    Card.DO_NOTHING: (110, 110, 120),
    Card.BLOCK: (40, 90, 180),
    Card.DODGE: (30, 140, 90),
}
CAUSE_TEXT = {Cause.HIT: "hit", Cause.PUNCHED_BACK: "punched back", Cause.REST: "rests", Cause.BREAK: "break"}
BANNER_US = 1_600_000
"""How long a banner (ROUND 2, KNOCKOUT!) stays up after its event."""
POSE_US = 1_600_000
"""A boxer shows being hit, knocked out or winning this long after it happened."""


def draw_punch(surf: Canvas, text: TextCache, s: PunchPlay) -> None:
    v = s.view
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    rules = "Advanced" if v.options.rules is Rules.ADVANCED else "Standard"
    variant = rules + (" · No Mercy" if v.options.no_mercy else "")
    centre = f"Match {v.match}  ·  Round {v.round}  ·  Exchange {min(v.exchange, 10)}/10"
    title_bar(surf, text, s.title, centre, variant)

    for seat in (0, 1):
        _boxer_panel(surf, text, s, v, seat, pygame.Rect(30 if seat == 0 else w - 430, PLAY_TOP, 400, 468))

    middle = pygame.Rect(450, PLAY_TOP, w - 900, 468)
    turned, face_up = motion.flip_width(s.now_us, _revealed_at(s)) if v.last_reveal is not None else (1.0, False)
    for seat in (0, 1):
        place = pygame.Rect(0, 0, 170, 240)
        place.center = (middle.centerx + (-118 if seat == 0 else 118), middle.y + 140)
        rect = pygame.Rect(0, 0, max(4, round(place.width * turned)), place.height)
        rect.center = place.center  # a card turning over narrows to its edge and opens again
        played = _played_at(s, seat) if v.phase is Phase.EXCHANGE and v.locked[seat] else None
        if played is not None:  # laid face down: it slides in from the boxer's panel over the last pair
            start = (place.centerx + (-260 if seat == 0 else 260), place.centery + 60)
            rect = place.copy()
            rect.center = motion.slide(start, place.center, s.now_us, played)
            card_back(surf, rect, s.seats[seat].color)
        elif v.last_reveal is not None and face_up:
            card = v.last_reveal[seat]
            card_face(surf, text, rect, CARD_SYMBOL[card], card.label, CARD_COLOR[card], s.seats[seat].color)
        else:
            card_back(surf, rect, s.seats[seat].color)
        live(surf, place.inflate(8, 10), "the cards played")
    if v.last_reveal is not None:
        text.draw(surf, "VS", 48, theme.GOLD, (middle.centerx, middle.y + 140), "center", bold=True)
    for i, line in enumerate(_effect_lines(s)[:3]):
        live(surf, text.draw(surf, line, 38, theme.TEXT, (middle.centerx, middle.y + 300 + i * 44), "center"), "effect")
    _phase_hint(surf, text, s, v, h)
    _banners(surf, text, s)
    knockout = next((t for t, ev in reversed(s.events) if isinstance(ev, Knockout)), None)
    if knockout is not None:
        motion.shake_surface(surf, motion.shake(s.now_us, knockout), theme.BACKGROUND)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _played_at(s: PunchPlay, seat: int) -> int:
    """When ``seat`` laid this exchange's card face down (long ago if the events no longer say)."""
    return next(
        (t for t, ev in reversed(s.events) if isinstance(ev, CardChosen) and ev.player == seat), -motion.SLIDE_US
    )


def _revealed_at(s: PunchPlay) -> int:
    """When the cards on the table were turned over (long ago if the events no longer say)."""
    return next((t for t, ev in reversed(s.events) if isinstance(ev, CardsRevealed)), -motion.FLIP_US)


def _stamina_shown(s: PunchPlay, v: PunchPublicView, seat: int) -> float:
    """The bar's level: easing from where it stood before the last change to the stamina
    now (the number beside it is always the stamina now)."""
    changed_at, delta = None, 0
    for t, ev in reversed(s.events):
        if isinstance(ev, MatchStarted) and changed_at is None:
            return v.stamina[seat]  # a new match: the bars start full, no move
        if isinstance(ev, StaminaChanged) and ev.player == seat:
            if changed_at is None:
                changed_at = t
            elif t != changed_at:
                break
            delta += ev.delta
        elif changed_at is not None and t != changed_at:
            break
    if changed_at is None:
        return v.stamina[seat]
    return motion.tween(v.stamina[seat] - delta, v.stamina[seat], s.now_us, changed_at)


def _boxer_panel(surf: Canvas, text: TextCache, s: PunchPlay, v: PunchPublicView, seat: int, rect: pygame.Rect) -> None:
    look = s.seats[seat]
    panel(surf, rect, theme.shade(look.color, 0.28), look.color)
    live(surf, rect, f"{look.name}'s panel")
    text.draw(surf, look.name.upper(), 72, look.color, (rect.centerx, rect.y + 44), "center", True, rect.width - 24)
    needed = v.options.matches_to_win
    for i in range(needed):
        cx = rect.centerx + (i - (needed - 1) / 2) * 44
        won = i < v.match_wins[seat]
        draw.circle(surf, theme.GOLD if won else theme.shade(theme.GOLD, 0.25), (round(cx), rect.y + 96), 16)
    bar = pygame.Rect(rect.x + 36, rect.y + 128, 70, 316)
    segment_bar(surf, bar, _stamina_shown(s, v, seat), 10, theme.GOOD if v.stamina[seat] > 3 else theme.BAD)
    figure = pygame.Rect(rect.right - 128, rect.y + 120, 116, 116)
    draw_figure(surf, figure, look.color, boxer_pose(s, seat), Style.BOXER, facing_right=seat == 0)
    text.draw(surf, str(v.stamina[seat]), 150, theme.WHITE, (rect.x + 192, rect.y + 226), "center", bold=True)
    text.draw(surf, "STAMINA", 32, theme.DIM, (rect.x + 250, rect.y + 316), "center")
    text.draw(surf, f"{v.hand_sizes[seat]} cards in hand", 30, theme.DIM, (rect.x + 250, rect.y + 354), "center")
    if v.phase in (Phase.EXCHANGE, Phase.DRAFT):
        locked = v.locked[seat]
        label, color = ("LOCKED IN", theme.GOLD) if locked else ("choosing…", theme.DIM)
        text.draw(surf, label, 44, color, (rect.x + 250, rect.y + 412), "center", bold=locked)


def boxer_pose(s: PunchPlay, seat: int) -> Pose:
    """Down after being knocked out, winning after a knockout, a match or the game, hit
    just after losing stamina to a punch, ready otherwise."""
    recent = [ev for t, ev in s.events if s.now_us - t <= POSE_US]
    if any(isinstance(ev, Knockout) and ev.player == seat for ev in recent):
        return Pose.DOWN
    ended = [1 - ev.player for ev in recent if isinstance(ev, Knockout)] + [
        ev.winner for ev in recent if isinstance(ev, MatchEnded | GameEnded) and ev.winner is not None
    ]
    if ended:
        return Pose.WIN if seat in ended else Pose.HIT
    for ev in reversed(recent):  # the newest exchange only
        if isinstance(ev, CardsRevealed | MatchStarted):
            break
        if (
            isinstance(ev, StaminaChanged)
            and ev.player == seat
            and ev.cause in (Cause.HIT, Cause.PUNCHED_BACK)
            and ev.delta < 0
        ):
            return Pose.HIT
    return Pose.READY


def _effect_lines(s: PunchPlay) -> list[str]:
    """What the last reveal did, newest first, in words."""
    lines: list[str] = []
    for _t, ev in reversed(s.events):
        if isinstance(ev, CardsRevealed):
            break
        if isinstance(ev, StaminaChanged) and ev.cause is not Cause.BREAK and ev.delta:
            name = s.seats[ev.player].name
            sign = f"+{ev.delta}" if ev.delta > 0 else str(ev.delta)
            lines.append(f"{name} {CAUSE_TEXT[ev.cause]}  {sign}")
    if not lines and s.events and any(isinstance(e, CardsRevealed) for _t, e in s.events[-3:]):
        lines.append("No effect")
    return lines


def _phase_hint(surf: Canvas, text: TextCache, s: PunchPlay, v: PunchPublicView, h: int) -> None:
    w = surf.get_width()
    if v.phase is Phase.REDEAL:
        msg = "Look at your hand: START keeps it  ·  A re-deals a hand with 4 of a kind"
    elif v.phase is Phase.DRAFT:
        msg = "Draft 10 cards on your private screen: A–F add  ·  START = undo / confirm"
    elif v.phase is Phase.EXCHANGE:
        msg = "A Punch 1 · B Punch 2 · C Punch 3 · D Do Nothing · E Block · F Dodge"
    else:
        msg = ""
    if msg:
        live(surf, text.draw(surf, msg, 34, theme.DIM, (w // 2, FOOTER_Y), "center", max_width=w - 40), "key hints")


def _banners(surf: Canvas, text: TextCache, s: PunchPlay) -> None:
    """The newest banner-worthy event still within its display time, unless cards have
    been revealed since."""
    for t, ev in reversed(s.events):
        if s.now_us - t > BANNER_US or isinstance(ev, CardsRevealed):
            return  # a newer reveal replaces an older banner: the cards matter now
        message = _banner_text(s, ev)
        if message is not None:
            words, color = message
            banner(surf, text, words, color)
            return


def _banner_text(s: PunchPlay, ev: object) -> tuple[str, tuple[int, int, int]] | None:
    names = [look.name.upper() for look in s.seats]
    if isinstance(ev, GameEnded):
        return f"{names[ev.winner]} WINS THE GAME!", s.seats[ev.winner].color
    if isinstance(ev, Knockout):
        return "KNOCKOUT!", s.seats[1 - ev.player].color
    if isinstance(ev, MatchEnded):
        if ev.winner is None:
            return "DRAW — REMATCH!", theme.PANEL_EDGE
        return f"{names[ev.winner]} TAKES THE MATCH", s.seats[ev.winner].color
    if isinstance(ev, Break):
        return f"BREAK  +{ev.rest} STAMINA", theme.PANEL_EDGE
    if isinstance(ev, RoundStarted):
        return f"ROUND {ev.round}", theme.PANEL_EDGE
    if isinstance(ev, MatchStarted):
        return f"MATCH {ev.match}" + (" (REMATCH)" if ev.replay else ""), theme.PANEL_EDGE
    if isinstance(ev, Redealt):
        return f"{names[ev.player]} RE-DEALS", s.seats[ev.player].color
    return None
