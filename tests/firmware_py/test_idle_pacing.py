"""An idle attract screen wakes the loop only when what it shows can change (issue 34: its
CPU): between the steps of its clock (the LED bars' breathing, PRESS START's blink, a
demo's clock-driven parts) and its computers' moves, the loop sleeps instead of taking 60
frames a second.  What is shown must not suffer: on the title card the same screens and
LED levels as a loop taking every frame, each no later; in a demo every change drawn in
the step it is seen.  The loop runs here in virtual time: its waits move the clock."""

from __future__ import annotations

from typing import Any

import pytest

from display.window import Window
from firmware_py.runtime import loop
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.loop import run_main_loop
from firmware_py.runtime.scenes import DEMO_TICK_US, LED_STEP_US, TITLE_US, Attract
from games.registry import BUILTIN
from hal.clock import ManualClock
from hal.events import Button
from hal.sim import SimCabinet
from hal.timing import PADBOARD_SETTLE_US

FRAME_US = 1_000_000 // 60


def run_virtually(cabinet: Cabinet, sim: SimCabinet, clock: ManualClock, seconds: float, paced: bool) -> dict[str, Any]:
    """Run the real-time loop for ``seconds`` of virtual time; what it showed and how often it woke."""
    end = clock.now_us() + int(seconds * 1e6)

    def wait(timeout_s: float) -> None:  # as SimCabinet.wait: until its next scheduled input at most
        due = sim.next_due()
        timeout_us = round(timeout_s * 1e6)
        clock.advance(timeout_us if due is None else max(0, min(timeout_us, due - clock.now_us())))

    sim.wait = wait  # type: ignore[method-assign]
    if not paced:
        cabinet.quiet_until = lambda: None  # type: ignore[method-assign]
    out: dict[str, Any] = {"screens": [], "leds": [], "steps": 0, "changed": [], "renders": []}
    render, set_led, cabinet_step = cabinet.render, sim.set_led_level, cabinet.step

    def shown() -> Any:
        canvas = render()
        out["renders"].append((clock.now_us(), cabinet.drawn))
        if cabinet.drawn:
            out["screens"].append((clock.now_us(), cabinet.scene.screen(clock.now_us())))
        return canvas

    def led(station: int, level: float) -> None:
        out["leds"].append((clock.now_us(), station, level))
        set_led(station, level)

    def stepped(_now: int) -> None:
        out["steps"] += 1

    def step(now: int) -> None:
        cabinet_step(now)
        if cabinet.scene.screen(now) != cabinet._on_screen:
            out["changed"].append(now)  # the screen changed: drawn at once, not held back

    cabinet.render = shown  # type: ignore[method-assign]
    cabinet.step = step  # type: ignore[method-assign]
    sim.set_led_level = led  # type: ignore[method-assign]
    spin, loop.SPIN_US = loop.SPIN_US, 0  # a wait lands on the µs: no spin before a due time
    try:
        run_main_loop(cabinet, clock.now_us, 60, lambda: clock.now_us() < end, stepped)
    finally:
        loop.SPIN_US = spin
    return out


def attract_cabinet(config: Any, clock: ManualClock, store: Any, demo: int | None) -> tuple[Cabinet, SimCabinet]:
    sim = SimCabinet(config, clock)
    cabinet = Cabinet(
        config, sim, clock, store, Window((config.display.width, config.display.height)), log=lambda _l: None, seed=1
    )
    attract = cabinet.scene
    assert isinstance(attract, Attract)
    if demo is not None:
        attract.demo_game = demo
        attract.phase_us -= TITLE_US  # the title card's time is up: the demo starts at the first step
    return cabinet, sim


def paced_and_every_frame(
    config: Any, store: Any, demo: int | None, seconds: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    runs = []
    for paced in (True, False):
        clock = ManualClock(1_000_000)
        cabinet, sim = attract_cabinet(config, clock, store, demo)
        try:
            runs.append(run_virtually(cabinet, sim, clock, seconds, paced))
        finally:
            assert cabinet.window is not None
            cabinet.window.close()
            sim.close()
    return runs[0], runs[1]


def assert_same_shown_no_later(paced: dict[str, Any], every: dict[str, Any]) -> None:
    """At each frame the every-frame loop drew, the paced loop's window shows the same
    screen (it drew it then or before: a step of its clock is taken when it falls, not
    at the next 60 fps frame), and its LED bars went through the same levels, each no later."""
    for te, screen in every["screens"]:
        shown = [s for tp, s in paced["screens"] if tp <= te]
        assert shown and shown[-1] == screen, f"at {te} µs the paced loop showed another screen"
    assert [(st, lv) for _t, st, lv in paced["leds"]] == [(st, lv) for _t, st, lv in every["leds"]]
    for (tp, *_a), (te, *_b) in zip(paced["leds"], every["leds"], strict=True):
        assert tp <= te


def test_the_title_card_shows_the_same_frames_waking_far_less(config, store) -> None:
    paced, every = paced_and_every_frame(config, store, None, TITLE_US / 1e6 - 0.5)
    assert_same_shown_no_later(paced, every)
    assert len(paced["screens"]) >= 10  # PRESS START blinked: frames were drawn
    # the first ~2.6 s prepare the next demo's type a step a frame (60 a second); then
    # the LED bars' 10 steps a second: fails at 60 frames a second all along
    assert paced["steps"] < every["steps"] * 0.7, (paced["steps"], every["steps"])


@pytest.mark.parametrize("game", range(len(BUILTIN)))
def test_a_demo_draws_every_change_when_it_happens_waking_less(config, store, game) -> None:
    """A demo's computers act when they are due or done pressing, which the loop wakes
    for; so its play is not the every-frame loop's to the µs (a computer decides on the µs
    its last press ends, not at the next 60 fps frame), but no change the loop sees waits:
    each is drawn in the step it is seen (or at the next frame of the loop's rate, or after
    a settle window ending that soon, as ever), and its clock's steps are taken as they fall."""
    paced, every = paced_and_every_frame(config, store, game, 3.0)
    drawn = {t for t, _s in paced["screens"]}
    assert paced["changed"]
    ticks = range(1_000_000, 4_000_000, DEMO_TICK_US)  # the demo's clock-driven parts step
    for seen in [*paced["changed"], *ticks]:  # drawn then, or at the next frame of the rate (or a settle window's end)
        assert any(seen <= t <= seen + FRAME_US + PADBOARD_SETTLE_US for t in drawn), f"a change at {seen} µs waited"
    assert paced["steps"] < every["steps"] / 2, (paced["steps"], every["steps"])


def test_a_press_on_an_idle_attract_screen_is_answered_at_once(config, store) -> None:
    """A button wakes the loop (the hardware's wait returns) and ends the wait: the next
    screen is drawn in the same step, not at the attract screen's next step."""
    clock = ManualClock(1_000_000)
    cabinet, sim = attract_cabinet(config, clock, store, None)
    cabinet.renderer.prepare = lambda: False  # type: ignore[method-assign]  # idle from the second frame
    try:
        run_virtually(cabinet, sim, clock, 0.05, paced=True)
        quiet = cabinet.quiet_until()
        assert quiet is not None and quiet > clock.now_us()  # idle: waiting for the LED step
        at = clock.now_us() + 1_000
        sim.press(0, Button.START, at, hold_us=20_000)
        out = run_virtually(cabinet, sim, clock, 0.01, paced=True)
        assert not isinstance(cabinet.scene, Attract)
        (first, *_rest) = out["screens"]
        assert first[0] - at < 2_000 and first[0] < quiet
    finally:
        assert cabinet.window is not None
        cabinet.window.close()
        sim.close()


@pytest.mark.parametrize("game", range(len(BUILTIN)))
def test_a_drawn_frame_that_still_stands_leaves_the_loop_idle_at_once(config, store, game) -> None:
    """A demo's frame drawn, its flip told and nothing left to prepare: the loop waits for
    the next step of what is shown, not for a frame that would only find the screen
    unchanged (issue 34, thirteenth round: that frame was half the demos' wake-ups)."""
    clock = ManualClock(1_000_000)
    cabinet, sim = attract_cabinet(config, clock, store, game)
    try:
        out = run_virtually(cabinet, sim, clock, 3.0, paced=True)
        renders = out["renders"]
        drawn = [t for t, d in renders if d]
        checks = [
            t for (t0, d0), (t, d) in zip(renders, renders[1:], strict=False) if d0 and not d and t - t0 <= FRAME_US
        ]
        assert len(drawn) >= 15  # the demo moved and its clock stepped
        # a wake-up that falls within a frame of a drawn one (a computer's move due) may
        # find nothing to draw; at the frame rate after every drawn frame, all would
        assert len(checks) <= len(drawn) // 4, (len(checks), len(drawn))
    finally:
        assert cabinet.window is not None
        cabinet.window.close()
        sim.close()


def test_a_frame_whose_flip_changed_the_screen_is_followed_by_the_next(config, store) -> None:
    """What a flip tells the scene may change its screen (a game that times reveals by
    flips): then the loop is not idle, and the next frame of its rate draws the change."""
    clock = ManualClock(1_000_000)
    cabinet, sim = attract_cabinet(config, clock, store, None)
    cabinet.renderer.prepare = lambda: False  # type: ignore[method-assign]  # nothing to prepare
    try:
        run_virtually(cabinet, sim, clock, 0.05, paced=True)  # the title card up, the loop idle
        assert cabinet.quiet_until() is not None
        attract = cabinet.scene
        assert isinstance(attract, Attract)
        clock.advance(500_000)  # PRESS START blinks: a frame is drawn
        cabinet.step(clock.now_us())
        attract.frame_shown = lambda _t, _n: setattr(attract, "demo_game", 1)  # type: ignore[method-assign]
        cabinet.render()
        assert cabinet.drawn and cabinet.quiet_until() is None  # another game featured since
        clock.advance(FRAME_US)
        cabinet.step(clock.now_us())
        cabinet.render()
        assert cabinet.drawn
    finally:
        assert cabinet.window is not None
        cabinet.window.close()
        sim.close()


def test_a_title_card_still_preparing_takes_the_next_frame(config, store) -> None:
    """The title card's first frame sets its next demo's preparation going: the frames
    after it keep coming at the frame rate, a step of preparation each, until it is through."""
    clock = ManualClock(1_000_000)
    cabinet, sim = attract_cabinet(config, clock, store, None)
    try:
        cabinet.step(clock.now_us())
        cabinet.render()
        assert cabinet.drawn and not cabinet.renderer.prepared
        assert cabinet.quiet_until() is None
    finally:
        assert cabinet.window is not None
        cabinet.window.close()
        sim.close()


@pytest.mark.parametrize("game", range(len(BUILTIN)))
def test_a_demo_s_clock_steps_on_the_led_bars_steps(cabinet, game) -> None:
    """A demo starts when its title card's end was seen, between two steps of the LED
    bars' breathing (late by the loop's wake-up): its clock-driven parts still step on
    the LED bars' steps, so the idle loop wakes once for both, not twice 200 ms apart
    (issue 34, thirteenth round).  No computer moves here: the demo is not ticked on."""
    attract = cabinet.scene
    assert isinstance(attract, Attract)
    attract.demo_game = game
    attract.phase_us -= TITLE_US
    start = attract.entered_us + 3 * LED_STEP_US + 37_000
    attract.tick(start)
    assert attract.demo is not None and attract.phase_us == start
    changes, last = [], attract.screen(start)
    for t in range(start, start + 1_000_000, 1_000):
        screen = attract.screen(t)
        if screen != last:
            changes.append(t)
            last = screen
        until = attract.still_until(t)
        assert until is not None and (until - attract.entered_us) % LED_STEP_US == 0, (t, until)
    assert len(changes) >= 1_000_000 // DEMO_TICK_US - 1  # its clock stepped (and PRESS START blinked)
    assert all((t - attract.entered_us) % LED_STEP_US == 0 for t in changes), changes
