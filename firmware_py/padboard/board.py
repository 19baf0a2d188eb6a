"""The board's protocol side: commands in, slaps, raw blocks, edges, probe contacts and
health out.

Hardware-free so it runs unchanged on the board (driven by main.py) and in the host's
simulator: it is given a ``write(frame_bytes)`` function, a ``save(settings)`` function
and the tick time of every call.  MicroPython subset only.

Every frame the board sends carries the next sequence number (16 bit, restarting at 0
on HELLO) and is kept in a short history, so a host that saw a gap can ask for the
missing frames again with RESEND; the copy carries its original number, so the host
can tell it from a new frame and never counts it twice.
"""

import struct
import sys
from array import array

try:  # on the board these files sit side by side
    from firmware_py.padboard.detector import TICKS_MASK, Detector, micropython, ticks_diff
    from hal.padboard import wire
except ImportError:
    import micropython
    import wire
    from detector import TICKS_MASK, Detector, ticks_diff

FIRMWARE = "ringside-padboard 2.2"
TICK_BITS = 30
MAX_RAW_FRAMES = 64
MICROPYTHON = sys.implementation.name == "micropython"

if not MICROPYTHON:  # CPython runs the viper function below as plain Python (its tests do)

    def ptr8(buf):
        return buf

    def ptr16(buf):
        return buf

    def ptr32(buf):
        return buf


_CRC_TABLE = array("H", wire._TABLE)
_BODY = bytearray(wire.MAX_BODY + 2)  # the frame encoder's buffers (Board.encode): one board,
_OUT = bytearray(wire.MAX_BODY + wire.MAX_BODY // 254 + 4)  # one pair, however many Boards a test makes


@micropython.native  # every loop pass calls it: its frame off the heap (main.py's DmaSampler.frames_done says why)
def take_host(poller, stream, into, ticks):
    """One loop pass's host bytes into ``into``: those waiting (``poller.poll(0)``), read
    from ``stream`` one at a time, up to its length, ending at a frame's closing zero;
    returns how many, and the tick the pass first saw them at, which stamps the frames they
    finish (a PING's reading of when it came).  A frame that comes while the pass reads
    the one before is left to the next pass: taken here, it would be stamped before it was
    sent (0.67 ms on the emulated board), and the host's clock sync could fit no drift to
    that exchange."""
    taken = 0
    came = 0
    framed = False
    size = len(into)
    while taken < size and poller.poll(0):
        if not taken:
            came = ticks()
        byte = stream.read(1)[0]
        into[taken] = byte
        taken += 1
        if byte:
            framed = True
        elif framed:
            break
    return taken, came


@micropython.viper
def _frame_into(out, body, size) -> int:
    """``wire.encode_frame``'s bytes, in machine code on the board (viper): the CRC of
    ``body[0:size]`` (type, seq, payload) goes into the two bytes after it, and the frame, its
    delimiters included, into ``out``; returns its length.  The same table CRC and COBS
    as wire.py, byte for byte (tests/firmware_py/padboard, and the MicroPython replay):
    in bytecode they cost a raw block 4.7 ms, more than the 2 ms it spans (issue 32)."""
    b = ptr8(body)
    w = ptr8(out)
    t = ptr16(_CRC_TABLE)
    n = int(size)
    crc = 0xFFFF
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFFFF) ^ int(t[(crc >> 8) ^ int(b[i])])
        i += 1
    b[n] = crc & 0xFF
    b[n + 1] = crc >> 8
    m = n + 2
    w[0] = 0
    code_at = 1
    o = 2
    code = 1
    i = 0
    while i < m:
        c = int(b[i])
        if c == 0:
            w[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            w[o] = c
            o += 1
            code += 1
            if code == 0xFF:
                w[code_at] = code
                code_at = o
                o += 1
                code = 1
        i += 1
    w[code_at] = code
    w[o] = 0
    return o + 1


_RS_OFF, _RS_DT, _RS_SIZE, _RS_SHIFT, _RS_NPADS, _RS_AT, _RS_STRIDE, _RS_DT_STEP, _RS_PADS = range(9)
"""_raw_rows's spec (an array of ints): the byte the next row goes to, its dt, the ring's
size in halfwords, the samples' left shift, how many pads stream, the first row's ring
index, ring halfwords and µs from one row to the next, then the streamed pads."""


@micropython.viper
def _raw_rows(buf, ring, spec, count) -> int:
    """Up to ``count`` raw rows into ``buf`` in machine code on the board (viper), laid
    out by ``spec`` (above): each its dt then the streamed pads' samples from the ring,
    shifted, as little-endian halfwords (what ``struct.pack_into("<H")`` wrote one by
    one); returns how many.  Row by row in Python a block's 8 rows cost more CPU than
    the detector (75 µs a row on the emulated RP2040, issue 32)."""
    b = ptr8(buf)
    r = ptr16(ring)
    sp = ptr32(spec)
    o = sp[0]
    dt = sp[1]
    size = sp[2]
    shift = sp[3]
    n = sp[4]
    at = sp[5]
    stride = sp[6]
    dt_step = sp[7]
    want = int(count)
    j = 0
    while j < want:
        b[o] = dt & 0xFF
        b[o + 1] = (dt >> 8) & 0xFF
        o += 2
        i = 0
        while i < n:
            k = at + sp[8 + i]
            if k >= size:
                k -= size
            v = (int(r[k]) << shift) & 0xFFFF
            b[o] = v & 0xFF
            b[o + 1] = v >> 8
            o += 2
            i += 1
        at += stride
        if at >= size:
            at -= size
        dt = dt_step
        j += 1
    return j


class Board:
    def __init__(
        self,
        pads,
        sample_period_us,
        write,
        settings,
        save=None,
        firmware=FIRMWARE,
        version=wire.PROTOCOL_VERSION,
        history=32,
        ticks=None,
    ):
        """``ticks``: the board's timer (main.py's ``time.ticks_us``), read just before a
        PONG is written; without it (the host's simulator) a PONG says ``now`` twice."""
        self.pads = pads
        self.sample_period_us = sample_period_us
        self.settings = [wire.clamp_settings(s) for s in settings]
        self.detector = Detector(pads, self.settings)
        self.firmware = firmware
        self.version = version
        self._write = write
        self._ticks = ticks
        self._save = save
        self._decoder = wire.FrameDecoder()
        self._history = [None] * history
        self.seq = 0
        self.frames = 0
        self.dropped = 0
        self._rate_t = None
        self._rate_frames = 0
        self._raw_pads = []
        self._raw_mask = 0
        self._edges = False  # with raw streaming: each slap's rising edge (EDGE) after it
        self._raw_block = 0
        self._raw_buf = None
        self._raw_n = 0
        self._raw_prev = 0
        self._raw_spec = array("i", [0] * (_RS_PADS + pads))
        self._raw_samples = array("H", [0] * pads)  # on_frame's samples, as a ring of one frame

    def encode(self, msg_type, seq, payload=b""):
        """``wire.encode_frame(msg_type, seq, payload)``: on the board by ``_frame_into``
        over preallocated buffers, on CPython by wire.py's (its CRC is C there)."""
        if not MICROPYTHON:
            return wire.encode_frame(msg_type, seq, payload)
        n = 3 + len(payload)
        struct.pack_into("<BH", _BODY, 0, msg_type, seq & 0xFFFF)
        _BODY[3:n] = payload
        return bytes(memoryview(_OUT)[: _frame_into(_OUT, _BODY, n)])

    def send(self, msg_type, payload=b""):
        frame = self.encode(msg_type, self.seq, payload)
        self._history[self.seq % len(self._history)] = (self.seq, frame)
        self.seq = (self.seq + 1) & 0xFFFF
        self._write(frame)

    def on_frame(self, t, samples, missed=0):
        """One sampling frame at ticks ``t``; ``missed`` frames were skipped before it
        because the loop ran late (reported as dropped samples)."""
        self.frames += 1
        self.dropped += missed
        if self._rate_t is None:
            self._rate_t = t
        self._slaps(self.detector.process(t, samples))
        if self._raw_mask:
            row = self._raw_samples
            for i in range(self.pads):
                row[i] = samples[i]
            self._raw_append(row, 0, t, 1, 0, 0, 0)

    @micropython.native  # every block passes here: machine code on the board (the CPU budget, issue 32)
    def on_block(self, ring, first, count, t_first, frame_us, shift=0, stagger=False, missed=0):
        """Frames ``first`` .. ``first + count - 1`` as the DMA wrote them into ``ring``
        (layout: ``Detector.feed``), the first at ticks ``t_first``, ``frame_us`` apart;
        ``missed`` frames were overwritten before they could be read (dropped).  Raw
        streaming sends the frames the detector's state machine looks at."""
        self.frames += count
        self.dropped += missed
        if self._rate_t is None:
            self._rate_t = t_first
        hits = self.detector.feed(ring, first, count, t_first, frame_us, shift, stagger)
        if hits:
            self._slaps(hits)
        if self._raw_mask:
            det = self.detector
            n = det.npads
            size = len(ring)
            step = det.step
            d = (step - first % step) % step
            if d < count:
                rows = (count - d + step - 1) // step
                at = ((first + d) * n) % size
                self._raw_append(
                    ring, at, (t_first + d * frame_us) & TICKS_MASK, rows, step * frame_us, step * n, shift
                )

    def _slaps(self, hits):
        for pad, onset, vel, peak in hits:
            self.send(wire.SLAP, wire.pack_slap(pad, vel, onset, peak if peak < 65535 else 65535))
            if self._edges and self._raw_mask:
                t, period, samples = self.detector.edge(
                    pad, onset, wire.EDGE_BEFORE_US, wire.EDGE_AFTER_US, wire.EDGE_MAX_SAMPLES
                )
                if samples:
                    self.send(wire.EDGE, wire.pack_edge(pad, onset, t, period, samples))

    def on_contact(self, t):
        """The contact probe closed at ticks ``t`` (a gloved palm touched a pad's foil):
        reported while raw streams, which is while calibration records."""
        if self._raw_mask:
            self.send(wire.CONTACT, wire.pack_contact(t & TICKS_MASK))

    @micropython.native
    def _raw_append(self, ring, at, t, rows, dt_step, stride, shift):
        """``rows`` raw rows, the first at ticks ``t`` from the frame at index ``at`` of
        ``ring`` (the pads' samples side by side, shifted left by ``shift``), each next
        ``dt_step`` µs and ``stride`` halfwords on; every full block is sent."""
        buf = self._raw_buf
        spec = self._raw_spec
        spec[_RS_SIZE] = len(ring)
        spec[_RS_SHIFT] = shift
        spec[_RS_AT] = at
        spec[_RS_STRIDE] = stride
        spec[_RS_DT_STEP] = dt_step
        row = 2 + 2 * len(self._raw_pads)
        while rows > 0:
            if self._raw_n == 0:
                struct.pack_into("<I", buf, 0, t)
                dt = 0
            else:
                dt = ticks_diff(t, self._raw_prev)
                if dt > 65535:
                    dt = 65535
            spec[_RS_OFF] = 6 + self._raw_n * row
            spec[_RS_DT] = dt
            k = _raw_rows(buf, ring, spec, min(rows, self._raw_block - self._raw_n))
            rows -= k
            self._raw_n += k
            self._raw_prev = (t + (k - 1) * dt_step) & TICKS_MASK
            t = (t + k * dt_step) & TICKS_MASK
            at = (at + k * stride) % len(ring)
            spec[_RS_AT] = at
            if self._raw_n == self._raw_block:
                buf[4] = self._raw_mask
                buf[5] = self._raw_n
                self.send(wire.RAW, bytes(buf))
                self._raw_n = 0

    def on_bytes(self, data, now):
        """Bytes from the host, read at ticks ``now``."""
        for msg_type, seq, payload in self._decoder.feed(data):
            self._handle(msg_type, seq, payload, now)

    def _ack(self, msg_type, status, seq):
        self.send(wire.ACK, struct.pack("<BBH", msg_type, status, seq))

    def _handle(self, msg_type, seq, payload, now):
        if msg_type == wire.PING and len(payload) == 4:
            answered = now if self._ticks is None else self._ticks() & TICKS_MASK
            self.send(wire.PONG, wire.pack_pong(struct.unpack("<I", payload)[0], now, answered))
        elif msg_type == wire.HELLO:
            self.seq = 0
            self._history = [None] * len(self._history)
            self._raw_mask = 0
            self.send(
                wire.INFO, wire.pack_info(self.version, self.pads, TICK_BITS, self.sample_period_us, self.firmware)
            )
        elif msg_type == wire.RESEND and len(payload) == 2:
            want = payload[0] | (payload[1] << 8)
            kept = self._history[want % len(self._history)]
            if kept is not None and kept[0] == want:
                self._write(kept[1])
        elif msg_type == wire.GET_SETTINGS or msg_type == wire.SET_SETTINGS:
            pad = payload[0] if payload else 255
            if pad >= self.pads:
                self._ack(msg_type, wire.BAD_PAD, seq)
            elif msg_type == wire.SET_SETTINGS and len(payload) != 1 + wire.SETTINGS_SIZE:
                self._ack(msg_type, wire.BAD_VALUE, seq)
            else:
                if msg_type == wire.SET_SETTINGS:
                    self.settings[pad] = wire.clamp_settings(wire.unpack_settings(payload)[1])
                    self.detector.configure(pad, self.settings[pad])
                self.send(wire.SETTINGS, wire.pack_settings(pad, self.settings[pad]))
        elif msg_type == wire.SAVE_SETTINGS:
            try:
                self._save(self.settings)
                self._ack(msg_type, wire.OK, seq)
            except (OSError, TypeError):
                self._ack(msg_type, wire.FLASH_ERROR, seq)
        elif msg_type == wire.RAW_START and len(payload) == 3:
            self._raw_start(payload[0], payload[1], payload[2], seq)
        elif msg_type == wire.RAW_STOP:
            self._raw_mask = 0
            self._ack(msg_type, wire.OK, seq)
        elif msg_type == wire.GET_HEALTH:
            self.send(wire.HEALTH, self._health(now))
        else:
            self._ack(msg_type, wire.UNKNOWN, seq)

    def _raw_start(self, mask, block, flags, seq):
        pads = [p for p in wire.mask_pads(mask) if p < self.pads]
        size = 6 + block * (2 + 2 * len(pads))
        if not pads or block < 1 or block > MAX_RAW_FRAMES or size + 5 > wire.MAX_BODY:
            self._ack(wire.RAW_START, wire.BAD_VALUE, seq)
            return
        self._raw_pads = pads
        self._raw_spec[_RS_NPADS] = len(pads)
        for i, p in enumerate(pads):
            self._raw_spec[_RS_PADS + i] = p
        self._raw_block = block
        self._raw_buf = bytearray(size)
        self._raw_n = 0
        self._raw_mask = 0
        self._edges = bool(flags & wire.RAW_EDGES)
        for p in pads:
            self._raw_mask |= 1 << p
        self._ack(wire.RAW_START, wire.OK, seq)

    def _health(self, now):
        rate = 0
        if self._rate_t is not None:
            span = ticks_diff(now, self._rate_t)
            if span > 0:
                rate = int((self.frames - self._rate_frames) * 1000000000 // span)
        self._rate_t = now
        self._rate_frames = self.frames
        pads = [self.detector.health(i) for i in range(self.pads)]
        pads = [(b, n if n < 65535 else 65535, p if p < 65535 else 65535, c) for b, n, p, c in pads]
        return wire.pack_health(self.frames & 0xFFFFFFFF, self.dropped & 0xFFFFFFFF, rate & 0xFFFFFFFF, pads)
