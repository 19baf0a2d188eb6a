"""Our debounce: instant first edge with its own stamp, bounces dropped, short taps kept."""

from __future__ import annotations

from hal.debounce import Debouncer


def test_first_edge_reported_at_once_with_its_stamp() -> None:
    d = Debouncer(lockout_us=8000)
    assert d.edge(True, 1000) is True
    assert d.reported is True


def test_contact_bounce_within_lockout_is_dropped() -> None:
    d = Debouncer(lockout_us=8000)
    reports = [d.edge(state, t) for state, t in [(True, 0), (False, 300), (True, 700), (False, 1200), (True, 1500)]]
    assert reports == [True, None, None, None, None]
    assert d.poll(9000) is None  # settled pressed: nothing more to say


def test_tap_shorter_than_lockout_is_released_after_it() -> None:
    d = Debouncer(lockout_us=8000)
    assert d.edge(True, 0) is True
    assert d.edge(False, 3000) is None
    assert d.poll(7999) is None
    assert d.poll(8000) == (False, 3000)
    assert d.reported is False


def test_release_after_lockout_reported_immediately() -> None:
    d = Debouncer(lockout_us=8000)
    d.edge(True, 0)
    assert d.edge(False, 50_000) is False
    assert d.edge(True, 51_000) is None  # release bounce
    assert d.poll(70_000) == (True, 51_000)


def test_repeated_presses_after_lockout_all_count() -> None:
    d = Debouncer(lockout_us=8000)
    presses = 0
    t = 0
    for _ in range(10):
        presses += d.edge(True, t) is True
        d.edge(False, t + 20_000)
        t += 40_000
    assert presses == 10
