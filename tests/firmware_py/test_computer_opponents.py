"""A lone player against the computer at the simulated cabinet (issue 15, "At the
cabinet"): picked on the join screen, played through the same input path as a person
(presses, and slaps judged by stamp through the settle window), recorded as a game
against the computer and kept out of the fastest-slap records; attract demos."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from display import theme
from display.screens import DEMO_BAND
from firmware_py.games import registry
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.computer_players import ComputerPlayers
from firmware_py.runtime.scenes import (
    DEMO_US,
    GAME_OVER_HOLD_US,
    TITLE_US,
    Attract,
    Join,
    Options,
    Play,
    Result,
    Select,
)
from firmware_py.runtime.store import SCHEMA_VERSION, Store, inspect
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from firmware_py.tools.exhibition import SimHands
from games.bots import RandomBot
from games.karate_fight import HitShowing, HitWon, KarateOptions
from games.levels import Level
from hal.clock import ManualClock
from hal.config import load_config
from hal.events import Button, SlapEvent
from hal.sim import SimCabinet
from tests.cabinet_driving import FRAME_US, press, run_for
from tests.firmware_py.test_cabinet_karate import deal_for_clumsy_hit

LEVELS = list(Level)

WITH_BOTS = [name for name in registry.names() if registry.controls_type(name).offers_computer()]
"""The games whose controls give a computer player of their own, from the registry."""


def make_cabinet(tmp_path, stations: int = 2, seed: int = 3) -> tuple[Cabinet, SimCabinet, Store, list[str]]:
    cfg = replace(load_config("hal/data/cabinet-4.toml" if stations > 2 else None), data_dir=tmp_path)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    store = Store(tmp_path / "ringside.sqlite3")
    lines: list[str] = []
    return Cabinet(cfg, sim, clock, store, log=lines.append, seed=seed), sim, store, lines


def to_join(cabinet: Cabinet, sim: SimCabinet, game: str) -> Join:
    """Station 1 (index 0) walks up alone and picks ``game``."""
    press(cabinet, sim, 0, Button.START)
    names = [g.spec.name for g in cabinet.ctx.games]
    for _ in range(names.index(game)):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Join)
    return cabinet.scene


def seat_computers(cabinet: Cabinet, sim: SimCabinet, count: int, level: Level) -> None:
    """On the join screen: B seats ``count`` computers, C turns their level to ``level``."""
    for _ in range(count):
        press(cabinet, sim, 0, Button.B)
    for _ in range((LEVELS.index(level) - LEVELS.index(Level.NORMAL)) % len(LEVELS)):
        press(cabinet, sim, 0, Button.C)


def play_out(cabinet: Cabinet, sim: SimCabinet, person: int, max_us: int = 600_000_000) -> Play:
    """The person at station ``person`` plays (an EASY computer player pressing that
    station's pins and slapping its pad) until the result screen."""
    play = cabinet.scene
    assert isinstance(play, Play)
    hands = ComputerPlayers(
        play.session.controls, {play.session.seat_of[person]: Level.EASY}, SimHands(sim), random.Random(1)
    )

    def act(t: int, is_frame: bool) -> None:
        if is_frame and cabinet.scene is play:
            hands.act(play.session, t)

    end = cabinet.clock.now_us() + max_us
    # Frames are flipped only where the game stamps reveals at the flip (Karate Fight).
    driver = VirtualTimeDriver(cabinet, FRAME_US, render=play.session.controls.spec.judges_time)
    assert driver.run_until(end, after_step=act, after=lambda _t, _f: isinstance(cabinet.scene, Result))
    return play


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_lone_player_plays_punch_against_the_computer_at_each_level(tmp_path, level: Level) -> None:
    cabinet, sim, store, lines = make_cabinet(tmp_path)
    join = to_join(cabinet, sim, "punch")
    seat_computers(cabinet, sim, 1, level)
    assert join.computers == {1: level} and join.joined == [True, True]
    assert cabinet.scene is join  # a computer seated does not start the game: the host does
    name = f"CPU · {level.name}"
    assert join.screen(0).stations[1].name == name and join.screen(0).computers == (False, True)
    press(cabinet, sim, 0, Button.A)
    assert isinstance(cabinet.scene, Options)
    for button in (Button.A, Button.A, Button.B):  # "Match wins needed": 1 (a short game)
        press(cabinet, sim, 0, button)
    press(cabinet, sim, 0, Button.START)
    play = cabinet.scene
    assert isinstance(play, Play) and play.session.names == ("Red", name)
    assert sim.private[1].image is not None
    play = play_out(cabinet, sim, person=0)
    assert play.session.engine.over
    result = cabinet.scene
    assert isinstance(result, Result) and any("Against the computer" in line for line in result.model.lines)
    assert store.games_played() == {"punch": 1}
    (computers,) = [row[0] for row in store.db.execute("SELECT computers FROM games")]
    assert computers == f'{{"1": "{level.value}"}}'
    winner = play.session.engine.outcome().winner
    assert any(f"{play.session.names[winner].upper()} WINS" in line for line in lines)


@pytest.mark.slow
@pytest.mark.parametrize("game", WITH_BOTS)
def test_each_game_with_a_bot_of_its_own_seats_it_at_the_level_picked(tmp_path, game: str) -> None:
    """One mechanism for every game: B/C on the join screen, then the game's own bot (not
    the exhibition's random one) plays the computer's seat at that level."""
    cabinet, sim, _store, _lines = make_cabinet(tmp_path)
    assert cabinet.ctx.game_named(game).offers_computer()
    join = to_join(cabinet, sim, game)
    seat_computers(cabinet, sim, 1, Level.HARD)
    assert join.computers == {1: Level.HARD}
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.START)
    play = cabinet.scene
    assert isinstance(play, Play) and play.computers is not None
    bot = play.computers.bots[play.session.seat_of[1]]
    assert not isinstance(bot, RandomBot) and getattr(bot, "level", None) is Level.HARD
    assert play.session.names[play.session.seat_of[1]] == "CPU · HARD"


def test_the_computers_station_says_it_is_the_computer(tmp_path) -> None:
    cabinet, sim, _store, _lines = make_cabinet(tmp_path)
    join = to_join(cabinet, sim, "punch")
    seat_computers(cabinet, sim, 1, Level.HARD)
    size = cabinet._private_size
    assert join.private_image(1, size).tobytes() != join.private_image(0, size).tobytes()
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.START)
    play = cabinet.scene
    assert isinstance(play, Play)
    # The computer's display shows its tag, never its hand: the person beside it must not see it.
    hidden = play.private_image(1, size).tobytes()
    run_for(cabinet, sim, 3_000_000, render=False)
    assert play.private_image(1, size).tobytes() == hidden
    assert play.private_image(0, size).tobytes() != hidden


def test_a_person_at_the_computers_station_takes_its_seat(tmp_path) -> None:
    cabinet, sim, _store, _lines = make_cabinet(tmp_path)
    join = to_join(cabinet, sim, "punch")
    seat_computers(cabinet, sim, 1, Level.EXPERT)
    press(cabinet, sim, 1, Button.START)
    assert isinstance(cabinet.scene, Options) and cabinet.scene.computers == {}
    assert join.computers == {}


def test_the_host_stands_a_computer_up_with_d(tmp_path) -> None:
    cabinet, sim, _store, _lines = make_cabinet(tmp_path, stations=4)
    join = to_join(cabinet, sim, "karate_fight")
    seat_computers(cabinet, sim, 3, Level.HARD)
    assert join.computers == {1: Level.HARD, 2: Level.HARD, 3: Level.HARD}
    press(cabinet, sim, 0, Button.B)  # no free seat left: nothing happens
    assert len(join.computers) == 3 and cabinet.scene is join
    press(cabinet, sim, 0, Button.D)
    assert join.computers == {1: Level.HARD, 2: Level.HARD} and join.joined == [True, True, True, False]
    assert [look.name for look in join.screen(0).stations[1:3]] == ["CPU 1 · HARD", "CPU 2 · HARD"]


@pytest.mark.slow
def test_a_lone_karate_fighter_against_three_computers_plays_to_the_end(tmp_path) -> None:
    cabinet, sim, store, _lines = make_cabinet(tmp_path, stations=4)
    to_join(cabinet, sim, "karate_fight")
    seat_computers(cabinet, sim, 3, Level.EXPERT)
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.B)  # a 3-minute time limit: three equal experts could fight on for hours
    press(cabinet, sim, 0, Button.START)
    play = cabinet.scene
    assert isinstance(play, Play) and play.session.computers == {1: Level.EXPERT, 2: Level.EXPERT, 3: Level.EXPERT}
    play = play_out(cabinet, sim, person=0)
    session = play.session
    won = [e for _t, e in session.recent if isinstance(e, HitWon)]
    assert session.engine.over and won
    assert store.games_played() == {"karate_fight": 1}
    assert session.buffer.late == 0  # every computer slap reached the session inside its settle window


@pytest.mark.slow
def test_a_computer_slap_stamped_first_beats_a_persons_slap_that_arrived_first(tmp_path) -> None:
    """The computer's slap is stamped at reveal + its reaction and may reach the session
    up to a settle window later; a person's slap stamped 1 µs after it but handed over
    before it still loses: the settle window judges by stamp."""
    for seed in range(20):
        cabinet, sim, _store, _lines = make_cabinet(tmp_path / str(seed), seed=seed)
        play = Play.start(
            cabinet.ctx,
            cabinet.clock.now_us(),
            KarateControls(),
            KarateOptions(deal=deal_for_clumsy_hit(2)),
            (0, 1),
            {1: Level.EXPERT},
        )
        cabinet.scene = play
        press(cabinet, sim, 0, Button.A, settle_us=120_000)  # the person plays; the computer plays the Hit
        for _ in range(200):
            run_for(cabinet, sim, 10_000, render=True)
            if any(isinstance(e, HitShowing) for _t, e in play.session.recent):
                break
        assert any(isinstance(e, HitShowing) for _t, e in play.session.recent)
        queued = [ev for _arrive, _n, ev in play.hands._queue if isinstance(ev, SlapEvent)]
        arrive = play.hands.next_due()
        if len(queued) == 1 and arrive is not None and arrive - queued[0].t_us > 2:
            break
        sim.close()
    else:
        pytest.fail("no seed gave a computer slap that arrives after its stamp")
    (slap,) = queued
    assert cabinet.clock.now_us() < slap.t_us  # the computer's slap is still to come
    sim.slap(0, slap.t_us + 1, delay_us=0)  # the person: 1 µs later, handed over first
    run_for(cabinet, sim, slap.t_us + 1 - cabinet.clock.now_us())
    assert play.hands.next_due() == arrive and not any(isinstance(e, HitWon) for _t, e in play.session.recent)
    run_for(cabinet, sim, 1_000_000)
    (won,) = [e for _t, e in play.session.recent if isinstance(e, HitWon)]
    assert won.winner == 1
    report = play.session.engine.public_view().last_hit
    assert [r.fighter for r in report.reactions] == [1, 0] and report.margin_us == 1
    assert play.session.buffer.late == 0


def hit_against(cabinet: Cabinet, sim: SimCabinet, computers: dict[int, Level], person_slap_us: int) -> Play:
    """A two-fighter Karate game whose second card makes a Hit; the person at station 0
    slaps it ``person_slap_us`` after it shows.  Returns once the Hit is won."""
    play = Play.start(
        cabinet.ctx,
        cabinet.clock.now_us(),
        KarateControls(),
        KarateOptions(deal=deal_for_clumsy_hit(2)),
        (0, 1),
        computers,
    )
    cabinet.scene = play
    press(cabinet, sim, 0, Button.A, settle_us=120_000)
    if not computers:
        press(cabinet, sim, 1, Button.A, settle_us=120_000)
    for _ in range(300):
        shown = [e for _t, e in play.session.recent if isinstance(e, HitShowing)]
        if shown:
            break
        run_for(cabinet, sim, 10_000)
    sim.slap(0, shown[0].revealed_us + person_slap_us, delay_us=500)
    run_for(cabinet, sim, 2_000_000)
    assert any(isinstance(e, HitWon) for _t, e in play.session.recent)
    return play


@pytest.mark.slow
def test_games_against_the_computer_are_marked_and_kept_out_of_the_fastest_slaps(tmp_path) -> None:
    cabinet, sim, store, _lines = make_cabinet(tmp_path)
    hit_against(cabinet, sim, {1: Level.EXPERT}, person_slap_us=150_000)
    kept = store.db.execute("SELECT r.station, r.value, g.computers FROM records r JOIN games g ON g.id=r.game_id")
    kept = list(kept)
    assert {station for station, _v, _c in kept} == {0, 1}  # both slaps are kept with their game ...
    assert {computers for _s, _v, computers in kept} == {'{"1": "expert"}'}
    assert store.fastest("reaction") == []  # ... and rank in no fastest-slap list
    hit_against(cabinet, sim, {}, person_slap_us=250_000)  # people only: Blue never slaps
    assert [(station, value) for station, value, _at in store.fastest("reaction")] == [(0, 250_000)]
    attract = Attract(cabinet.ctx, cabinet.clock.now_us())
    assert attract.screen(cabinet.clock.now_us()).recent[0] == "Fastest slap: Red 250.0 ms"


def test_results_say_a_game_was_against_the_computer(tmp_path) -> None:
    cabinet, _sim, store, _lines = make_cabinet(tmp_path)
    store.finish_game(store.begin_game("punch", {}, 2, 1, (0, 1), {1: "hard"}), 1, "match_wins")
    store.finish_game(store.begin_game("punch", {}, 2, 2, (0, 1), {1: "easy"}), 0, "match_wins")
    store.finish_game(store.begin_game("punch", {}, 2, 3, (0, 1)), 0, "match_wins")
    assert [computers for *_r, computers in store.recent_results()] == [{}, {1: "easy"}, {1: "hard"}]
    assert Attract(cabinet.ctx, 0).screen(0).recent == (
        "Punch!: Red won (won on matches)",
        "Punch!: Red won (won on matches) vs CPU · EASY",
        "Punch!: CPU · HARD won (won on matches)",
    )
    assert store.wins_by_station("punch") == {0: 1}  # a station's wins are its people's, among people


def test_a_store_from_before_computer_players_is_migrated_and_its_games_kept(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Store(path)
    game = old.begin_game("karate_fight", {}, 2, 1, (0, 1))
    old.add_record(game, "reaction", 1, 180_000)
    old.finish_game(game, 1, "karate_master")
    old.db.execute("ALTER TABLE games DROP COLUMN computers")  # as schema 1 wrote it
    old.db.execute("PRAGMA user_version=1")
    old.close()
    assert inspect(path) is None  # a schema-1 store is sound, not damaged
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert [value for _s, value, _at in store.fastest("reaction")] == [180_000]  # people only, as it was
    assert store.recent_results() == [("karate_fight", 1, "karate_master", {})]
    store.close()


def test_a_schema_1_store_missing_a_column_it_had_is_damaged(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Store(path)
    old.db.execute("ALTER TABLE games DROP COLUMN computers")
    old.db.execute("ALTER TABLE games DROP COLUMN reason")
    old.db.execute("PRAGMA user_version=1")
    old.close()
    problem = inspect(path)
    assert problem is not None and problem.damaged and "lacks reason" in problem.reason


@pytest.mark.slow
def test_attract_demos_play_every_game_and_start_interrupts_them(tmp_path) -> None:
    cabinet, sim, store, lines = make_cabinet(tmp_path)
    played: list[str] = []
    seen_moves: dict[str, int] = {}

    def watch(t: int, is_frame: bool) -> None:
        demo = cabinet.scene.demo if isinstance(cabinet.scene, Attract) else None
        if demo is None:
            return
        game = demo.session.controls.spec.name
        if not played or played[-1] != game:
            played.append(game)
        seen_moves[game] = max(seen_moves.get(game, 0), len(demo.session.engine.journal))

    games = [g.spec.name for g in cabinet.ctx.games]
    cycle = len(games) * (TITLE_US + DEMO_US + GAME_OVER_HOLD_US)
    VirtualTimeDriver(cabinet, FRAME_US).run_until(cabinet.clock.now_us() + cycle, after_step=watch)
    assert played[: len(games)] == games  # every offered game, in select-screen order
    assert all(seen_moves[g] >= 3 for g in games)  # real play, not a still picture
    assert isinstance(cabinet.scene, Attract)
    assert store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0  # demos are never recorded
    assert not any(line.startswith("==") for line in lines)  # nor logged as games
    # START in the middle of a demo starts the select screen at once.
    VirtualTimeDriver(cabinet, FRAME_US).run_until(cabinet.clock.now_us() + TITLE_US + 2_000_000)
    attract = cabinet.scene
    assert isinstance(attract, Attract) and attract.demo is not None
    frame = cabinet.renderer.draw(attract.screen(cabinet.clock.now_us()))
    assert tuple(frame.get_at((640, frame.get_height() - DEMO_BAND)))[:3] == theme.GOLD  # the DEMO band
    sim.press(2 % len(cabinet.ctx.looks), Button.START, cabinet.clock.now_us())
    cabinet.step(cabinet.clock.now_us() + 1)
    assert isinstance(cabinet.scene, Select) and cabinet.scene.host == 2 % len(cabinet.ctx.looks)


@pytest.mark.slow
def test_the_attract_demo_leaves_the_private_displays_alone(tmp_path) -> None:
    """A demo redraws the main screen every frame; the OLEDs (a slow I2C bus) only on
    entering the attract mode."""
    cabinet, sim, _store, _lines = make_cabinet(tmp_path)
    drawn = []
    show = sim.show_private
    sim.show_private = lambda station, image: (drawn.append(station), show(station, image))
    VirtualTimeDriver(cabinet, FRAME_US).run_until(cabinet.clock.now_us() + TITLE_US + 10_000_000)
    assert cabinet.scene.demo is not None and len(cabinet.scene.demo.session.engine.journal) > 0
    assert len(drawn) == len(cabinet.ctx.looks)


# -- issue 23: every display says the true thing -------------------------------------------------
def test_select_and_options_tell_each_station_what_its_start_does(tmp_path) -> None:
    """Every private display said "Press START to play" on the options screen while only
    the host's START did anything: the host is told what its buttons do, the others that
    the host chooses; and a second station's START really does nothing there."""
    from display.private import image_text

    cabinet, sim, _store, _lines = make_cabinet(tmp_path, stations=4)
    size = cabinet._private_size
    press(cabinet, sim, 0, Button.START)
    select = cabinet.scene
    assert isinstance(select, Select)
    assert "START: play it" in image_text(select.private_image(0, size))
    assert "Red chooses" in image_text(select.private_image(2, size))
    press(cabinet, sim, 0, Button.START)  # Punch!
    press(cabinet, sim, 1, Button.START)  # Blue joins: two players, the options screen
    options = cabinet.scene
    assert isinstance(options, Options)
    shown = {station: image_text(options.private_image(station, size)) for station in range(4)}
    assert "START: fight!" in shown[0]
    assert "Red sets the rules" in shown[1] and "You are in!" in shown[1]
    assert "Not in this fight" in shown[2]
    assert not any("Press START" in line for lines in shown.values() for line in lines)
    press(cabinet, sim, 1, Button.START)
    assert cabinet.scene is options  # as its display says: Blue's START does not start the fight


def test_the_computer_is_called_by_one_name_on_every_screen(tmp_path) -> None:
    from display.private import image_text

    cabinet, sim, _store, _lines = make_cabinet(tmp_path)
    join = to_join(cabinet, sim, "punch")
    seat_computers(cabinet, sim, 1, Level.NORMAL)
    size = cabinet._private_size
    name = join.screen(0).stations[1].name
    assert name == "CPU · NORMAL" and name in image_text(join.private_image(1, size))
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.START)
    play = cabinet.scene
    assert isinstance(play, Play) and play.session.names[1] == name
    assert name in image_text(play.private_image(1, size))
