"""Sent to the emulated board over the raw REPL (booted with BOOTSEL held, so main.py
returned before its loop): main.py's own start() and serve(), with its two per-pass
calls timed, for BLOCKS blocks; then one line of figures.  SLAP frames are decoded from
what the board writes, so onsets come back in board ticks.  MicroPython only."""

import gc
import time
from array import array

import main
import wire

BLOCKS = 250  # the caller replaces this line
# blocks, busy µs, longest block µs, frames, longest pass gap µs, passes, first tick, last tick
stats = array("i", [0] * 8)
slaps = []


class Done(Exception):
    pass


class Out:
    """The board's USB stream, kept: SLAP frames decoded, the rest counted."""

    def __init__(self):
        self.decoder = wire.FrameDecoder()

    def write(self, frame):
        for msg_type, _seq, payload in self.decoder.feed(frame):
            if msg_type == wire.SLAP:
                slaps.append(wire.unpack_slap(payload))


board, sampler, probe = main.start(Out())
gc.collect()
free = gc.mem_free()
on_block = board.on_block
frames_done = sampler.frames_done
last = [0]


def timed_block(ring, first, count, t_first, frame_us, shift, stagger, missed):
    t = time.ticks_us()
    on_block(ring, first, count, t_first, frame_us, shift, stagger, missed)
    d = time.ticks_diff(time.ticks_us(), t)
    stats[0] += 1
    stats[1] += d
    if d > stats[2]:
        stats[2] = d
    stats[3] += count
    stats[7] = t
    if stats[0] >= BLOCKS:
        raise Done()


def timed_frames():
    t = time.ticks_us()
    if stats[5]:
        gap = time.ticks_diff(t, last[0])
        if gap > stats[4]:
            stats[4] = gap
    else:
        stats[6] = t
    last[0] = t
    stats[5] += 1
    return frames_done()


board.on_block = timed_block
sampler.frames_done = timed_frames
try:
    main.serve(board, sampler, probe)
except Done:
    pass
print("BUDGET", repr((free, list(stats), board.dropped, slaps)))
