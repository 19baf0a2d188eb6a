"""Motion is a pure function of time: it starts where the old state was, ends exactly on
the new state, moves one way, and is still once its time is over."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from display.motion import BAR_US, FLIP_US, SHAKE_US, SLIDE_US, flash, flip_width, progress, shake, slide, tween


def test_a_bar_starts_at_its_old_level_and_lands_on_the_new_one() -> None:
    assert tween(3, 8, now_us=1_000, start_us=1_000) == 3
    assert tween(3, 8, now_us=1_000 + BAR_US, start_us=1_000) == 8
    assert tween(3, 8, now_us=10_000_000, start_us=1_000) == 8
    assert 3 < tween(3, 8, now_us=1_000 + BAR_US // 2, start_us=1_000) < 8


@given(st.floats(-20, 20), st.floats(-20, 20), st.integers(0, 2 * BAR_US))
def test_a_bar_moves_one_way_and_never_overshoots(old: float, new: float, dt: int) -> None:
    a, b = tween(old, new, dt, 0), tween(old, new, dt + 1_000, 0)
    lo, hi = min(old, new), max(old, new)
    assert lo - 1e-9 <= a <= hi + 1e-9
    assert (b - a) * (new - old) >= -1e-9  # never back toward the old level


def test_before_a_move_starts_nothing_has_moved() -> None:
    assert progress(0, 1_000, 500) == 0
    assert flash(0, 1_000) == 0
    assert shake(0, 1_000) == (0, 0)


def test_a_flash_fades_and_a_shake_stops() -> None:
    assert flash(5_000, 5_000) == 1
    assert 0 < flash(5_000 + 100_000, 5_000) < 1
    assert shake(SHAKE_US, 0) == (0, 0) and shake(SHAKE_US + 1, 0) == (0, 0)
    assert any(shake(t, 0) != (0, 0) for t in range(0, SHAKE_US, 10_000))


def test_a_card_slides_to_its_place_and_turns_over_half_way() -> None:
    assert slide((0, 0), (100, 40), 0, 0) == (0, 0)
    assert slide((0, 0), (100, 40), SLIDE_US, 0) == (100, 40)
    width, face = flip_width(0, 0)
    assert width == 1 and not face
    width, face = flip_width(FLIP_US // 2, 0)
    assert width == 0 and face
    assert flip_width(FLIP_US, 0) == (1, True)


def test_a_glow_pulses_from_nothing_and_a_flash_colour_fades_to_the_background() -> None:
    from display.motion import mix, pulse

    assert pulse(1_000, 1_000) == 0 and pulse(500, 1_000) == 0
    assert abs(pulse(1_000 + 250_000, 1_000, per_second=2.0) - 1) < 1e-9  # half a period: full
    assert mix((0, 0, 0), (200, 100, 50), 1.0) == (200, 100, 50)
    assert mix((0, 0, 0), (200, 100, 50), 0.0) == (0, 0, 0)
    assert mix((0, 0, 0), (200, 100, 50), 0.5) == (100, 50, 25)
