"""The Big Time Boxing ring: where both boxers stand, each boxer's player board (Round and
Fight Energy, Health dice and Damage, Judge Points, injuries, knockdowns, warnings), the
cards of the last play shown big one after another as they are drawn, the open window
with its countdown, the round scores after each round, and the score sheet at the end."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TypeAlias

import pygame

from display import behind, draw, motion, theme
from display.art import Pose, Style, draw_figure
from display.canvas import Canvas, live, segment
from display.cards import card_face
from display.games.big_time_boxing.words import (
    BIG_HIT,
    COLUMN,
    FEATURE,
    FINISH,
    FINISH_SHORT,
    INJURY,
    PUNCH,
    TRAP,
    WINDOW,
)
from display.layout import MIN_SIZE
from display.memo import per_model, per_story
from display.models import PlayScreen, ResultScreen, StationLook
from display.text import TextCache
from display.widgets import PLAY_TOP, banner, panel, paused_overlay, seat_name, title_bar
from games.big_time_boxing import (
    CARDS,
    AttributeDraw,
    BigHit,
    BigHitDrawn,
    BigTimeBoxingPublicView,
    BoxerStatus,
    Clinched,
    Column,
    Count,
    CoveredUp,
    DamageTaken,
    Defended,
    EnergyChanged,
    Escaped,
    Feature,
    FightEnded,
    GotUp,
    KnockedDown,
    MovedAway,
    Phase,
    Position,
    Punch,
    PunchThrown,
    ResultDrawn,
    RoundScored,
    RoundStarted,
    Trap,
    Trapped,
    Window,
    WindowOpened,
)
from games.levels import Level

BigTimeBoxingResult: TypeAlias = ResultScreen[BigTimeBoxingPublicView, None]
"""Big Time Boxing's result: its score sheet is drawn from the final play screen."""

BigTimeBoxingPlay: TypeAlias = PlayScreen[BigTimeBoxingPublicView, None]
"""Big Time Boxing's play screen: the public view, no story."""

Color = tuple[int, int, int]

STAGGER_US = 700_000
"""Cards drawn together are turned over one after another, this far apart (the play that
ends the fight too: the cabinet keeps its screen up until it is told, :func:`told_by`)."""
READ_US = STAGGER_US
"""A card turned over is read this long before what it decided is said (a knockdown, the
fight's end): the decisive reveal first, then its consequence; and what was said is read
this long before the screen moves on to a quicker boxer's next play (:func:`told`)."""
BANNER_US = 1_800_000
ROUND_SCORE_US = 4_500_000
"""How long the round's score stays up after the bell."""
HURT_US = 900_000
"""A boxer reels this long after a punch of 2 or more lands on him."""
DOWN_US = 1_500_000
"""A knocked-down boxer lies on the canvas at least this long, even if he gets up at once."""
BOXER = 84
"""A boxer's figure on the ring strip: a square standing on the canvas."""

PUNCH_COLOR: dict[Punch, Color] = {
    Punch.JAB: (40, 110, 190),
    Punch.CROSS: (30, 140, 100),
    Punch.HOOK: (190, 40, 30),
    Punch.UPPERCUT: (140, 60, 170),
    Punch.BODY_BLOW: (200, 120, 20),
}
RESULT_COLOR: tuple[Color, ...] = ((105, 105, 118), (176, 112, 18), (200, 66, 26), (160, 15, 25))
"""A punch result of 0, 1, 2 and 3 (a Big Hit)."""
HEALTH_GREEN = (56, 150, 64)
DAMAGE_RED = (196, 38, 38)
INJURY_RED = (170, 30, 40)

AREAS = (Position.IN_THE_CORNER, Position.ON_THE_ROPES, Position.OUTSIDE, Position.INSIDE)
"""A boxer's areas on the Ring board, from his corner to the middle of the ring."""
AREA_LABEL = {
    Position.IN_THE_CORNER: "CORNER",
    Position.ON_THE_ROPES: "ROPES",
    Position.OUTSIDE: "OUTSIDE",
    Position.INSIDE: "INSIDE",
}

RING = pygame.Rect(20, PLAY_TOP, 1240, 96)
PANELS = (pygame.Rect(20, RING.bottom + 8, 400, 412), pygame.Rect(860, RING.bottom + 8, 400, 412))
CENTRE = pygame.Rect(432, RING.bottom + 8, 416, 404)
HINTS_Y = 688


def draw_big_time_boxing(surf: Canvas, text: TextCache, now: BigTimeBoxingPlay) -> None:
    s = told(now)  # the stage, the banners and the poses tell the story as far as it has been told
    v = s.view  # the fight as it stands: what is asked now is never behind
    surf.fill(theme.BACKGROUND)
    untold = [ev for _t, ev in now.events[len(s.events) :]] + [ev for t, ev in said_at(s) if t > s.now_us]
    rounds_later = sum(isinstance(ev, RoundStarted) for ev in untold)
    title_bar(surf, text, s.title, _round_words(v, rounds_later), _variant(v))
    _ring(surf, text, s, v)
    for seat in (0, 1):
        _board(surf, text, s, v, seat, PANELS[seat])
    _centre(surf, text, s, now, v)
    _hints(surf, text, s, v)
    _banner(surf, text, s)
    down = next((t for t, ev in reversed(said_at(s)) if isinstance(ev, KnockedDown)), None)
    if down is not None:  # the knockdown, as it is told, shakes the ring (only the ring: the boards stay still to read)
        motion.shake_area(surf, RING.inflate(8, 8), motion.shake(s.now_us, down, 10), theme.BACKGROUND)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _round_words(v: BigTimeBoxingPublicView, rounds_later: int) -> str:
    """The round being told (``rounds_later``: rounds begun that the screen has not said yet:
    the title says Round 2 with the ROUND 2 banner, not over round 1's last card)."""
    if v.phase is Phase.DRAFT:
        return "Attribute cards"
    return f"Round {v.round - rounds_later} of {v.options.rounds}"


def _variant(v: BigTimeBoxingPublicView) -> str:
    o = v.options
    words = [
        name
        for name, on in (
            ("Thinky", o.thinky),
            ("Attributes", o.attributes is not AttributeDraw.OFF),
            ("Sketchy Judges", o.sketchy_judges),
            ("Saving", o.saving_for_later),
        )
        if on
    ]
    return " · ".join(words[:2])


# -- the ring ----------------------------------------------------------------------------
def area_rect(seat: int, position: Position) -> pygame.Rect:
    """Where ``seat``'s area is on the ring strip: boxer 0's corner far left, boxer 1's far right."""
    width = RING.width // 8
    i = AREAS.index(position)
    col = i if seat == 0 else 7 - i
    return pygame.Rect(RING.x + col * width, RING.y, width, RING.height)


def _ring(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, v: BigTimeBoxingPublicView) -> None:
    _ring_floor(surf, tuple(look.color for look in s.seats[:2]))
    for seat in (0, 1):
        look = s.seats[seat]
        rect = area_rect(seat, v.boxers[seat].position)
        turn = v.phase is Phase.TURN and v.active == seat
        floor = pygame.Rect(0, 0, BOXER, 14)
        floor.midbottom = (rect.centerx, RING.bottom - 4)
        draw.ellipse(surf, theme.GOLD if turn else theme.shade(look.color, 0.6), floor)
        box = pygame.Rect(0, 0, BOXER, BOXER)
        box.midbottom = (rect.centerx, RING.bottom - 2)
        draw_figure(surf, box, look.color, boxer_pose(s, v, seat), Style.BOXER, facing_right=seat == 0)
    _ring_labels(surf, text)  # the areas' names over the boxers: a raised glove never hides them
    live(surf, RING, "the ring")


@segment
def _ring_floor(surf: Canvas, colors: tuple[Color, ...]) -> None:
    """The ring strip: each boxer's areas in his colour, the centre line, the ropes."""
    draw.rect(surf, (34, 30, 28), RING, border_radius=10)
    for seat, color in enumerate(colors):
        for position in AREAS:
            rect = area_rect(seat, position).inflate(-6, -6)
            dim = 0.18 if position in (Position.IN_THE_CORNER, Position.ON_THE_ROPES) else 0.3
            draw.rect(surf, theme.shade(color, dim), rect, border_radius=8)
    draw.line(surf, theme.GOLD, (RING.centerx, RING.y + 4), (RING.centerx, RING.bottom - 4), 3)
    draw.rect(surf, (200, 200, 210), RING, width=3, border_radius=10)  # the ropes


@segment
def _ring_labels(surf: Canvas, text: TextCache) -> None:
    for seat in (0, 1):
        for position in AREAS:
            rect = area_rect(seat, position).inflate(-6, -6)
            text.draw(surf, AREA_LABEL[position], 28, theme.DIM, (rect.centerx, rect.y + 14), "center", bold=True)


def boxer_pose(s: BigTimeBoxingPlay, v: BigTimeBoxingPublicView, seat: int) -> Pose:
    """Winning at the end (the loser down after a knockout, hit after a decision), down
    from a knockdown until he gets up, reeling just after a punch of 2 or more lands."""
    if v.phase is Phase.OVER and fight_end_said(s):
        if v.winner is None:
            return Pose.READY
        if v.winner == seat:
            return Pose.WIN
        return (
            Pose.DOWN if any(isinstance(e, KnockedDown) and e.player == seat for _t, e in s.events[-6:]) else Pose.HIT
        )
    got_up = False
    for t, ev in reversed(_posing(s)):
        if t > s.now_us:
            continue
        if isinstance(ev, GotUp) and ev.player == seat:
            got_up = True
        if isinstance(ev, KnockedDown) and ev.player == seat:
            # down for the count: seen on the canvas a moment even when he is up at once
            return Pose.DOWN if not got_up or s.now_us - t < DOWN_US else Pose.READY
        if isinstance(ev, RoundStarted):
            return Pose.READY
        if s.now_us - t <= HURT_US and isinstance(ev, ResultDrawn) and ev.value >= 2 and ev.puncher != seat:
            return Pose.HIT
    return Pose.READY


@per_story
def _posing(s: BigTimeBoxingPlay) -> list[tuple[int, object]]:
    """:func:`said_at`'s events a pose is taken from (what :func:`boxer_pose` looks back through)."""
    return [(t, ev) for t, ev in said_at(s) if isinstance(ev, GotUp | KnockedDown | RoundStarted | ResultDrawn)]


@per_story
def _energy_events(s: BigTimeBoxingPlay) -> list[tuple[int, object]]:
    """The events a Round Energy bar eases by (what :func:`_energy_shown` looks back through)."""
    return [(t, ev) for t, ev in s.events if isinstance(ev, RoundStarted | EnergyChanged)]


def _energy_shown(s: BigTimeBoxingPlay, seat: int, energy: int) -> float:
    """The Round Energy the bar shows: easing from the level before the boxer's newest
    change to the level now (no move across a new round's refill)."""
    latest: int | None = None
    for t, ev in reversed(_energy_events(s)):
        if isinstance(ev, RoundStarted):
            return energy
        if isinstance(ev, EnergyChanged) and ev.player == seat:
            if latest is None:
                latest = t
            else:
                return motion.tween(ev.round_energy, energy, s.now_us, latest)
    return energy


def _hurt(s: BigTimeBoxingPlay, seat: int) -> float:
    """How bright the Damage die flashes: just after the boxer took damage."""
    for t, ev in reversed(s.events):
        if isinstance(ev, DamageTaken) and ev.player == seat:
            return motion.flash(s.now_us, t)
    return 0.0


# -- a boxer's player board ----------------------------------------------------------------
def _board(
    surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, v: BigTimeBoxingPublicView, seat: int, rect: pygame.Rect
) -> None:
    look = s.seats[seat]
    b = v.boxers[seat]
    acting = (v.phase is Phase.TURN and v.active == seat) or v.window_player == seat
    tag = "TURN" if v.phase is Phase.TURN and v.active == seat else ("ANSWER" if v.window_player == seat else "")
    _board_top(surf, text, look, rect, acting, tag, b.round_energy, b.round_start_energy)
    live(surf, rect, f"{look.name}'s board")
    x, w = rect.x + 20, rect.width - 40
    bar = pygame.Rect(x, rect.y + 96 * rect.height // 436, w, 26)
    energy_bar(surf, bar, _energy_shown(s, seat, b.round_energy), b.round_start_energy)
    _board_rest(surf, text, look, rect, b, _hurt(s, seat) if b.damage else 0.0)


def _row(rect: pygame.Rect, n: int) -> int:
    """A board row drawn for 436 units high, at this board's height."""
    return rect.y + n * rect.height // 436


@segment
def _board_top(
    surf: Canvas,
    text: TextCache,
    look: StationLook,
    rect: pygame.Rect,
    acting: bool,
    tag: str,
    energy: int,
    start_energy: int,
) -> None:
    """A boxer's board, his name, whose turn it is, and his Round Energy in figures (a
    segment: drawn once for them)."""
    panel(surf, rect, theme.shade(look.color, 0.22), theme.GOLD if acting else look.color)
    x, w = rect.x + 20, rect.width - 40
    row = functools.partial(_row, rect)
    room = w - 170  # the TURN/ANSWER chip's place, kept free when it is not shown: the name does not jump
    name = seat_name(surf, text, look.name.upper(), 50, room)
    text.draw_fitted(surf, name, 50, look.color, (x, row(30)), room, "midleft", bold=True)
    if tag:
        chip(surf, text, tag, theme.GOLD, (x + w, row(30)), "midright", ink=theme.BACKGROUND)

    # Round Energy: the figure that matters most, with a bar of the round's energy.
    text.draw(surf, "ROUND ENERGY", 28, theme.DIM, (x, row(74)), "midleft", bold=True)
    text.draw(surf, f"{energy}/{start_energy}", 48, theme.WHITE, (x + w, row(74)), "midright", bold=True)


def _board_rest(
    surf: Canvas, text: TextCache, look: StationLook, rect: pygame.Rect, b: BoxerStatus, hurt: float
) -> None:
    """The board under the energy bar: energies, dice (the Damage die flashing by
    ``hurt``), judge points, chips, rounds and attribute cards: three segments, so the
    die's flash re-records and repaints the die alone, not the whole board."""
    _board_dice(surf, text, rect, b.fight_energy, b.health_dice)
    if b.damage:
        _damage_die(surf, text, look.color, rect, b.damage, hurt)
    _board_marks(surf, text, rect, b)


@segment
def _board_dice(
    surf: Canvas, text: TextCache, rect: pygame.Rect, fight_energy: int, health_dice: tuple[int, ...]
) -> None:
    """Fight Energy, the dice's names and the Health dice (a segment)."""
    x, w = rect.x + 20, rect.width - 40
    row = functools.partial(_row, rect)
    text.draw(surf, "FIGHT ENERGY", 28, theme.DIM, (x, row(146)), "midleft", bold=True)
    text.draw(surf, str(fight_energy), 40, theme.WHITE, (x + w, row(146)), "midright", bold=True)

    # what each die is, in words: Health is what is left for the fight, Damage what this round took
    # (named as ROUND ENERGY above it is: this round's)
    text.draw(surf, "HEALTH LEFT", 28, theme.DIM, (x, row(178)), "midleft", bold=True)
    text.draw(surf, "ROUND DAMAGE", 28, theme.DIM, (x + w, row(178)), "midright", bold=True)
    for i, die in enumerate(health_dice):
        dice(surf, text, pygame.Rect(x + i * 62, row(194), 54, 54), str(die), HEALTH_GREEN)
    if not health_dice:
        text.draw(surf, "0 — in danger", 32, theme.BAD, (x, row(221)), "midleft", bold=True)


@segment
def _damage_die(surf: Canvas, text: TextCache, color: Color, rect: pygame.Rect, damage: int, hurt: float) -> None:
    """The Damage die, flashing by ``hurt`` as the damage lands (a segment)."""
    x, w = rect.x + 20, rect.width - 40
    damage_die = pygame.Rect(x + w - 54, _row(rect, 194), 54, 54)
    if hurt > 0:
        draw.rect(
            surf, motion.mix(theme.shade(color, 0.22), theme.WHITE, hurt), damage_die.inflate(14, 14), border_radius=12
        )
    dice(surf, text, damage_die, str(damage), DAMAGE_RED)


@segment
def _board_marks(surf: Canvas, text: TextCache, rect: pygame.Rect, b: BoxerStatus) -> None:
    """Judge points, chips, rounds and attribute cards (a segment)."""
    x, w = rect.x + 20, rect.width - 40
    row = functools.partial(_row, rect)
    text.draw(surf, "JUDGE POINTS", 28, theme.DIM, (x, row(270)), "midleft", bold=True)
    for i in range(6):
        centre = (x + w - 12 - (5 - i) * 32, row(270))
        lit = i < b.judge_points
        draw.circle(surf, theme.GOLD if lit else theme.shade(theme.GOLD, 0.25), centre, 12)

    chips: list[tuple[str, Color]] = [(INJURY[i], INJURY_RED) for i in b.injuries]  # the rulebook's names
    if b.knockdowns:
        chips.append((f"Down ×{b.knockdowns}", (210, 90, 20)))
    if b.warnings:
        fouls = b.warnings - 1
        chips.append(("Warning" if not fouls else f"Fouls ×{fouls}", (150, 120, 20) if not fouls else theme.BAD))
    if b.has_saved:
        chips.append(("1 card saved", (70, 90, 120)))
    cx, cy = x, row(306)
    for words, color in chips:  # in words, so a second row when they do not fit one
        width = text.measure(surf, words, 28, bold=True)[0] + 16
        if cx > x and cx + width > x + w:
            cx, cy = x, row(340)
        cx = chip(surf, text, words, color, (cx, cy), "midleft").right + 8

    line = row(374) if cy > row(306) else row(346)
    cards = f"hand {b.hand_size} · deck {b.deck_size}"
    told = text.draw(surf, cards, 28, theme.DIM, (x + w, line), "midright", max_width=w - 194)
    text.draw(surf, round_scores(b.round_scores), 28, theme.TEXT, (x, line), "midleft", max_width=told.x - x - 10)
    if b.attributes:
        names = [CARDS.attributes[a].name for a in b.attributes]
        spent = set(b.attributes_spent)
        ax = x
        for a, name in zip(b.attributes, names, strict=True):
            color = theme.shade(theme.DIM, 0.6) if a in spent else theme.GOLD
            ax = text.draw(surf, name, 22, color, (ax, row(406)), "midleft").right + 12


def round_scores(scores: tuple[int, ...]) -> str:
    """The board's round scores, the last three (readable in a 12-round fight too; the
    sheet has all), each apart from the next: "Rounds: 10 · 9 · 10", not "10 9 10"."""
    recent = " · ".join(str(n) for n in scores[-3:]) or "—"
    return f"Rounds: {'… ' if len(scores) > 3 else ''}{recent}"


def chip(
    surf: Canvas,
    text: TextCache,
    words: str,
    color: Color,
    pos: tuple[int, int],
    anchor: str,
    ink: Color = theme.WHITE,
) -> pygame.Rect:
    """A tile like the printed game's counters: bold words on a coloured rounded box."""
    box = pygame.Rect((0, 0), text.measure(surf, words, 28, bold=True)).inflate(16, 8)
    setattr(box, anchor, pos)
    draw.rect(surf, color, box, border_radius=6)
    text.draw(surf, words, 28, ink, box.center, "center", bold=True)
    return box


def dice(surf: Canvas, text: TextCache, rect: pygame.Rect, value: str, color: Color) -> None:
    draw.rect(surf, color, rect, border_radius=9)
    draw.rect(surf, theme.shade(color, 1.4), rect, width=2, border_radius=9)
    text.draw(surf, value, 38, theme.WHITE, rect.center, "center", bold=True)


@segment
def energy_bar(surf: Canvas, rect: pygame.Rect, energy: float, top: int) -> None:
    """One block per point of the round's energy, lit up to what is left (a block part
    lit while the bar moves)."""
    n = max(1, top)
    gap = 3 if n <= 16 else 2
    width = (rect.width - gap * (n - 1)) / n
    color = theme.GOOD if energy > 2 else (theme.GOLD if energy > 0 else theme.BAD)
    for i in range(n):
        block = pygame.Rect(round(rect.x + i * (width + gap)), rect.y, max(1, round(width)), rect.height)
        lit = min(1.0, energy - i)
        if lit < 1:  # spent, or being spent while the bar moves
            draw.rect(surf, theme.shade(theme.DIM, 0.3), block, border_radius=3)
        if lit > 0:
            block.width = max(1, round(block.width * lit))
            draw.rect(surf, color, block, border_radius=3)


# -- the centre: what is asked now and the cards on the table --------------------------------
@dataclass(frozen=True)
class Shown:
    """One card of the last play, as the stage shows it."""

    big: str
    label: str
    color: Color
    edge: Color
    chip: str
    note: str = ""
    """Said under the card when it is the play's only card."""
    seat: int | None = None
    """Whose card it is: it slides in from that boxer's side (None: turned up in place)."""


def _centre(
    surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, now: BigTimeBoxingPlay, v: BigTimeBoxingPublicView
) -> None:
    """What is asked now (``now``: the present, however far behind the story ``s`` is), and
    the stage: the round's score or the cards of the last play told."""
    head = pygame.Rect(CENTRE.x, CENTRE.y, CENTRE.width, 70)
    panel(surf, head, theme.PANEL, theme.PANEL_EDGE, 12)
    words, color, left = _asked(s, now, v)
    _head(surf, text, s, head, words, color, left, v.options.answer_us)
    live(surf, head, "what the fight waits for")
    stage = pygame.Rect(CENTRE.x, head.bottom + 8, CENTRE.width, CENTRE.height - head.height - 8)
    if not _round_score(surf, text, s, stage):
        _stage(surf, text, s, stage)


def _head(
    surf: Canvas,
    text: TextCache,
    s: BigTimeBoxingPlay,
    head: pygame.Rect,
    words: str,
    color: Color,
    left: int | None,
    answer_us: int,
) -> None:
    """What is asked (:func:`_asked`) in the centre's head: a window's words on the left
    (who above, what below, when too long for one readable line), its seconds left and
    their bar; else the words centred."""
    if left is not None:
        size = text.fitting_size(words, head.width - 90, 34)
        who = next((look.name.upper() for look in s.seats if words.startswith(look.name.upper() + " ")), "")
        asked = words[len(who) :].strip()
        if size < MIN_SIZE and who:  # too long for one readable line: who above, what below
            width = head.width - 90
            text.draw(
                surf, who, text.fitting_size(who, width, 28), color, (head.x + 14, head.y + 16), "midleft", bold=True
            )
            text.draw(
                surf,
                asked,
                text.fitting_size(asked, width, 28),
                theme.TEXT,
                (head.x + 14, head.y + 40),
                "midleft",
                True,
            )
        else:
            text.draw(surf, words, size, color, (head.x + 14, head.y + 28), "midleft", bold=True)
        seconds = -(-left // 1_000_000)
        text.draw(surf, str(seconds), 52, theme.GOLD, (head.right - 16, head.y + 30), "midright", bold=True)
        share = max(0.0, min(1.0, left / answer_us))
        bar = pygame.Rect(head.x + 10, head.bottom - 14, round((head.width - 20) * share), 8)
        draw.rect(surf, theme.GOLD, bar, border_radius=4)
    else:
        size = text.fitting_size(words, head.width - 24, 34)
        text.draw(surf, words, size, color, head.center, "center", bold=True)


PICKS = "{} PICKS AN ATTRIBUTE"
TURN = "{}'S TURN"
CHOOSES_A_CARD = "{} chooses a card…"
CHOOSES = "{} chooses…"
"""What the head and the key hints say of a boxer by name (his name in capitals in the head)."""


def _window_said(name: str, window: Window, trap: Trap | None, punch: Punch | None) -> str:
    """The head's words while ``window`` is open to the boxer ``name``d."""
    about = ""
    if window is Window.ESCAPE and trap is not None:
        about = f" {TRAP[trap]}"
    elif punch is not None and window is not Window.COMBO:
        about = f": {PUNCH[punch]}"
    return f"{name} {WINDOW[window]}{about}"


def _asked(s: BigTimeBoxingPlay, now: BigTimeBoxingPlay, v: BigTimeBoxingPublicView) -> tuple[str, Color, int | None]:
    """What the fight waits for, in whose colour, and the µs its window has left (timed
    from ``now``'s events: the window is the present's, whatever the story tells)."""
    names = [look.name.upper() for look in s.seats]
    if v.phase is Phase.OVER and not fight_end_said(s):
        return "THE DECIDING CARDS…", theme.GOLD, None
    if v.phase is Phase.OVER:
        finish = FINISH_SHORT[v.finish] if v.finish else ""
        who = "DRAW" if v.winner is None else f"{names[v.winner]} WINS"
        return f"{who} — {finish}" if v.winner is not None else finish, theme.GOLD, None
    if v.phase is Phase.DRAFT:
        seat = v.drafting if v.drafting is not None else v.active
        return PICKS.format(names[seat]), s.seats[seat].color, None
    if v.phase is Phase.TURN:
        return TURN.format(names[v.active]), s.seats[v.active].color, None
    seat = v.window_player if v.window_player is not None else v.active
    window = v.phase.window
    assert window is not None
    words = _window_said(names[seat], window, v.trap, v.window_punch)
    opened = next((t for t, e in reversed(now.events) if isinstance(e, WindowOpened)), None)
    left = None if opened is None else max(0, v.options.answer_us - (s.now_us - opened))
    return words, s.seats[seat].color, left


@per_story
def said_at(s: BigTimeBoxingPlay) -> list[tuple[int, object]]:
    """The events with the time the screen says them: in the newest play that put cards
    on the table, what follows a card (a knockdown, the count's end, the fight's end)
    once that card has turned over and been read (:data:`READ_US`); the rest at once."""
    at, cards = last_play(s)
    step = STAGGER_US
    out: list[tuple[int, object]] = []
    turned = 0
    for t, ev in s.events:
        if cards and t == at:
            if shown_card(s, ev) is not None:
                turned += 1
            elif turned:
                t = at + (turned - 1) * step + READ_US
        out.append((t, ev))
    return out


CONSEQUENCES = (KnockedDown, FightEnded, Trapped, Escaped, RoundScored, RoundStarted)
"""What a card can decide that the screen says after it: a banner, the round's score."""


@per_model
def told(s: BigTimeBoxingPlay) -> BigTimeBoxingPlay:
    """The screen's story, behind the game when it must be (:mod:`display.behind`, as
    Punch!'s): ``s`` with its events cut after the oldest play whose consequences are not
    told yet.  A boxer quicker than the read time (the HIL boxer throws 400 ms after the
    block that ends a round) plays on; the stage keeps that play's cards until the last
    has been read, says what they decided (ROUND n, the round's score, KNOCKDOWN!), lets
    that be read for :data:`READ_US`, then shows the present.  The public view stays the
    present one: what is asked now, and the boards, are never behind."""
    moment = behind.telling(s, _deciding_moments(s))
    if moment is None:
        return s
    # the moments are the story's (whatever the time): its cut events, on the screen now
    cut = moment.screen.events
    return s if cut == s.events else replace(s, events=cut)


def told_by(s: BigTimeBoxingPlay) -> int | None:
    """When the screen has told all of ``s``'s story (None: nothing to tell): the cabinet
    keeps a finished fight's screen up until then (its deciding cards, then who won)."""
    return behind.told_by(_deciding_moments(s))


def told_times(s: BigTimeBoxingPlay) -> list[int]:
    """When the screen tells each of ``s``'s events (game time): the cabinet's sound plays
    an event's cue then (a knockdown's thud with its banner, the count as its card turns)."""
    return behind.told_times(s, _deciding_moments(s), _shown_at)


def _shown_at(s: BigTimeBoxingPlay) -> list[tuple[int, object]]:
    """:func:`said_at`, with each card of the newest play at the time the stage turns it
    over (:func:`_stage`: one every :data:`STAGGER_US`): a Big Hit's gasp comes with its card."""
    at, cards = last_play(s)
    out: list[tuple[int, object]] = []
    turned = 0
    for (t, ev), said in zip(s.events, said_at(s), strict=True):
        if cards and t == at and shown_card(s, ev) is not None:
            said = (at + turned * STAGGER_US, ev)
            turned += 1
        out.append(said)
    return out


@per_story
def _deciding_moments(s: BigTimeBoxingPlay) -> list[behind.Moment[BigTimeBoxingPlay]]:
    """Each play whose cards decided something said after them (:data:`CONSEQUENCES`)."""
    return behind.deciding_moments(
        s,
        lambda ev: shown_card(s, ev) is not None,
        lambda play: any(isinstance(e, CONSEQUENCES) for _t, e in play[1:]),
        _consequences_read,
    )


def _consequences_read(moment: BigTimeBoxingPlay) -> int | None:
    """When what the moment's play decided has been said and read (None: it said nothing)."""
    at, _cards = last_play(moment)
    said = [
        t
        for (t, ev), (u, _e) in zip(said_at(moment), moment.events, strict=True)
        if u == at and isinstance(ev, CONSEQUENCES)
    ]
    return max(said) + READ_US if said else None


def fight_end_said(s: BigTimeBoxingPlay) -> bool:
    """The fight's end has been said on screen (its deciding cards read first)."""
    return any(isinstance(ev, FightEnded) and t <= s.now_us for t, ev in said_at(s))


@per_story
def last_play(s: BigTimeBoxingPlay) -> tuple[int, list[Shown]]:
    """The cards of the newest play that put any on the table, and when it was made."""
    found: list[Shown] = []
    at: int | None = None
    for t, ev in reversed(s.events):
        if at is not None and t != at:
            break
        shown = shown_card(s, ev)
        if shown is not None:
            at = t
            found.append(shown)
    return (at or 0), found[::-1]


def shown_card(s: BigTimeBoxingPlay, ev: object) -> Shown | None:
    """How the stage shows a card of ``ev``: a punch thrown, a defense, a Result card
    read for a punch, a Big Hit, a count or a clinch, a card discarded."""
    look = s.seats
    if isinstance(ev, PunchThrown):
        card = CARDS.boxers[ev.card]
        note = _throws(look[ev.player].name, card.cost, ev.combo)
        return Shown(
            PUNCH[ev.punch].upper(),
            FEATURE[card.feature],
            PUNCH_COLOR[ev.punch],
            look[ev.player].color,
            PUNCH[ev.punch],
            note,
            ev.player,
        )
    if isinstance(ev, Defended):
        card = CARDS.boxers[ev.card]
        label = f"{PUNCH[card.punch]} · {FEATURE[card.feature]}"
        note = CANCELS.format(look[ev.player].name, PUNCH[ev.punch])
        return Shown("BLOCKED", label, (40, 90, 170), look[ev.player].color, "Blocked", note, ev.player)
    if isinstance(ev, ResultDrawn):
        where = COLUMN[ev.column] if ev.column is not None else "better of two"
        label = f"{PUNCH[ev.punch]}, {where}" if ev.value < 3 else "BIG HIT!"
        return Shown(str(ev.value), label, RESULT_COLOR[ev.value], look[ev.puncher].color, f"{ev.value} dmg")
    if isinstance(ev, BigHitDrawn):
        words = BIG_HIT[ev.big_hit]
        label = "ignored" if ev.ignored else ("Big Hit" if ev.big_hit is not BigHit.NONE else "just the 3 damage")
        return Shown(words.upper(), label, (110, 20, 60), theme.GOLD, words)
    if isinstance(ev, Count):
        if ev.heart:
            return Shown("HEART", "gets up before ten", (200, 50, 90), theme.WHITE, "Heart")
        return Shown("NO HEART", "the count reaches ten", (20, 20, 24), theme.BAD, "No heart")
    if isinstance(ev, Clinched):
        c = CARDS.results[ev.result].clinch
        extras = [
            words
            for words, on in (
                ("−1 Judge Point", c.judge_point),
                (f"head butt {c.damage_to_you}", c.damage_to_you),
                (f"cheap shot {c.damage_to_opponent}", c.damage_to_opponent),
                ("warning", c.warning),
            )
            if on
        ]
        label = "Clinch" + (": " + ", ".join(extras) if extras else ": energy")
        return Shown(f"+{c.energy}", label, (70, 110, 60), look[ev.player].color, "Clinch")
    if isinstance(ev, MovedAway):
        label = "card saved for later" if ev.saved else "a card discarded"
        return Shown("MOVE AWAY", label, (90, 92, 104), look[ev.player].color, "Away")
    if isinstance(ev, CoveredUp):
        return Shown("COVER UP", "Round Energy 0", (90, 92, 104), look[ev.player].color, "Cover")
    if isinstance(ev, Escaped):
        card = CARDS.boxers[ev.card]
        return Shown("ESCAPE", FEATURE[card.feature], (30, 140, 90), look[ev.player].color, "Escape")
    return None


def _stage(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, area: pygame.Rect) -> None:
    at, cards = last_play(s)
    if not cards:
        return
    step = STAGGER_US
    showing = min(len(cards) - 1, max(0, (s.now_us - at) // step))
    card = cards[showing]
    rect = _card_rect(area)
    if card.seat is not None:  # a boxer's card slides in from his side of the stage
        side = (area.width - rect.width) // 2 * (-1 if card.seat == 0 else 1)
        rect.topleft = motion.slide((rect.x + side, rect.y), rect.topleft, s.now_us, at + showing * step)
    _stage_card(surf, text, card, rect, area, len(cards) == 1)
    live(surf, area, "the cards of the last play")
    if len(cards) > 1:
        x = area.x
        width = (area.width - 6 * (len(cards) - 1)) // len(cards)
        for i, c in enumerate(cards):
            box = pygame.Rect(x, area.bottom - 40, width, 36)
            turned = i <= showing
            draw.rect(surf, c.color if turned else theme.PANEL, box, border_radius=6)
            if i == showing:
                draw.rect(surf, theme.GOLD, box, width=3, border_radius=6)
            words = c.chip if turned else "?"
            size = text.fitting_size(words, width - 8, 28)  # the big card above says it in full: a detail
            text.draw(surf, words, size, theme.WHITE, box.center, "center", bold=True, detail=True)
            x += width + 6


def _card_rect(area: pygame.Rect) -> pygame.Rect:
    """Where the stage's big card rests."""
    rect = pygame.Rect(0, 0, 284, 252)  # wide enough for its label at the readable size
    rect.midtop = (area.centerx, area.y + 4)
    return rect


def _stage_card(surf: Canvas, text: TextCache, card: Shown, rect: pygame.Rect, area: pygame.Rect, alone: bool) -> None:
    """A card of the last play big on the stage at ``rect``, and its note under it when it
    is the play's only card."""
    card_face(surf, text, rect, card.big, card.label, card.color, card.edge)
    if alone and card.note:
        _note(surf, text, card.note, area)


def _note(surf: Canvas, text: TextCache, note: str, area: pygame.Rect) -> None:
    """The note under a lone card on the stage ``area`` (who played it, and how)."""
    size = text.fitting_size(note, area.width - 10, 30)
    text.draw(surf, note, size, theme.TEXT, (area.centerx, area.bottom - 22), "center", bold=True)


COSTS = sorted({card.cost for card in CARDS.boxers})
"""What a boxer's card may cost to throw."""
THROWS = "{} throws: {} energy"
CANCELS = "{} cancels the {}"
"""The notes under a lone card of a boxer's (:func:`shown_card`): a punch thrown, a punch blocked."""


def _throws(name: str, cost: int, combo: bool) -> str:
    """The note under a punch ``name`` threw for ``cost`` energy."""
    return THROWS.format(name, cost) + (" (combo)" if combo else "")


FORESEEN_A_PART = 6
"""Cards drawn in one part of :func:`foreseen` (a planning step: ~3 M instructions)."""


def foreseen(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, part: int) -> bool:
    """What a demo may show beyond its first states, a part at a time: for each seat and
    each level a demo's computer may play at, what the head, the key hints and the notes
    under a lone card say of it (:func:`_foreseen_names`), then every card a punch may put on the stage
    (:func:`_foreseen_cards`).  For the attract mode's planning only (:mod:`display.ahead`:
    nothing it draws is shown); False when there is no part ``part``.  Which of them a
    demo shows its seed decides, and words the planning had not met were fitted in faces
    opened for them in the frame that showed them (HOOK: a 23 M-instruction frame of the
    demo; "CPU 1 · HARD may defend: Uppercut", the plan's played states being at another
    level: 13–19 M)."""
    names = len(s.seats) * len(Level)
    if part < names:
        seat, level = divmod(part, len(Level))
        _foreseen_names(surf, text, s, seat, list(Level)[level])
        return True
    cards = _punch_cards_shown(s)[(part - names) * FORESEEN_A_PART : (part - names + 1) * FORESEEN_A_PART]
    _foreseen_cards(surf, text, cards)
    return bool(cards)


def _foreseen_cards(surf: Canvas, text: TextCache, cards: list[Shown]) -> None:
    """``cards``, each big at rest where the stage shows it, one over another, without the
    note under it (which names a boxer)."""
    head = pygame.Rect(CENTRE.x, CENTRE.y, CENTRE.width, 70)
    area = pygame.Rect(CENTRE.x, head.bottom + 8, CENTRE.width, CENTRE.height - head.height - 8)
    rect = _card_rect(area)
    for card in cards:
        card_face(surf, text, rect, card.big, card.label, card.color, card.edge)


def _foreseen_names(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, seat: int, level: Level) -> None:
    """What the head, the key hints and the note under a lone card may say of ``seat``
    when a computer of ``level`` plays it (its name tag "CPU 1 · HARD", as a demo names
    its computers), one over another: its turn, its pick, each window open to it, each
    punch it may throw or block.  The notes are the words alone (not the card each is
    under: looking every card up again made a part a 12–15 M-instruction step)."""
    who, _, _ = s.seats[seat].name.partition(" · ")
    look = StationLook(f"{who} · {level.name}", s.seats[seat].color)
    named = replace(s, seats=tuple(look if i == seat else other for i, other in enumerate(s.seats)))
    name = look.name.upper()
    head = pygame.Rect(CENTRE.x, CENTRE.y, CENTRE.width, 70)
    answer_us = s.view.options.answer_us
    for words in (TURN.format(name), PICKS.format(name)):
        _head(surf, text, named, head, words, look.color, None, answer_us)
    for window in Window:
        for trap, punch in _window_abouts(window):
            _head(surf, text, named, head, _window_said(name, window, trap, punch), look.color, answer_us, answer_us)
    for hint in (CHOOSES_A_CARD, CHOOSES):
        _hint(surf, text, hint.format(look.name))
    area = pygame.Rect(CENTRE.x, head.bottom + 8, CENTRE.width, CENTRE.height - head.height - 8)
    notes = [_throws(look.name, cost, combo) for cost in COSTS for combo in (False, True)]
    for note in notes + [CANCELS.format(look.name, PUNCH[punch]) for punch in Punch]:
        _note(surf, text, note, area)


def _window_abouts(window: Window) -> list[tuple[Trap | None, Punch | None]]:
    """What ``window``'s words may name (:func:`_window_said`): the trap of an escape, the
    punch of a response; nothing of a combo."""
    if window is Window.COMBO:
        return [(None, None)]
    if window is Window.ESCAPE:
        return [(trap, None) for trap in Trap]
    return [(None, punch) for punch in Punch]


def _punch_cards_shown(s: BigTimeBoxingPlay) -> list[Shown]:
    """:func:`_punch_cards` as the stage shows them, each look once."""
    shown: dict[tuple[str, str, Color, Color], Shown] = {}
    for ev in _punch_cards():
        card = shown_card(s, ev)
        if card is not None:
            shown.setdefault((card.big, card.label, card.color, card.edge), card)
    return list(shown.values())


def _punch_cards() -> Iterator[object]:
    """An event for each card a punch may put on the stage (:func:`shown_card`)."""
    values: dict[tuple[Punch, Column], set[int]] = {}  # what a Result card may read for each punch and column
    for result in CARDS.results:
        for key, value in result.values.items():
            values.setdefault(key, set()).add(value)
    for card in CARDS.boxers:
        yield PunchThrown(0, card.id, card.punch, Column.OS_OS, False)
        if card.feature in (Feature.JC_DEFENSE, Feature.HUB_DEFENSE):
            yield Defended(0, card.id, card.punch)
    for (punch, column), drawn in values.items():
        for value in drawn:
            yield ResultDrawn(0, 0, punch, column, value)


# -- hints, banners, the round's score --------------------------------------------------------
def _hints(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, v: BigTimeBoxingPublicView) -> None:
    window = v.phase.window
    names = [look.name for look in s.seats]
    if v.phase is Phase.TURN:  # named: a computer's turn is not the person's to press
        energy = v.boxers[v.active].round_energy
        if s.computer(v.active):
            msg = CHOOSES_A_CARD.format(names[v.active])
        elif energy == 0:
            msg = f"{names[v.active]}: Round Energy 0, F then a card covers up"
        else:
            msg = f"{names[v.active]}: A–D throw that card  ·  E Move Away" + ("  ·  F Clinch" if energy <= 2 else "")
    elif window is not None:
        seat = v.window_player if v.window_player is not None else v.active
        who = names[seat]
        if s.computer(seat):
            msg = CHOOSES.format(who)
        elif window is Window.COMBO:
            msg = f"{who}: A–D add a combo punch  ·  START no combo"
        elif window is Window.ESCAPE:
            msg = f"{who}: A–D play an escape card  ·  START stay"
        else:
            msg = f"{who}: A–D defend with that card  ·  START let it land"
    elif v.phase is Phase.DRAFT:
        msg = "A / B browse your Attribute cards  ·  START pick"
    else:
        msg = ""
    if msg:
        _hint(surf, text, msg)


def _hint(surf: Canvas, text: TextCache, msg: str) -> None:
    """The key hints' line ``msg``."""
    shown = text.draw(surf, msg, 34, theme.DIM, (surf.get_width() // 2, HINTS_Y), "center", max_width=1200)
    live(surf, shown, "key hints")


def _banner(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay) -> None:
    """The newest event worth a banner, over the ring strip, for a moment, once said
    (:func:`said_at`: after the card that decided it has been read)."""
    for t, ended, words in _banners(s):
        if t > s.now_us:
            continue
        if s.now_us - t > BANNER_US and not ended:
            return
        if words is not None:
            banner(surf, text, words[0], words[1])
            return


@per_story
def _banners(s: BigTimeBoxingPlay) -> list[tuple[int, bool, tuple[str, Color] | None]]:
    """Each event as :func:`_banner` looks back through them, newest said first: when it
    is said, whether it ended the fight, its banner's words if it has one."""
    newest_first = sorted(reversed(said_at(s)), key=lambda said: said[0], reverse=True)
    return [(t, isinstance(ev, FightEnded), _banner_words(s, ev)) for t, ev in newest_first]


def _banner_words(s: BigTimeBoxingPlay, ev: object) -> tuple[str, Color] | None:
    names = [look.name.upper() for look in s.seats]
    if isinstance(ev, FightEnded):
        if ev.winner is None:
            return f"{FINISH_SHORT[ev.finish]}!", theme.PANEL_EDGE
        return f"{names[ev.winner]} WINS — {FINISH_SHORT[ev.finish]}!", s.seats[ev.winner].color
    if isinstance(ev, KnockedDown):
        return f"KNOCKDOWN! {names[ev.player]} IS DOWN", s.seats[1 - ev.player].color
    if isinstance(ev, Trapped):
        return f"{names[ev.player]} {'ON THE ROPES' if ev.trap.value == 'ropes' else 'IN THE CORNER'}!", s.seats[
            1 - ev.player
        ].color
    if isinstance(ev, Escaped):
        return f"{names[ev.player]} ESCAPES!", s.seats[ev.player].color
    if isinstance(ev, RoundStarted):
        return f"ROUND {ev.round}", theme.PANEL_EDGE
    return None


def _round_score(surf: Canvas, text: TextCache, s: BigTimeBoxingPlay, box: pygame.Rect) -> bool:
    """The round just scored, on the centre's stage, for a few seconds after the bell;
    False when there is none to show.  Said (:func:`said_at`) once the round's last card
    has been read: the score never covers the card that counted in it."""
    scored = next(((t, e) for t, e in reversed(said_at(s)) if isinstance(e, RoundScored)), None)
    if scored is None or not 0 <= s.now_us - scored[0] <= ROUND_SCORE_US:
        return False
    ev = scored[1]
    panel(surf, box, (20, 22, 34), theme.GOLD, 16)
    live(surf, box, "the round's score")
    text.draw(surf, f"ROUND {ev.round} SCORED", 44, theme.GOLD, (box.centerx, box.y + 32), "center", bold=True)
    column = box.width // 2 - 16
    for seat, x in ((0, box.x + box.width // 4 + 4), (1, box.right - box.width // 4 - 4)):
        look = s.seats[seat]
        text.draw(surf, look.name.upper(), 38, look.color, (x, box.y + 80), "center", True, column)
        text.draw(surf, str(ev.scores[seat]), 110, theme.WHITE, (x, box.y + 156), "center", bold=True)
        sums = f"{ev.judge_points[seat]} JP + {ev.damage_caused[seat]} dmg = {ev.totals[seat]}"
        text.draw(surf, sums, 28, theme.TEXT, (x, box.y + 222), "center", max_width=column)
        marks = []
        if ev.knockdowns[seat]:
            marks.append(f"down ×{ev.knockdowns[seat]}")
        if ev.fouls[seat]:
            marks.append(f"foul ×{ev.fouls[seat]}")
        if marks:
            text.draw(surf, ", ".join(marks), 28, theme.BAD, (x, box.y + 256), "center", True, column)
    text.draw(surf, "–", 90, theme.DIM, (box.centerx, box.y + 156), "center", bold=True)
    return True


# -- the score sheet -------------------------------------------------------------------------
def draw_score_sheet(surf: Canvas, text: TextCache, r: BigTimeBoxingResult) -> None:
    """The fight's score sheet: per round each boxer's Damage caused, Judge Points, total
    and round-score, knockdowns and fouls; the totals, the finish and the injuries."""
    assert r.final is not None
    s = r.final
    v = s.view
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND if r.winner is None else theme.shade(r.winner.color, 0.22))
    fought = rounds_fought(v)
    planned = v.options.rounds
    title_bar(
        surf, text, r.game, "Score sheet", f"{fought} of {planned} rounds" if fought < planned else f"{planned} rounds"
    )
    banner(surf, text, r.headline, r.winner.color if r.winner else theme.PANEL_EDGE, pygame.Rect(0, 78, w, 78))
    finish = FINISH[v.finish] if v.finish else ""
    text.draw(surf, finish[:1].upper() + finish[1:], 32, theme.TEXT, (w // 2, 174), "center")
    score_table(surf, text, s.seats, v, pygame.Rect(30, 200, w - 60, 410))
    for seat in (0, 1):
        _injuries_line(surf, text, s.seats[seat], v.boxers[seat], (30 if seat == 0 else w // 2 + 10, 632))
    text.draw(surf, "press START", 30, theme.DIM, (w // 2, h - 24), "center")


ROWS = (
    ("Damage caused", "damage"),
    ("Judge Points", "judge"),
    ("Total", "total"),
    ("Down / fouls", "marks"),
    ("Round score", "score"),
)


def rounds_fought(v: BigTimeBoxingPublicView) -> int:
    """The rounds the fight lasted: every round scored, and the round it was stopped in."""
    scored = max((r.round for r in v.scorecard), default=0)
    return max(1, scored, v.round if stopped(v) else 0)


def stopped(v: BigTimeBoxingPublicView) -> bool:
    """The fight ended inside a round (a KO or TKO): that round was never scored."""
    return v.finish is not None and not any(r.round == v.round for r in v.scorecard)


def score_table(
    surf: Canvas,
    text: TextCache,
    looks: tuple[StationLook, ...],
    v: BigTimeBoxingPublicView,
    area: pygame.Rect,
) -> None:
    """Only the rounds fought; the round a fight was stopped in shows what each boxer had
    when it stopped, and the last column the real result (the stoppage, not a 0–0)."""
    rounds = rounds_fought(v)
    label_w, total_w = 250, 110
    col = (area.width - label_w - total_w) // rounds
    row_h = (area.height - 40) // (2 * (len(ROWS) + 1))
    panel(surf, area, theme.PANEL, theme.PANEL_EDGE, 12)
    y = area.y + 6
    text.draw(surf, "ROUND", 28, theme.DIM, (area.x + 16, y + 14), "midleft", bold=True)
    for n in range(rounds):
        cx = area.x + label_w + n * col + col // 2
        text.draw(surf, str(n + 1), 28, theme.DIM, (cx, y + 14), "center", bold=True)
    last = "RESULT" if stopped(v) else "TOTAL"
    text.draw(surf, last, 28, theme.GOLD, (area.right - total_w // 2, y + 14), "center", bold=True)
    y += 34
    by_round = {r.round: r for r in v.scorecard}
    for seat in (0, 1):
        look = looks[seat]
        band = pygame.Rect(area.x + 4, y, area.width - 8, row_h * (len(ROWS) + 1))
        draw.rect(surf, theme.shade(look.color, 0.2), band, border_radius=8)
        text.draw(surf, look.name.upper(), 30, look.color, (area.x + 16, y + row_h // 2), "midleft", bold=True)
        y += row_h
        for label, key in ROWS:
            bold = key == "score"
            text.draw(surf, label, 28, theme.WHITE if bold else theme.TEXT, (area.x + 30, y + row_h // 2), "midleft")
            for n in range(rounds):
                scored = by_round.get(n + 1)
                cell = _cell(scored, seat, key) if scored is not None else _at_stoppage(v, n + 1, seat, key)
                cx = area.x + label_w + n * col + col // 2
                if bold and cell:
                    draw.ellipse(surf, theme.shade(look.color, 0.55), (cx - 24, y + 1, 48, row_h - 2))
                text.draw(surf, cell, 28, theme.WHITE, (cx, y + row_h // 2), "center", bold=bold)
            if bold:
                total = str(sum(v.boxers[seat].round_scores))
                if stopped(v):  # the stoppage decided it, not the round-scores
                    total = FINISH_SHORT[v.finish] if v.winner == seat and v.finish is not None else "—"
                size = text.fitting_size(total, total_w - 8, 40)
                text.draw(
                    surf, total, size, theme.GOLD, (area.right - total_w // 2, y + row_h // 2), "center", bold=True
                )
            y += row_h
        y += 6


def _cell(scored: RoundScored | None, seat: int, key: str) -> str:
    if scored is None:
        return ""
    if key == "damage":
        return str(scored.damage_caused[seat])
    if key == "judge":
        return str(scored.judge_points[seat])
    if key == "total":
        return str(scored.totals[seat])
    if key == "marks":
        downs, fouls = scored.knockdowns[seat], scored.fouls[seat]
        return f"{downs}/{fouls}" if downs or fouls else ""
    return str(scored.scores[seat])


def _at_stoppage(v: BigTimeBoxingPublicView, n: int, seat: int, key: str) -> str:
    """A cell of the round the fight was stopped in (empty for any other unscored round):
    what the boxer had when it stopped, and 'KO'/'TKO' as the winner's round-score."""
    if v.finish is None or n != v.round or not stopped(v):
        return ""
    me, other = v.boxers[seat], v.boxers[1 - seat]
    if key == "damage":
        return str(other.damage)
    if key == "judge":
        return str(me.judge_points)
    if key == "total":
        return str(other.damage + me.judge_points)
    if key == "marks":
        downs, fouls = me.round_knockdowns, me.round_fouls
        return f"{downs}/{fouls}" if downs or fouls else ""
    return FINISH_SHORT[v.finish] if v.winner == seat else ""


def _injuries_line(surf: Canvas, text: TextCache, look: StationLook, b: BoxerStatus, pos: tuple[int, int]) -> None:
    hurt = ", ".join(INJURY[i] for i in b.injuries) or "no injuries"
    downs = f"knocked down ×{b.knockdowns}" if b.knockdowns else "never down"
    words = f"{look.name}: {downs} · {hurt}" + (f" · warnings {b.warnings}" if b.warnings else "")
    text.draw(surf, words, 28, theme.TEXT, pos, "midleft")
