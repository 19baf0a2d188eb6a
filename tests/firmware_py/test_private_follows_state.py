"""Issue 30: no stuck screen.

Private displays follow the state: each step, every station's OLED shows what its scene's
private model says now (a background answer from the ledger, a rival's sign-in, a
refusal timing out redraw it at once, not at the player's next press).  And the join
screen on a cabinet with fewer stations than the game's maximum starts when every seat
it offers is taken (Karate Fight on the shipped 2-station cabinet said "starting…"
forever)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from display.private import draw_private, image_text
from firmware_py.games.punch_cards.lobby import Lobby
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Join, Options
from games.karate_fight import SPEC as KARATE
from games.punch_cards import SPEC as PUNCH_CARDS
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import press, run_for
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, Clock
from tests.firmware_py.test_cabinet_punch_cards import open_lobby, register, use


class PrivateWatch:
    """Wraps ``cabinet.step``: after every step, each station's OLED (as the hardware
    reads it back) must say what the scene's private model says now (drawn afresh)."""

    def __init__(self, cabinet: Cabinet, sim: SimCabinet) -> None:
        self.cabinet, self.sim = cabinet, sim
        self.stale: list[tuple[int, int, tuple[str, ...], tuple[str, ...]]] = []
        self.steps = 0
        step = cabinet.step

        def watched(now_us: int) -> None:
            step(now_us)
            self.steps += 1
            for station in range(len(cabinet.ctx.looks)):
                want = image_text(cabinet.scene.private_image(station, cabinet._private_size))
                shown = image_text(sim.private[station].image) if sim.private[station].image is not None else ()
                if shown != want:
                    self.stale.append((now_us, station, shown or (), want or ()))

        cabinet.step = watched  # type: ignore[method-assign]


@pytest.fixture
def ledger(config):
    from firmware_py.games.punch_cards.ledger import Ledger

    config.data_dir.mkdir(parents=True, exist_ok=True)
    opened = Ledger(str(config.data_dir / "pc.sqlite3"), event_seed=SEED, clock=Clock(), pin_hasher=FAST_PINS)
    yield opened
    opened.close()


@pytest.fixture
def watch(cabinet: Cabinet, sim: SimCabinet) -> Iterator[PrivateWatch]:
    yield PrivateWatch(cabinet, sim)


def private(sim: SimCabinet, station: int) -> str:
    return "\n".join(image_text(sim.private[station].image) or ())


def test_a_ledger_answer_and_a_rivals_sign_in_show_without_a_press(
    cabinet: Cabinet, sim: SimCabinet, ledger, watch: PrivateWatch
) -> None:
    """The ledger answers between presses (the PIN check, the registration): the desk's
    display says so at once; the other desk's "no rival yet" turns into the rival's name
    though nobody there pressed anything."""
    use(cabinet, ledger)
    lobby = open_lobby(cabinet, sim)
    register(cabinet, sim, 0, "Ann", "ABCD")
    assert "no rival yet" in private(sim, 0)
    register(cabinet, sim, 1, "Bob", "FEED")
    assert isinstance(cabinet.scene, Lobby) and lobby.desks[1].signed_in
    assert "Bob" in private(sim, 0), private(sim, 0)  # station 0 pressed nothing since Bob came
    assert "Registering" not in private(sim, 1) and "Checking" not in private(sim, 1)
    assert watch.steps > 50 and watch.stale == []


def test_a_refusal_leaves_the_display_when_its_time_is_up(cabinet: Cabinet, sim: SimCabinet, watch) -> None:
    """A refused press is said for 1.5 s, then the display goes back to the hand: with no
    press, the next step after the refusal ends draws it."""
    from tests.cabinet_driving import start_game

    play = start_game(cabinet, sim, "punch")
    run_for(cabinet, sim, 500_000)
    press(cabinet, sim, 0, Button.START)  # keeping a deal nobody asked about, or any refused press
    refused = play.session.refusal(0)
    if not refused:  # the deal was kept: press a card twice, the second is refused
        press(cabinet, sim, 0, Button.A)
        press(cabinet, sim, 0, Button.A)
        refused = play.session.refusal(0)
    assert refused, "no refused press to watch"
    run_for(cabinet, sim, 2_000_000)
    assert play.session.refusal(0) == ""
    assert watch.stale == []


def test_the_watch_catches_a_display_left_stale(cabinet: Cabinet, sim: SimCabinet, ledger, watch) -> None:
    """The fault put back: a cabinet that redraws the OLEDs only after a press leaves the
    other desk's "no rival yet" up after Bob signed in; the watch says so."""
    drawn: dict[int, object] = {}

    def only_after_press(now_us: int) -> None:  # the old rule: a press, or nothing
        for station in range(len(cabinet.ctx.looks)):
            model = cabinet.scene.private_model(station)
            if station not in drawn:
                drawn[station] = model
                sim.show_private(station, draw_private(model, cabinet._private_size))

    cabinet._outputs = only_after_press  # type: ignore[method-assign]
    use(cabinet, ledger)
    open_lobby(cabinet, sim)
    assert watch.stale  # the lobby's displays stayed as they were drawn first


def test_karate_on_the_two_station_cabinet_starts_when_both_joined(cabinet: Cabinet, sim: SimCabinet) -> None:
    """The shipped cabinet has 2 stations; Karate Fight takes 2–4.  The join screen offers
    2 seats: when both are taken the fight goes on to its options, as the screen says."""
    assert len(cabinet.ctx.looks) == 2 < KARATE.max_players
    press(cabinet, sim, 0, Button.START)
    names = [g.spec.name for g in cabinet.ctx.games]
    for _ in range(names.index(KARATE.name)):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    join = cabinet.scene
    assert isinstance(join, Join) and join.screen(0).max_players == 2
    press(cabinet, sim, 1, Button.START)
    assert isinstance(cabinet.scene, Options), type(cabinet.scene).__name__
    assert names != [] and PUNCH_CARDS.name in names
