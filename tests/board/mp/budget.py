"""Sent to the emulated board over the raw REPL (booted with BOOTSEL held, so main.py
returned before its loop): main.py's own start() and serve(), with its two per-pass
calls timed, for BLOCKS blocks; then one line of figures.  SLAP frames are decoded from
what the board writes, so onsets come back in board ticks; the other frames are only
counted (decoding them here, in bytecode, would be the measurement's own cost).  With
RAW set, the board streams raw frames as calibration has it do (RAW_START first).
MicroPython only."""

import gc
import time
from array import array

import main
import wire

BLOCKS = 250  # the caller replaces this line ...
UNTIL = -1  # ... and this: stop at the first block from these board ticks on (-1: BLOCKS only)
FROM = -1  # ... and this: count from the first block from these board ticks on (-1: from the start)
RAW = None  # ... and this: RAW_START's (pad mask, frames per block, flags), None: no raw streaming
# blocks, busy µs, longest block µs, frames, longest pass gap µs, passes, ticks of the
# first and the latest pass, frames the DMA had written by the first and the latest pass,
# µs of the busy time inside the detector
stats = array("i", [0] * 11)
slaps = []
sent = array("i", [0, 0])  # frames and bytes the board wrote while counting
# per method of TIMED (issue 31's per-hit work): calls, µs in them, the longest call; the
# caller cuts the wrapping (from "# methods timed" to its end) unless asked, so that the
# free heap figure is the board's alone
TIMED = ("_onset", "_over_ring", "_phase_fit")
timings = array("i", [0] * (3 * len(TIMED)))


class Done(Exception):
    pass


class Out:
    """The board's USB stream, kept: SLAP frames decoded, the rest counted."""

    def __init__(self):
        self.decoder = wire.FrameDecoder()

    def write(self, frame):
        sent[0] += 1
        sent[1] += len(frame)
        if frame[2] != wire.SLAP:  # a whole frame a call (Board.send): 0, COBS code, type (never 0), ...
            return
        for msg_type, _seq, payload in self.decoder.feed(frame):
            if msg_type == wire.SLAP:
                slaps.append(wire.unpack_slap(payload))


# a run before this one in the same REPL lets its board go first (two, with a burst's waveforms
# queued, need not fit); the DMA ring is not allocated again: main.py's import of dma_store at
# boot claimed it, and `import main` here finds that module loaded
board = sampler = probe = detector = feed = on_block = frames_done = None
gc.collect()
board, sampler, probe = main.start(Out())
if RAW is not None:  # as the host's start_raw sends it; the ACK goes to Out
    board.on_bytes(wire.encode_frame(wire.RAW_START, 0, bytes(RAW)), 0)
gc.collect()
free = gc.mem_free()
on_block = board.on_block
frames_done = sampler.frames_done
last = [0]
counting = [FROM < 0]


def timed_block(ring, first, count, t_first, frame_us, shift, stagger, missed):
    t = time.ticks_us()
    on_block(ring, first, count, t_first, frame_us, shift, stagger, missed)
    d = time.ticks_diff(time.ticks_us(), t)
    if counting[0] is False:  # not yet in the window: the next pass starts the figures
        if FROM >= 0 and time.ticks_diff(t_first, FROM) < 0:
            return
        counting[0] = True
        for i in range(len(stats)):
            stats[i] = 0
        board.dropped = 0
        slaps.clear()
        sent[0] = sent[1] = 0
        for i in range(len(timings)):
            timings[i] = 0
        return
    stats[0] += 1
    stats[1] += d
    if d > stats[2]:
        stats[2] = d
    stats[3] += count
    if stats[0] >= BLOCKS or (UNTIL >= 0 and time.ticks_diff(t_first, UNTIL) >= 0):
        raise Done()


def timed_frames():
    t = time.ticks_us()
    if stats[5]:
        gap = time.ticks_diff(t, last[0])
        if gap > stats[4]:
            stats[4] = gap
    last[0] = t
    stats[7] = t
    stats[5] += 1
    done = frames_done()
    if stats[5] == 1:
        stats[6] = t
        stats[8] = done
    stats[9] = done
    return done


detector = board.detector
feed = detector.feed


def timed_feed(*args):
    t = time.ticks_us()
    hits = feed(*args)
    stats[10] += time.ticks_diff(time.ticks_us(), t)
    return hits


# methods timed
def timed(name, at):
    """The detector's method ``name`` timed per call into timings[at:at + 3], as the
    instance's attribute (found before the class's method); a detector without it
    (before issue 31's branch i31h: no _over_ring) keeps its calls at 0."""
    f = getattr(detector, name, None)
    if f is None:
        return

    def call(*args):
        t = time.ticks_us()
        out = f(*args)
        d = time.ticks_diff(time.ticks_us(), t)
        timings[at] += 1
        timings[at + 1] += d
        if d > timings[at + 2]:
            timings[at + 2] = d
        return out

    setattr(detector, name, call)


for j in range(len(TIMED)):
    timed(TIMED[j], 3 * j)
# methods timed: end
detector.feed = timed_feed
board.on_block = timed_block
sampler.frames_done = timed_frames
try:
    main.serve(board, sampler, probe)
except Done:
    pass
finally:  # the next script's main.start() points new channels at the same ring: these stop
    sampler.rearm.close()
    sampler.data.close()
print("BUDGET", repr((free, list(stats), board.dropped, slaps, list(sent), list(timings))))
