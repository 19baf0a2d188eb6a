"""Karate Fight's motion: a won Hit flashes the centre in the winner's colour and its
cards fly to the winner's panel, and the card just played reads in full in the very
first frame that shows it (the motion is around it, never on it)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display import theme
from display.art import Pose
from display.games.karate_fight.screen import COLLECT_STAGGER_US, POSE_US, fighter_pose
from display.models import PlayScreen
from display.motion import FLASH_US, SLIDE_US
from display.playout import playout
from display.renderer import Renderer
from games import registry
from games.karate_fight import BoutWon, CardPlayed, HitWon
from tests.display.screen_states import LOOKS
from tests.display.test_screens import colour_share

CENTRE_CARD = pygame.Rect(550, 160, 180, 252)
"""The centre's top card on the 1280×720 screen."""
FACE = CENTRE_CARD.inflate(-24, -24)
"""Inside its rounded corners."""


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def _states(players: int = 2, seed: int = 1) -> list[tuple]:
    engine_type = next(e for e in registry.engines() if e.spec.name == "karate_fight")
    return list(playout(engine_type(engine_type.spec.options_type(), players, seed), seed))


def _screen(view: object, events: tuple, now: int, players: int = 2) -> PlayScreen:
    return PlayScreen(
        game="karate_fight",
        title="Karate Fight",
        seats=LOOKS[:players],
        view=view,
        events=events,
        now_us=now,
    )


def test_the_card_just_played_is_drawn_whole_and_still_in_its_first_frame(renderer: Renderer) -> None:
    played = [(v, ev, t) for v, ev, t in _states() if isinstance(ev[-1][1], CardPlayed) and v.centre]
    assert played
    for view, events, _now in played[:8]:
        t = events[-1][0]
        first = renderer.draw(_screen(view, events, t)).subsurface(FACE).copy()
        later = renderer.draw(_screen(view, events, t + 3_000_000)).subsurface(FACE).copy()
        assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(later, "RGB")


def _hit_won() -> tuple[object, tuple, int, int]:
    for view, events, _now in _states():
        t = events[-1][0]
        won = [e for tt, e in events if tt == t and isinstance(e, HitWon)]
        if won and any(isinstance(e, BoutWon) and tt == t for tt, e in events):
            return view, events, t, won[0].winner
    raise AssertionError("no Hit won in the playout")


def test_a_won_hit_flashes_the_centre_in_the_winners_colour_then_fades(renderer: Renderer) -> None:
    view, events, t, winner = _hit_won()
    beside = pygame.Rect(CENTRE_CARD.x - 9, CENTRE_CARD.y + 40, 6, 120)  # the glow left of the pile
    colour = LOOKS[winner].color
    assert colour_share(renderer.draw(_screen(view, events, t)), beside, colour) > 0.9
    assert colour_share(renderer.draw(_screen(view, events, t + FLASH_US)), beside, colour) == 0


def test_the_winner_collects_the_centre_cards_fly_to_its_panel(renderer: Renderer) -> None:
    view, events, t, winner = _hit_won()
    # just above the winner's panel, where the cards slip in (never over its count and
    # fighter: issue 23); above the other panel likewise
    x = 640 + 12 if winner == 1 else 12
    landing = pygame.Rect(x + 160, 470, 300, 70)
    other = pygame.Rect((12 if winner == 1 else 652) + 160, 470, 300, 70)
    edge = theme.shade(LOOKS[winner].color, 0.6)  # the flying cards' backs
    during = renderer.draw(_screen(view, events, t + SLIDE_US - 30_000))
    assert colour_share(during, landing, edge, tol=4) > colour_share(during, other, edge, tol=4)
    after = renderer.draw(_screen(view, events, t + SLIDE_US + 6 * COLLECT_STAGGER_US + 1))
    assert colour_share(after, landing, edge, tol=4) <= colour_share(during, landing, edge, tol=4) / 2


def test_the_hits_winner_shows_winning_and_the_other_fighter_being_hit_for_a_moment() -> None:
    view, events, t, winner = _hit_won()
    loser = 1 - winner
    status = {f.seat: f.status for f in view.fighters}
    just_after = _screen(view, events, t + 100_000)
    assert fighter_pose(just_after, view, winner, status[winner]) is Pose.WIN
    assert fighter_pose(just_after, view, loser, status[loser]) is Pose.HIT
    later = _screen(view, events, t + POSE_US + 1)
    assert fighter_pose(later, view, loser, status[loser]) is Pose.READY
