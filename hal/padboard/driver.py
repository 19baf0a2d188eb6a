"""The padboard as a slap source: pyserial link, handshake, clock sync, reconnection.

A reader thread owns the port: it blocks in ``read``, stamps every chunk with the HAL
clock the moment it returns (pong receive times must be tight), decodes frames, pings
the board ten times a second and hands slaps over to :meth:`PadboardSource.poll`
through a thread-safe queue.  Board stamps are mapped to HAL µs by :class:`ClockSync`.

Link faults: bad frames are counted and skipped by the decoder; a sequence gap asks
the board to RESEND what it still has; a repeat of a frame already seen is dropped;
an I/O error or a silent link (no frame for ``link_timeout_s``) reports
``PadLinkEvent(connected=False)`` and reconnects with exponential backoff, reporting
``connected=True`` once a fresh handshake and clock sync succeed.  A board that
speaks another protocol version raises :class:`ProtocolVersionError` from the
constructor, or is reported (and retried slowly) if it turns up on a reconnect.

A CRC only proves a frame arrived as sent, not that the link still means what the
driver thinks, nor that the board sent it now.  A frame no sequence number of the link
explains — further ahead than the board's RESEND history (:data:`SEQ_WINDOW`), a "repeat"
that differs from the frame first seen under its number, one older than the history, any
frame but INFO before the board answered HELLO — is ``stray``: dropped, a replay of old
frames or a forgery costing nothing but itself and never the link (issue 22: five old
slap frames every 120 ms took the link down six times, about 4 s, lost 14-17 of 40 slaps
and delivered up to 17 twice).  Only the board can answer a ping still outstanding, so
a PONG to one under an unexplained number is the board's: its numbering is taken up from
there (``renumbered``).  A slap is judged by its stamp whatever its number: one mapped
implausibly far from its arrival (:data:`SLAP_AHEAD_US`, :data:`SLAP_AGE_US`) is dropped
(``implausible``), and so is one on a pad within :data:`REPEAT_US` of a slap already
delivered on it, across reconnections too (``repeats``): a slap is delivered once, and
the board's own slaps, numbered past a replayed frame, still arrive.  The driver
resynchronises (drops the link and makes a new handshake and clock sync, the game
pausing meanwhile) when a pong's board time cannot be placed between its ping and its
arrival, even allowing for what the clock sync cannot yet tell: the board's clock jumped
(a firmware restart).
"""

from __future__ import annotations

import logging
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import serial

from hal.clock import Clock
from hal.events import PadLinkEvent, SlapEvent
from hal.padboard import wire
from hal.padboard.clocksync import ClockSync
from hal.padboard.messages import BoardInfo, Health, LinkCounters, PadEdge, PadHealth, PadHit, RawBlock
from hal.padboard.settings import PadSettings
from hal.timing import PADBOARD_SETTLE_US

SOURCE = "padboard"
log = logging.getLogger(__name__)


SEQ_WINDOW = 32
"""Frames the board keeps for RESEND (``Board(history=32)``): a gap wider than this
cannot be filled, and a repeat older than this cannot be one."""
SLAP_AHEAD_US = 50_000
"""A slap cannot be stamped after it arrived; this much covers any clock-sync error."""
SLAP_AGE_US = 5_000_000
"""A slap arrives at most the board's hold (a few ms) plus a RESEND round (the driver
gives up on a missing frame after 1 s) after its stamp; the rest is room for a reader
thread starved on a loaded machine."""
REPEAT_US = 10_000
"""Two slaps on one pad this close are one slap delivered twice (an old frame replayed,
seen again after a resync, mapped by a new clock sync a few ms off the first): the
board's own mask (``mask_us``, 25 ms by default) keeps real onsets further apart."""
CLOCK_JUMP_US = 50_000
"""How far outside its ping's round trip a pong's mapped board time may fall, beyond the
clock sync's own band (:meth:`ClockSync.outside_us`), before the board's clock is taken
to have jumped (a synced link's error is µs to a few ms)."""


_GAVE_UP = (-1, b"")
"""What :attr:`PadboardSource._seen` holds for a missing frame the driver stopped waiting for."""


class PadboardError(RuntimeError):
    """A padboard command failed (link down, no answer, or the board refused it)."""


class LinkResync(PadboardError):
    """What the board sent no longer fits the link's state: reconnect and sync again."""


class ProtocolVersionError(PadboardError):
    """The board speaks another protocol version: its firmware must be reflashed."""


@dataclass(frozen=True)
class LinkTiming:
    """How the driver paces the link (seconds)."""

    ping_interval_s: float = 0.1
    sync_pings: int = 8  # pongs collected, 10 ms apart, before a link counts as up
    handshake_timeout_s: float = 1.0
    link_timeout_s: float = 1.5
    backoff_first_s: float = 0.05
    backoff_max_s: float = 2.0
    command_timeout_s: float = 1.0


class _Waiter:
    def __init__(self, match: Callable[[int, bytes], bool]) -> None:
        self.match = match
        self.done = threading.Event()
        self.reply: tuple[int, bytes] | None = None


class PadboardSource:
    """Slaps from a padboard on serial ``port`` (implements ``hal.slap_source.SlapSource``).

    ``pad_stations`` maps board pad index → station; hits on unmapped pads still reach
    ``on_hit`` (calibration) but produce no SlapEvent.  ``on_hit`` and raw-stream
    callbacks run on the reader thread: keep them short.
    """

    name = SOURCE

    def __init__(
        self,
        port: str,
        clock: Clock,
        pad_stations: Mapping[int, int],
        settle_us: int = PADBOARD_SETTLE_US,
        timing: LinkTiming = LinkTiming(),
        baudrate: int = 115200,
        on_hit: Callable[[PadHit], None] | None = None,
    ) -> None:
        self.port = port
        self.clock = clock
        self.pad_stations = dict(pad_stations)
        self.settle_us = settle_us
        self.timing = timing
        self.baudrate = baudrate
        self.on_hit = on_hit
        self.info: BoardInfo | None = None
        self.last_error = ""
        self._events: deque[SlapEvent | PadLinkEvent] = deque()
        self.wake: threading.Event | None = None
        """Set after every queued event, so a sleeping main loop wakes for it."""
        self._ser: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._waiters: list[_Waiter] = []
        self._raw_callback: Callable[[RawBlock], None] | None = None
        self._edge_callback: Callable[[PadEdge], None] | None = None
        self._contact_callback: Callable[[int], None] | None = None
        self._counters = LinkCounters()
        self._decoder = wire.FrameDecoder()
        self._tx_seq = 0
        self._closing = threading.Event()
        self._up = False
        self._drift_prior_ppm = 0.0
        self._delivered: dict[int, list[int]] = {}
        """Pad → HAL µs of its slaps delivered in the last :data:`SLAP_AGE_US` (kept across
        reconnections: a slap is delivered once, whatever the link went through)."""
        self._reset_link()
        try:
            self._connect()
        except ProtocolVersionError:
            self._close_port()
            raise
        except (OSError, serial.SerialException, PadboardError) as e:
            self._link_down(str(e))
        self._thread = threading.Thread(target=self._run, name="padboard-reader", daemon=True)
        self._thread.start()

    # -- SlapSource -------------------------------------------------------------------

    def _wake_loop(self) -> None:
        if self.wake is not None:
            self.wake.set()

    def poll(self, now_us: int) -> list[SlapEvent | PadLinkEvent]:
        out = []
        while self._events:
            out.append(self._events.popleft())
        return out

    def close(self) -> None:
        self._closing.set()
        self._thread.join(timeout=5)
        self._close_port()

    # -- state for the service menu and calibration -------------------------------

    @property
    def connected(self) -> bool:
        return self._up

    @property
    def counters(self) -> LinkCounters:
        with self._state_lock:
            d = self._decoder
            return replace(
                self._counters,
                frames_ok=self._counters.frames_ok + d.frames_ok,
                bad_frames=self._counters.bad_frames + d.bad_frames,
                garbage_bytes=self._counters.garbage_bytes + d.garbage_bytes,
            )

    @property
    def sync(self) -> ClockSync:
        """The current connection's clock sync (drift, uncertainty, min RTT)."""
        return self._sync

    # -- calibration calls (any thread; they block until the board answers) -------

    def read_settings(self, pad: int) -> PadSettings:
        _, payload = self._request(wire.GET_SETTINGS, bytes([pad]), self._settings_reply(wire.GET_SETTINGS, pad))
        return PadSettings.from_dict(wire.unpack_settings(payload)[1])

    def write_settings(self, pad: int, settings: PadSettings) -> PadSettings:
        """Apply settings to a pad now (not saved); returns them as the board applied them."""
        msg = wire.pack_settings(pad, settings.as_dict())
        _, payload = self._request(wire.SET_SETTINGS, msg, self._settings_reply(wire.SET_SETTINGS, pad))
        return PadSettings.from_dict(wire.unpack_settings(payload)[1])

    def save_settings(self) -> None:
        """Store every pad's current settings in the board's flash (they survive a reboot)."""
        self._command(wire.SAVE_SETTINGS, b"")

    def request_health(self) -> Health:
        _, payload = self._request(wire.GET_HEALTH, b"", lambda t, _p: t == wire.HEALTH)
        frames, dropped, rate_mhz, pads = wire.unpack_health(payload)
        return Health(
            t_us=self.clock.now_us(),
            frames=frames,
            dropped=dropped,
            sample_rate_hz=rate_mhz / 1000,
            pads=tuple(PadHealth(*p) for p in pads),
        )

    def start_raw(
        self,
        pads: Sequence[int],
        callback: Callable[[RawBlock], None],
        frames_per_block: int = 16,
        on_edge: Callable[[PadEdge], None] | None = None,
        on_contact: Callable[[int], None] | None = None,
    ) -> None:
        """Stream raw samples of ``pads`` to ``callback`` (on the reader thread) as
        :class:`RawBlock` with HAL-mapped times, until :meth:`stop_raw` or a reconnect;
        with ``on_edge``, each hit's rising edge at the board's full sampling rate too,
        and with ``on_contact`` the HAL µs of each touch of the contact probe."""
        mask = 0
        for p in pads:
            mask |= 1 << p
        self._raw_callback = callback
        self._edge_callback = on_edge
        self._contact_callback = on_contact
        try:
            self._command(wire.RAW_START, bytes([mask, frames_per_block, wire.RAW_EDGES if on_edge else 0]))
        except PadboardError:
            self._forget_raw()
            raise

    def stop_raw(self) -> None:
        try:
            self._command(wire.RAW_STOP, b"")
        finally:
            self._forget_raw()

    def _forget_raw(self) -> None:
        self._raw_callback = self._edge_callback = self._contact_callback = None

    def _settings_reply(self, cmd: int, pad: int) -> Callable[[int, bytes], bool]:
        def match(t: int, p: bytes) -> bool:
            return (t == wire.SETTINGS and p[:1] == bytes([pad])) or (t == wire.ACK and p[:1] == bytes([cmd]))

        return match

    def _command(self, cmd: int, payload: bytes) -> None:
        self._request(cmd, payload, lambda t, p: t == wire.ACK and p[:1] == bytes([cmd]))

    def _request(self, cmd: int, payload: bytes, match: Callable[[int, bytes], bool]) -> tuple[int, bytes]:
        if not self._up:
            raise PadboardError(f"padboard on {self.port} is not connected")
        waiter = _Waiter(match)
        with self._state_lock:
            self._waiters.append(waiter)
        try:
            self._send(cmd, payload)
            if not waiter.done.wait(self.timing.command_timeout_s):
                raise PadboardError(f"padboard on {self.port} did not answer command 0x{cmd:02x}")
        except (OSError, serial.SerialException) as e:
            raise PadboardError(f"padboard on {self.port}: {e}") from e
        finally:
            with self._state_lock:
                self._waiters.remove(waiter)
        if waiter.reply is None:
            raise PadboardError(f"padboard on {self.port} went away during command 0x{cmd:02x}")
        t, p = waiter.reply
        if t == wire.ACK and p[1] != wire.OK:
            raise PadboardError(f"padboard refused command 0x{cmd:02x}: status {p[1]}")
        return waiter.reply

    # -- link -----------------------------------------------------------------------

    def _reset_link(self) -> None:
        with self._state_lock:
            c, d = self._counters, self._decoder
            self._counters = replace(
                c,
                frames_ok=c.frames_ok + d.frames_ok,
                bad_frames=c.bad_frames + d.bad_frames,
                garbage_bytes=c.garbage_bytes + d.garbage_bytes,
            )
            self._decoder = wire.FrameDecoder()
        old = getattr(self, "_sync", None)
        if old is not None and old.span_us >= old.min_span_us:
            self._drift_prior_ppm = old.drift_ppm  # same crystal after a replug
        self._sync = ClockSync(prior_drift_ppm=self._drift_prior_ppm)
        self._last_seq: int | None = None
        self._seen: dict[int, tuple[int, bytes]] = {}
        """The last :data:`SEQ_WINDOW` frames by number, to tell a repeat from an impostor."""
        self._leapt: set[int] = set()
        """Numbers of frames taken although they came ahead of a gap: such a frame may be
        an old one replayed (after a handshake the board numbers from 0 again), so the
        frame that later comes under its number is taken too."""
        self._missing: dict[int, int] = {}
        self._pings: dict[int, int] = {}
        self._token = 0
        self._unmapped: list[tuple[int, int, int, int, int]] = []
        self._last_rx_us = self.clock.now_us()
        self._next_ping_us = 0
        self._told_stray = self._told_implausible = False
        self.info = None

    def _send(self, msg_type: int, payload: bytes) -> None:
        ser = self._ser
        if ser is None:
            raise PadboardError(f"padboard on {self.port} is not connected")
        with self._write_lock:
            ser.write(wire.encode_frame(msg_type, self._tx_seq, payload))
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF

    def _ping(self) -> None:
        self._token = (self._token + 1) & 0xFFFFFFFF
        with self._write_lock:
            frame = wire.encode_frame(wire.PING, self._tx_seq, struct.pack("<I", self._token))
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF
            assert self._ser is not None
            self._pings[self._token] = self.clock.now_us()
            self._ser.write(frame)
        if len(self._pings) > 64:
            self._pings.pop(next(iter(self._pings)))

    def _connect(self) -> None:
        """Open, handshake and sync; raises if any of it fails."""
        self._close_port()
        self._reset_link()
        # a device path, or any pyserial URL (socket://host:port: the emulated board, tests/board/)
        self._ser = serial.serial_for_url(self.port, self.baudrate, timeout=0.05, exclusive=True)
        self._ser.reset_input_buffer()
        t = self.timing
        deadline = time.monotonic() + t.handshake_timeout_s
        hello_at = 0.0
        while self.info is None:
            if time.monotonic() >= deadline:
                raise PadboardError(f"no answer to HELLO from {self.port}")
            if time.monotonic() >= hello_at:
                self._send(wire.HELLO, bytes([wire.PROTOCOL_VERSION]))
                hello_at = time.monotonic() + t.handshake_timeout_s / 4
            self._read_once()
        if self.info.version != wire.PROTOCOL_VERSION:
            raise ProtocolVersionError(
                f"padboard on {self.port} runs firmware {self.info.firmware!r} speaking protocol "
                f"v{self.info.version}; this host speaks v{wire.PROTOCOL_VERSION}: reflash the board "
                "(firmware_py/padboard/flash.md)"
            )
        deadline = time.monotonic() + t.handshake_timeout_s
        while self._sync.count < t.sync_pings:
            if time.monotonic() >= deadline:
                raise PadboardError(f"padboard on {self.port} answered HELLO but not PING")
            self._ping()
            pause = time.monotonic() + 0.01
            while time.monotonic() < pause:
                self._read_once()
        self._map_unmapped()
        self._up = True
        self.last_error = ""

    def _close_port(self) -> None:
        self._up = False
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except (OSError, serial.SerialException):
                pass

    def _link_down(self, detail: str) -> None:
        self._close_port()
        self.last_error = detail
        self._events.append(PadLinkEvent(SOURCE, False, self.clock.now_us(), detail))
        self._wake_loop()
        with self._state_lock:
            for w in self._waiters:
                w.done.set()  # no reply: the caller's wait ends in a PadboardError
            self._forget_raw()

    def _run(self) -> None:
        backoff = self.timing.backoff_first_s
        while not self._closing.is_set():
            if self._ser is None or not self._up:
                if self._closing.wait(backoff):
                    break
                try:
                    self._connect()
                except ProtocolVersionError as e:
                    self._close_port()
                    if e.args[0] != self.last_error:
                        self._link_down(e.args[0])
                    backoff = self.timing.backoff_max_s
                    continue
                except (OSError, serial.SerialException, PadboardError) as e:
                    self._close_port()
                    self.last_error = str(e)
                    backoff = min(backoff * 2, self.timing.backoff_max_s)
                    continue
                with self._state_lock:
                    self._counters = replace(self._counters, reconnects=self._counters.reconnects + 1)
                self._events.append(
                    PadLinkEvent(SOURCE, True, self.clock.now_us(), self.info.firmware if self.info else "")
                )
                self._wake_loop()
                backoff = self.timing.backoff_first_s
            try:
                self._serve()
            except (OSError, serial.SerialException, PadboardError) as e:
                self._link_down(str(e) or type(e).__name__)
            except Exception as e:  # a bug must not leave the cabinet without slaps for good
                log.exception("padboard reader failed; reconnecting")
                self._link_down(f"internal error: {e!r}")

    def _serve(self) -> None:
        """Run the connected link until it fails or the source closes."""
        t = self.timing
        while not self._closing.is_set():
            now = self.clock.now_us()
            if now >= self._next_ping_us:
                self._ping()
                self._next_ping_us = now + int(t.ping_interval_s * 1e6)
            if now - self._last_rx_us > t.link_timeout_s * 1e6:
                raise PadboardError(f"padboard on {self.port} went silent")
            self._read_once()
            self._expire_missing(now)

    def _read_once(self) -> None:
        ser = self._ser
        assert ser is not None
        data = ser.read(max(1, ser.in_waiting))
        if not data:
            return
        now = self.clock.now_us()
        with self._state_lock:
            frames = self._decoder.feed(data)
        for msg_type, seq, payload in frames:
            if self._accept(msg_type, seq, bytes(payload)):
                self._last_rx_us = now  # only the board's frames keep the link alive, not a replay's
                try:
                    self._handle(msg_type, bytes(payload), now)
                except (struct.error, ValueError, IndexError, UnicodeDecodeError):
                    self._bump(malformed=1)

    def _accept(self, msg_type: int, seq: int, payload: bytes) -> bool:
        """Sequence check: True for a frame of the board's seen for the first time (and
        for a slap whatever its number: its stamp judges it); False for a repeat or a
        frame no number of the link explains (dropped)."""
        if self.info is None or self._last_seq is None:
            if msg_type != wire.INFO:  # before the answer to HELLO: no numbering adopted yet
                return self._stray(seq, msg_type, payload, f"frame {seq} came before the board's INFO")
            self._last_seq = seq
            self._missing.clear()
            self._seen.clear()
            self._remember(seq, msg_type, payload)
            return True
        d = wire.seq_delta(seq, self._last_seq)
        if d > SEQ_WINDOW:
            return self._stray(
                seq, msg_type, payload, f"frame {seq} is {d} ahead of {self._last_seq}, beyond the history"
            )
        if d >= 1:
            now = self.clock.now_us()
            for k in range(1, d):
                lost = (self._last_seq + k) & 0xFFFF
                self._missing[lost] = now
                self._send(wire.RESEND, struct.pack("<H", lost))
            self._last_seq = seq
            if d > 1:
                self._bump(gaps=d - 1)
                self._leapt.add(seq)
            self._remember(seq, msg_type, payload)
            return True
        if seq in self._missing:
            del self._missing[seq]
            self._bump(recovered=1)
            self._remember(seq, msg_type, payload)
            return True
        seen = self._seen.get(seq)
        if seen == _GAVE_UP:  # a RESEND answered after the driver stopped waiting
            if msg_type == wire.SLAP:  # still a slap never seen: judged by its stamp
                self._remember(seq, msg_type, payload)
                return True
            self._bump(duplicates=1)
            return False
        if seen != (msg_type, payload) and seq in self._leapt:
            self._leapt.discard(seq)  # the frame taken under this number ahead of a gap was not the board's
            self._remember(seq, msg_type, payload)
            return True
        if seen != (msg_type, payload):
            why = "is older than the board's history" if -d >= SEQ_WINDOW else "differs from the frame seen under it"
            return self._stray(seq, msg_type, payload, f"frame {seq} {why}")
        self._bump(duplicates=1)
        return False

    def _stray(self, seq: int, msg_type: int, payload: bytes, why: str) -> bool:
        """Drop a frame no number of the link explains (False), unless it is a PONG to a
        ping still outstanding: only the board can send that, so the board's numbering is
        taken up from it (True; its clock is checked as every pong's is, and a clock that
        jumped, as after a firmware restart, resyncs the link)."""
        if msg_type == wire.PONG and len(payload) == 12 and struct.unpack_from("<I", payload)[0] in self._pings:
            log.warning("padboard on %s: %s, but it answers a ping: numbering taken up from it", self.port, why)
            self._bump(renumbered=1)
            self._last_seq = seq
            self._missing.clear()
            self._seen.clear()
            self._leapt.clear()
            self._remember(seq, msg_type, payload)
            return True
        self._bump(stray=1)
        if not self._told_stray:  # once a connection: a replay sends them by the hundred
            self._told_stray = True
            log.warning("padboard on %s: %s; dropped (a replay or a second source on the link?)", self.port, why)
        # A slap is judged by its stamp instead (too old, or one already delivered: dropped),
        # so one of the board's own, numbered past a replay's, still reaches the game.
        return msg_type == wire.SLAP

    def _remember(self, seq: int, msg_type: int, payload: bytes) -> None:
        self._seen[seq] = (msg_type, payload)
        self._seen.pop((seq - SEQ_WINDOW) & 0xFFFF, None)
        self._leapt.discard((seq - SEQ_WINDOW) & 0xFFFF)

    def _resync(self, why: str) -> LinkResync:
        self._bump(resyncs=1)
        log.warning("padboard on %s: %s; resynchronising", self.port, why)
        return LinkResync(f"resynchronising: {why}")

    def _expire_missing(self, now: int) -> None:
        if self._missing:
            for s, t in list(self._missing.items()):
                if now - t > 1_000_000:
                    del self._missing[s]
                    self._remember(s, *_GAVE_UP)

    def _bump(self, **delta: int) -> None:
        with self._state_lock:
            c = self._counters
            self._counters = replace(c, **{k: getattr(c, k) + v for k, v in delta.items()})

    def _handle(self, msg_type: int, payload: bytes, now: int) -> None:
        if msg_type == wire.PONG:
            token, ticks, answered = wire.unpack_pong(payload)
            sent = self._pings.pop(token, None)
            if sent is not None:
                if self._sync.count:
                    outside = self._sync.outside_us(sent, ticks, now)
                    if outside > CLOCK_JUMP_US:
                        raise self._resync(f"the board's clock jumped: a pong read {outside} µs outside its ping")
                self._sync.add(sent, ticks, now, answered)
        elif msg_type == wire.SLAP:
            pad, vel, onset, peak = wire.unpack_slap(payload)
            self._unmapped.append((pad, vel, onset, peak, now))
            if self._sync.count:
                self._map_unmapped()
        elif msg_type == wire.INFO:
            self.info = BoardInfo(*wire.unpack_info(payload))
        elif msg_type == wire.RAW:
            cb = self._raw_callback
            if cb is not None and self._sync.count:
                self._call(cb, self._raw_block(payload, now))
        elif msg_type == wire.EDGE:
            pad, onset, first, period, samples = wire.unpack_edge(payload)
            on_edge = self._edge_callback
            if on_edge is not None and self._sync.count:
                to_host = self._sync.to_host
                self._call(on_edge, PadEdge(pad, to_host(onset, now), to_host(first, now), period, tuple(samples)))
        elif msg_type == wire.CONTACT:
            touched = wire.unpack_contact(payload)
            on_contact = self._contact_callback
            if on_contact is not None and self._sync.count:
                self._call(on_contact, self._sync.to_host(touched, now))
        with self._state_lock:
            waiters = [w for w in self._waiters if not w.done.is_set() and w.match(msg_type, payload)]
        for w in waiters:
            w.reply = (msg_type, payload)
            w.done.set()

    @staticmethod
    def _call(callback: Callable[[Any], None], value: object) -> None:
        """Run a calibration callback; its failure is logged, never the link's."""
        try:
            callback(value)
        except Exception:
            log.exception("padboard callback %r failed", callback)

    def _map_unmapped(self) -> None:
        unmapped, self._unmapped = self._unmapped, []
        for pad, vel, onset, peak, arrived in unmapped:
            t_us = self._sync.to_host(onset, arrived)
            if not arrived - SLAP_AGE_US <= t_us <= arrived + SLAP_AHEAD_US:
                # An old frame replayed right after a handshake, or a forgery: dropped.  Were
                # the board's clock to jump, the next pong would say so (and resync).
                self._bump(implausible=1)
                if not self._told_implausible:  # once a connection, as for stray frames
                    self._told_implausible = True
                    log.warning(
                        "padboard on %s: a slap on pad %s stamped %s µs from its arrival; dropped",
                        self.port,
                        pad,
                        t_us - arrived,
                    )
                continue
            if not self._first_delivery(pad, t_us, arrived):
                self._bump(repeats=1)
                continue
            station = self.pad_stations.get(pad)
            if station is not None:
                self._events.append(SlapEvent(station, t_us, vel, SOURCE))
                self._wake_loop()
            if self.on_hit is not None:
                self._call(self.on_hit, PadHit(pad, t_us, vel, peak))

    def _first_delivery(self, pad: int, t_us: int, arrived: int) -> bool:
        """Whether no slap on ``pad`` within :data:`REPEAT_US` of ``t_us`` was delivered
        (then it counts as delivered now).  Slaps older than :data:`SLAP_AGE_US` are
        implausible anyway, so only those newer are kept."""
        kept = [t for t in self._delivered.get(pad, ()) if t >= arrived - SLAP_AGE_US - REPEAT_US]
        if any(abs(t - t_us) <= REPEAT_US for t in kept):
            self._delivered[pad] = kept
            return False
        kept.append(t_us)
        self._delivered[pad] = kept
        return True

    def _raw_block(self, payload: bytes, now: int) -> RawBlock:
        first, pads, frames = wire.unpack_raw(payload)
        times, ticks = [], first
        for dt, _ in frames:
            ticks += dt
            times.append(self._sync.to_host(ticks, now))
        return RawBlock(tuple(pads), tuple(times), tuple(s for _, s in frames))
