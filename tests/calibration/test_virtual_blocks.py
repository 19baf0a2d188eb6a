"""Virtual pads fed a block at a time give exactly what frame by frame gave (issue 29).

``VirtualPads.pump`` samples the piezo model a block of frames at a time
(``PiezoModel.block``) and hands the block to the detector's ``feed``, as the board's DMA
does.  The reference here is how it ran before: one ``PiezoModel.sample`` and one
``Detector.process`` per frame, each hit's edge taken from the model at the frame that
reported it.  Over long varied runs (single slaps soft to clipped, pads slapped a few
hundred µs apart, quick repeats on ringing pads, crosstalk, hum, bipolar pads, settings
changed between chunks, chunks of odd lengths) the hits, stamps, velocities, edges,
recorded frames and probe contacts must be the same, bit for bit.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Sequence

from calibration.capture import Capture, Recording
from calibration.virtual import TICKS_MASK, VirtualPads
from firmware_py.sim.pad_sets import SIM_CABINETS, make_detector
from firmware_py.sim.padboard import PROBE_IRQ_US
from firmware_py.sim.piezo import REAL_PAD_KINDS, ModelSlap, PiezoModel, PiezoPad, SlapSignal, normals
from hal.padboard.settings import PadSettings
from tests.calibration.real_pad_runs import HummingModel


class FrameByFrame(VirtualPads):
    """The virtual pads as they ran before blocks: a frame per step, each slap handed to
    the model ten frames before it, each hit's edge taken at the frame reporting it."""

    def pump(self, rec: Recording | None, until_us: int) -> None:
        model = self.model.model  # type: ignore[attr-defined]  # the SlapSignal's PiezoModel
        period = self.sample_period_us
        t = self._t
        while t < until_us:
            while self._pending and self._pending[0][0] <= t + 10 * period:
                ts, _, pad, force = heapq.heappop(self._pending)
                self.model.add_slap(pad, ts, force)
            s = model.sample(t)
            if self.comparator is None:
                for found in self._det.process(t & TICKS_MASK, s):
                    self._hit(rec, t, *found)
            else:
                self._compare(rec, t, s)
            if rec is not None:
                rec.add_frames([t], [s])
            t += period
        self._contacts(rec, t)
        self._t = t


def _script(vp: VirtualPads, seed: int, seconds: float, retune: Sequence[PadSettings]) -> list[Capture]:
    """Steps of slaps as an operator and a test bench give them: single slaps from soft
    to past the rail, two pads a few hundred µs apart, quick repeats on one pad (its
    ring, a palm's second contact), idle stretches; pumped in chunks of odd lengths,
    every third step with new settings on one pad."""
    rng = random.Random(seed)
    caps = []
    vp.idle(1_000_000)
    end = vp.now_us() + int(seconds * 1e6)
    step = 0
    while vp.now_us() < end:
        now = vp.now_us()
        rec = Recording(f"step{step}", range(vp.pads), 700_000)
        vp.begin(rec)
        t = now + rng.randrange(0, 40_000)
        for _ in range(rng.randrange(1, 6)):
            pad = rng.randrange(vp.pads)
            force = rng.choice((rng.uniform(300, 3000), rng.uniform(3000, 20000), rng.uniform(20000, 70000)))
            vp.slap(pad, t, force)
            kind = rng.random()
            if kind < 0.3:  # another pad a moment later
                vp.slap((pad + rng.randrange(1, vp.pads)) % vp.pads, t + rng.randrange(0, 2500), force * 0.8)
            elif kind < 0.5:  # the same pad again on its ring
                vp.slap(pad, t + rng.randrange(15_000, 60_000), force * rng.uniform(0.1, 1.2))
            t += rng.randrange(20_000, 160_000)
        stop = now + 700_000
        while vp.now_us() < stop:
            vp.pump(rec, min(stop, vp.now_us() + rng.randrange(7_000, 90_000)))
        caps.append(vp.end(rec))
        if step % 3 == 2:
            vp.write_settings(step % vp.pads, retune[step % len(retune)])
        if step % 4 == 3:
            vp.idle(rng.randrange(100_000, 1_500_000))
        step += 1
    return caps


def _both(
    hum: bool,
    pads: Sequence[PiezoPad],
    settings: Sequence[PadSettings],
    seconds: float,
    **kw: object,
) -> None:
    runs = []
    for cls in (FrameByFrame, VirtualPads):
        signal = HummingModel(pads, 7, 300.0, crosstalk=0.15) if hum else PiezoModel(pads, seed=7, crosstalk=0.22)
        vp = cls(SlapSignal(signal), make_detector, len(pads), settings, **kw)  # type: ignore[arg-type]
        caps = _script(vp, 11, seconds, [PadSettings(threshold=900), PadSettings(threshold=2500, scan_us=3500)])
        runs.append((vp.hits, caps, [[(t0, id(s)) for t0, s in a] for a in signal._active]))
    (ref_hits, ref_caps, ref_active), (hits, caps, active) = runs
    assert len(ref_hits) > 5 * seconds  # the script slaps as often as it says
    assert sum(len(c.edges) for c in ref_caps) == sum(len(c.hits) for c in ref_caps) or kw.get("comparator")
    assert hits == ref_hits
    assert caps == ref_caps
    assert [len(a) for a in active] == [len(a) for a in ref_active]


TUNED = PadSettings(
    threshold=1200,
    scan_us=3000,
    mask_us=18_000,
    retrigger_pct=160,
    retrigger_decay_us=9000,
    xgain_from0=300,
    xgain_from1=250,
    xlag_from1=300,
    second_pct=30,
)


def test_a_rough_table_runs_the_same_in_blocks_as_frame_by_frame() -> None:
    """Four pads, strong crosstalk, a long ring and a drifting baseline; the probe worn."""
    spec = SIM_CABINETS["rough"]
    _both(False, spec.pads, [TUNED, PadSettings(), TUNED, PadSettings(threshold=1500)], 12.0, probe_irq_us=PROBE_IRQ_US)


def test_bipolar_humming_pads_run_the_same_in_blocks_as_frame_by_frame() -> None:
    """Real pads' strikes (a first lobe, either polarity), mains hum, a hot pad that clips."""
    pads = [*REAL_PAD_KINDS.values(), PiezoPad(gain=2.5, noise=200, delay_us=120)]
    _both(True, pads, [TUNED] * 4, 10.0)


def test_comparator_pads_run_the_same_in_blocks_as_frame_by_frame() -> None:
    spec = SIM_CABINETS["hall"]
    _both(False, spec.pads, [PadSettings()] * 3, 4.0, comparator=(2000, 4000, 1500))


def test_a_block_of_frames_is_the_frames_one_by_one() -> None:
    """``PiezoModel.block`` against ``sample`` frame by frame, pads staggered as a DMA
    converting them in turn samples them, slaps added between blocks."""
    pads = SIM_CABINETS["rough"].pads
    ref, blk = PiezoModel(pads, seed=3), PiezoModel(pads, seed=3)
    rng = random.Random(5)
    t = 0
    while t < 800_000:
        if rng.random() < 0.2:
            slap = ModelSlap(rng.randrange(4), t + rng.randrange(0, 20_000), rng.uniform(500, 60000))
            ref.add(slap)
            blk.add(slap)
        most = rng.randrange(1, 300)
        cols = blk.block(t, 50, most, 12.5)
        frames = [ref.sample(t + f * 50, 12.5) for f in range(len(cols[0]))]
        assert cols == [list(c) for c in zip(*frames)]
        assert [len(a) for a in blk._active] == [len(a) for a in ref._active]
        t += 50 * len(cols[0])


def test_the_models_noise_is_gauss_bit_for_bit() -> None:
    """``normals`` makes its blocks a list at a time: still ``gauss(0, 1)``'s values, bit for bit."""
    for seed in (0, 7, 0x5EED):
        rng = random.Random(seed)
        assert list(itertools.islice(normals(random.Random(seed)), 3000)) == [rng.gauss(0.0, 1.0) for _ in range(3000)]
