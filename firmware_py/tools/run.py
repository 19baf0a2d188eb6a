"""``ringside run`` in real time, as a long-running process: the real cabinet on a Pi
(``backend = "gpio"``) or simulated hardware with the keyboard as the buttons.

What it adds to the main loop is what running unattended needs: hardware that cannot be
opened is one log line and an exit code (:mod:`firmware_py.process.exit_codes`); SIGTERM (what
``systemctl stop`` sends) and Ctrl-C end the loop cleanly, closing the hardware, the
store and the window; under systemd it reports ready at the first frame and pings the
watchdog from the loop (:mod:`firmware_py.process.systemd_notify`); and the service menu gets
the configured shutdown command.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from typing import Any

from firmware_py.process.exit_codes import EXIT_HARDWARE, EXIT_OK, EXIT_SOFTWARE
from firmware_py.process.systemd_notify import Heartbeat, Notifier
from hal.config import CabinetConfig

log = logging.getLogger("ringside")


class StopRequested(BaseException):
    """SIGTERM or SIGINT outside the main loop: during start-up, or in the headless
    exhibition (virtual time, no loop to poll a flag).  It unwinds what runs, closing what
    is open on the way (the store rolls back a half-written commit), and ``ringside``
    exits 0 after one log line.  A BaseException, like KeyboardInterrupt, so that no
    ``except Exception`` takes it for a failure."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


_before_run: dict[int, Any] = {}
"""The handlers :func:`stop_on_signals` replaced, for :func:`restore_signals`."""
_received: list[str] = []
"""The signal :func:`stop_on_signals`' handler took (its name), once one came."""


HUP_IGNORED = "the config is read at start: `systemctl restart ringside` applies a change"
"""SIGHUP (a closed terminal, or a reload asked of a kiosk service): logged and ignored.
The cabinet is not torn down mid-game by it, and nothing is reloaded half-way: hardware,
stations and games come from the config at start."""


def _hup(signum: int, frame: Any) -> None:
    if _received:
        _while_stopping(signum, frame)
    else:
        log.info("ringside: SIGHUP ignored: %s", HUP_IGNORED)


def _while_stopping(signum: int, _frame: Any) -> None:
    log.info("ringside: %s ignored: already stopping", signal.Signals(signum).name)


def stop_on_signals() -> None:
    """From now on SIGTERM and SIGINT raise :class:`StopRequested` (once: a second signal
    while stopping is logged and not allowed to cut the closing short), and SIGHUP is
    logged and ignored, until :func:`restore_signals` (or :func:`ignore_signals` at the
    process's end); :class:`StopSignals` takes over while the main loop runs.

    SDL, once a video or audio driver is initialised, would otherwise turn both signals
    into a QUIT event that only a loop reading events sees (a headless run never
    stopped), and before that SIGTERM killed the process without a line (exit 143): it
    is told to leave signals alone (``SDL_NO_SIGNAL_HANDLERS=1``, set before pygame starts)."""
    if threading.current_thread() is not threading.main_thread():
        return
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")

    def handle(signum: int, frame: Any) -> None:
        if _received:
            _while_stopping(signum, frame)
            return
        _received.append(signal.Signals(signum).name)
        raise StopRequested(_received[0])

    for s in StopSignals.SIGNALS:
        _before_run.setdefault(s, signal.signal(s, handle))
    _before_run.setdefault(signal.SIGHUP, signal.signal(signal.SIGHUP, _hup))


def note_stopping(reason: str) -> None:
    """The main loop has ended (``reason``: the signal, or how else it stopped): a signal
    from now on is logged as one that came while stopping, never a second stop."""
    if not _received:
        _received.append(reason)


def stop_received() -> str | None:
    """The signal that asked to stop, if one did (None: none came)."""
    return _received[0] if _received else None


def raise_if_stopped() -> None:
    """Raise :class:`StopRequested` if a stop came: C code that calls back into Python
    swallows the exception the handler raises there (pygame loading its icon as it opens
    the window did, and the run played on), so ``run`` looks again at its own steps."""
    if _received:
        raise StopRequested(_received[0])


def signalled_stop() -> StopRequested | None:
    """The stop a signal asked for, if one came.  C code that calls back into Python may
    report the handler's exception as an error of its own (SIGTERM in pygame's lookup of
    its default font, as a font opened: "Failed to find default font"; CI, 7 December),
    so an error that reaches the top once a signal has come is that stop."""
    if _received and _received[0] in {s.name for s in StopSignals.SIGNALS}:
        return StopRequested(_received[0])
    return None


def restore_signals() -> None:
    """Put back the handlers :func:`stop_on_signals` replaced (``ringside`` called in a
    process that goes on: the tests)."""
    while _before_run:
        s, handler = _before_run.popitem()
        signal.signal(s, handler)
    _received.clear()


def ignore_signals() -> None:
    """At the end of ``ringside`` as a process: SIGTERM, SIGINT and SIGHUP are ignored
    from here until the interpreter has finished (joining threads, closing modules): a
    Python handler would be reset to the default, which kills, while it finishes, so a
    second SIGTERM once ended a clean stop with -15.  The stop was logged already."""
    if threading.current_thread() is threading.main_thread():
        for s in (*StopSignals.SIGNALS, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)


class StopSignals:
    """SIGTERM and SIGINT set :attr:`stop` instead of killing the process mid-frame (a
    second one is logged and changes nothing); SIGHUP is logged and ignored.  Installed
    only on the main thread (Python allows handlers nowhere else)."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.received: str | None = None
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if self.stop.is_set():
            _while_stopping(signum, frame)
            return
        self.received = signal.Signals(signum).name
        self.stop.set()

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            self._previous = {s: signal.signal(s, self._handle) for s in self.SIGNALS}
            self._previous[signal.SIGHUP] = signal.signal(signal.SIGHUP, _hup)
        return self

    def __exit__(self, *_exc: object) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler)


def open_real_hardware(config: CabinetConfig, clock: Any) -> tuple[Any, int | None]:
    """The Pi's hardware, or (None, exit code) after logging the one line that says why not."""
    from hal.hardware import open_hardware
    from hal.hardware_errors import DriverMissing, HardwareError

    try:
        return open_hardware(config, clock), None
    except DriverMissing as e:
        log.error("%s", e)
        return None, EXIT_SOFTWARE
    except HardwareError as e:
        log.error("%s", e)
        return None, EXIT_HARDWARE


def run_until_stopped(
    config: CabinetConfig,
    args: Any,
    real_hardware: bool,
    open_store: Callable[[CabinetConfig], Any],
    make_recorder: Callable[[Any, Any, Any], Any],
) -> int:
    """Run the cabinet until stopped.  On simulated hardware a window that cannot be
    opened raises ``pygame.error`` (the caller falls back to the headless exhibition);
    on the real cabinet it is exit code 4, like any part that cannot be opened."""
    import pygame

    from display.dev_panels import HEIGHT
    from display.window import Window
    from firmware_py.process.version import describe
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.loop import run_main_loop as loop
    from firmware_py.runtime.shutdown import ShutdownCommand
    from hal.clock import ManualClock, MonotonicClock

    keys = None
    shutdown = None
    if real_hardware:
        from calibration.profiles import config_with_active_profile

        config = config_with_active_profile(config, log.info)
        clock: Any = MonotonicClock()
        hardware, code = open_real_hardware(config, clock)
        if hardware is None:
            return code if code is not None else EXIT_HARDWARE
        shutdown = ShutdownCommand(config.shutdown_command)
        log.info("%s on cabinet %s (%s), data in %s", describe(), config.name, config.source, config.data_dir)
    else:
        from hal.keyboard import KEYMAP_TEXT, KeyboardInput
        from hal.sim import SimCabinet

        clock = ManualClock(MonotonicClock().now_us())  # virtual time kept at real time
        hardware = SimCabinet(config, clock)
        keys = KeyboardInput(hardware)
        log.info("%s on simulated hardware. Keys:\n%s", describe(), KEYMAP_TEXT)
    try:
        window = Window(
            (config.display.width, config.display.height),
            config.display.fullscreen,
            strip_height=0 if real_hardware else HEIGHT,
            render=config.display.render_size(),
        )
    except pygame.error as e:
        hardware.close()
        if not real_hardware:
            raise
        log.error(
            "the main display cannot be opened (SDL video driver %s: %s): is a screen connected? "
            "With no desktop the service uses SDL_VIDEODRIVER=kmsdrm, and the user must be in groups video and render",
            pygame.display.get_driver() if pygame.display.get_init() else "-",
            e,
        )
        return EXIT_HARDWARE
    except StopRequested:
        hardware.close()
        raise
    store = None
    try:  # a stop while the store and the cabinet open closes what is open (then ``ringside`` logs it)
        store = open_store(config)
        cabinet = Cabinet(
            config, hardware, clock, store, window, log.info, shutdown=shutdown, computer_level=args.level
        )
        recorder = make_recorder(cabinet, hardware, args)
    except StopRequested:
        hardware.close()
        if store is not None:
            store.close()
        window.close()
        raise
    notifier = Notifier()
    resumed = cabinet.scene.live_session()
    heartbeat = Heartbeat(
        notifier,
        "attract screen shown" if resumed is None else f"the {resumed.controls.spec.title} game in play resumed",
    )
    shown_scene = [""]

    def on_frame(now: int) -> None:
        heartbeat.frame(now)
        scene = type(cabinet.scene).__name__
        if scene != shown_scene[0]:
            shown_scene[0] = scene
            notifier.status(f"{scene} ({cabinet.frames} frames drawn)")

    from hal.keyboard import UsbTyping

    usb = UsbTyping()  # a USB keyboard plugged into the cabinet types names
    with StopSignals() as signals:
        running = [True]

        def before_step(now: int) -> None:
            if keys is not None:
                clock.set(max(clock.now_us(), now))
            for event in pygame.event.get():
                if keys is not None:
                    running[0] = keys.handle(event, clock.now_us()) and running[0]
                elif event.type == pygame.QUIT:
                    running[0] = False
                else:
                    usb.handle(event, clock.now_us())
            cabinet.typed.extend((keys.typing if keys is not None else usb).take())

        try:
            loop(
                cabinet,
                MonotonicClock().now_us,
                config.display.fps,
                lambda: running[0] and not signals.stop.is_set() and stop_received() is None,
                before_step,
                on_frame,
            )
        finally:
            notifier.stopping()
            received = signals.received or stop_received()
            note_stopping(received or "the loop ended")
            log.info("stopping%s", f" ({received})" if received else "")
            if recorder is not None:
                recorder.close()
            hardware.close()
            store.close()
            window.close()
            notifier.close()
    return EXIT_OK
