"""The virtual-time driver wakes exactly where the real-time loop would: each scheduled
input, each settle window's end, each frame (rendered there) and the end of the run."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from firmware_py.runtime.virtual_time import VirtualTimeDriver
from hal.clock import ManualClock


class FakeHardware:
    def __init__(self, dues: list[int]) -> None:
        self.dues = sorted(dues)

    def next_due(self) -> int | None:
        return self.dues[0] if self.dues else None


class FakeCabinet:
    """What the driver uses of a cabinet: its clock and hardware, step, next_due, render."""

    def __init__(self, inputs: Sequence[int] = (), settle_ends: Sequence[int] = (), start_us: int = 0) -> None:
        self.clock = ManualClock(start_us)
        self.hw = FakeHardware(list(inputs))
        self.settle_ends = sorted(settle_ends)
        self.log: list[tuple[str, int]] = []

    def next_due(self) -> int | None:
        return self.settle_ends[0] if self.settle_ends else None

    def step(self, now_us: int) -> None:
        self.clock.set(max(now_us, self.clock.now_us()))
        self.hw.dues = [d for d in self.hw.dues if d > now_us]
        self.settle_ends = [d for d in self.settle_ends if d > now_us]
        self.log.append(("step", now_us))

    def render(self) -> None:
        self.log.append(("render", self.clock.now_us()))


def steps(cab: FakeCabinet) -> list[int]:
    return [t for kind, t in cab.log if kind == "step"]


def renders(cab: FakeCabinet) -> list[int]:
    return [t for kind, t in cab.log if kind == "render"]


def test_wakes_at_inputs_settle_ends_frames_and_the_end() -> None:
    cab = FakeCabinet(inputs=[3_000, 12_000, 40_000], settle_ends=[7_500])
    VirtualTimeDriver(cab, 10_000).advance(25_000)
    assert steps(cab) == [0, 3_000, 7_500, 10_000, 12_000, 20_000, 25_000]
    assert renders(cab) == [0, 10_000, 20_000]
    assert cab.log[:2] == [("step", 0), ("render", 0)]  # a frame renders after its step


def test_frames_on_a_grid_and_render_off() -> None:
    cab = FakeCabinet(start_us=1_000)
    driver = VirtualTimeDriver(cab, 10_000, first_frame_us=5_000, render=False)
    driver.run_until(26_000)
    assert steps(cab) == [5_000, 15_000, 25_000, 26_000] and renders(cab) == []
    driver.run_until(40_000)  # the grid carries on from one run to the next
    assert steps(cab)[4:] == [35_000, 40_000]


def test_hooks_see_every_step_and_can_end_the_run() -> None:
    cab = FakeCabinet(inputs=[4_000])
    seen: list[tuple[str, int, bool]] = []
    wakes = [15_000]

    def after(t: int, is_frame: bool) -> bool:
        seen.append(("after", t, is_frame))
        return t == 15_000

    ended = VirtualTimeDriver(cab, 10_000).run_until(
        100_000,
        wake=lambda: wakes[0],
        before_step=lambda t: seen.append(("before", t, False)),
        after_step=lambda t, f: seen.append(("stepped", t, f)),
        after=after,
    )
    assert ended is True and steps(cab) == [0, 4_000, 10_000, 15_000]
    assert [s for s in seen if s[1] == 10_000] == [
        ("before", 10_000, False),
        ("stepped", 10_000, True),
        ("after", 10_000, True),
    ]
    assert ("stepped", 4_000, False) in seen


def test_frame_time_from_fps_and_checked() -> None:
    assert VirtualTimeDriver.at_fps(FakeCabinet(), 60).frame_us == 16_666
    with pytest.raises(ValueError, match="frame_us"):
        VirtualTimeDriver(FakeCabinet(), 0)
