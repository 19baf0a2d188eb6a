"""Records of people are of people (issue 23): an exhibition between computer players and
the attract mode's demos are not stored as people's games, so no computer's slap shows
under "FASTEST EVER — people only" or in the attract ticker, while a people's game's does."""

from __future__ import annotations

import pytest

from firmware_py.games.karate_fight.story import fastest_slaps
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.controls import ResultRecords
from firmware_py.runtime.scenes import Attract
from firmware_py.runtime.store import Store, start_of_today
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from firmware_py.tools.exhibition import run_exhibition


def people_records(store: Store, game_id: int, cabinet: Cabinet) -> ResultRecords:
    return ResultRecords(
        store=store,
        game_id=game_id,
        stations=tuple(look.name for look in cabinet.ctx.looks),
        people_only=True,
        today_since=start_of_today(),
    )


@pytest.mark.slow
def test_an_exhibitions_slaps_are_kept_with_its_game_but_ranked_nowhere(config, sim, clock, store) -> None:
    cabinet = Cabinet(config, sim, clock, store, log=lambda _line: None, seed=3)
    assert run_exhibition(cabinet, sim, clock, "karate_fight", seed=3, fps=10)
    ((game_id, computers),) = store.db.execute("SELECT id, computers FROM games").fetchall()
    assert computers != "{}", "the exhibition's game is recorded as people's"
    slaps = store.db.execute("SELECT COUNT(*) FROM records WHERE kind='reaction' AND game_id=?", (game_id,))
    assert slaps.fetchone()[0] > 0  # the computers' slaps are kept with their game...
    assert store.fastest("reaction") == []  # ...and ranked nowhere
    records = people_records(store, game_id, cabinet)
    assert fastest_slaps(records, None) == () and fastest_slaps(records, records.today_since) == ()
    ticker = Attract(cabinet.ctx, clock.now_us())._recent_lines()
    assert not any(line.startswith("Fastest slap") for line in ticker), ticker
    assert any("CPU" in line for line in ticker), ticker  # its result says the computers won it


def test_a_people_game_s_slap_is_ranked_and_in_the_ticker(config, sim, clock, store) -> None:
    """The other side: what the people at the stations did is what the records show."""
    cabinet = Cabinet(config, sim, clock, store, log=lambda _line: None, seed=3)
    game = store.begin_game("karate_fight", {}, 2, 1, (0, 1))
    store.add_record(game, "reaction", 1, 187_000)
    computers = store.begin_game("karate_fight", {}, 2, 2, (0, 1), {1: "hard"})
    store.add_record(computers, "reaction", 1, 90_000)
    assert store.fastest("reaction") == [(1, 187_000, store.fastest("reaction")[0][2])]
    ticker = Attract(cabinet.ctx, clock.now_us())._recent_lines()
    assert f"Fastest slap: {cabinet.ctx.looks[1].name} 187.0 ms" in ticker


@pytest.mark.slow
def test_the_attract_demos_leave_the_cabinet_s_store_untouched(config, sim, clock, store) -> None:
    cabinet = Cabinet(config, sim, clock, store, log=lambda _line: None, seed=3)
    cabinet.scene = Attract(cabinet.ctx, clock.now_us())
    VirtualTimeDriver(cabinet, 100_000).advance(100_000_000)  # the title card and three demos
    assert store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    assert store.db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
