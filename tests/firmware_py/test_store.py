"""The store keeps every recorded action through a power cut (the process killed hard)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from firmware_py.runtime.store import Store

WRITER = textwrap.dedent("""
    import sys
    from firmware_py.runtime.store import Store
    s = Store(sys.argv[1])
    g = s.begin_game("punch", {}, 2, 1, (0, 1))
    for i in range(100000):
        s.append_action(g, i, {"type": "PlayCard", "player": i % 2, "card": "block"})
        print(i, flush=True)   # acknowledged only after the commit returned
""")


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path) -> None:
    db = tmp_path / "cut.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.getcwd(),
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    acknowledged = -1
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 200:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    store = Store(db)
    saved = store.unfinished()
    assert saved is not None
    assert len(saved.actions) >= acknowledged + 1
    assert [a["player"] for a in saved.actions[:4]] == [0, 1, 0, 1]
    assert store.integrity_ok()
    store.close()


def test_durability_settings(tmp_path) -> None:
    s = Store(tmp_path / "x.sqlite3")
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    s.close()


def test_finished_games_feed_stats(tmp_path) -> None:
    s = Store(tmp_path / "x.sqlite3")
    g = s.begin_game("punch", {}, 2, 1, (0, 1))
    s.add_record(g, "reaction", 1, 183_000)
    s.add_record(g, "reaction", 0, 151_000)
    s.finish_game(g, 1, "won 3 matches")
    assert s.unfinished() is None
    assert s.games_played() == {"punch": 1}
    assert s.wins_by_station("punch") == {1: 1}
    assert [v for _s, v, _at in s.fastest("reaction")] == [151_000, 183_000]
    s.close()


def test_abandoned_games_count_in_no_stats(tmp_path) -> None:
    s = Store(tmp_path / "x.sqlite3")
    s.abandon_game(s.begin_game("punch", {}, 2, 1, (0, 1)), "no input for 5 minutes")
    done = s.begin_game("punch", {}, 2, 2, (0, 1))
    s.finish_game(done, 0, "won 3 matches")
    assert s.games_played() == {"punch": 1}
    assert s.recent_results() == [("punch", 0, "won 3 matches", {})]
    assert s.unfinished() is None
    s.close()
