"""Punch!'s result story: both boxers' stamina after every exchange and break, match by
match, told from the game's journal; and the result screen drawn from it."""

from __future__ import annotations

import random

import pygame
import pytest

from display.games.punch.result import PunchStory
from display.models import ResultScreen, StationLook
from display.renderer import Renderer
from firmware_py.games.punch.controls import PunchControls
from firmware_py.games.punch.story import punch_story
from firmware_py.runtime.controls import ResultRecords, journal_events
from firmware_py.runtime.store import Store, start_of_today
from games.punch import Punch, PunchOptions
from games.punch.events import Break, CardsRevealed, MatchEnded, MatchEndReason, MatchStarted

RED, BLUE = StationLook("Red", (229, 57, 53)), StationLook("Blue", (30, 136, 229))


def random_game(seed: int, options: PunchOptions | None = None) -> Punch:
    game, rng = Punch(options or PunchOptions(), 2, seed), random.Random(seed)
    while not game.over:
        for seat in sorted(game.seats_to_act()):
            game.apply(rng.choice(list(game.legal_actions(seat))))
    return game


def matches_of(events) -> list[list]:
    """The events of each match, MatchStarted to MatchEnded."""
    out: list[list] = []
    for ev in events:
        if isinstance(ev, MatchStarted):
            out.append([])
        out[-1].append(ev)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_every_match_told_from_ten_stamina_to_its_end(seed: int) -> None:
    game = random_game(seed)
    events = journal_events(game)
    story = punch_story(events)
    played = matches_of(events)
    assert len(story.matches) == len(played) == sum(isinstance(e, MatchEnded) for e in events)
    for match, evs in zip(story.matches, played, strict=True):
        ended = next(e for e in evs if isinstance(e, MatchEnded))
        assert match.points[0].stamina == (10, 10)
        assert match.exchanges == sum(isinstance(e, CardsRevealed) for e in evs)
        assert sum(p.break_ for p in match.points) == sum(isinstance(e, Break) for e in evs)
        assert match.points[-1].stamina == ended.stamina
        assert (match.winner, match.reason) == (ended.winner, ended.reason)
        assert all(0 <= s <= 10 for p in match.points for s in p.stamina)
        assert list(match.rounds_at) == sorted(match.rounds_at)
        for at in match.rounds_at:  # a later round begins from its break's rest
            assert match.points[at].break_
    assert story.match_wins == game.public_view().match_wins


def test_a_knockout_match_ends_at_zero_and_a_tie_is_told_as_fought_again() -> None:
    stories = [punch_story(journal_events(random_game(seed))) for seed in range(30)]
    matches = [m for s in stories for m in s.matches]
    knockouts = [m for m in matches if m.reason is MatchEndReason.KNOCKOUT]
    assert knockouts and all(0 in m.points[-1].stamina for m in knockouts)
    ties = [m for m in matches if m.reason is MatchEndReason.TIE]
    assert all(m.winner is None and m.points[-1].stamina[0] == m.points[-1].stamina[1] for m in ties)


def test_a_game_told_before_its_end_shows_the_match_still_on() -> None:
    game, rng = Punch(PunchOptions(), 2, 1), random.Random(1)
    for _ in range(12):
        for seat in sorted(game.seats_to_act()):
            game.apply(rng.choice(list(game.legal_actions(seat))))
    story = punch_story(journal_events(game))
    assert story.matches[-1].winner is None and story.matches[-1].reason is None
    assert story.matches[-1].points[-1].stamina == game.public_view().stamina


@pytest.mark.parametrize(("seed", "wins"), [(2, 3), (11, 1)])
def test_result_screen_draws_a_chart_per_match(artifacts, seed: int, wins: int) -> None:
    pygame.font.init()
    game = random_game(seed, PunchOptions(matches_to_win=wins))
    controls = PunchControls()
    story = controls.result_story(
        game,
        ResultRecords(
            store=Store(None), game_id=1, stations=("Red", "Blue"), people_only=True, today_since=start_of_today()
        ),
    )
    assert isinstance(story, PunchStory)
    headline, lines = controls.result_lines(game, ("Red", "Blue"))
    winner = (RED, BLUE)[game.outcome().winner]
    final = _final(game)
    canvas = Renderer().draw(
        ResultScreen(game="Punch!", winner=winner, headline=headline, lines=lines, final=final, story=story)
    )
    pygame.image.save(canvas, str(artifacts / f"punch-result-{seed}.png"))
    colours = {canvas.get_at((x, y))[:3] for x in range(30, 1250, 2) for y in range(260, 660, 2)}
    assert RED.color in colours and BLUE.color in colours  # both boxers' stamina lines


def _final(game: Punch):
    from display.models import PlayScreen

    return PlayScreen(game="punch", title="Punch!", seats=(RED, BLUE), view=game.public_view(), events=(), now_us=0)
