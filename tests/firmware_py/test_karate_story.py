"""Karate Fight's result story: every Hit's reactions, each fighter's best and the
fastest-slap records, told from a whole fight's journal and the store; and its screen."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

import pygame
import pytest

from display.games.karate_fight.result import KarateStory
from display.models import ResultScreen, StationLook
from display.renderer import Renderer
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.games.karate_fight.story import hit_lines
from firmware_py.runtime.controls import ResultRecords
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store, start_of_today
from games.karate_fight import DeadHeat, HitWon, KarateOptions, PlayTop, Shown, Sign, Slaps, Throw
from games.levels import Level

LOOKS = (
    StationLook("Red", (229, 57, 53)),
    StationLook("Blue", (30, 136, 229)),
    StationLook("Green", (67, 160, 71)),
    StationLook("Yellow", (251, 192, 45)),
)


def whole_fight(store: Store, seed: int, computers: dict[int, Level] | None = None) -> GameSession:
    """Three fighters to the Karate Master: turns played, reveals reported, every Hit
    slapped by most fighters 140–420 ms after it showed, a Coward's Blow now and then."""
    session = GameSession.start(
        KarateControls(), KarateOptions(), (0, 1, 2), LOOKS[:3], seed, store, computers=computers
    )
    e, rng, t = session.engine, random.Random(seed), 1_000_000
    while not e.over:
        v = e.public_view()
        if v.jan_ken is not None:
            for f in v.jan_ken.remaining:
                if f not in v.jan_ken.locked:
                    session.submit(Throw(f, rng.choice(list(Sign))), t)
        elif v.awaiting_reveal:
            t += 16_667
            session.submit(Shown(t_us=t, cards_played=v.cards_played), t)
        elif v.hit_showing is not None:
            slaps = sorted((t + rng.randint(140_000, 420_000), f) for f in range(3) if rng.random() < 0.9)
            for at, f in slaps or [(t + 300_000, 0)]:
                session.submit(Slaps(t_us=at, fighters=(f,)), at)
                t = at + 1
        elif v.turn is not None:
            t += rng.randint(300_000, 900_000)
            if rng.random() < 0.05:
                session.submit(Slaps(t_us=t, fighters=(rng.randrange(3),)), t)
            elif (turn := e.public_view().turn) is not None:
                session.submit(PlayTop(turn, t), t)
    return session


def records(store: Store, session: GameSession, people_only: bool = True) -> ResultRecords:
    return ResultRecords(
        store=store,
        game_id=session.game_id,
        stations=tuple(look.name for look in LOOKS),
        people_only=people_only,
        today_since=start_of_today(),
    )


@pytest.fixture
def store() -> Store:
    return Store(None)  # in memory: the same queries, no fsync per action


def test_every_hit_is_told_with_reactions_fastest_first_and_bests_match_the_engine(store: Store) -> None:
    session = whole_fight(store, seed=3)
    story = session.controls.result_story(session.engine, records(store, session))
    assert isinstance(story, KarateStory)
    from firmware_py.runtime.controls import journal_events

    events = journal_events(session.engine)
    judged = [ev for ev in events if isinstance(ev, DeadHeat) or (isinstance(ev, HitWon) and not ev.by_jan_ken)]
    assert len(story.hits) == len(judged) > 5
    for line, ev in zip(story.hits, judged, strict=True):
        assert line.reactions[0][1] == ev.reaction_us  # the winning slap is the fastest
        assert [us for _f, us in line.reactions] == sorted(us for _f, us in line.reactions)
        if isinstance(ev, HitWon):
            assert line.winner == ev.winner and line.reactions[0][0] == ev.winner
    engine_best = tuple(f.fastest_us for f in session.engine.public_view().fighters)
    assert story.best == engine_best
    blows = [sum(1 for ev in events if type(ev).__name__ == "CowardsBlow" and ev.fighter == f) for f in range(3)]
    assert story.cowards_blows == tuple(blows) and sum(blows) > 0


def test_records_ever_and_today_come_from_people_only_games(store: Store) -> None:
    first = whole_fight(store, seed=3)
    fastest_first = min(us for us in first.controls.result_story(first.engine, records(store, first)).best if us)
    against = whole_fight(store, seed=5, computers={2: Level.EASY})
    story = against.controls.result_story(against.engine, records(store, against, people_only=False))
    assert not story.counted
    assert story.fastest_ever and all(not r.this_game for r in story.fastest_ever)
    assert story.fastest_ever[0].reaction_us == fastest_first  # the computer's game left the records alone
    assert story.fastest_today == story.fastest_ever  # everything was played today
    again = whole_fight(store, seed=3)  # the same fight again: it ties the record, the older one ranks first
    story = again.controls.result_story(again.engine, records(store, again))
    assert story.counted and [r.reaction_us for r in story.fastest_ever] == sorted(
        r.reaction_us for r in story.fastest_ever
    )


def test_a_record_set_in_this_fight_is_marked(store: Store) -> None:
    session = whole_fight(store, seed=7)
    story = session.controls.result_story(session.engine, records(store, session))
    assert story.fastest_ever[0].this_game
    assert story.fastest_ever[0].reaction_us == min(us for us in story.best if us is not None)
    assert story.fastest_ever[0].who in {look.name for look in LOOKS[:3]}


def test_a_dead_heat_line_names_the_jan_ken_winner() -> None:
    from tests.games.karate_fight.helpers import fight, throw

    e = fight("Sdd", "dd")
    events = list(e.apply(PlayTop(0, 1_000_000)))
    events += e.apply(Shown(t_us=1_016_667))
    events += e.apply(Slaps(t_us=1_200_000, fighters=(0, 1)))
    events += throw(e, {0: "p", 1: "r"})
    (line,) = hit_lines(events)
    assert line.winner is None and line.jan_ken_winner == 0 and line.reactions == ((0, 183_333), (1, 183_333))


@pytest.mark.parametrize("seed", [3, 4])
def test_result_screen_draws_the_story(store: Store, artifacts, seed: int) -> None:
    pygame.font.init()
    session = whole_fight(store, seed=seed)
    story = session.controls.result_story(session.engine, records(store, session))
    headline, lines = session.controls.result_lines(session.engine, session.names)
    winner = LOOKS[session.engine.outcome().winner]
    model = ResultScreen(
        game="Karate Fight", winner=winner, headline=headline, lines=lines, final=session.screen(0), story=story
    )
    canvas = Renderer().draw(model)
    pygame.image.save(canvas, str(artifacts / f"karate-result-{seed}.png"))
    chart = canvas.subsurface(pygame.Rect(100, 232, 700, 230))
    seen = {chart.get_at((x, y))[:3] for x in range(0, 700, 2) for y in range(0, 230, 2)}
    charted = {f for line in story.hits[-40:] for f, _us in line.reactions}
    assert {LOOKS[f].color for f in charted} <= seen  # every fighter who slapped: dots in their colour
    common = Renderer().draw(ResultScreen(game="Karate Fight", winner=winner, headline=headline, lines=lines))
    assert pygame.image.tobytes(common, "RGB") != pygame.image.tobytes(canvas, "RGB")


def test_today_starts_at_local_midnight_in_the_stores_utc_times() -> None:
    two_east = timezone(timedelta(hours=2))
    assert start_of_today(datetime(2026, 12, 1, 0, 30, tzinfo=two_east)) == "2026-11-30T22:00:00+00:00"
    assert start_of_today(datetime(2026, 12, 1, 23, 59, tzinfo=UTC)) == "2026-12-01T00:00:00+00:00"


def test_records_from_before_today_are_not_todays(store: Store, artifacts) -> None:
    session = whole_fight(store, seed=3, computers={1: Level.HARD})
    tomorrow = ResultRecords(
        store=store,
        game_id=session.game_id,
        stations=tuple(look.name for look in LOOKS),
        people_only=False,
        today_since="2999-01-01T00:00:00+00:00",
    )
    story = session.controls.result_story(session.engine, tomorrow)
    assert story.fastest_today == () and story.fastest_ever == ()  # only a game against the computer so far
    headline, lines = session.controls.result_lines(session.engine, session.names)
    model = ResultScreen(
        game="Karate Fight", winner=None, headline=headline, lines=lines, final=session.screen(0), story=story
    )
    pygame.font.init()
    pygame.image.save(Renderer().draw(model), str(artifacts / "karate-result-against-computer.png"))
