"""Board entry point (MicroPython on the RP2040 only): sample, detect, talk over USB.

Kept thin on purpose: everything testable lives in board.py, detector.py and wire.py,
which the host runs too.  This file only owns the hardware: the ADC and DMA registers,
the 1 µs tick timer, the USB CDC byte stream and the flash file.  Press BOOTSEL during
the first second after power-up to skip it and keep the REPL for mpremote (flash.md):
otherwise Ctrl-C is off from the first line, because binary frames may contain 0x03.

Sampling (docs/slap-timing.md, "The board's ADC and DMA"): the ADC converts the pads in
round robin, paced by its own clock divider, and one DMA channel copies every result
into a ring of halfwords (a second channel re-arms it when its count runs out), so the
samples come at exact intervals whatever Python is doing.  The loop hands the frames the
DMA has finished to the board in blocks, in the layout ``Detector.feed`` documents: the
ring itself, no copy.  The tick time of frame 0 is pinned down from every look at the
DMA's write pointer (a sample cannot be written after we see it), so it converges to
within a µs or so.
"""

import micropython

# First thing, before the slow imports and the REPL window: a host that opens the port
# while the board boots sends HELLOs whose sequence numbers hold 0x03 (Ctrl-C), which
# stopped main.py in an import and left the board at its REPL for good (seen on the
# emulated board, tests/board/).  run() hands Ctrl-C back when BOOTSEL asks for the REPL.
micropython.kbd_intr(-1)

import gc
import select
import sys
import time
from array import array

import dma_store  # the DMA ring's memory, before compiling the rest splits the heap
import machine
import rp2
import settings_store
from board import Board, take_host
from detector import EDGE_BACK_US, FRAME_MASK, FRAMES, STATE_US, TICKS_MASK, frame_diff, ticks_diff
from uctypes import addressof

# ADC0..ADC2 on GPIO26..28.  A fourth pad needs ADC3 on GPIO29, which a stock Pico
# wires to VSYS/3: add 3 here only on boards that bring it out to a pin.
CHANNELS = (0, 1, 2)
FRAME_US = 50  # 20 kHz per pad; the ADC runs len(CHANNELS) times faster
BLOCK = 40  # frames handed over at once (2 ms): host bytes are read between blocks
REPL_WINDOW_MS = 1000
HOST_BYTES = 64  # host bytes taken per loop pass at most, so a flood cannot stall sampling
PROBE_PIN = 15  # the contact probe: a conductive glove wired here, foil on each pad to GND
PROBE_DEBOUNCE_US = 20000  # a palm's contact bounces; the first closing is the touch

ADC_BASE = 0x4004C000
ADC_CS = ADC_BASE + 0x00
ADC_FCS = ADC_BASE + 0x08
ADC_FIFO = ADC_BASE + 0x0C
ADC_DIV = ADC_BASE + 0x10
CS_EN = 1
CS_START_MANY = 1 << 3
CS_READY = 1 << 8
FCS_EN = 1
FCS_DREQ_EN = 1 << 3
FCS_LEVEL_SHIFT = 16
FCS_THRESH_SHIFT = 24
ADC_CLOCK_HZ = 48000000
DREQ_ADC = 36
AL1_TRANS_COUNT_TRIG = 7  # word index of that alias among a DMA channel's registers


@micropython.viper
def dma_look(regs, out):
    """The DMA channel's write pointer (``regs``: its registers), then the 1 µs timer's
    low word masked as ``time.ticks_us()`` masks it, two loads apart, into ``out[0]`` and
    ``out[1]``.  Read through Python (``dma.write`` then ``time.ticks_us()``) the two were
    ~5 µs apart on the chip, and every frame time was that much late (issue 31)."""
    r = ptr32(regs)  # noqa: F821  (viper's own; the host's tests give CPython one)
    timer = ptr32(0x40054028)  # noqa: F821  (TIMERAWL)
    o = ptr32(out)  # noqa: F821
    w = r[1]  # WRITE_ADDR
    t = timer[0]
    o[0] = w
    o[1] = t & 0x3FFFFFFF


def wants_repl():
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < REPL_WINDOW_MS:
        if rp2.bootsel_button():
            return True
    return False


class DmaSampler:
    """The ADC in free-running round robin over ``channels``, copied by DMA into
    ``ring`` forever.  :meth:`frames_done` says how many whole frames are in."""

    # One sampler at a time: its ring is dma_store's, which a second one would write too.

    def __init__(self, channels, frame_us):
        n = len(channels)
        self.pads = n
        self.frame_us = frame_us
        ring_bytes = dma_store.RING_BYTES
        self._store = dma_store.STORE
        if self._store is None:  # not claimed at boot: twice the ring, to use an aligned half
            self._store = array("H", bytes(2 * ring_bytes))
        skip = ((-addressof(self._store)) & (ring_bytes - 1)) >> 1
        self.ring = memoryview(self._store)[skip : skip + ring_bytes // 2]
        self.size = ring_bytes // 2
        self._base = addressof(self._store) + 2 * skip
        self._last = 0  # write position (samples into the ring) at the last look
        self._wraps = 0
        self._rebase = n * FRAMES // self.size  # ring wraps per FRAMES frames
        self._t0 = None  # ticks of frame 0
        self._cur = 0  # the newest whole frame, as of the last look
        for ch in channels:
            machine.ADC(machine.Pin(26 + ch))  # the pin as an analog input
        mem = machine.mem32
        mem[ADC_CS] = CS_EN
        while not mem[ADC_CS] & CS_READY:
            pass
        div = ADC_CLOCK_HZ * frame_us // (1000000 * n)  # ADC clocks per conversion
        mem[ADC_DIV] = (div - 1) << 8  # the period is 1 + INT
        mem[ADC_FCS] = FCS_EN | FCS_DREQ_EN | (1 << FCS_THRESH_SHIFT)
        while (mem[ADC_FCS] >> FCS_LEVEL_SHIFT) & 0xF:
            mem[ADC_FIFO]  # drain
        self._count = array("I", [self.size])
        self._look = array("I", [0, 0])  # dma_look's write pointer and ticks
        self.data = rp2.DMA()
        self.rearm = rp2.DMA()
        self.data.config(
            read=ADC_FIFO,
            write=self._base,
            count=self.size,
            ctrl=self.data.pack_ctrl(
                size=1,
                inc_read=False,
                inc_write=True,
                ring_size=dma_store.RING_BITS,
                ring_sel=True,
                treq_sel=DREQ_ADC,
                chain_to=self.rearm.channel,
            ),
        )
        self.rearm.config(
            read=self._count,
            write=self.data.registers[AL1_TRANS_COUNT_TRIG : AL1_TRANS_COUNT_TRIG + 1],
            count=1,
            ctrl=self.rearm.pack_ctrl(size=2, inc_read=False, inc_write=False),
        )
        self._regs = self.data.registers  # made once: each read of the attribute makes a memoryview
        self.data.active(1)
        mask = 0
        for ch in channels:
            mask |= 1 << ch
        mem[ADC_CS] = CS_EN | CS_START_MANY | (mask << 16) | (channels[0] << 12)

    def _wrap(self):
        self._wraps += 1
        if self._wraps == self._rebase:  # frame numbers wrap: so does their time origin
            self._wraps = 0
            if self._t0 is not None:
                self._t0 = (self._t0 + FRAMES * self.frame_us) & TICKS_MASK

    # Machine code, as take_host, which every loop pass calls too: MicroPython allocates the
    # frame of a bytecode function with more than 11 words of locals and stack on the heap
    # and frees it on return.  As bytecode, a block at rest cost 0.54 ms just after a
    # collection and 1.12 ms 275 blocks on (the pass's small garbage landing in the freed
    # frames, likely, leaving fragments larger allocations walk past), and after a second
    # at rest a burst of slaps ran the loop a ring behind (issue 31, emulated board).
    # Native, a block cost 0.46 ms throughout 600 blocks at rest.
    @micropython.native
    def frames_done(self):
        """Whole frames written so far (wrapping at FRAMES).  Also sharpens the time of
        frame 0: every sample we see written was finished before we looked.  So the
        pointer is read before the clock: read after it, an interrupt between the two let
        samples written after ``now`` count as done by then, and frame 0 (the earliest
        time ever seen is kept) would stay that much early for every stamp after.  Frame
        0 is late by the time between the two reads: :func:`dma_look` makes them two
        loads apart."""
        look = self._look
        dma_look(self._regs, look)
        pos = (look[0] - self._base) >> 1
        now = look[1]
        if pos < self._last:
            self._wrap()
        self._last = pos
        if self._t0 is not None:
            # a loop stalled for a whole ring (a flash write) saw no wrap: the clock says how many
            due = ticks_diff(now, self._t0) * self.pads // self.frame_us
            while self._wraps * self.size + pos + self.size // 2 < due:
                self._wrap()
                due = ticks_diff(now, self._t0) * self.pads // self.frame_us
        done = self._wraps * self.size + pos  # samples
        if done:
            t0 = (now - (done - 1) * self.frame_us // self.pads) & TICKS_MASK
            if self._t0 is None or ticks_diff(t0, self._t0) < 0:
                self._t0 = t0
        self._cur = done // self.pads
        return self._cur

    def ticks_of(self, frame):
        """Board ticks of frame ``frame`` (its first pad's sample), counted back from the
        newest frame, so a frame from before the numbers wrapped keeps its time."""
        return (self._t0 + (self._cur - frame_diff(self._cur, frame)) * self.frame_us) & TICKS_MASK


class ContactProbe:
    """The calibration's contact probe: the glove touching a pad's foil pulls the pin
    low; a hard interrupt stamps the first falling edge of each touch with ticks_us
    (a few µs late: docs/slap-timing.md) into a preallocated slot the loop collects."""

    def __init__(self, pin):
        self._stamps = array("i", [0, 0])  # ticks of the last touch, touches seen
        self._taken = 0
        self._last = None
        self._pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self._pin.irq(trigger=machine.Pin.IRQ_FALLING, handler=self._irq, hard=True)

    def _irq(self, _pin):
        t = time.ticks_us()
        if self._last is None or time.ticks_diff(t, self._last) > PROBE_DEBOUNCE_US:
            self._stamps[0] = t & TICKS_MASK
            self._stamps[1] += 1
        self._last = t

    def take(self):
        """Ticks of a touch not yet taken, or None."""
        if self._stamps[1] == self._taken:
            return None
        self._taken = self._stamps[1]
        return self._stamps[0]


def start(out):
    """Everything the loop needs, set up: the board (writing to ``out``), the sampler
    (ADC and DMA running from here on) and the contact probe."""

    def save(settings):
        settings_store.save(settings_store.FILENAME, settings)

    pads = len(CHANNELS)
    settings = settings_store.load(settings_store.FILENAME, pads)
    board = Board(pads, STATE_US, out.write, settings, save, ticks=time.ticks_us)
    return board, DmaSampler(CHANNELS, FRAME_US), ContactProbe(PROBE_PIN)


def serve(board, sampler, probe):
    """The loop, forever: host bytes in, probe contacts, and the frames the DMA finished."""
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    pads = sampler.pads
    # frames of backlog we can afford: the detector looks back up to EDGE_BACK_US plus a scan
    keep = sampler.size // pads - (EDGE_BACK_US + 8000) // FRAME_US - BLOCK
    host = bytearray(HOST_BYTES)
    det = board.detector
    swept = det.scans  # the hits scanned when garbage was last collected
    k = 0
    while True:
        # every byte waiting (one a pass fell behind a host's pings), up to a frame's end
        taken, came = take_host(poller, inp, host, time.ticks_us)
        if taken:  # stamped when the pass first saw them: decoding comes after (a PING's PONG)
            board.on_bytes(host[:taken], came)
        touched = probe.take()
        if touched is not None:
            board.on_contact(touched)
        ready = (sampler.frames_done() - k) & FRAME_MASK
        if ready < BLOCK:  # whole blocks only: handed over as they came (16 frames a call on
            # average), each call's own cost took a burst to 60 % of the CPU (issue 32)
            if swept != det.scans and det.resting():  # a burst's garbage, collected once the pads rest:
                gc.collect()  # a pass takes ~10 ms, and inside a burst it ran the backlog over keep (issue 31)
                swept = det.scans
            continue
        missed = 0
        if ready > keep:  # we fell so far behind that the DMA overwrote what we still need
            missed = ready - BLOCK
            k = (k + missed) & FRAME_MASK
        board.on_block(sampler.ring, k, BLOCK, sampler.ticks_of(k), FRAME_US, 4, True, missed)
        k = (k + BLOCK) & FRAME_MASK


def run():
    if wants_repl():
        micropython.kbd_intr(3)
        return
    serve(*start(sys.stdout.buffer))


if __name__ == "__main__":  # the board runs main.py so; tests import it to measure
    run()
