"""Padboard wire codec: round trip and resync under any chunking, garbage and bit flips."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hal.padboard import wire

frames_st = st.lists(
    st.tuples(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=300)),
    min_size=1,
    max_size=8,
)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, prev = [], 0
    for p in points + [len(data)]:
        out.append(data[prev:p])
        prev = p
    return out


def decode_all(chunks: list[bytes], dec: wire.FrameDecoder | None = None) -> list[tuple[int, int, bytes]]:
    dec = dec or wire.FrameDecoder()
    got = []
    for c in chunks:
        got += dec.feed(c)
    return [(t, s, bytes(p)) for t, s, p in got]


def test_padboard_crc_is_ccitt_false_on_both_implementations() -> None:
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16_py(b"123456789") == 0x29B1
    data = bytes(random.Random(1).randrange(256) for _ in range(1000))
    assert wire.crc16(data) == wire.crc16_py(data)


@given(st.binary(max_size=800))
def test_padboard_cobs_round_trip_has_no_zero(data: bytes) -> None:
    enc = wire.cobs_encode(data)
    assert 0 not in enc
    assert wire.cobs_decode(enc) == data


@given(frames_st, st.lists(st.integers(0, 10_000), max_size=12))
def test_padboard_frames_round_trip_in_any_chunking(frames, cuts) -> None:
    stream = b"".join(wire.encode_frame(t, s, p) for t, s, p in frames)
    dec = wire.FrameDecoder()
    assert decode_all(chunked(stream, cuts), dec) == frames
    assert dec.bad_frames == 0 and dec.garbage_bytes == 0


@pytest.mark.slow
@given(
    frames_st, st.lists(st.binary(max_size=60), min_size=1, max_size=9), st.lists(st.integers(0, 10_000), max_size=12)
)
def test_padboard_garbage_between_frames_is_skipped_and_counted(frames, garbage, cuts) -> None:
    for g in garbage:
        assume(decode_all([g + b"\x00"]) == [])  # garbage that happens to be a valid frame is a frame
    stream = b""
    for i, f in enumerate(frames):
        stream += garbage[i % len(garbage)] + wire.encode_frame(*f)
    stream += garbage[-1]
    dec = wire.FrameDecoder()
    assert decode_all(chunked(stream, cuts), dec) == frames
    junk = sum(len(garbage[i % len(garbage)]) for i in range(len(frames)))
    assert dec.garbage_bytes <= junk + len(garbage[-1]) + len(frames)


@pytest.mark.slow
@settings(max_examples=200)
@given(frames_st, st.data())
def test_padboard_bit_flip_loses_only_the_hit_frame(frames, data) -> None:
    encoded = [wire.encode_frame(*f) for f in frames]
    victim = data.draw(st.integers(0, len(frames) - 1))
    body = bytearray(encoded[victim])
    pos = data.draw(st.integers(1, len(body) - 2))  # inside the frame, not a delimiter
    body[pos] ^= 1 << data.draw(st.integers(0, 7))
    encoded[victim] = bytes(body)
    dec = wire.FrameDecoder()
    got = decode_all([b"".join(encoded)], dec)
    assert got == frames[:victim] + frames[victim + 1 :]
    assert dec.bad_frames >= 1


def test_padboard_endless_garbage_is_bounded_then_resyncs() -> None:
    dec = wire.FrameDecoder(max_body=64)
    assert dec.feed(b"\x55" * 5000) == []
    assert len(dec._buf) <= 70
    frame = wire.encode_frame(wire.PING, 7, b"abcd")
    assert [(t, s, bytes(p)) for t, s, p in dec.feed(b"\x55" * 10 + frame)] == [(wire.PING, 7, b"abcd")]
    assert dec.bad_frames == 1 and dec.garbage_bytes == 5011


def test_padboard_seq_delta_wraps() -> None:
    assert wire.seq_delta(1, 0) == 1
    assert wire.seq_delta(0, 0xFFFF) == 1
    assert wire.seq_delta(3, 0xFFFE) == 5
    assert wire.seq_delta(5, 5) == 0
    assert wire.seq_delta(0xFFFF, 2) == -3


@pytest.mark.slow
@given(st.integers(0, 7), st.lists(st.integers(-100, 70_000), min_size=10, max_size=10))
def test_padboard_settings_payload_round_trip_clamps(pad, values) -> None:
    d = {f[0]: v for f, v in zip(wire.SETTINGS_FIELDS, values)}
    got_pad, got = wire.unpack_settings(wire.pack_settings(pad, d))
    assert got_pad == pad
    assert got == wire.clamp_settings(d)
    for name, _default, lo, hi in wire.SETTINGS_FIELDS:
        assert lo <= got[name] <= hi


def test_padboard_message_payloads_round_trip() -> None:
    assert wire.unpack_info(wire.pack_info(1, 4, 30, 250, "ringside-padboard 1.0")) == (
        1,
        4,
        30,
        250,
        "ringside-padboard 1.0",
    )
    assert wire.unpack_slap(wire.pack_slap(3, 127, (1 << 30) - 1, 65535)) == (3, 127, (1 << 30) - 1, 65535)
    pads = [(32768, 12, 4000, 0), (30000, 40, 65535, 9)]
    assert wire.unpack_health(wire.pack_health(10, 2, 3999500, pads)) == (10, 2, 3999500, pads)
    raw = wire.raw_header(123, 0b0101, 2) + bytes([0, 0, 1, 0, 2, 0, 250, 0, 3, 0, 4, 0])
    assert wire.unpack_raw(raw) == (123, [0, 2], [(0, (1, 2)), (250, (3, 4))])
