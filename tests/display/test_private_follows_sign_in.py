"""Issue 30, "private displays follow the state", for a returning player: the desk's
display says "Checking PIN..." while the ledger checks, and the answer ("Signed in",
"Wrong PIN: N tries left") the step it lands, with no press after the PIN; the other
desk's "A duel: no rival yet" turns into the rival's name though nobody there pressed."""

from __future__ import annotations

from firmware_py.games.punch_cards.keyboard import pin_presses
from firmware_py.runtime.cabinet import Cabinet
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import run_for
from tests.firmware_py.test_cabinet_punch_cards import (  # noqa: F401
    ledger,
    open_lobby,
    private,
    register,
    sign_in,
    tap,
    taps,
    use,
    wall,
)
from tests.firmware_py.test_private_follows_state import PrivateWatch


def test_a_pin_check_answer_shows_without_a_press(cabinet: Cabinet, sim: SimCabinet, ledger) -> None:  # noqa: F811
    watch = PrivateWatch(cabinet, sim)
    use(cabinet, ledger)
    lobby = open_lobby(cabinet, sim)
    register(cabinet, sim, 1, "Bob", "FEED")
    tap(cabinet, sim, 1, Button.E)  # Bob signs out: his desk is idle again
    register(cabinet, sim, 0, "Ann", "ABCD")
    assert "no rival yet" in private(sim, 0)
    sign_in(cabinet, sim, 1, "Bob", "FADE")  # a wrong PIN: the answer comes from the ledger
    run_for(cabinet, sim, 500_000)
    assert "Wrong PIN: 4 tries" in private(sim, 1) and "Checking" not in private(sim, 1), private(sim, 1)
    taps(cabinet, sim, 1, pin_presses("FEED"))  # the right PIN, then OK
    run_for(cabinet, sim, 500_000)  # nobody presses: the answer lands meanwhile
    assert lobby.desks[1].signed_in
    assert "Checking" not in private(sim, 1) and "Bob" in private(sim, 0), (private(sim, 1), private(sim, 0))
    assert watch.steps > 50 and watch.stale == []
