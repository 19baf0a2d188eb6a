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

try:  # on the board these files sit side by side
    from firmware_py.padboard.detector import TICKS_MASK, Detector, micropython, ticks_diff
    from hal.padboard import wire
except ImportError:
    import micropython
    import wire
    from detector import TICKS_MASK, Detector, ticks_diff

FIRMWARE = "ringside-padboard 2.1"
TICK_BITS = 30
MAX_RAW_FRAMES = 64


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
    ):
        self.pads = pads
        self.sample_period_us = sample_period_us
        self.settings = [wire.clamp_settings(s) for s in settings]
        self.detector = Detector(pads, self.settings)
        self.firmware = firmware
        self.version = version
        self._write = write
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
        self._raw_row = [0] * pads

    def send(self, msg_type, payload=b""):
        frame = wire.encode_frame(msg_type, self.seq, payload)
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
            self._raw_append(t, samples)

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
            row = self._raw_row
            d = (det.step - first % det.step) % det.step
            while d < count:
                at = (first + d) * n
                for i in range(n):
                    row[i] = ring[(at + i) % size] << shift
                self._raw_append((t_first + d * frame_us) & TICKS_MASK, row)
                d += det.step

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

    def _raw_append(self, t, samples):
        buf = self._raw_buf
        if self._raw_n == 0:
            struct.pack_into("<I", buf, 0, t)
            dt = 0
        else:
            dt = ticks_diff(t, self._raw_prev)
            if dt > 65535:
                dt = 65535
        self._raw_prev = t
        off = 6 + self._raw_n * (2 + 2 * len(self._raw_pads))
        struct.pack_into("<H", buf, off, dt)
        off += 2
        for p in self._raw_pads:
            struct.pack_into("<H", buf, off, samples[p])
            off += 2
        self._raw_n += 1
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
            self.send(wire.PONG, payload + struct.pack("<I", now))
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
