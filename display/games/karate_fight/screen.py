"""The Karate Fight play screen: the card just played big in the centre, every fighter's
pile and share, the Hit and its photo finish to the microsecond, Jan Ken."""

from __future__ import annotations

from typing import TypeAlias

import pygame

from display import draw, motion, theme
from display.art import Pose, Style, draw_figure
from display.canvas import Canvas, live, segment
from display.cards import card_back, card_face
from display.games.karate_fight.photo_finish import PhotoFinish, draw_photo_finish
from display.models import PlayScreen, StationLook
from display.text import TextCache
from display.widgets import PLAY_TOP, banner, panel, paused_overlay, title_bar
from games.karate_fight import (
    BoutWon,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    FighterStatus,
    FighterView,
    FightWon,
    HitShowing,
    HitWon,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateMaster,
    KaratePublicView,
    Technique,
    TimeUp,
)

KaratePlay: TypeAlias = PlayScreen[KaratePublicView, PhotoFinish]
"""Karate Fight's play screen: the public view and the photo finish of the last Hit."""

Color = tuple[int, int, int]
TECHNIQUE_COLOR = {Technique.ATTACK: (190, 40, 30), Technique.DEFENSE: (40, 90, 170), Technique.SKILL: (150, 60, 170)}
BANNER_US = 1_500_000
FIGHTERS_TOP = 546
"""The fighter panels fill the screen's foot from here."""
POSE_US = 1_600_000
"""A fighter shows winning or being hit this long after a Hit."""
COLLECT_STAGGER_US = 70_000
"""The centre's cards fly to the Hit's winner one after another, this far apart."""
FIGURE = 96
"""A fighter's figure: a square in the panel's lower right corner."""
READ_US = 1_000_000
"""The signs of a Jan Ken round are shown this long, readable, before what they decided
(who takes the cards, who wins the fight) is said: the decisive reveal first."""
JAN_KEN_RESULT_US = READ_US + BANNER_US
"""After a Jan Ken, the signs that decided it, then who won it and the cards they took,
stay up this long before the screen turns to whose turn it is (a new card played ends it
sooner)."""


def signs_shown(s: KaratePlay) -> tuple[int, JanKenRound] | None:
    """The newest Jan Ken round's signs while they are the moment on screen (for
    :data:`READ_US` after they were thrown; a decided Jan Ken's until its result is
    over), with when they were thrown."""
    for t, ev in reversed(s.events):
        if isinstance(ev, CardPlayed | JanKenStarted | HitShowing):
            return None
        if isinstance(ev, JanKenRound):
            decided = bool(ev.eliminated) and len(ev.remaining) == 1
            return (t, ev) if s.now_us - t <= (JAN_KEN_RESULT_US if decided else READ_US) else None
    return None


def said_after_signs(s: KaratePlay, t: int) -> int:
    """When an event at ``t`` is said: after the Jan Ken signs thrown with it were read."""
    thrown = any(isinstance(ev, JanKenRound) and when == t for when, ev in s.events)
    return t + READ_US if thrown else t


def jan_ken_result(s: KaratePlay) -> tuple[int, int | None] | None:
    """The Jan Ken just decided, while it is still the moment on screen: its winner and
    the cards that won them (None: no cards change hands, the fight is won)."""
    taken: int | None = None
    for t, ev in reversed(s.events):
        if s.now_us - t > JAN_KEN_RESULT_US or isinstance(ev, CardPlayed | JanKenStarted | HitShowing):
            return None
        if isinstance(ev, BoutWon):
            taken = ev.cards_taken
        if isinstance(ev, JanKenWon):
            return ev.winner, taken
    return None


def photo_finish_shown(s: KaratePlay) -> PhotoFinish | None:
    """The last Hit's photo finish while it is up (``SHOW_US`` after the winning slap), but
    never over what came after it: a new Hit showing, a Jan Ken (its signs), time up and
    the fight's winner (issue 30: "RED by 6.000 ms" stayed up while a time-up's Jan Ken
    made Green the winner)."""
    v = s.view
    later = v.time_up_us is not None or v.jan_ken is not None or signs_shown(s) is not None
    up = s.story is not None and s.story.showing(s.now_us) and v.hit_showing is None and not later
    return s.story if up else None


def _name(enum_value: object) -> str:
    return str(getattr(enum_value, "value", enum_value)).replace("_", " ").title()


def draw_karate(surf: Canvas, text: TextCache, s: KaratePlay) -> None:
    v = s.view
    w, _h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    names = [look.name for look in s.seats]
    decided = jan_ken_result(s)
    reading = signs_shown(s)
    if reading is not None and s.now_us < reading[0] + READ_US:
        status = "JAN KEN: the signs!" if reading[1].eliminated else "JAN KEN: a draw, throw again!"
    elif v.master is not None:
        status = f"{names[v.master]} is Karate Master"
    elif v.winner is not None:
        status = f"{names[v.winner]} wins on time"
    elif v.time_up_us is not None:
        status = "TIME!  Tie for most cards: Jan Ken decides"
    elif v.jan_ken is not None:
        status = "JAN KEN POI!  B rock · C paper · D scissors"
    elif decided is not None:  # who won it first, then whose turn
        status = f"{names[decided[0]]} wins the Jan Ken"
    elif v.hit_showing is not None and not v.awaiting_reveal:
        status = "HIT!  SLAP THE PAD!"
    elif v.turn is not None:
        status = f"{names[v.turn]} plays" if s.computer(v.turn) else f"{names[v.turn]}: press A to play"
    else:
        status = ""
    clock = _clock(v, s.now_us)
    title_bar(surf, text, s.title, status, "" if clock else f"{len(s.seats)} fighters")
    if clock:  # the time limit: big and gold, so every fighter sees it running out
        text.draw(surf, clock, 44, theme.GOLD, (w - 24, 32), "midright", bold=True)

    card = _centre(surf, text, s, v, pygame.Rect(0, PLAY_TOP, w, 380))
    fighters = pygame.Rect(20, FIGHTERS_TOP, w - 40, 720 - FIGHTERS_TOP - 12)
    _fighters(surf, text, s, v, fighters)
    _collect(surf, s, card, fighters, len(v.fighters))
    if (photo := photo_finish_shown(s)) is not None:
        draw_photo_finish(surf, text, s.seats, photo, pygame.Rect(w - 480, PLAY_TOP, 460, 330))
    if v.jan_ken is not None or signs_shown(s) is not None:
        _jan_ken(surf, text, s, v, pygame.Rect(20, PLAY_TOP, 400, 300))
    _banner(surf, text, s, v)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _clock(v: KaratePublicView, now_us: int) -> str:
    """The time limit's countdown, from the engine's deadline and the display's clock."""
    if v.ends_us is None:
        return ""
    if v.time_up_us is not None:
        return "TIME"
    left = max(0, v.ends_us - now_us) // 1_000_000
    return f"{left // 60}:{left % 60:02d}"


def _centre(surf: Canvas, text: TextCache, s: KaratePlay, v: KaratePublicView, area: pygame.Rect) -> pygame.Rect:
    """The centre pile, its top card face up; returns where the top card is.  The card
    itself never moves (its reveal is stamped at the flip of the first frame that shows
    it, so it must read in full there): the motion is around it."""
    card = pygame.Rect(0, 0, 180, 252)
    card.midtop = (area.centerx, area.y + 8)
    glow = card.union(card.move(36, 30)).inflate(20, 20)
    _glow(surf, s, v, glow.clip(pygame.Rect(0, area.y, area.width, area.height)))
    under = card
    for i in range(min(len(v.centre) - 1, 6), 0, -1):  # the pile under the top card
        under = card.move(i * 6, i * 5)
        draw.rect(surf, (200, 198, 190), under, border_radius=16)
        draw.rect(surf, (90, 90, 96), under, width=2, border_radius=16)
    live(surf, card.union(under).inflate(12, 12), "the centre pile")
    if v.centre:
        top = v.centre[-1]
        played = next((e for _t, e in reversed(s.events) if isinstance(e, CardPlayed)), None)
        owner = s.seats[played.fighter].color if played is not None else theme.WHITE
        card_face(surf, text, card, _name(top).upper(), _name(top.technique), TECHNIQUE_COLOR[top.technique], owner)
    else:
        card_back(surf, card, theme.PANEL_EDGE)
    below = card.bottom + 6 * 5 + 24  # under the deepest card of the pile
    text.draw(surf, f"{len(v.centre)} in the centre", 30, theme.DIM, (card.centerx, below), "center")
    if v.chances is not None and v.attacker is not None and v.turn is not None:
        chances = f"{s.seats[v.turn].name}: {v.chances} chance{'s' if v.chances != 1 else ''}"
        answer = f"to answer {s.seats[v.attacker].name}"  # two lines: one was shrunk to 12 px at 1280×720
        for i, msg in enumerate((chances, answer)):
            at = (card.centerx, below + 34 + i * 34)
            live(surf, text.draw(surf, msg, 32, theme.GOLD, at, "center", True, area.width - 860), "chances")
    return card


def _glow(surf: Canvas, s: KaratePlay, v: KaratePublicView, around: pygame.Rect) -> None:
    """Light behind the centre pile: a flash in the winner's colour when a Hit is won,
    a gold pulse while a Hit waits to be slapped."""
    for t, ev in reversed(s.events):
        if isinstance(ev, HitWon):
            strength = motion.flash(s.now_us, t)
            if strength > 0:
                color = motion.mix(theme.BACKGROUND, s.seats[ev.winner].color, strength)
                draw.rect(surf, color, around, border_radius=26)
            return
        if isinstance(ev, HitShowing):
            if v.hit_showing is not None and not v.awaiting_reveal:
                strength = 0.35 + 0.65 * motion.pulse(s.now_us, ev.revealed_us)
                draw.rect(surf, motion.mix(theme.BACKGROUND, theme.GOLD, strength), around, border_radius=26)
            return


def glowing(s: KaratePlay) -> bool:
    """Whether the centre pile's gold glow may be pulsing (a Hit waits to be slapped): the
    screen moves until it is answered."""
    return s.view.hit_showing is not None and not s.view.awaiting_reveal


def _panel_rect(area: pygame.Rect, n: int, seat: int) -> pygame.Rect:
    cw = area.width // n
    return pygame.Rect(area.x + seat * cw + 8, area.y, cw - 16, area.height)


def fighter_pose(s: KaratePlay, v: KaratePublicView, seat: int, status: FighterStatus) -> Pose:
    """Down when out, winning as Karate Master or on time and just after winning a Hit,
    hit just after another fighter won one, ready otherwise."""
    if v.master == seat or v.winner == seat:
        return Pose.WIN
    if status is FighterStatus.OUT:
        return Pose.DOWN
    for t, ev in reversed(s.events):
        if s.now_us - t > POSE_US:
            break
        if isinstance(ev, HitWon):
            return Pose.WIN if ev.winner == seat else Pose.HIT
    return Pose.READY


def _pile_shown(s: KaratePlay, seat: int, pile: int) -> float:
    """The pile's size the share bar shows: easing from before the fighter's newest
    change (a card played, a Hit's cards taken, a Coward's Blow paid) to the size now."""
    for t, ev in reversed(s.events):
        if isinstance(ev, BoutWon) and ev.winner == seat:
            delta = ev.cards_taken
        elif isinstance(ev, CardPlayed) and ev.fighter == seat:
            delta = -1
        elif isinstance(ev, CowardsBlow) and ev.fighter == seat:
            delta = -ev.cards_paid
        else:
            continue
        return motion.tween(pile - delta, pile, s.now_us, t)
    return pile


def _collect(surf: Canvas, s: KaratePlay, card: pygame.Rect, fighters: pygame.Rect, n: int) -> None:
    """The Hit's winner collects the centre: its cards fly to the winner's panel."""
    won = next(((t, ev) for t, ev in reversed(s.events) if isinstance(ev, BoutWon)), None)
    if won is None or s.now_us - won[0] > motion.SLIDE_US + 6 * COLLECT_STAGGER_US:
        return
    t, ev = won
    target = _panel_rect(fighters, n, ev.winner)
    end = (target.centerx, target.top)  # into the winner's panel from above: its count and fighter stay clear
    color = s.seats[ev.winner].color
    clip = surf.get_clip()
    surf.set_clip(pygame.Rect(0, PLAY_TOP, surf.get_width(), fighters.top - 4 - PLAY_TOP))
    for i in range(min(ev.cards_taken, 6)):
        start = t + i * COLLECT_STAGGER_US
        p = motion.progress(s.now_us, start, motion.SLIDE_US)
        if p <= 0 or p >= 1:
            continue
        x, y = motion.slide(card.center, end, s.now_us, start)
        k = 1 - 0.7 * motion.ease_out(p)
        flying = pygame.Rect(0, 0, round(card.width * k), round(card.height * k))
        flying.center = (x, y)
        draw.rect(surf, theme.shade(color, 0.6), flying, border_radius=12)
        draw.rect(surf, theme.GOLD, flying, width=3, border_radius=12)
    surf.set_clip(clip)


def _fighters(surf: Canvas, text: TextCache, s: KaratePlay, v: KaratePublicView, area: pygame.Rect) -> None:
    """A panel per fighter: name and pile, the share of the cards in play, and a line of
    what the fighter may do and has done (beside the state when the panel is wide)."""
    n = len(v.fighters)
    for f in v.fighters:
        look = s.seats[f.seat]
        rect = _panel_rect(area, n, f.seat)
        turn = v.turn == f.seat and v.winner is None
        _fighter_top(surf, text, look, rect, turn, f.pile_size)
        live(surf, rect, f"{look.name}'s panel")
        share = _pile_shown(s, f.seat, f.pile_size) / v.in_play if v.in_play else 0
        figure = pygame.Rect(rect.right - FIGURE - 12, rect.bottom - FIGURE - 6, FIGURE, FIGURE)
        facing_right = rect.centerx < surf.get_width() // 2  # every fighter faces the centre
        draw_figure(surf, figure, look.color, fighter_pose(s, v, f.seat, f.status), Style.KARATE, facing_right)
        _share_bar(surf, pygame.Rect(rect.x + 20, rect.y + 64, rect.width - 40 - FIGURE, 22), look.color, share)
        _fighter_words(surf, text, rect, f, turn, s.computer(f.seat))


@segment
def _fighter_top(surf: Canvas, text: TextCache, look: StationLook, rect: pygame.Rect, turn: bool, pile: int) -> None:
    """A fighter's panel, name and pile (a segment: drawn once for them)."""
    panel(surf, rect, theme.shade(look.color, 0.45 if turn else 0.22), theme.GOLD if turn else look.color)
    text.draw(
        surf,
        look.name.upper(),
        52,
        look.color if not turn else theme.WHITE,
        (rect.x + 20, rect.y + 32),
        "midleft",
        bold=True,
        max_width=rect.width - 140,  # clear of the pile count
    )
    text.draw(surf, str(pile), 72, theme.WHITE, (rect.right - 20, rect.y + 34), "midright", bold=True)


@segment
def _share_bar(surf: Canvas, bar: pygame.Rect, color: Color, share: float) -> None:
    """Ten blocks lit by the fighter's share of the cards in play."""
    for i in range(10):
        seg = pygame.Rect(bar.x + i * bar.width // 10 + 2, bar.y, bar.width // 10 - 4, bar.height)
        fill = max(0.0, min(1.0, share * 10 - i))
        draw.rect(surf, theme.shade(color, 0.3), seg, border_radius=4)
        if fill > 0:
            draw.rect(surf, theme.shade(color, 0.4 + 0.6 * fill), seg, border_radius=4)


@segment
def _fighter_words(
    surf: Canvas, text: TextCache, rect: pygame.Rect, f: FighterView, turn: bool, computer: bool
) -> None:
    """What the fighter may do (his turn, out, no cards; a computer's turn offers no key)
    and has done (fastest, cowardly)."""
    wide = rect.width > 420
    no_cards = "no cards: win a Hit!" if wide else "no cards"
    state = {FighterStatus.OUT: "OUT", FighterStatus.OUT_OF_CARDS: no_cards}.get(f.status, "")
    if turn:
        state = "PLAYS" if computer else "YOUR TURN: A" if wide else "PRESS A"
    half = (rect.width - FIGURE) // 2 - 24 if wide else rect.width - 40 - FIGURE
    text.draw(surf, state, 32, theme.GOLD, (rect.x + 20, rect.y + 112), "midleft", bold=True, max_width=half)
    best = f"best {f.fastest_us / 1000:.1f} ms" if f.fastest_us is not None else ""
    coward = f"cowardly ×{f.cowards_blows}" if f.cowards_blows else ""
    done = "  ".join(x for x in (best, coward) if x)
    where = ((rect.right - 20 - FIGURE, rect.y + 112), "midright") if wide else ((rect.x + 20, rect.y + 142), "midleft")
    text.draw(surf, done, 28, theme.TEXT, where[0], where[1], max_width=half)  # on any panel colour


def _jan_ken(surf: Canvas, text: TextCache, s: KaratePlay, v: KaratePublicView, area: pygame.Rect) -> None:
    """The Jan Ken: who is still in and who has thrown; right after a round, the signs
    each fighter threw, big (a draw said as one: throw again), so what decided it is read
    before the banner says so."""
    jk = v.jan_ken
    shown = signs_shown(s)
    panel(surf, area, theme.PANEL, theme.GOLD, 14)
    live(surf, area, "Jan Ken")
    if shown is not None:
        _t, rnd = shown
        head = "DRAW: THROW AGAIN" if not rnd.eliminated else f"JAN KEN — round {rnd.round}"
        fighters = tuple(sign.fighter for sign in rnd.signs)
    else:
        assert jk is not None
        head, fighters = f"JAN KEN — round {jk.round}", jk.fighters
    text.draw(surf, head, 40, theme.GOLD, (area.centerx, area.y + 30), "center", bold=True, max_width=area.width - 24)
    thrown = {t.fighter: t.sign.value.upper() for t in shown[1].signs} if shown is not None else {}
    for i, f in enumerate(fighters[:4]):
        look = s.seats[f]
        if f in thrown:
            out = shown is not None and f in shown[1].eliminated
            state, size = thrown[f] + ("  out" if out else ""), 40
        elif jk is not None and f not in jk.remaining:
            state, size = "out", 30
        else:
            state, size = ("thrown" if jk is not None and f in jk.locked else "choosing…"), 30
        y = area.y + 90 + i * 48
        name = text.draw(surf, look.name, 34, look.color, (area.x + 20, y), "midleft", bold=True)
        text.draw(
            surf,
            state,
            size,
            theme.WHITE,
            (area.right - 20, y),
            "midright",
            bold=size > 30,
            max_width=area.right - name.right - 36,
        )


def _banner(surf: Canvas, text: TextCache, s: KaratePlay, v: KaratePublicView) -> None:
    if v.hit_showing is not None and not v.awaiting_reveal and v.jan_ken is None:
        banner(surf, text, f"HIT! {_name(v.hit_showing).upper()}", theme.BAD)
        return
    over = v.master is not None or v.winner is not None
    for t, ev in reversed(s.events):
        t = said_after_signs(s, t)
        if s.now_us < t:
            continue  # the signs that decided it are read first
        if s.now_us - t > BANNER_US and not (over and isinstance(ev, KarateMaster | FightWon)):
            return
        if isinstance(ev, KarateMaster):
            banner(surf, text, f"{s.seats[ev.fighter].name.upper()}: KARATE MASTER!", s.seats[ev.fighter].color)
            return
        if isinstance(ev, FightWon):
            banner(surf, text, f"{s.seats[ev.fighter].name.upper()} WINS ON TIME!", s.seats[ev.fighter].color)
            return
        if isinstance(ev, TimeUp):
            banner(surf, text, "TIME!", theme.PANEL_EDGE)
            return
        if isinstance(ev, CowardsBlow):
            paid = f"pays {ev.cards_paid} card{'s' if ev.cards_paid != 1 else ''}"
            banner(
                surf,
                text,
                f"COWARD'S BLOW! {s.seats[ev.fighter].name.upper()} {paid}",
                s.seats[ev.fighter].color,
            )
            return
        if isinstance(ev, JanKenWon):
            decided = jan_ken_result(s)
            if decided is not None and decided[1] is not None:
                name, look = s.seats[ev.winner].name.upper(), s.seats[ev.winner]
                taken = f"{decided[1]} card{'s' if decided[1] != 1 else ''}"
                banner(surf, text, f"{name} TAKES {taken}".upper(), look.color)
            return
        if isinstance(ev, DeadHeat):
            if v.jan_ken is not None:  # only while the Jan Ken it called is on
                banner(surf, text, "DEAD HEAT!  JAN KEN!", theme.PANEL_EDGE)
            return
