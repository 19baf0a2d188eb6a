"""The Punch! play screen: two boxers, their stamina and match wins, the revealed pair."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

import pygame

from display import behind, draw, motion, theme
from display.art import Pose, Style, draw_figure
from display.canvas import Canvas, live, segment
from display.cards import card_back, card_face
from display.memo import per_model
from display.models import PlayScreen, StationLook
from display.text import TextCache
from display.widgets import FOOTER_Y, PLAY_TOP, banner, panel, paused_overlay, segment_bar, title_bar
from games.protocol import Event
from games.punch import Card, Phase, PunchPublicView, Rules
from games.punch.clash import Cause
from games.punch.events import (
    Break,
    CardChosen,
    CardsRevealed,
    DraftChosen,
    GameEnded,
    HandKept,
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
    Card.DODGE: "DODGE",
}
"""The big mark on a card's face: the rulebook's printed values (1 2 3, 0 for Do Nothing,
X for Block); its "-/*" for Dodge and Punch Back tells a new player nothing, so that card
says what it does in words (its full name runs along the bottom)."""
LEGEND = {
    Card.PUNCH_1: "Punch 1",
    Card.PUNCH_2: "Punch 2",
    Card.PUNCH_3: "Punch 3",
    Card.DO_NOTHING: "Do Nothing",
    Card.BLOCK: "Block",
    Card.DODGE: "Dodge",
}
"""A card's name where space is short (the button legend, a private display): the
printed label, Dodge and Punch Back called by its first word.  One name on every screen."""
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


@dataclass(frozen=True, kw_only=True)
class Table:
    """The one exchange the middle of the screen shows, and the header names.

    ``reveal``: its two cards, turned over at ``revealed_at``, while they are the newest
    thing that happened (and for :data:`EFFECT_HOLD_US` after they can be read, whatever
    happens); None once either boxer has laid a card for the next exchange (or a new
    round's hands are being dealt): then the table shows that exchange only, a card back
    for each boxer who has locked in, an empty place for the other."""

    match: int
    round: int
    exchange: int
    reveal: tuple[Card, Card] | None
    revealed_at: int


NEXT_MOMENT = (CardChosen, HandKept, Redealt, DraftChosen, MatchStarted)
"""Events that start the next exchange's moment: the last pair leaves the table."""
EFFECT_HOLD_US = 1_000_000
"""A pair and what it did stay readable at least this long after they turned over, even
when the next card is laid at once (a quick boxer, a computer): else the effect line was
up for one frame."""


READ_US = EFFECT_HOLD_US
"""A revealed pair is on the table, readable, this long before what it decided (a
knockout, the match, the game, the round's end and its break) is said: the decisive
reveal first, then its consequence."""
CONSEQUENCES = (Knockout, MatchEnded, GameEnded, Break, RoundStarted, MatchStarted)
"""Events said in a banner of their own, in the order the engine tells them."""


@dataclass(frozen=True)
class Beat:
    """One consequence said on screen: ``event``'s banner from ``start`` for :data:`BANNER_US`."""

    start: int
    event: Knockout | MatchEnded | GameEnded | Break | RoundStarted | MatchStarted


@per_model
def beats(s: PunchPlay) -> tuple[Beat, ...]:
    """The consequences of the newest moment, each in its turn.  Those a reveal caused
    (told with it, at its time) start once the pair has turned over and been readable for
    :data:`READ_US`, one after the other; the others at their own time.  A game's end says
    only who won the game; a new match says its number, not also ROUND 1."""
    last = max((i for i, (_t, ev) in enumerate(s.events) if isinstance(ev, CardsRevealed)), default=-1)
    told = [(t, ev) for t, ev in s.events[last + 1 :] if isinstance(ev, CONSEQUENCES)]
    if any(isinstance(ev, GameEnded) for _t, ev in told):
        told = [(t, ev) for t, ev in told if isinstance(ev, GameEnded)]
    said: list[Beat] = []
    reveal_t = s.events[last][0] if last >= 0 else None
    after = -(10**18)
    for i, (t, ev) in enumerate(told):
        if isinstance(ev, RoundStarted) and i > 0 and isinstance(told[i - 1][1], MatchStarted):
            continue
        start = t if t != reveal_t else max(after, t + motion.FLIP_US + READ_US)
        said.append(Beat(start, ev))
        after = start + BANNER_US
    return tuple(said)


@per_model
def told(s: PunchPlay) -> PunchPlay:
    """The screen's story, behind the game when it must be (:mod:`display.behind`): ``s``
    with its events cut after the oldest reveal whose consequences (:func:`beats`) are
    still being said.  Quick boxers (two people at ~280 ms an exchange) lay the next cards
    before a round's end is read; the screen keeps telling that moment — the pair, then
    BREAK, ROUND n, the match — and catches up once its last banner is down.  Its header
    counts only the exchanges told; no card shows laid for the next one yet."""
    moment = behind.telling(s, _deciding_moments(s))
    if moment is None:
        return s
    if moment.cut == len(s.events):
        return moment.screen  # the newest moment
    turned = sum(isinstance(e, CardsRevealed) for _t, e in s.events[moment.cut :])  # the exchanges told later
    return replace(
        moment.screen, view=replace(s.view, exchange=max(1, s.view.exchange - turned), locked=(False, False))
    )


def told_by(s: PunchPlay) -> int | None:
    """When the screen has said all of ``s``'s story (its last banner down; None: nothing
    to say): the cabinet keeps a finished game's screen up until then."""
    return behind.told_by(_deciding_moments(s))


def told_times(s: PunchPlay) -> list[int]:
    """When the screen tells each of ``s``'s events (game time): the cabinet's sound plays
    an event's cue then (a knockout's with its banner)."""
    return behind.told_times(s, _deciding_moments(s), said_at)


@per_model
def _deciding_moments(s: PunchPlay) -> list[behind.Moment[PunchPlay]]:
    """Each reveal that decides something, as :func:`told` tells it: free once its last
    banner (:func:`beats`) is down."""
    return behind.deciding_moments(
        s,
        lambda ev: isinstance(ev, CardsRevealed),
        lambda moment: any(isinstance(e, CONSEQUENCES) for _t, e in moment[1:]),
        _last_banner_down,
    )


def _last_banner_down(moment: PunchPlay) -> int | None:
    said = beats(moment)
    return said[-1].start + BANNER_US if said else None


def beat_of(s: PunchPlay, kind: type) -> int | None:
    """When the newest moment's beat of ``kind`` starts (None: it has none)."""
    return next((b.start for b in beats(s) if isinstance(b.event, kind)), None)


@per_model
def said_at(s: PunchPlay) -> list[tuple[int, Event]]:
    """The events with the time the screen says them: a consequence at its beat (a
    knockout that ended the game with the game's beat), everything else at its own time."""
    starts = {id(b.event): b.start for b in beats(s)}
    game_end = next((b.start for b in beats(s) if isinstance(b.event, GameEnded)), None)
    out = []
    for t, ev in s.events:
        if id(ev) in starts:
            t = starts[id(ev)]
        elif game_end is not None and isinstance(ev, Knockout | MatchEnded) and t <= game_end:
            t = max(t, game_end)
        elif isinstance(ev, CONSEQUENCES) and t == _newest_reveal_t(s):
            t = max(t, _consequence_start(s))
        out.append((t, ev))
    return out


def _newest_reveal_t(s: PunchPlay) -> int | None:
    return next((t for t, ev in reversed(s.events) if isinstance(ev, CardsRevealed)), None)


def _consequence_start(s: PunchPlay) -> int:
    t = _newest_reveal_t(s)
    return -(10**18) if t is None else t + motion.FLIP_US + READ_US


@per_model
def table_moment(s: PunchPlay) -> Table:
    """What the table shows now (see :class:`Table`)."""
    v = s.view
    current = Table(
        match=v.match, round=v.round, exchange=min(v.exchange, 10), reveal=None, revealed_at=-motion.FLIP_US
    )
    if v.last_reveal is None and not any(isinstance(ev, CardsRevealed) for _t, ev in s.events):
        return current  # (a new match forgets its last pair: the events still tell it)
    new_round = ended = False
    next_at: int | None = None  # when the next exchange's moment began (the earliest such event)
    laid_at: int | None = None  # when a card was first laid for the next exchange
    for t, ev in reversed(s.events):
        if isinstance(ev, NEXT_MOMENT):
            next_at = t
            laid_at = t if isinstance(ev, CardChosen) else laid_at
            continue
        new_round |= isinstance(ev, RoundStarted)
        ended |= isinstance(ev, Knockout | GameEnded)
        if isinstance(ev, CardsRevealed):
            read = t + motion.FLIP_US + EFFECT_HOLD_US
            if new_round:  # the pair stays until the new round is said, or a card is laid in it
                begun = beat_of(s, MatchStarted) or beat_of(s, RoundStarted)
                if (begun is not None and s.now_us >= begun) or (laid_at is not None and s.now_us >= read):
                    return current
            elif next_at is not None and s.now_us >= max(next_at, read):
                return current
            if new_round:  # the exchange that ended the round (or the match) is still on the table
                match, round_, exchange = _where_revealed(s, t)
                return Table(match=match, round=round_, exchange=exchange, reveal=ev.cards, revealed_at=t)
            exchange = v.exchange if ended or v.phase is Phase.OVER else v.exchange - 1
            return Table(match=v.match, round=v.round, exchange=max(1, exchange), reveal=ev.cards, revealed_at=t)
    if next_at is not None or v.last_reveal is None:  # the reveal is older than the events kept: long read
        return current
    # the reveal is older than the events kept: long turned over, nothing since
    return Table(
        match=v.match, round=v.round, exchange=max(1, v.exchange - 1), reveal=v.last_reveal, revealed_at=-motion.FLIP_US
    )


def _where_revealed(s: PunchPlay, reveal_t: int) -> tuple[int, int, int]:
    """Match, round and exchange of the reveal at ``reveal_t`` that ended a round or a
    match: counted back from the events kept (the view has moved on to the next one)."""
    v = s.view
    match = v.match - 1 if any(t == reveal_t and isinstance(ev, MatchStarted) for t, ev in s.events) else v.match
    exchange = 0
    for t, ev in reversed(s.events):
        if t > reveal_t:
            continue
        if isinstance(ev, CardsRevealed):
            exchange += 1
        elif isinstance(ev, RoundStarted) and t < reveal_t:
            return max(1, match), ev.round, exchange
    return max(1, match), max(1, v.round - 1), 10  # the round began before the events kept: its tenth


def readable_since(s: PunchPlay) -> int | None:
    """When the pair on the table became readable (its flip over); None: no pair shown."""
    table = table_moment(s)
    return None if table.reveal is None else table.revealed_at + motion.FLIP_US


def draw_punch(surf: Canvas, text: TextCache, now: PunchPlay) -> None:
    s = told(now)  # everything below tells the story as far as it has been told
    later = now.events[len(s.events) :]
    v = s.view
    w, h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    rules = "Advanced" if v.options.rules is Rules.ADVANCED else "Standard"
    variant = rules + (" · No Mercy" if v.options.no_mercy else "")
    table = table_moment(s)
    centre = f"Match {table.match}  ·  Round {table.round}  ·  Exchange {table.exchange}/10"
    title_bar(surf, text, s.title, centre, variant)

    for seat in (0, 1):
        _boxer_panel(surf, text, s, later, seat, pygame.Rect(30 if seat == 0 else w - 430, PLAY_TOP, 400, 468))

    middle = pygame.Rect(450, PLAY_TOP, w - 900, 468)
    turned, face_up = motion.flip_width(s.now_us, table.revealed_at) if table.reveal is not None else (1.0, False)
    for seat in (0, 1):
        place = pygame.Rect(0, 0, 170, 240)
        place.center = (middle.centerx + (-118 if seat == 0 else 118), middle.y + 140)
        rect = pygame.Rect(0, 0, max(4, round(place.width * turned)), place.height)
        rect.center = place.center  # a card turning over narrows to its edge and opens again
        if table.reveal is not None:
            card = table.reveal[seat]
            if face_up:  # its words once it has turned: a card seen edge-on has none to read
                words = (CARD_SYMBOL[card], card.label) if turned == 1 else ("", "")
                card_face(surf, text, rect, *words, CARD_COLOR[card], s.seats[seat].color)
            else:
                card_back(surf, rect, s.seats[seat].color)
        elif v.phase is Phase.EXCHANGE and v.locked[seat]:
            # laid face down: it settles onto its place from the players' side of the
            # table, inside the middle (from the boxer's panel it crossed the stamina figure)
            start = (place.centerx, place.centery + 40)
            rect = place.copy()
            rect.center = motion.slide(start, place.center, s.now_us, _played_at(s, seat))
            card_back(surf, rect, s.seats[seat].color)
        else:  # this exchange's card is still to come: its empty place
            draw.rect(surf, theme.PANEL_EDGE, place, width=3, border_radius=16)
        live(surf, place.inflate(8, 10), "the cards played")
    if table.reveal is not None:
        text.draw(surf, "VS", 48, theme.GOLD, (middle.centerx, middle.y + 140), "center", bold=True)
    for i, line in enumerate(effect_lines(s)[:3]):
        live(surf, text.draw(surf, line, 38, theme.TEXT, (middle.centerx, middle.y + 300 + i * 44), "center"), "effect")
    _phase_hint(surf, text, s, v, h)
    _banners(surf, text, s)
    knockout = next((t for t, ev in reversed(said_at(s)) if isinstance(ev, Knockout)), None)
    if knockout is not None and knockout <= s.now_us:
        motion.shake_surface(surf, motion.shake(s.now_us, knockout), theme.BACKGROUND)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def _played_at(s: PunchPlay, seat: int) -> int:
    """When ``seat`` laid this exchange's card face down (long ago if the events no longer say)."""
    return next(
        (t for t, ev in reversed(s.events) if isinstance(ev, CardChosen) and ev.player == seat), -motion.SLIDE_US
    )


def _stamina_shown(s: PunchPlay, later: Sequence[tuple[int, Event]], seat: int) -> tuple[float, int]:
    """The bar's level and the number beside it, as far as the story has told it: a
    change the revealed cards made once they can be read (their flip over), a break's
    rest with its BREAK banner, a new match's full bar with its MATCH banner; the bar
    eases from where it stood to each new value (not for a new match: it starts full).
    ``later``: the events the screen has not begun to tell (:func:`told`), all undone."""
    v = s.view
    reveal_t = _newest_reveal_t(s)
    break_at = beat_of(s, Break)
    steps: list[tuple[int, int, Event]] = []  # (when said, order, event)
    ended: dict[int, int] = {}  # index of a MatchStarted → the stamina its match ended on
    for i, ((t, ev), (said, _ev)) in enumerate(zip(s.events, said_at(s), strict=True)):
        if isinstance(ev, StaminaChanged) and ev.player == seat:
            start = break_at if ev.cause is Cause.BREAK and break_at is not None else t
            steps.append((start + motion.FLIP_US if t == reveal_t and ev.cause is not Cause.BREAK else start, i, ev))
        elif isinstance(ev, MatchEnded):
            ended[i] = ev.stamina[seat]
        elif isinstance(ev, MatchStarted):
            steps.append((said, i, ev))
            ended[i] = next((ended[j] for j in sorted(ended, reverse=True) if j < i), v.stamina[seat])
    steps.sort(key=lambda step: (step[0], step[1]))
    value = _stamina_before(s.events, later, v.stamina[seat], seat)
    told = steps
    while told and told[-1][0] > s.now_us:  # not said yet: undone
        _at, i, ev = told[-1]
        value = ev.stamina - ev.delta if isinstance(ev, StaminaChanged) else ended[i]
        told = told[:-1]
    last = told[-1][2] if told else None
    if isinstance(last, StaminaChanged):
        return motion.tween(value - last.delta, value, s.now_us, told[-1][0]), value
    return value, value


def _stamina_before(told: Sequence[tuple[int, Event]], later: Sequence[tuple[int, Event]], now: int, seat: int) -> int:
    """``seat``'s stamina before the ``later`` events (``now``: after them): each undone,
    newest first; a new match back to the stamina its last match ended on."""
    value = now
    for i in range(len(later) - 1, -1, -1):
        ev = later[i][1]
        if isinstance(ev, StaminaChanged) and ev.player == seat:
            value = ev.stamina - ev.delta
        elif isinstance(ev, MatchStarted):
            before = [e for _t, e in (*told, *later[:i]) if isinstance(e, MatchEnded)]
            value = before[-1].stamina[seat] if before else value
    return value


def _boxer_panel(
    surf: Canvas, text: TextCache, s: PunchPlay, later: Sequence[tuple[int, Event]], seat: int, rect: pygame.Rect
) -> None:
    look, v = s.seats[seat], s.view
    untold = [ev for t, ev in said_at(s) if t > s.now_us] + [ev for _t, ev in later]
    wins = v.match_wins[seat] - sum(1 for ev in untold if isinstance(ev, MatchEnded) and ev.winner == seat)
    _panel_top(surf, text, look, rect, v.options.matches_to_win, wins)
    live(surf, rect, f"{look.name}'s panel")
    bar = pygame.Rect(rect.x + 36, rect.y + 128, 70, 316)
    level, number = _stamina_shown(s, later, seat)
    segment_bar(surf, bar, level, 10, theme.GOOD if number > 3 else theme.BAD)
    figure = pygame.Rect(rect.right - 128, rect.y + 120, 116, 116)
    draw_figure(surf, figure, look.color, boxer_pose(s, seat), Style.BOXER, facing_right=seat == 0)
    # a new hand once its round is said
    cards = None if any(isinstance(ev, RoundStarted | MatchStarted) for ev in untold) else v.hand_sizes[seat]
    locked = v.locked[seat] if v.phase in (Phase.EXCHANGE, Phase.DRAFT) else None
    _panel_words(surf, text, rect, number, cards, locked)


@segment
def _panel_top(surf: Canvas, text: TextCache, look: StationLook, rect: pygame.Rect, needed: int, wins: int) -> None:
    """A boxer's panel, his name and his matches won (a segment: drawn once for them)."""
    panel(surf, rect, theme.shade(look.color, 0.28), look.color)
    text.draw(surf, look.name.upper(), 72, look.color, (rect.centerx, rect.y + 44), "center", True, rect.width - 24)
    for i in range(needed):
        cx = rect.centerx + (i - (needed - 1) / 2) * 44
        won = i < wins
        draw.circle(surf, theme.GOLD if won else theme.shade(theme.GOLD, 0.25), (round(cx), rect.y + 96), 16)


@segment
def _panel_words(
    surf: Canvas, text: TextCache, rect: pygame.Rect, number: int, cards: int | None, locked: bool | None
) -> None:
    """A boxer's stamina, cards in hand (None: not told yet) and whether his card is in
    (None: no card to play now)."""
    text.draw(surf, str(number), 150, theme.WHITE, (rect.x + 192, rect.y + 226), "center", bold=True)
    text.draw(surf, "STAMINA", 32, theme.DIM, (rect.x + 250, rect.y + 316), "center")
    if cards is not None:
        in_hand = f"{cards} card{'s' if cards != 1 else ''} in hand"
        text.draw(surf, in_hand, 30, theme.DIM, (rect.x + 250, rect.y + 354), "center")
    if locked is not None:
        label, color = ("LOCKED IN", theme.GOLD) if locked else ("choosing…", theme.DIM)
        text.draw(surf, label, 44, color, (rect.x + 250, rect.y + 412), "center", bold=locked)


def boxer_pose(s: PunchPlay, seat: int) -> Pose:
    """Down after being knocked out, winning after a knockout, a match or the game, hit
    just after losing stamina to a punch, ready otherwise."""
    recent = [ev for t, ev in said_at(s) if 0 <= s.now_us - t <= POSE_US]
    if any(isinstance(ev, Knockout) and ev.player == seat for ev in recent):
        return Pose.DOWN
    ended = [1 - ev.player for ev in recent if isinstance(ev, Knockout)] + [
        ev.winner for ev in recent if isinstance(ev, MatchEnded | GameEnded) and ev.winner is not None
    ]
    if ended:
        return Pose.WIN if seat in ended else Pose.HIT
    readable = readable_since(s)
    if readable is not None and s.now_us < readable:
        return Pose.READY  # the punch lands when its card can be read
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


def effect_lines(s: PunchPlay) -> list[str]:
    """What the pair on the table did, in words, once both cards can be read (nothing
    while they turn over, nor once the next exchange has begun)."""
    readable = readable_since(s)
    if readable is None or s.now_us < readable:
        return []
    lines: list[str] = []
    for _t, ev in reversed(s.events):
        if isinstance(ev, CardsRevealed):
            break
        if isinstance(ev, StaminaChanged) and ev.cause is not Cause.BREAK and ev.delta:
            name = s.seats[ev.player].name
            sign = f"+{ev.delta}" if ev.delta > 0 else str(ev.delta)
            lines.append(f"{name} {CAUSE_TEXT[ev.cause]}  {sign}")
    return lines[::-1] or ["No effect"]


def _phase_hint(surf: Canvas, text: TextCache, s: PunchPlay, v: PunchPublicView, h: int) -> None:
    w = surf.get_width()
    if v.phase is Phase.REDEAL:
        msg = "Look at your hand: START keeps it  ·  A re-deals a hand with 4 of a kind"
    elif v.phase is Phase.DRAFT:
        msg = "Draft 10 cards on your private screen: A–F add  ·  START = undo / confirm"
    elif v.phase is Phase.EXCHANGE:
        msg = " · ".join(f"{b} {LEGEND[c]}" for b, c in zip("ABCDEF", Card))
    else:
        msg = ""
    if msg:
        live(surf, text.draw(surf, msg, 34, theme.DIM, (w // 2, FOOTER_Y), "center", max_width=w - 40), "key hints")


def _banners(surf: Canvas, text: TextCache, s: PunchPlay) -> None:
    """The newest moment's beat being said now (:func:`beats`), and a re-deal's."""
    said: list[tuple[int, Event]] = [(b.start, b.event) for b in beats(s)]
    said += [(t, ev) for t, ev in s.events if isinstance(ev, Redealt)]
    now = [(start, ev) for start, ev in said if start <= s.now_us < start + BANNER_US]
    if now:
        message = _banner_text(s, max(now, key=lambda b: b[0])[1])
        if message is not None:
            banner(surf, text, *message)


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
