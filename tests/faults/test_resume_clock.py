"""A game's time continues across a restart, whatever the new process's clock reads.

Issue 10, defect 1: after a reboot the monotonic clock starts far below the stamps in
the journal, and a resumed Karate Fight refused every press, slap and reveal until the
new uptime passed the old one.  Here the power is cut two hours after boot and the
cabinet restarts at 30 s (and then at 1 ms) on the same store; the computer players
must go on playing through the whole cabinet (sim buttons and pads → session → journal).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.scenes import Play
from firmware_py.tools.exhibition import ExhibitionDriver
from games.karate_fight import HitWon, KarateOptions, Slaps, TimeUp
from tests.cabinet_driving import start_session
from tests.faults.harness import HOURS_2, drive, journal_length, make_rig

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""

LOW_CLOCKS = (30_000_000, 1_000)


def stamps(db_path) -> list[int]:
    """Every stamp in the stored journal, in journal order."""
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT action FROM actions ORDER BY game_id, seq").fetchall()
    db.close()
    return [a["t_us"] for a in (json.loads(r[0]) for r in rows) if "t_us" in a]


def played_on(rig, before: int, game: str) -> bool:
    """A dozen more actions, and for Karate Fight a Hit won by a slap among them: every
    kind of input (presses, reveals, slaps) got through."""
    new = rig.play.session.engine.journal[before:]
    if game == "karate_fight" and not any(isinstance(a, Slaps) for a in new):
        return False
    return len(new) >= 12 and (
        game != "karate_fight" or any(isinstance(e, HitWon) for _t, e in rig.play.session.recent)
    )


@pytest.mark.parametrize("game", ["karate_fight", "punch"])
def test_a_game_resumed_on_a_lower_clock_plays_on(tmp_path, game: str) -> None:
    rig = make_rig(tmp_path, HOURS_2, seed=11)
    driver = ExhibitionDriver(rig.cabinet, rig.sim, game, seed=11)
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Play) and journal_length(rig) >= 8, 120_000_000)
    game_id = rig.play.session.game_id
    for restart, clock_us in enumerate(LOW_CLOCKS):
        before = journal_length(rig)  # the power is cut here: nothing closed, nothing flushed
        rig = make_rig(tmp_path, clock_us, seed=20 + restart)
        assert any(f"#{game_id} after {before} recorded actions" in line for line in rig.log), rig.log
        assert rig.play.session.game_id == game_id and journal_length(rig) == before
        driver = ExhibitionDriver(rig.cabinet, rig.sim, game, seed=restart)
        assert drive(rig, driver, lambda r=rig, n=before: played_on(r, n, game), 120_000_000), (
            f"resumed {game} made no progress on a clock at {clock_us} µs"
        )
    times = stamps(tmp_path / "ringside.sqlite3")
    assert times == sorted(times)  # the game's time only moved forward
    if game == "karate_fight":
        assert len(times) >= 20
    rig.close()


def test_the_time_limit_continues_where_the_power_cut_left_it(tmp_path) -> None:
    """A 60 s fight cut 20 s in: after a restart at 30 s uptime the clock on screen shows
    what was left at the last recorded input (the outage does not count), and the fight
    still ends on time, decided in game time."""
    rig = make_rig(tmp_path, HOURS_2, seed=4)
    start_session(rig.cabinet, KarateControls(), KarateOptions(time_limit_us=60_000_000), (0, 1))
    driver = ExhibitionDriver(rig.cabinet, rig.sim, "karate_fight", seed=4)
    drive(rig, driver, lambda: False, 20_000_000)
    engine = rig.play.session.engine
    ends = engine.public_view().ends_us
    assert ends is not None and not engine.over
    last_stamp = max(stamps(tmp_path / "ringside.sqlite3"))

    rig = make_rig(tmp_path, 30_000_000, seed=5)
    session = rig.play.session
    shown = session.screen(rig.clock.now_us())
    assert shown.view.ends_us == ends
    assert shown.now_us == last_stamp  # the screen's clock: ends - now = what was left
    driver = ExhibitionDriver(rig.cabinet, rig.sim, "karate_fight", seed=5)
    assert drive(rig, driver, lambda: session.engine.over, 60_000_000)
    time_up = [e for _t, e in session.recent if isinstance(e, TimeUp)]
    if time_up:  # a fight can also end early with a Karate Master
        assert time_up[0].t_us >= ends
    rig.close()
