"""Punch! at the simulated cabinet, through the whole stack: mock pins → debounce →
scenes → session → journal → engine → main display, LED bars and private displays."""

from __future__ import annotations

import sqlite3

import pytest

from display.private import draw_private, image_text
from firmware_py.games.punch.controls import PunchControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import GAME_OVER_HOLD_US, Play
from firmware_py.runtime.session import REFUSAL_US
from firmware_py.runtime.store import Store
from games.punch import Card, Phase, PunchOptions
from games.punch.actions import PlayCard, Redeal
from games.punch.events import CardsRevealed
from hal.events import ACTION_BUTTONS, Button
from tests.cabinet_driving import press, run_for, start_game, start_session
from tests.display.hint_player import named_keys


def button_for(card: Card) -> Button:
    return ACTION_BUTTONS[card.index]


def settle_redeals(cabinet, sim, play: Play) -> None:
    """Keep any offered re-deal so play reaches the first exchange."""
    while play.session.engine.public_view().phase is Phase.REDEAL:
        for seat in sorted(play.session.engine.to_act()):
            press(cabinet, sim, play.session.seats[seat], Button.START)


def held_card(play: Play, seat: int) -> Card:
    hand = play.session.engine.view(seat).hand
    return next(c for c in Card if hand[c.index] > 0)


def missing_card(play: Play, seat: int) -> Card | None:
    hand = play.session.engine.view(seat).hand
    return next((c for c in Card if hand[c.index] == 0), None)


def play_exchange(cabinet, sim, play: Play) -> tuple[Card, Card]:
    cards = (held_card(play, 0), held_card(play, 1))
    press(cabinet, sim, 0, button_for(cards[0]))
    press(cabinet, sim, 1, button_for(cards[1]))
    return cards


def test_menus_lead_to_a_punch_game_between_the_two_stations(cabinet: Cabinet, sim) -> None:
    play = start_game(cabinet, sim)
    assert play.session.seats == (0, 1)
    assert play.session.engine.public_view().phase in (Phase.REDEAL, Phase.EXCHANGE)


def test_secret_choices_revealed_together_and_stamina_on_led_bars(cabinet: Cabinet, sim) -> None:
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)
    first = held_card(play, 0)
    press(cabinet, sim, 0, button_for(first))
    view = play.session.engine.public_view()
    assert view.locked == (True, False)
    assert view.last_reveal is None  # nothing shown until both have chosen
    assert first.label not in str(play.session.screen(0))  # the main display keeps it secret
    second = held_card(play, 1)
    press(cabinet, sim, 1, button_for(second))
    view = play.session.engine.public_view()
    assert view.last_reveal == (first, second)
    assert any(isinstance(e, CardsRevealed) for _t, e in play.session.recent)
    for seat in (0, 1):
        lit = sum(1 for level in sim.led_levels(seat) if level > 0)
        assert lit == view.stamina[seat]


def test_a_kind_not_in_hand_is_refused_with_visible_feedback(cabinet: Cabinet, sim) -> None:
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)
    for _ in range(10):
        absent = missing_card(play, 0)
        if absent is not None:
            break
        play_exchange(cabinet, sim, play)
    assert absent is not None
    journal = len(play.session.engine.journal)
    press(cabinet, sim, 0, button_for(absent))
    assert len(play.session.engine.journal) == journal
    said = f"You have no {absent.label} left"
    assert play.session.refusal(0) == said and play.session.refusal(1) == ""
    # Said on that boxer's own display, over its "play …" foot, never on the main screen.
    shown = " ".join(image_text(sim.private[0].image) or ())
    assert said in shown and "play " not in shown
    assert said not in " ".join(image_text(sim.private[1].image) or ())
    assert said not in str(play.session.screen(sim.clock.now_us()))
    run_for(cabinet, sim, REFUSAL_US + 100_000)  # then the display shows the hand again
    foot = (image_text(sim.private[0].image) or ("",))[-1]  # the keys of the cards held, not that one's
    assert "play " in foot and button_for(absent).name not in named_keys([foot]), foot


def test_private_display_shows_only_that_players_hand(cabinet: Cabinet, sim) -> None:
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)
    run_for(cabinet, sim, 50_000)
    for station in (0, 1):
        expected = draw_private(play.session.controls.private_screen(play.session.engine, station), (128, 64))
        assert sim.private[station].image.tobytes() == expected.convert("1").tobytes()
    hands = [play.session.engine.view(s).hand for s in (0, 1)]
    if hands[0] != hands[1]:
        assert sim.private[0].image.tobytes() != sim.private[1].image.tobytes()


def test_action_not_recorded_is_not_played(cabinet: Cabinet, sim, store: Store, monkeypatch) -> None:
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)

    def disk_full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "commit_action", disk_full)
    before = len(play.session.engine.journal)
    view = play.session.engine.public_view()
    press(cabinet, sim, 0, button_for(held_card(play, 0)))
    assert len(play.session.engine.journal) == before
    assert play.session.engine.public_view() == view  # the decision was rolled back
    assert play.session.store_errors == 1
    assert play.session.refusal(0) == "Not recorded: press again"


@pytest.mark.slow
def test_power_cut_resumes_the_game_where_it_was(config, sim, clock) -> None:
    path = config.data_dir / "ringside.sqlite3"
    store = Store(path)
    cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=11)
    play = start_game(cabinet, sim)
    settle_redeals(cabinet, sim, play)
    for _ in range(4):
        play_exchange(cabinet, sim, play)
    press(cabinet, sim, 0, button_for(held_card(play, 0)))  # a secret choice, locked in
    before_public = play.session.engine.public_view()
    before_hands = [play.session.engine.view(s) for s in (0, 1)]
    # Power cut: nothing is closed or flushed by us; a new process opens the same file.
    again = Cabinet(config, sim, clock, Store(path), log=lambda _l: None, seed=99)
    assert isinstance(again.scene, Play)
    assert again.scene.session.engine.public_view() == before_public
    assert [again.scene.session.engine.view(s) for s in (0, 1)] == before_hands
    assert again.scene.session.game_id == play.session.game_id


@pytest.mark.slow
def test_a_game_walked_away_from_is_abandoned_and_attract_returns(cabinet: Cabinet, sim, store: Store) -> None:
    from firmware_py.runtime.scenes import PLAY_IDLE_US, Attract

    play = start_game(cabinet, sim)
    run_for(cabinet, sim, PLAY_IDLE_US + 1_000_000, render=False)
    assert isinstance(cabinet.scene, Attract)
    assert store.unfinished() is None  # not resumed at the next start-up
    (reason,) = [r for (r,) in store.db.execute("SELECT reason FROM games WHERE id=?", (play.session.game_id,))]
    assert reason.startswith("abandoned")


def test_a_journal_that_no_longer_replays_is_abandoned_not_fatal(config, sim, clock) -> None:
    from firmware_py.runtime.scenes import Attract

    path = config.data_dir / "ringside.sqlite3"
    store = Store(path)
    game = store.begin_game("punch", {"rules": "standard", "no_mercy": False, "matches_to_win": 3}, 2, 1, (0, 1))
    store.append_action(game, 0, {"type": "PlayCard", "player": 0, "card": "block"})  # refused in REDEAL
    lines: list[str] = []
    cabinet = Cabinet(config, sim, clock, Store(path), log=lines.append, seed=1)
    assert isinstance(cabinet.scene, Attract)
    assert cabinet.ctx.store.unfinished() is None
    assert any("Could not resume" in line for line in lines)
    (reason,) = [r for (r,) in store.db.execute("SELECT reason FROM games WHERE id=?", (game,))]
    assert reason.startswith("abandoned: journal does not replay")


def test_a_finished_game_stays_on_screen_until_its_story_is_told(cabinet: Cabinet, sim, monkeypatch) -> None:
    """Issue 30: Punch!'s screen may run behind quick boxers; the result screen waits
    until the play screen has said its last banner (told_by), not only the usual hold."""
    play = start_session(cabinet, PunchControls(), PunchOptions(matches_to_win=1), (0, 1))
    engine = play.session.engine
    while not play.session.over:  # quick boxers: the whole game in one instant
        seat = min(engine.to_act())
        view = engine.public_view()
        action = Redeal(seat, False) if view.phase is Phase.REDEAL else PlayCard(seat, held_card(play, seat))
        play.session.submit(action, sim.clock.now_us())
    late = play.session.game_us(sim.clock.now_us()) + GAME_OVER_HOLD_US + 2_000_000
    monkeypatch.setattr(play.session.controls, "told_by", lambda _screen: late)
    run_for(cabinet, sim, GAME_OVER_HOLD_US + 1_000_000, render=False)
    assert cabinet.scene is play  # the usual hold is over, the story is not
    run_for(cabinet, sim, 1_500_000, render=False)
    assert cabinet.scene is not play
