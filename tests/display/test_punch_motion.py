"""Punch!'s screen catches up with the game: the revealed cards turn over, a stamina bar
eases from its old level to the new one (the number is the new stamina at once), a
knockout shakes the screen.  Times are the screen model's: the same model draws the same."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display import motion, theme
from display.games.punch.screen import (
    BANNER_US,
    CARD_SYMBOL,
    EFFECT_HOLD_US,
    READ_US,
    effect_lines,
    table_moment,
    told_by,
)
from display.layout import Cover, LayoutRecord
from display.renderer import Renderer
from display.widgets import PLAY_TOP
from games.punch import Card, Phase, Punch, PunchOptions, Redeal
from games.punch.actions import PlayCard
from games.punch.clash import Cause
from games.punch.events import (
    Break,
    CardChosen,
    CardsRevealed,
    GameEnded,
    Knockout,
    MatchEnded,
    MatchEndReason,
    RoundStarted,
    StaminaChanged,
)
from tests.display.test_screens import RED, colour_share, fresh_punch, play_screen

FACE = (250, 248, 240)
CARDS = pygame.Rect(440, 120, 400, 260)
T = 9_000_000
RED_COLOUR = RED.color


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def _revealed():
    game = fresh_punch()
    for seat in (0, 1):
        hand = game.view(seat).hand
        game.apply(PlayCard(seat, next(c for c in Card if hand[c.index])))
    return game


def test_the_revealed_cards_turn_over_then_stay_face_up(renderer: Renderer) -> None:
    game = _revealed()
    reveal = (T, CardsRevealed(game.public_view().last_reveal))
    at_flip = replace(play_screen(game, events=[reveal]), now_us=T)
    assert colour_share(renderer.draw(at_flip), CARDS, FACE) == 0  # still face down as it starts to turn
    turned = replace(at_flip, now_us=T + motion.FLIP_US)
    assert colour_share(renderer.draw(turned), CARDS, FACE) > 0.02


def _lit_segments(surf: pygame.Surface) -> int:
    """Red's stamina segments lit in the GOOD colour (bottom up, 10 of them)."""
    bar = pygame.Rect(30 + 36, PLAY_TOP + 128, 70, 316)  # as display.games.punch.screen lays Red's panel out
    lit = 0
    for i in range(10):
        y = bar.bottom - int((i + 0.5) * bar.height / 10)
        lit += tuple(surf.get_at((bar.x + 10, y)))[:3] == theme.GOOD
    return lit


def test_a_stamina_bar_eases_from_the_old_level_to_the_new(renderer: Renderer) -> None:
    game = _revealed()
    view = replace(game.public_view(), stamina=(7, 10))
    hit = (T, StaminaChanged(0, -3, 7, Cause.HIT))
    screen = replace(play_screen(game, events=[hit]), view=view, now_us=T)
    assert _lit_segments(renderer.draw(screen)) == 10  # the moment of the hit: where it stood
    middle = _lit_segments(renderer.draw(replace(screen, now_us=T + motion.BAR_US // 3)))
    assert 7 < middle < 10
    assert _lit_segments(renderer.draw(replace(screen, now_us=T + motion.BAR_US))) == 7


def test_a_knockout_shakes_the_screen_then_it_is_still(renderer: Renderer) -> None:
    game = _revealed()
    ko = (T, Knockout(1))
    still = pygame.image.tobytes(
        renderer.draw(replace(play_screen(game, events=[ko]), now_us=T + 2 * motion.SHAKE_US)), "RGB"
    )
    shaken = [
        pygame.image.tobytes(renderer.draw(replace(play_screen(game, events=[ko]), now_us=T + dt)), "RGB")
        for dt in range(20_000, motion.SHAKE_US, 40_000)
    ]
    assert any(frame != still for frame in shaken)
    after = pygame.image.tobytes(
        renderer.draw(replace(play_screen(game, events=[ko]), now_us=T + motion.SHAKE_US)), "RGB"
    )
    assert after == still


def test_the_boxers_pose_tells_who_was_hit_who_is_knocked_out_and_who_won() -> None:
    from display.art import Pose
    from display.games.punch.screen import POSE_US, boxer_pose

    game = _revealed()
    hit = (T, StaminaChanged(1, -2, 8, Cause.HIT))
    screen = replace(play_screen(game, events=[(T, CardsRevealed(game.public_view().last_reveal)), hit]), now_us=T)
    assert boxer_pose(screen, 1) is Pose.READY  # the punch lands when its card can be read
    screen = replace(screen, now_us=T + motion.FLIP_US)
    assert (boxer_pose(screen, 0), boxer_pose(screen, 1)) == (Pose.READY, Pose.HIT)
    assert boxer_pose(replace(screen, now_us=T + POSE_US + 1), 1) is Pose.READY
    out = replace(screen, events=(*screen.events, (T, Knockout(1))))
    assert (boxer_pose(out, 0), boxer_pose(out, 1)) == (Pose.READY, Pose.HIT)  # the pair is read first
    out = replace(out, now_us=T + motion.FLIP_US + READ_US)  # then the knockout it decided
    assert (boxer_pose(out, 0), boxer_pose(out, 1)) == (Pose.WIN, Pose.DOWN)


def test_a_card_laid_face_down_settles_on_its_place_never_over_the_boxers_panel(renderer: Renderer) -> None:
    """Red locks in after a reveal (once the pair has been read): Red's card back settles
    onto Red's place from the players' side of the table, never over Red's panel and its
    stamina figure (the frame check found it sliding from there); the last pair leaves the
    table (issue 23: Blue's old card stayed up under a header already naming the next
    exchange), Blue's place is empty until Blue plays."""
    game = _revealed()
    hand = game.view(0).hand
    game.apply(PlayCard(0, next(c for c in Card if hand[c.index])))  # Red lays the next card
    laid = T + motion.FLIP_US + EFFECT_HOLD_US
    chosen = (laid, CardChosen(0))
    red_place = pygame.Rect(0, 0, 170, 240)
    red_place.center = (640 - 118, PLAY_TOP + 140)
    blue_place = red_place.move(236, 0)
    red_panel = pygame.Rect(30, PLAY_TOP, 400, 468)
    back = theme.shade(RED_COLOUR, 0.6)
    at_start = renderer.draw(replace(play_screen(game, events=[chosen]), now_us=laid))
    below = pygame.Rect(red_place.x, red_place.bottom, red_place.width, 30)
    assert colour_share(at_start, below, back, tol=4) > 0.2  # on its way, from the players' side
    assert colour_share(at_start, red_panel, back, tol=4) == 0  # never over the boxer's panel
    settled = renderer.draw(replace(play_screen(game, events=[chosen]), now_us=laid + motion.SLIDE_US))
    assert colour_share(settled, red_place, back, tol=4) > 0.2  # Red's back lies on Red's place
    assert colour_share(settled, below, back, tol=4) == 0
    assert colour_share(settled, red_place, FACE) == 0  # covering Red's last card
    assert colour_share(settled, blue_place, FACE) == 0  # Blue's last card is gone with the last exchange


# -- issue 23: one moment on screen at a time ----------------------------------------------------
def _exchange(game, red: Card, blue: Card, t: int) -> list:
    """Red then Blue lay ``red`` and ``blue``: the events with their µs (Blue's at ``t``)."""
    first = [(t - 300_000, e) for e in game.apply(PlayCard(0, red))]
    return first + [(t, e) for e in game.apply(PlayCard(1, blue))]


def _punch_into_nothing():
    """Red's Punch 2 into Blue's Do Nothing (Blue −2) as the first exchange, from the
    first seed whose dealt hands hold both."""
    for seed in range(200):
        game = Punch(PunchOptions(), 2, seed=seed)
        for seat in sorted(game.to_act()):
            game.apply(Redeal(seat, False))
        if game.view(0).hand[Card.PUNCH_2.index] and game.view(1).hand[Card.DO_NOTHING.index]:
            return game, _exchange(game, Card.PUNCH_2, Card.DO_NOTHING, T)
    raise AssertionError("no seed deals Red a Punch 2 and Blue a Do Nothing")


def _texts(renderer: Renderer, screen) -> list[str]:
    record = LayoutRecord()
    renderer.draw(screen, record)
    return [t.what for t in record.texts]


def test_an_effect_and_the_stamina_drop_wait_until_the_cards_can_be_read(renderer: Renderer) -> None:
    game, events = _punch_into_nothing()
    turning = replace(play_screen(game, events=events), now_us=T + motion.FLIP_US // 3)
    assert effect_lines(turning) == []
    texts = _texts(renderer, turning)
    assert "Blue hit  -2" not in texts and "10" in texts and "8" not in texts  # Blue still at 10 mid-flip
    read = replace(turning, now_us=T + motion.FLIP_US)
    assert effect_lines(read) == ["Blue hit  -2"]
    assert "8" in _texts(renderer, replace(read, now_us=T + motion.FLIP_US + motion.BAR_US))


def test_once_a_boxer_locks_in_the_table_shows_the_next_exchange_only(renderer: Renderer) -> None:
    game, events = _punch_into_nothing()
    shown = replace(play_screen(game, events=events), now_us=T + 2 * motion.FLIP_US)
    assert table_moment(shown).exchange == 1 and table_moment(shown).reveal == (Card.PUNCH_2, Card.DO_NOTHING)
    assert any("Exchange 1/10" in t for t in _texts(renderer, shown))  # the header names the pair on the table
    hand = game.view(1).hand
    events += [(T + 500_000, e) for e in game.apply(PlayCard(1, next(c for c in Card if hand[c.index])))]
    # Laid at once: the pair and what it did stay readable their while (else a one-frame flash)
    held = replace(play_screen(game, events=events), now_us=T + 600_000)
    assert table_moment(held).reveal == (Card.PUNCH_2, Card.DO_NOTHING) and effect_lines(held) != []
    assert any("Exchange 1/10" in t for t in _texts(renderer, held))
    next_one = replace(play_screen(game, events=events), now_us=T + motion.FLIP_US + EFFECT_HOLD_US + 1)
    assert table_moment(next_one).reveal is None and effect_lines(next_one) == []
    texts = _texts(renderer, next_one)
    assert any("Exchange 2/10" in t for t in texts)
    assert not {"No effect", "Blue hit  -2", "Punch 2", "Do Nothing"} & set(texts)  # nothing of exchange 1


def test_dodge_and_punch_back_reads_in_words_on_its_face() -> None:
    assert CARD_SYMBOL[Card.DODGE] == "DODGE"
    assert all(sym.isalnum() for sym in CARD_SYMBOL.values())  # no "-/*"


def test_quick_boxers_still_see_the_round_end_then_the_screen_catches_up(renderer: Renderer) -> None:
    """Issue 30: round 1's tenth pair, then round 2's first laid and turned 300 ms later
    (two quick people): the screen keeps the tenth pair readable, says the break with the
    stamina it gave (not round 2's hit), then ROUND 2, then shows the present."""
    game = fresh_punch()
    events: list[tuple[int, object]] = []
    t = T
    while not any(isinstance(ev, RoundStarted) for _t, ev in events):
        for seat in (0, 1):
            hand = game.view(seat).hand
            events += [(t, ev) for ev in game.apply(PlayCard(seat, next(c for c in Card if hand[c.index])))]
        end_t, t = t, t + 300_000
        while game.public_view().phase is Phase.REDEAL:
            for seat in sorted(game.to_act()):
                events += [(t, ev) for ev in game.apply(Redeal(seat, False))]
    for seat in (0, 1):
        hand = game.view(seat).hand
        events += [(t, ev) for ev in game.apply(PlayCard(seat, next(c for c in Card if hand[c.index])))]
    brk = next(ev for _t, ev in events if isinstance(ev, Break))
    tenth = next(ev.cards for t_, ev in events if t_ == end_t and isinstance(ev, CardsRevealed))
    screen = play_screen(game, events=events[-48:])

    def faces(cards: tuple[Card, Card]) -> set[str]:  # Dodge & Punch Back runs over two lines: its symbol
        return {CARD_SYMBOL[c] if c is Card.DODGE else c.label for c in cards}

    def drawn(now: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        record = LayoutRecord(contrast=False)
        renderer.draw(replace(screen, now_us=now), record)
        return tuple(d.what for d, kind in record.covers if kind is Cover.BANNER), tuple(d.what for d in record.texts)

    said = end_t + motion.FLIP_US + READ_US
    banners, texts = drawn(said - 50_000)
    assert banners == () and faces(tenth) <= set(texts), (banners, texts)  # the tenth pair, read
    banners, texts = drawn(said + 50_000)
    assert banners == (f"BREAK  +{brk.rest} STAMINA",) and "Match 1  ·  Round 1  ·  Exchange 10/10" in texts
    banners, texts = drawn(said + BANNER_US + 50_000)
    assert banners == ("ROUND 2",) and "Match 1  ·  Round 2  ·  Exchange 1/10" in texts
    banners, texts = drawn(said + 2 * BANNER_US + 50_000)  # told: the present, round 2's first pair
    assert banners == () and "Match 1  ·  Round 2  ·  Exchange 1/10" in texts
    assert faces(game.public_view().last_reveal) <= set(texts)


def test_a_game_ended_while_a_round_end_is_told_waits_its_turn(renderer: Renderer) -> None:
    """Issue 30: round 2 ends (break, ROUND 3), and 2 s later a knockout ends the game.
    Round 2's end is told whole; the final pair turns over once the screen is free, read,
    then the winner; the cabinet keeps the screen until that banner is down (told_by)."""
    game = fresh_punch()
    pair, final = (Card.PUNCH_1, Card.BLOCK), (Card.PUNCH_3, Card.DO_NOTHING)
    end = T + 2_000_000
    events = [
        (T, CardsRevealed(pair)),
        (T, Break(2, 3, (3, 3))),
        (T, RoundStarted(3)),
        (end, CardsRevealed(final)),
        (end, StaminaChanged(1, -3, 0, Cause.HIT)),
        (end, Knockout(1)),
        (end, MatchEnded(0, MatchEndReason.KNOCKOUT, (6, 0), (1, 0))),
        (end, GameEnded(0)),
    ]
    screen = play_screen(game, events=events)

    def banners(now: int) -> tuple[str, ...]:
        record = LayoutRecord(contrast=False)
        renderer.draw(replace(screen, now_us=now), record)
        return tuple(d.what for d, kind in record.covers if kind is Cover.BANNER)

    free = T + motion.FLIP_US + READ_US + 2 * BANNER_US  # BREAK, then ROUND 3
    assert banners(end + motion.FLIP_US + READ_US + 50_000) == ("ROUND 3",)  # not yet the winner
    assert banners(free + 50_000) == ()  # the final pair turning over, then read
    winner = free + motion.FLIP_US + READ_US
    assert banners(winner + 50_000) == ("RED WINS THE GAME!",)
    assert told_by(replace(screen, now_us=end)) == winner + BANNER_US
