"""The review sheets are each small enough to look at whole, and together show every screen."""

from __future__ import annotations

import pytest

from tests.display.contact_sheet import PER_SHEET, group_of, sheets_of


def test_screens_group_by_menu_playout_and_scenario() -> None:
    assert group_of("attract-board") == "menus"
    assert group_of("karate_fight-4p-paused") == "karate_fight-4p"
    assert group_of("hil-punch_cards-duel-with-replay-15") == "hil-punch_cards-duel-with-replay"


def test_every_screen_is_on_exactly_one_sheet_of_at_most_sixteen() -> None:
    names = ["attract", "select", *[f"punch-2p-{i}" for i in range(20)], *[f"hil-punch-x-{i}" for i in range(3)]]
    sheets = sheets_of([(n, None) for n in names])
    assert [t for t, _ in sheets] == ["menus", "punch-2p-1", "punch-2p-2", "hil-punch-x"]
    assert all(len(members) <= PER_SHEET for _t, members in sheets)
    assert [n for _t, members in sheets for n, _s in members] == names


def test_the_sheets_menus_are_the_screens_a_live_cabinet_shows(tmp_path) -> None:
    """Issue 30: the sheets showed an old service menu and a "YELLOW" station the cabinet
    does not have.  Each menu on the sheet is what a 4-station cabinet shows, driven there
    by presses: the same game list, the same service menu, only its stations' names."""
    from dataclasses import fields, replace

    from display.models import ServiceScreen, StationLook
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.scenes import Select
    from firmware_py.runtime.service_menu import ServiceMenu
    from firmware_py.runtime.store import Store
    from hal.clock import ManualClock
    from hal.events import Button
    from hal.sim import SimCabinet
    from tests.cabinet_driving import press, run_for
    from tests.display.screen_states import FOUR, menu_screens

    sheet = dict(menu_screens())
    config = replace(FOUR, data_dir=tmp_path)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(config, clock)
    cabinet = Cabinet(config, sim, clock, Store(None), log=lambda _line: None, seed=1)
    press(cabinet, sim, 0, Button.START)
    select = cabinet.scene
    assert isinstance(select, Select)
    for _ in range(len(select.ctx.games) - 1):
        press(cabinet, sim, 0, Button.B)
    assert select.screen(clock.now_us()) == sheet["select"]
    sim.service_key(True, clock.now_us())
    run_for(cabinet, sim, 100_000)
    assert isinstance(cabinet.scene, ServiceMenu)
    live, shown = cabinet.scene.screen(clock.now_us()), sheet["service"]
    assert isinstance(shown, ServiceScreen) and (shown.title, shown.items) == (live.title, live.items)
    names = {station.name for station in config.stations}

    def looks(model: object) -> list[StationLook]:
        found = []
        for f in fields(model):  # type: ignore[arg-type]
            value = getattr(model, f.name)
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, StationLook):
                    found.append(v)
        return found

    seen = {look.name for model in sheet.values() if hasattr(model, "__dataclass_fields__") for look in looks(model)}
    assert seen and {n for n in seen if not n.startswith("CPU")} <= names, seen - names
    sim.close()


@pytest.mark.slow
def test_the_sheets_results_are_the_ones_the_cabinet_shows() -> None:
    """Issue 30: the sheets showed "The fight in numbers / 327 actions", a result screen
    the game no longer has.  Each game's result on the sheets is the cabinet's own: the
    headline, lines and story its controls tell for that game, the winner's seat, over
    the game's last frame."""
    from collections import deque

    from firmware_py.games import registry as controls_registry
    from firmware_py.runtime.controls import ResultRecords
    from firmware_py.runtime.store import Store
    from games import registry
    from tests.display.screen_states import LOOKS, playout, playout_screens

    sheet = dict(playout_screens(samples=2))
    seen = 0
    for engine_type in registry.engines():
        spec = engine_type.spec
        for players in sorted({spec.min_players, spec.max_players}):
            engine = engine_type(spec.options_type(), players, 1)  # the sheet's playout: seed 1
            deque(playout(engine, 1), maxlen=0)
            controls = controls_registry.controls_type(spec.name)()
            names = tuple(look.name for look in LOOKS[:players])
            records = ResultRecords(store=Store(None), game_id=-1, stations=names, people_only=True, today_since="")
            story = controls.result_story(engine, records)
            winner = getattr(engine.outcome(), "winner", None)
            tile = sheet[f"{spec.name}-{players}p-result"]
            assert (tile.headline, tile.lines) == controls.result_lines(engine, names), spec.name
            assert type(tile.story) is type(story), spec.name
            assert tile.winner == (None if winner is None else LOOKS[winner]), spec.name
            assert tile.final.game == spec.name and tile.final.view == engine.public_view(), spec.name
            seen += 1
    assert seen == len([n for n in sheet if n.endswith("-result")])
