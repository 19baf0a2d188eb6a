"""A game session's screen model, asked for every frame: its engine-made parts (public
view, recent events, story) are kept while the game has not moved, so the loop tells an
unchanged frame from the last one drawn at once, and are made again as soon as it moves."""

from __future__ import annotations

from display.models import StationLook
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store
from games.karate_fight import KarateOptions, PlayTop

LOOKS = (StationLook("Red", (229, 57, 53)), StationLook("Blue", (30, 136, 229)))


def test_a_screen_keeps_the_games_parts_until_the_game_moves(tmp_path) -> None:
    store = Store(tmp_path / "ringside.sqlite3")
    session = GameSession.start(KarateControls(), KarateOptions(), (0, 1), LOOKS, 7, store)
    first, again = session.screen(1_000_000), session.screen(1_016_667)
    assert again.now_us != first.now_us
    assert again.view is first.view and again.events is first.events and again.story is first.story

    turn = session.engine.public_view().turn
    assert turn is not None
    session.submit(PlayTop(turn, 1_100_000), 1_100_000)
    moved = session.screen(1_116_667)
    assert moved.view is not first.view and moved.view != first.view
    assert moved.view == session.engine.public_view()
    assert len(moved.events) > len(first.events)
    assert moved.events[-1][1] is session.recent[-1][1]

    session.offset_us += 5  # the game's clock moved against the cabinet's: events are told in game time
    shifted = session.screen(1_133_334)
    assert [t for t, _ in shifted.events] == [t + 5 for t, _ in moved.events]
