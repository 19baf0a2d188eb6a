"""Issue 30: Karate Fight's refusals name the seat as the main screen names it ("it is
Blue's turn", not "fighter 2's"), and a refusal is not left over the result."""

from __future__ import annotations

from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.cabinet import Cabinet
from games.karate_fight import KarateOptions
from games.karate_fight.actions import PlayTop, TimeCheck
from tests.cabinet_driving import start_session


def test_a_press_out_of_turn_names_whose_turn_it_is(cabinet: Cabinet) -> None:
    """A press judged after the turn passed (the settle window) is refused by the engine,
    which numbers fighters; the display says the fighter's name (fails on the old words:
    "it is fighter 2's turn")."""
    play = start_session(cabinet, KarateControls(), KarateOptions(first_fighter=1), (0, 1))
    session = play.session
    session.submit(PlayTop(0, session.engine.now + 1), cabinet.clock.now_us())
    assert session.refusal(0) == "It is Blue's turn"
    assert "fighter" not in session.private_screen(0).refusal


def test_the_result_is_not_covered_by_a_refusal(cabinet: Cabinet) -> None:
    """Once the fight is over the private display shows the result, not the last refusal
    (issue 30: "it is fighter 2's turn" stayed under "YOU WIN ON TIME")."""
    play = start_session(cabinet, KarateControls(), KarateOptions(time_limit_us=1_000_000), (0, 1))
    session = play.session
    session.refuse(1, "It is Red's turn", cabinet.clock.now_us())
    engine = session.engine
    session.submit(PlayTop(0, engine.now + 1), cabinet.clock.now_us())  # Red's pile one short: not a tie
    session.submit(TimeCheck(t_us=engine.now + 2_000_000), cabinet.clock.now_us())
    assert engine.over, "time ran out: the fight is decided"
    assert session.refusal(1) == "It is Red's turn" and session.private_screen(1).refusal == ""
