"""The review sheets are each small enough to look at whole, and together show every screen."""

from __future__ import annotations

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
