"""Board entry point (MicroPython on the RP2040 only): sample, detect, talk over USB.

Kept thin on purpose: everything testable lives in board.py, detector.py and wire.py,
which the host runs too.  This file only owns the hardware: the ADC pins, the 1 µs
tick timer, the USB CDC byte stream and the flash file.  Press BOOTSEL during the
first second after power-up to skip it and keep the REPL for mpremote (flash.md):
once running, Ctrl-C is off, because binary frames may contain 0x03.
"""

import select
import sys
import time

import machine
import micropython
import rp2
import settings_store
from board import Board

# ADC0..ADC2 on GPIO26..28.  A fourth pad needs ADC3 on GPIO29, which a stock Pico
# wires to VSYS/3: add 29 here only on boards that bring it out to a pin.
PINS = (26, 27, 28)
PERIOD_US = 250  # 4 kHz per pad; the loop reports frames it could not keep up with
REPL_WINDOW_MS = 1000


def wants_repl():
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < REPL_WINDOW_MS:
        if rp2.bootsel_button():
            return True
    return False


def run():
    if wants_repl():
        return
    micropython.kbd_intr(-1)
    adcs = [machine.ADC(machine.Pin(p)) for p in PINS]
    reads = [0] * len(PINS)
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def save(settings):
        settings_store.save(settings_store.FILENAME, settings)

    board = Board(len(PINS), PERIOD_US, out.write, settings_store.load(settings_store.FILENAME, len(PINS)), save)
    due = time.ticks_us()
    while True:
        now = time.ticks_us()
        late = time.ticks_diff(now, due)
        if late < 0:
            if poller.poll(0):
                board.on_bytes(inp.read(1), time.ticks_us())
            continue
        missed = late // PERIOD_US
        due = time.ticks_add(due, (missed + 1) * PERIOD_US)
        for i in range(len(adcs)):
            reads[i] = adcs[i].read_u16()
        board.on_frame(now, reads, missed)


run()
