"""Big Time Boxing at the simulated cabinet, through the whole stack: mock pins → debounce
→ scenes → session → journal → engine → ring display, LED bars and private displays.

Fights are stacked (first deal and Result deck prearranged, boxer 0 first) so each test
reaches its situation in a few presses."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace

import pygame
import pytest

from display.games.big_time_boxing.private import Mode
from display.private import draw_private, image_text
from display.renderer import Renderer
from firmware_py.games.big_time_boxing.controls import SLOT_BUTTONS, BigTimeBoxingControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.computer_players import ComputerPlayers
from firmware_py.runtime.result_picture import result_picture_path
from firmware_py.runtime.scenes import GAME_OVER_HOLD_US, Play, Result
from firmware_py.runtime.store import Store
from games.big_time_boxing import (
    CARDS,
    AttributeDraw,
    BigHit,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    ChooseAttribute,
    Clinch,
    Column,
    Combo,
    CoverUp,
    Defend,
    Defended,
    Effect,
    Escaped,
    Feature,
    MoveAway,
    Passed,
    Phase,
    Position,
    Punch,
    PunchThrown,
    Released,
    ResultDrawn,
    Throw,
    Trapped,
    UseAttribute,
    Window,
    WindowClosed,
    WindowOpened,
)
from games.big_time_boxing.bot import BoxerBot
from games.levels import Level
from games.protocol import CABINET, Event
from hal.events import Button
from tests.cabinet_driving import FRAME_US, press, run_for, start_game, start_session
from tests.games.big_time_boxing.helpers import boxer, result, stacked

ANSWER_US = 4_000_000
HOOK = boxer(Punch.HOOK, Feature.HUB_DEFENSE)
"""A 2-energy Hook with no combo icon: thrown, answered, landed, turn over."""
HUB_DEFENSE = boxer(Punch.BODY_BLOW, Feature.HUB_DEFENSE)
JAB_COMBO = boxer(Punch.JAB, Feature.COMBO_A)
CROSS_COMBO = boxer(Punch.CROSS, Feature.COMBO_A)
CROSS_PLAIN = boxer(Punch.CROSS, Feature.JC_DEFENSE)
ESCAPE_ROPES = boxer(Punch.JAB, Feature.ESCAPE_ROPES)


def fight(cabinet: Cabinet, **stack) -> Play:
    """A stacked fight between stations 0 (Red, first) and 1 (Blue), straight into play."""
    options = replace(stacked(**stack).options, answer_us=ANSWER_US)
    return start_session(cabinet, BigTimeBoxingControls(), options, (0, 1))


def engine(play: Play) -> BigTimeBoxing:
    return play.session.engine


def slot(play: Play, seat: int, card: int) -> Button:
    return SLOT_BUTTONS[engine(play).view(seat).hand.index(card)]


def events_of(play: Play, kind: type, since_us: int = 0) -> list[tuple[int, Event]]:
    return [(t, e) for t, e in play.session.recent if isinstance(e, kind) and t >= since_us]


def notices(play: Play, sim) -> list[tuple[int, str]]:
    """The refusals the seats' private displays show now, the newest last."""
    return [(seat, text) for seat, (_until, text) in play.session.refusals.items()]


def lit(sim, station: int) -> float:
    return sum(sim.led_levels(station))


# -- a turn at the cabinet ------------------------------------------------------------------
def test_menus_lead_to_a_big_time_boxing_fight_with_its_options(cabinet: Cabinet, sim) -> None:
    play = start_game(cabinet, sim, "big_time_boxing")
    assert play.session.seats == (0, 1)
    assert isinstance(engine(play), BigTimeBoxing)
    assert engine(play).options.answer_us == 4_000_000  # the options menu's first choice
    assert engine(play).public_view().phase is Phase.TURN


def test_a_slot_button_throws_that_card_and_the_token_moves_itself(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    assert engine(play).public_view().boxers[0].position is Position.OUTSIDE
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert engine(play).journal[-1] == Throw(0, HOOK)
    view = engine(play).public_view()
    assert view.boxers[0].position is Position.INSIDE  # a Hook is thrown from I/S
    assert view.phase is Phase.RESPONSE and view.window_player == 1
    assert play.session.led_levels() == {0: pytest.approx(10 / 12), 1: 1.0}  # Round Energy 10 and 12 of 12
    assert (lit(sim, 0), lit(sim, 1)) == (8, 10)  # the shipped bars light whole segments (no PWM)


def test_start_lets_the_punch_land_and_the_result_card_is_read(cabinet: Cabinet, sim) -> None:
    draw = result(lambda r: r.value(Punch.HOOK, Column.OS_IS) == 2)
    play = fight(cabinet, hand0=[HOOK], draws=[draw])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    press(cabinet, sim, 1, Button.START)
    (_t, landed), *_ = events_of(play, ResultDrawn)
    assert (landed.card, landed.punch, landed.value) == (draw, Punch.HOOK, 2)
    assert engine(play).public_view().boxers[1].damage == 2
    assert engine(play).public_view().active == 1  # Blue's turn now


def test_a_defense_card_on_its_button_cancels_the_punch(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK], hand1=[HUB_DEFENSE])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    press(cabinet, sim, 1, slot(play, 1, HUB_DEFENSE))
    assert [e for _t, e in events_of(play, Defended)] == [Defended(1, HUB_DEFENSE, Punch.HOOK)]
    assert not events_of(play, ResultDrawn)
    assert engine(play).public_view().active == 1


# -- windows: timed at the cabinet, leaking nothing ----------------------------------------------
def response_window_us(cabinet: Cabinet, sim, defender_hand: list[int]) -> tuple[int, bool]:
    """Red throws a Hook and Blue presses nothing: how long the response window stays
    open, and whether Blue could have defended."""
    play = fight(cabinet, hand0=[HOOK], hand1=defender_hand)
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    could_defend = any(isinstance(a, Defend) for a in engine(play).legal_actions(1))
    ((opened, _),) = events_of(play, WindowOpened)
    run_for(cabinet, sim, ANSWER_US - 300_000)
    assert CABINET in engine(play).to_act() and not events_of(play, Passed)  # still open
    run_for(cabinet, sim, 300_000)
    ((closed, passed),) = events_of(play, Passed)
    assert passed == Passed(1, Window.RESPONSE, timed_out=True)
    assert engine(play).journal[-1] == WindowClosed()
    return closed - opened, could_defend


@pytest.mark.slow
def test_timing_leaks_nothing_a_defender_without_a_defense_gets_the_full_window(cabinet: Cabinet, sim) -> None:
    """The window never closes early because the defender holds no legal defense: it
    lasts exactly as long as for a defender who holds one and does not play it."""
    no_defense, could = response_window_us(cabinet, sim, [])
    assert not could
    with_defense, could = response_window_us(cabinet, sim, [HUB_DEFENSE])
    assert could
    assert no_defense == with_defense
    assert ANSWER_US <= no_defense < ANSWER_US + FRAME_US


def test_the_defender_holding_nothing_sees_every_card_of_his_hand_unmarked_while_the_window_runs(
    cabinet: Cabinet, sim
) -> None:
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    text = image_text(draw_private(play.session.controls.private_screen(engine(play), 1)))
    assert text[0] == "DEFEND HOOK (CLOSE)?" and text[-1] == "START = let it land"
    assert all(row[1] == " " for row in text[1:5])  # no card of his answers a Hook
    run_for(cabinet, sim, ANSWER_US // 2)
    assert engine(play).public_view().phase is Phase.RESPONSE


@pytest.mark.slow
def test_the_answer_time_is_an_option_of_the_fight(cabinet: Cabinet, sim) -> None:
    options = replace(stacked(hand0=[HOOK]).options, answer_us=8_000_000)
    play = start_session(cabinet, BigTimeBoxingControls(), options, (0, 1))
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    run_for(cabinet, sim, 7_000_000)
    assert engine(play).public_view().phase is Phase.RESPONSE
    run_for(cabinet, sim, 1_000_000)
    assert engine(play).public_view().phase is Phase.TURN


def test_the_combo_window_is_the_punchers_and_a_slot_adds_the_second_punch(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[JAB_COMBO, CROSS_COMBO])
    press(cabinet, sim, 0, slot(play, 0, JAB_COMBO))
    press(cabinet, sim, 1, Button.START)  # Blue lets the Jab through
    view = engine(play).public_view()
    assert view.phase is Phase.COMBO and view.window_player == 0
    press(cabinet, sim, 0, slot(play, 0, CROSS_COMBO))
    assert engine(play).journal[-1] == Combo(0, CROSS_COMBO)
    assert [e.punch for _t, e in events_of(play, ResultDrawn)] == [Punch.JAB, Punch.CROSS]


@pytest.mark.slow
def test_a_combo_window_with_nothing_to_add_still_runs_its_full_length(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[JAB_COMBO])
    press(cabinet, sim, 0, slot(play, 0, JAB_COMBO))
    press(cabinet, sim, 1, Button.START)
    ((opened, window),) = events_of(play, WindowOpened, sim.clock.now_us() - 200_000)
    assert window.window is Window.COMBO and not any(isinstance(a, Combo) for a in engine(play).legal_actions(0))
    run_for(cabinet, sim, ANSWER_US)
    ((closed, passed),) = events_of(play, Passed, opened + 1)
    assert passed == Passed(0, Window.COMBO, timed_out=True)
    assert ANSWER_US <= closed - opened < ANSWER_US + FRAME_US


def test_on_the_ropes_the_trapped_boxer_escapes_with_his_card(cabinet: Cabinet, sim) -> None:
    big = result(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 3)
    ropes = result(lambda r: r.big_hit is BigHit.ON_THE_ROPES, skip=[big])
    play = fight(cabinet, hand0=[CROSS_PLAIN], hand1=[ESCAPE_ROPES], draws=[big, ropes])
    press(cabinet, sim, 0, slot(play, 0, CROSS_PLAIN))
    press(cabinet, sim, 1, Button.START)
    assert next(e for _t, e in events_of(play, Trapped)).player == 1
    view = engine(play).public_view()
    assert view.phase is Phase.ESCAPE and view.boxers[1].position is Position.ON_THE_ROPES
    press(cabinet, sim, 1, slot(play, 1, ESCAPE_ROPES))
    assert [e for _t, e in events_of(play, Escaped)] == [Escaped(1, ESCAPE_ROPES)]
    assert events_of(play, Released)
    assert {b.position for b in engine(play).public_view().boxers} == {Position.OUTSIDE}


@pytest.mark.slow
def test_on_the_ropes_without_an_escape_start_stays_and_each_punch_has_its_own_window(cabinet: Cabinet, sim) -> None:
    big = result(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 3)
    ropes = result(lambda r: r.big_hit is BigHit.ON_THE_ROPES, skip=[big])
    play = fight(cabinet, hand0=[CROSS_PLAIN], draws=[big, ropes])
    press(cabinet, sim, 0, slot(play, 0, CROSS_PLAIN))
    press(cabinet, sim, 1, Button.START)
    press(cabinet, sim, 1, Button.START)  # stays on the ropes
    opened = [e for _t, e in events_of(play, WindowOpened)]
    assert opened[-1] == WindowOpened(Window.TRAPPED_RESPONSE, 1, Punch.JAB)
    run_for(cabinet, sim, ANSWER_US + FRAME_US)  # the Jab's window runs out: it lands
    assert [e.punch for _t, e in events_of(play, ResultDrawn)][-1] is Punch.JAB


# -- refusals, with words ---------------------------------------------------------------------
def test_a_card_that_cannot_answer_is_refused_in_words_and_the_window_stays_open(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    journal = len(engine(play).journal)
    press(cabinet, sim, 1, Button.A)
    assert len(engine(play).journal) == journal and engine(play).public_view().phase is Phase.RESPONSE
    assert notices(play, sim) == [(1, "That card cannot defend a Hook")]
    press(cabinet, sim, 0, Button.B)  # the puncher waits for the answer
    assert (0, "Wait: the other boxer's move") in notices(play, sim)


def test_a_punch_beyond_the_round_energy_and_a_clinch_at_full_energy_are_refused(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, Button.F)
    assert notices(play, sim) == [(0, "Clinch only at Round Energy 1 or 2")]
    engine(play).boxers[0].round_energy = 1  # late in a round
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert notices(play, sim) == [(0, "Not enough Round Energy (1) for that punch")]
    assert not events_of(play, PunchThrown)


def test_e_then_a_card_moves_away_and_f_then_a_card_clinches_or_covers_up(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    controls = play.session.controls
    press(cabinet, sim, 0, Button.E)
    assert controls.held(engine(play), 0).mode is Mode.MOVE_AWAY
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert engine(play).journal[-1] == MoveAway(0, HOOK)
    card = engine(play).view(1).hand[1]
    engine(play).boxers[1].round_energy = 2
    press(cabinet, sim, 1, Button.F)
    press(cabinet, sim, 1, Button.B)
    assert engine(play).journal[-1] == Clinch(1, card)
    card = engine(play).view(0).hand[2]
    engine(play).boxers[0].round_energy = 0
    press(cabinet, sim, 0, Button.A)
    assert notices(play, sim)[-1] == (0, "Round Energy 0: F, then a card, to Cover Up")
    press(cabinet, sim, 0, Button.F)
    press(cabinet, sim, 0, Button.C)
    assert engine(play).journal[-1] == CoverUp(0, card)


def test_pressing_e_again_takes_the_move_away_back(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, Button.E)
    press(cabinet, sim, 0, Button.E)  # no saving without the optional rule: back to nothing held
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert engine(play).journal[-1] == Throw(0, HOOK)


# -- the displays ----------------------------------------------------------------------------------
def test_private_displays_show_each_boxer_his_own_hand_with_what_he_may_throw(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    run_for(cabinet, sim, 50_000)
    for station in (0, 1):
        expected = draw_private(play.session.controls.private_screen(engine(play), station), (128, 64))
        assert sim.private[station].image.tobytes() == expected.convert("1").tobytes()
    red = image_text(draw_private(play.session.controls.private_screen(engine(play), 0)))
    assert red[0] == "YOUR TURN  Energy 12" and red[-1] == "E Move Away"
    assert red[1 + engine(play).view(0).hand.index(HOOK)].startswith(f"{slot(play, 0, HOOK).value}>Hook  2 Stops close")
    blue = image_text(draw_private(play.session.controls.private_screen(engine(play), 1)))
    assert blue[0] == "OTHER BOXER'S TURN"
    assert sim.private[0].image.tobytes() != sim.private[1].image.tobytes()


def test_the_ring_counts_the_window_down(cabinet: Cabinet, sim) -> None:
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    renderer = Renderer()
    shots = []
    for _ in range(2):
        shots.append(pygame.image.tobytes(renderer.draw(play.session.screen(sim.clock.now_us())), "RGB"))
        run_for(cabinet, sim, 1_000_000, render=False)
    assert shots[0] != shots[1]  # the countdown moved on


# -- a whole fight: records, the score sheet, the result ----------------------------------------------
def play_out(cabinet: Cabinet, sim, play: Play, seed: int = 1) -> None:
    """Computer boxers at both stations press their buttons until the fight is over."""
    bots = (BoxerBot(seed), BoxerBot(seed + 1))
    controls = play.session.controls
    while not engine(play).over:
        (seat,) = engine(play).seats_to_act()
        action = bots[seat].choose(engine(play), seat)
        for button in controls.bot_presses(engine(play), seat, action):
            press(cabinet, sim, seat, button, 160_000)


@pytest.mark.slow
def test_a_whole_fight_records_round_scores_and_keeps_the_score_sheet_beside_the_record(
    cabinet: Cabinet, sim, store: Store, config
) -> None:
    play = start_session(cabinet, BigTimeBoxingControls(), BigTimeBoxingOptions(), (0, 1))
    play_out(cabinet, sim, play)
    run_for(cabinet, sim, GAME_OVER_HOLD_US + 200_000, render=False)
    assert isinstance(cabinet.scene, Result)
    view = engine(play).public_view()
    rows = store.db.execute(
        "SELECT station, value, detail FROM records WHERE game_id=? AND kind='round_score' ORDER BY id",
        (play.session.game_id,),
    ).fetchall()
    assert [(s, v) for s, v, _d in rows] == [(seat, r.scores[seat]) for r in view.scorecard for seat in (0, 1)]
    winner, reason = store.db.execute(
        "SELECT winner_station, reason FROM games WHERE id=?", (play.session.game_id,)
    ).fetchone()
    assert (winner, reason) == (view.winner, view.finish.value)
    sheet = result_picture_path(config.data_dir, play.session.game_id, "score-sheet")
    assert sheet.is_file()
    kept = pygame.image.load(str(sheet))
    shown = Renderer().draw(cabinet.scene.screen(sim.clock.now_us()))
    assert pygame.image.tobytes(kept, "RGB") == pygame.image.tobytes(shown, "RGB")  # the result screen is the sheet


@pytest.mark.slow
def test_a_score_sheet_that_cannot_be_kept_is_logged_and_the_cabinet_goes_on(config, sim, clock, tmp_path) -> None:
    (config.data_dir).mkdir(parents=True, exist_ok=True)
    (config.data_dir / "results").write_text("a file where the folder should be")
    lines: list[str] = []
    cabinet = Cabinet(config, sim, clock, Store(config.data_dir / "s.sqlite3"), log=lines.append, seed=1)
    play = start_session(cabinet, BigTimeBoxingControls(), BigTimeBoxingOptions(), (0, 1))
    play_out(cabinet, sim, play, seed=5)
    run_for(cabinet, sim, GAME_OVER_HOLD_US + 200_000, render=False)
    assert isinstance(cabinet.scene, Result)
    assert any(line.startswith("score-sheet not kept") for line in lines)


@pytest.mark.slow
def test_a_power_cut_mid_window_resumes_with_the_window_open_for_its_full_time(config, sim, clock) -> None:
    path = config.data_dir / "ringside.sqlite3"
    cabinet = Cabinet(config, sim, clock, Store(path), log=lambda _l: None, seed=3)
    play = fight(cabinet, hand0=[HOOK])
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    run_for(cabinet, sim, 3_000_000)
    before = engine(play).public_view()
    again = Cabinet(config, sim, clock, Store(path), log=lambda _l: None, seed=4)
    assert isinstance(again.scene, Play)
    assert again.scene.session.engine.public_view() == before
    run_for(again, sim, ANSWER_US - 200_000)
    assert again.scene.session.engine.public_view().phase is Phase.RESPONSE
    run_for(again, sim, 400_000)
    assert again.scene.session.engine.public_view().phase is Phase.TURN


def test_an_unrecorded_press_is_not_played(cabinet: Cabinet, sim, store: Store, monkeypatch) -> None:
    play = fight(cabinet, hand0=[HOOK])

    def disk_full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "commit_action", disk_full)
    view = engine(play).public_view()
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert engine(play).public_view() == view
    assert (0, "Not recorded: press again") in notices(play, sim)


# -- one player against the computer boxer ---------------------------------------------------------
LEVELS = list(Level)


def start_against_the_computer(cabinet: Cabinet, sim, level: Level = Level.NORMAL) -> Play:
    """From attract: station 0 picks Big Time Boxing, B seats the computer (normal), C
    turns its level to ``level``, A fights."""
    press(cabinet, sim, 0, Button.START)
    for _ in range([g.spec.name for g in cabinet.ctx.games].index("big_time_boxing")):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 0, Button.B)
    for _ in range((LEVELS.index(level) - LEVELS.index(Level.NORMAL)) % len(LEVELS)):
        press(cabinet, sim, 0, Button.C)
    join = cabinet.scene.screen(sim.clock.now_us())
    assert join.computers == (False, True) and join.stations[1].name == f"CPU · {level.name}"
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.START)  # the options as they are
    assert isinstance(cabinet.scene, Play)
    return cabinet.scene


@pytest.mark.slow
def test_a_lone_player_fights_the_computer_boxer_which_answers_by_itself(cabinet: Cabinet, sim, store: Store) -> None:
    play = start_against_the_computer(cabinet, sim)
    assert play.session.seats == (0, 1) and play.session.computers == {1: Level.NORMAL}
    assert play.computers is not None and isinstance(play.computers.bots[1], BoxerBot)
    assert play.computers.bots[1].level is Level.NORMAL
    assert play.session.names == ("Red", "CPU · NORMAL")
    (computers,) = store.db.execute("SELECT computers FROM games WHERE id=?", (play.session.game_id,)).fetchone()
    assert computers == '{"1": "normal"}'
    human, moves = BoxerBot(9), 0
    while moves < 20 and not engine(play).over:  # Red's moves; the computer plays its own in between
        if engine(play).seats_to_act() == {0}:
            action = human.choose(engine(play), 0)
            for button in play.session.controls.bot_presses(engine(play), 0, action):
                press(cabinet, sim, 0, button, 160_000)
            moves += 1
        asked = len(engine(play).journal)
        run_for(cabinet, sim, 2_300_000, render=False)
        if engine(play).seats_to_act() == {1}:
            assert len(engine(play).journal) > asked, "the computer answers within its think time"
    computer_moves = [a for a in engine(play).journal if a.player == 1]
    assert len(computer_moves) >= 10  # and nobody pressed a button at station 1
    text = image_text(play.private_image(1, (128, 64)))
    assert "plays here" in text and not any(">" in line for line in text)  # never its hand


def test_the_computer_takes_as_long_to_let_a_punch_land_as_to_defend_it(cabinet: Cabinet, sim) -> None:
    """Its think time is drawn without looking at its hand: the same seed answers at the
    same µs whether it holds a defense (and plays it) or holds none."""
    answers = []
    for hand1 in ([], [HUB_DEFENSE]):
        play = fight(cabinet, hand0=[HOOK], hand1=hand1)
        play.computers = ComputerPlayers(play.session.controls, {1: Level.EXPERT}, play.hands, random.Random(1))
        press(cabinet, sim, 0, slot(play, 0, HOOK))
        ((opened, _),) = events_of(play, WindowOpened)
        run_for(cabinet, sim, ANSWER_US - 300_000, render=False)
        ((answered, what),) = [(t, e) for t, e in play.session.recent if isinstance(e, (Passed, Defended))]
        answers.append((answered - opened, type(what)))
    assert answers[0][0] == answers[1][0]
    assert [kind for _dt, kind in answers] == [Passed, Defended]


def test_a_fight_against_the_computer_resumes_against_the_computer(config, sim, clock) -> None:
    path = config.data_dir / "ringside.sqlite3"
    cabinet = Cabinet(config, sim, clock, Store(path), log=lambda _l: None, seed=3)
    play = start_against_the_computer(cabinet, sim, Level.EXPERT)
    again = Cabinet(config, sim, clock, Store(path), log=lambda _l: None, seed=4)
    assert isinstance(again.scene, Play)
    assert again.scene.session.computers == {1: Level.EXPERT}
    assert again.scene.computers is not None and again.scene.computers.bots[1].level is Level.EXPERT
    assert again.scene.session.names == ("Red", "CPU · EXPERT")
    assert again.scene.session.game_id == play.session.game_id


def test_a_second_person_joining_takes_the_computers_place(cabinet: Cabinet, sim) -> None:
    press(cabinet, sim, 0, Button.START)
    for _ in range([g.spec.name for g in cabinet.ctx.games].index("big_time_boxing")):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 0, Button.B)  # the computer, normal
    press(cabinet, sim, 1, Button.START)  # Blue walks up and takes its seat: two people, on to the options
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Play) and cabinet.scene.session.computers == {}
    assert cabinet.scene.computers is None
    assert cabinet.scene.session.names == ("Red", "Blue")


# -- optional rules at the cabinet --------------------------------------------------------------------
@pytest.mark.slow
def test_attribute_cards_are_picked_with_a_b_and_start_and_played_with_f_then_start(cabinet: Cabinet, sim) -> None:
    options = replace(stacked(hand0=[HOOK]).options, attributes=AttributeDraw.CHOSEN, answer_us=ANSWER_US)
    play = start_session(cabinet, BigTimeBoxingControls(), options, (0, 1))
    controls = play.session.controls
    second_wind = next(a.id for a in CARDS.attributes if a.boxer == 0 and a.effect is Effect.SECOND_WIND)
    while engine(play).public_view().phase is Phase.DRAFT:
        seat = engine(play).public_view().drafting
        if seat == 0 and second_wind not in engine(play).boxers[0].attributes:
            while controls.browsing(engine(play), 0) != second_wind:
                press(cabinet, sim, 0, Button.B)
            oled = image_text(draw_private(controls.private_screen(engine(play), 0)))
            assert oled[1] == "Second Wind" and oled[-1] == "A/B browse START pick"
        shown = controls.browsing(engine(play), seat)
        press(cabinet, sim, seat, Button.START)
        assert engine(play).journal[-1] == ChooseAttribute(seat, shown)
    assert second_wind in engine(play).boxers[0].attributes
    engine(play).boxers[0].round_energy = 5  # spent in the round
    press(cabinet, sim, 0, Button.F)  # no Clinch at 5: F goes straight to the Attribute card
    oled = image_text(draw_private(controls.private_screen(engine(play), 0)))
    assert oled[0] == "USE SECOND WIND?"
    press(cabinet, sim, 0, Button.START)
    assert engine(play).journal[-1] == UseAttribute(0, second_wind)
    assert engine(play).public_view().boxers[0].round_energy == 8


def test_saving_a_card_for_later_is_e_twice_then_the_card(cabinet: Cabinet, sim) -> None:
    options = replace(stacked(hand0=[HOOK]).options, saving_for_later=True, answer_us=ANSWER_US)
    play = start_session(cabinet, BigTimeBoxingControls(), options, (0, 1))
    press(cabinet, sim, 0, Button.E)
    press(cabinet, sim, 0, Button.E)
    assert play.session.controls.held(engine(play), 0).mode is Mode.SAVE
    press(cabinet, sim, 0, slot(play, 0, HOOK))
    assert engine(play).journal[-1] == MoveAway(0, HOOK, save=True)
    press(cabinet, sim, 1, Button.E)
    press(cabinet, sim, 1, Button.A)  # Blue moves away too: Red's turn again
    press(cabinet, sim, 0, Button.START)
    assert notices(play, sim)[-1] == (0, "A saved card plays from the next round")
