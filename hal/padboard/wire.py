"""Padboard wire protocol: frames, message types and payload layouts.

Shared by the board (copied to its flash as ``wire.py``) and the host, so both ends
encode and decode with the very same code.  It is written in the MicroPython subset:
builtins, ``struct`` and a guarded ``binascii``; no dataclasses, typing or f-strings (its
types are PEP 484 ``# type:`` comments, which mypy checks and the board skips).

A frame on the wire is ``00 | COBS(type u8, seq u16, payload, crc16 u16) | 00``.
COBS removes every zero from the body, so a zero always means "frame boundary": the
decoder resynchronises at the next zero after garbage, a bit flip or a cut, and the
leading zero ends any garbage that came before a frame.  CRC-16/CCITT-FALSE (poly
0x1021, init 0xFFFF) covers type, seq and payload; all integers are little-endian.
See docs/padboard-protocol.md for the message catalogue.
"""

import struct

PROTOCOL_VERSION = 7  # 2: onset curve, crosstalk per pad; 3: crosstalk subtraction; 4: edges; 5: PONG twice stamped;
# 6: the ring line up to 400 % of the peak, second contacts (second_pct); 7: the first lobe's delay (lobe_us)
MAX_BODY = 1024  # longest decoded body (type + seq + payload + crc) a decoder accepts

# host -> board
HELLO = 0x01  # <B host protocol version
PING = 0x02  # <I token
GET_SETTINGS = 0x03  # <B pad
SET_SETTINGS = 0x04  # <B pad + settings
SAVE_SETTINGS = 0x05  # (empty)
RAW_START = 0x06  # <BBB pad mask, frames per block, flags (RAW_EDGES)
RAW_STOP = 0x07  # (empty)
GET_HEALTH = 0x08  # (empty)
RESEND = 0x09  # <H seq of a board frame the host missed

# board -> host
INFO = 0x81  # <BBBH version, pads, tick bits, sample period us + firmware name
PONG = 0x82  # <III token, board ticks when the ping came in, board ticks just before the pong went out
SETTINGS = 0x83  # <B pad + settings (as applied)
ACK = 0x85  # <BBH request type, status, request seq
RAW = 0x87  # <IBB first frame ticks, pad mask, frames + per frame <H dt + <H per pad
HEALTH = 0x88  # <IIIB frames, dropped, rate mHz, pads + per pad <HHHI
SLAP = 0x90  # <BBIH pad, velocity, onset ticks, peak
EDGE = 0x91  # <BIIHB pad, onset ticks, first sample ticks, us between samples, count + <H per sample
CONTACT = 0x92  # <I ticks when the contact probe closed (a palm touched a pad; while raw streams)

# RAW_START flags
RAW_EDGES = 1  # after each SLAP, its rising edge at the sampling rate (EDGE)
EDGE_BEFORE_US = 1000  # an EDGE holds the samples from this long before the onset ...
EDGE_AFTER_US = 1500  # ... to this long after it (past half the peak: calibration fits the start)
EDGE_MAX_SAMPLES = 255

# ACK status codes
OK = 0
BAD_PAD = 1
BAD_VALUE = 2
UNKNOWN = 3
FLASH_ERROR = 4

# One pad's detector settings: (name, default, lowest, highest), in wire order.
# Amplitudes are in read_u16 counts (0..65535) above the tracked baseline.
SETTINGS_FIELDS = (
    ("threshold", 2000, 1, 65535),  # onset when |sample - baseline| reaches this
    ("sensitivity", 30000, 2, 65535),  # peak that maps to velocity 127
    ("curve", 100, 25, 400),  # velocity curve exponent x100 (100 = linear)
    ("scan_us", 2000, 0, 8000),  # peak search after the onset (velocity only)
    ("mask_us", 25000, 0, 65535),  # no new onset on this pad for this long
    ("retrigger_pct", 50, 0, 400),  # retrigger threshold starts at peak x pct (the ring: over 100 %) ...
    ("retrigger_decay_us", 15000, 100, 65535),  # ... and decays with this time constant (the ring's own)
    ("xtalk_pct", 50, 0, 100),  # drop a hit weaker than another pad's x pct ...
    ("xtalk_window_us", 2000, 0, 20000),  # ... whose onset is this close
    ("baseline_shift", 10, 1, 16),  # baseline IIR: moves 1/2^shift of the error per sample
    # contact -> half the peak on the rising edge, at a peak of 10,000 counts (defaults:
    # the simulator's nominal pad, docs/slap-timing.md; calibration measures each pad) ...
    ("onset_us", 818, 0, 5000),
    ("onset_exp", 98, 0, 1000),  # ... times (peak / 10,000)^(-onset_exp / 1000)
    # crosstalk ratio (pct) from pad 0..3 in particular (255: xtalk_pct), as calibration
    # measures each pair: a far pad shakes this one less than its neighbour does
    ("xtalk_from0", 255, 0, 255),
    ("xtalk_from1", 255, 0, 255),
    ("xtalk_from2", 255, 0, 255),
    ("xtalk_from3", 255, 0, 255),
    # before the rising edge is timed, pad 0..3's signal (less its baseline) is subtracted
    # from this pad's, scaled by xgain (per mille; 0: not subtracted) and shifted by xlag
    # (µs from that pad's signal to its crosstalk here), as calibration measures each pair
    ("xgain_from0", 0, 0, 1000),
    ("xgain_from1", 0, 0, 1000),
    ("xgain_from2", 0, 0, 1000),
    ("xgain_from3", 0, 0, 1000),
    ("xlag_from0", 250, 0, 2000),
    ("xlag_from1", 250, 0, 2000),
    ("xlag_from2", 250, 0, 2000),
    ("xlag_from3", 250, 0, 2000),
    # a hit measured with crosstalk subtracted is a slap of its own (not crosstalk) when
    # what is left is at least this % of what was subtracted (the pairs' mismatch, x2)
    ("xclean_pct", 100, 0, 1000),
    # while the retrigger line stands over the threshold (the last hit's ring), a hit
    # that rises less than this % of the last hit's peak over that ring (the line
    # / retrigger_pct) is the palm's second contact: not a slap, its ring joins the line
    ("second_pct", 0, 0, 100),
    # contact -> half the height of a narrow first lobe against the main swing, taken off
    # the stamp of a hit timed on one (a wooden pad's comes a few hundred µs after its
    # contact, behind a pre swing too small to time; calibration measures it)
    ("lobe_us", 0, 0, 2000),
)
XTALK_FROM = ("xtalk_from0", "xtalk_from1", "xtalk_from2", "xtalk_from3")
XGAIN_FROM = ("xgain_from0", "xgain_from1", "xgain_from2", "xgain_from3")
XLAG_FROM = ("xlag_from0", "xlag_from1", "xlag_from2", "xlag_from3")
SETTINGS_FORMAT = "<" + "H" * len(SETTINGS_FIELDS)
SETTINGS_SIZE = struct.calcsize(SETTINGS_FORMAT)


def default_settings():
    # type: () -> dict[str, int]
    """A fresh dict of every setting at its default."""
    d = {}
    for name, default, _lo, _hi in SETTINGS_FIELDS:
        d[name] = default
    return d


def clamp_settings(d):
    # type: (dict[str, int]) -> dict[str, int]
    """A settings dict with every field present and inside its range."""
    out = {}
    for name, default, lo, hi in SETTINGS_FIELDS:
        v = int(d.get(name, default))
        out[name] = lo if v < lo else hi if v > hi else v
    return out


def _crc_table():
    # type: () -> list[int]
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16_py(data, crc=0xFFFF):
    # type: (bytes | bytearray, int) -> int
    """CRC-16/CCITT-FALSE by table: the board's implementation."""
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[(crc >> 8) ^ b]
    return crc


try:  # CPython's C implementation of the same CRC; MicroPython has none
    from binascii import crc_hqx as _crc_hqx

    def crc16(data, crc=0xFFFF):
        # type: (bytes | bytearray, int) -> int
        return _crc_hqx(data, crc)

except ImportError:
    crc16 = crc16_py


def cobs_encode(data):
    # type: (bytes | bytearray) -> bytes
    """COBS: ``data`` without zero bytes, decodable back exactly."""
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    o = 1
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    return bytes(out[:o])


def cobs_decode(data):
    # type: (bytes) -> bytes | None
    """Inverse of :func:`cobs_encode`; None if ``data`` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        j = i + code
        if j > n:
            return None
        out += data[i + 1 : j]
        i = j
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, payload=b""):
    # type: (int, int, bytes | bytearray) -> bytes
    """One frame, delimiters included, ready to write."""
    body = bytearray(struct.pack("<BH", msg_type, seq & 0xFFFF))
    body += payload
    body += struct.pack("<H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


class FrameDecoder:
    """Bytes in, ``(type, seq, payload)`` out, in any chunking.

    Counts what it throws away: ``bad_frames`` (CRC or COBS failure, too short or too
    long) and ``garbage_bytes`` (every byte of them).  It never skips a zero, so one
    bad frame costs nothing but itself.
    """

    def __init__(self, max_body=MAX_BODY):
        # type: (int) -> None
        self.max_body = max_body
        self.frames_ok = 0
        self.bad_frames = 0
        self.garbage_bytes = 0
        self._buf = b""
        self._overflow = False

    def feed(self, data):
        # type: (bytes | bytearray) -> list[tuple[int, int, bytes]]
        frames = []
        buf = self._buf + bytes(data)
        limit = self.max_body + self.max_body // 254 + 2
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            if self._overflow:
                self._overflow = False
                self.garbage_bytes += end - start + 1
            elif end > start:
                frame = self._decode(buf[start:end])
                if frame is None:
                    self.bad_frames += 1
                    self.garbage_bytes += end - start + 1
                else:
                    self.frames_ok += 1
                    frames.append(frame)
            start = end + 1
        rest = buf[start:]
        if len(rest) > limit:
            # no delimiter in sight: drop the backlog, skip to the next zero
            if not self._overflow:
                self.bad_frames += 1
            self._overflow = True
            self.garbage_bytes += len(rest)
            rest = b""
        self._buf = rest
        return frames

    def _decode(self, chunk):
        # type: (bytes) -> tuple[int, int, bytes] | None
        body = cobs_decode(chunk)
        if body is None or len(body) < 5 or len(body) > self.max_body:
            return None
        if crc16(body[:-2]) != body[-2] | (body[-1] << 8):
            return None
        return body[0], body[1] | (body[2] << 8), body[3:-2]


def seq_delta(seq, last):
    # type: (int, int) -> int
    """How far ``seq`` is ahead of ``last`` on the 16-bit circle: 1 = next frame,
    2..32767 = frames were lost, 0 or negative = a repeat of an old frame."""
    d = (seq - last) & 0xFFFF
    return d - 0x10000 if d >= 0x8000 else d


# -- payloads -----------------------------------------------------------------


def pack_settings(pad, d):
    # type: (int, dict[str, int]) -> bytes
    s = clamp_settings(d)
    vals = [s[f[0]] for f in SETTINGS_FIELDS]
    return struct.pack("<B", pad) + struct.pack(SETTINGS_FORMAT, *vals)


def unpack_settings(payload):
    # type: (bytes) -> tuple[int, dict[str, int]]
    """(pad, settings dict) from a SET_SETTINGS or SETTINGS payload."""
    vals = struct.unpack_from(SETTINGS_FORMAT, payload, 1)
    d = {}
    for i in range(len(SETTINGS_FIELDS)):
        d[SETTINGS_FIELDS[i][0]] = vals[i]
    return payload[0], d


def pack_info(version, pads, tick_bits, sample_period_us, firmware):
    # type: (int, int, int, int, str) -> bytes
    return struct.pack("<BBBH", version, pads, tick_bits, sample_period_us) + firmware.encode()


def unpack_info(payload):
    # type: (bytes) -> tuple[int, int, int, int, str]
    """(version, pads, tick_bits, sample_period_us, firmware name).  The version
    comes first and this layout never changes, so any host can read any board's INFO."""
    version, pads, bits, period = struct.unpack_from("<BBBH", payload, 0)
    return version, pads, bits, period, bytes(payload[5:]).decode()


def pack_slap(pad, velocity, onset_ticks, peak):
    # type: (int, int, int, int) -> bytes
    return struct.pack("<BBIH", pad, velocity, onset_ticks, peak)


def unpack_slap(payload):
    # type: (bytes) -> tuple[int, ...]
    return struct.unpack("<BBIH", payload)


def pack_pong(token, ticks_in, ticks_out):
    # type: (int, int, int) -> bytes
    return struct.pack("<III", token, ticks_in, ticks_out)


def unpack_pong(payload):
    # type: (bytes) -> tuple[int, int, int]
    """Token, ticks when the ping came in, ticks just before the pong went out."""
    token, ticks_in, ticks_out = struct.unpack("<III", payload)
    return token, ticks_in, ticks_out


def pack_contact(ticks):
    # type: (int) -> bytes
    return struct.pack("<I", ticks)


def unpack_contact(payload):
    # type: (bytes) -> int
    if len(payload) != 4:
        raise ValueError("CONTACT payload of " + str(len(payload)) + " bytes")
    ticks = struct.unpack("<I", payload)[0]  # type: int
    return ticks


def pack_edge(pad, onset_ticks, first_ticks, period_us, samples):
    # type: (int, int, int, int, list[int]) -> bytes
    out = bytearray(struct.pack("<BIIHB", pad, onset_ticks, first_ticks, period_us, len(samples)))
    for x in samples:
        out += struct.pack("<H", x)
    return bytes(out)


def unpack_edge(payload):
    # type: (bytes) -> tuple[int, int, int, int, list[int]]
    """(pad, onset ticks, first sample ticks, us between samples, [read_u16 samples])."""
    pad, onset, first, period, n = struct.unpack_from("<BIIHB", payload, 0)
    if len(payload) != 12 + 2 * n or period == 0:
        raise ValueError("EDGE payload of " + str(len(payload)) + " bytes for " + str(n) + " samples")
    return pad, onset, first, period, list(struct.unpack_from("<" + "H" * n, payload, 12))


def pack_health(frames, dropped, rate_mhz, pads):
    # type: (int, int, int, list[tuple[int, int, int, int]]) -> bytes
    """``pads``: a (baseline, noise, peak, clipped) tuple per pad."""
    out = bytearray(struct.pack("<IIIB", frames, dropped, rate_mhz, len(pads)))
    for baseline, noise, peak, clipped in pads:
        out += struct.pack("<HHHI", baseline, noise, peak, clipped)
    return bytes(out)


def unpack_health(payload):
    # type: (bytes) -> tuple[int, int, int, list[tuple[int, ...]]]
    """(frames, dropped, rate_mhz, [(baseline, noise, peak, clipped), ...])."""
    frames, dropped, rate, n = struct.unpack_from("<IIIB", payload, 0)
    pads = []
    for i in range(n):
        pads.append(struct.unpack_from("<HHHI", payload, 13 + 10 * i))
    return frames, dropped, rate, pads


def mask_pads(mask):
    # type: (int) -> list[int]
    """Pad indices set in a pad mask, ascending."""
    return [i for i in range(8) if mask & (1 << i)]


def raw_header(first_ticks, mask, frames):
    # type: (int, int, int) -> bytes
    return struct.pack("<IBB", first_ticks, mask, frames)


def unpack_raw(payload):
    # type: (bytes) -> tuple[int, list[int], list[tuple[int, tuple[int, ...]]]]
    """(first frame ticks, pads, [(dt_us, (sample per pad...)), ...]); ``dt_us`` is the
    time since the previous frame of the block (0 for the first)."""
    first, mask, n = struct.unpack_from("<IBB", payload, 0)
    pads = mask_pads(mask)
    fmt = "<H" + "H" * len(pads)
    size = 2 + 2 * len(pads)
    frames = []
    off = 6
    for _ in range(n):
        vals = struct.unpack_from(fmt, payload, off)
        frames.append((vals[0], vals[1:]))
        off += size
    return first, pads, frames
