"""An I2C bus for tests and benchmarks: fake-rpi's ``smbus.SMBus``, subclassed (as
fake-rpi intends) to record what is written, to answer only at the addresses where a
display is fitted, and optionally to take the time a real bus takes per byte; plus
models of the SSD1306 and SH1106 display RAM that replay what was written, so a test
can check what a display would show."""

from __future__ import annotations

import contextlib
import errno
import io
import time
from dataclasses import dataclass, field

with contextlib.redirect_stdout(io.StringIO()):  # fake-rpi announces itself on import
    from fake_rpi import smbus as fake_smbus
    from fake_rpi.wrappers import toggle_print

toggle_print(False)  # its methods print every call otherwise

I2C_BITS_PER_BYTE = 9
"""8 data bits and the acknowledge bit."""


@dataclass
class Write:
    address: int
    control: int
    """0x00: commands follow; 0x40: display data follows."""
    data: list[int]


class RecordingSMBus(fake_smbus.SMBus):
    """``present``: the addresses that acknowledge (others raise EREMOTEIO, as a real
    bus does for a display that is not there).  ``bitrate``: when given, each write
    sleeps as long as the bytes take on a bus of that speed (address and control byte
    included); the sleep releases the GIL as a real bus transfer does."""

    def __init__(self, present: set[int] | None = None, bitrate: int | None = None) -> None:
        with contextlib.redirect_stdout(io.StringIO()):  # fake-rpi's Base announces every bus
            super().__init__(1)
        self.present = present
        self.bitrate = bitrate
        self.writes: list[Write] = []
        self.busy_s = 0.0

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int]) -> None:
        if self.present is not None and i2c_addr not in self.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.bitrate:
            t = (len(data) + 2) * I2C_BITS_PER_BYTE / self.bitrate
            self.busy_s += t
            time.sleep(t)
        self.writes.append(Write(i2c_addr, register, list(data)))
        super().write_i2c_block_data(i2c_addr, register, data)

    def data_bytes(self, address: int | None = None) -> int:
        return sum(len(w.data) for w in self.writes if w.control == 0x40 and address in (None, w.address))


# Commands that take argument bytes (so a model skips them), per controller.
_SSD1306_ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1, 0x20: 1, 0x21: 2, 0x22: 2}
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1, 0x8D: 1}


@dataclass
class Ssd1306Ram:
    """Horizontal addressing with a column/page window, as luma sets the SSD1306 up."""

    width: int = 128
    pages: int = 8
    ram: list[bytearray] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ram = [bytearray(self.width) for _ in range(self.pages)]
        self.col0, self.col1, self.page0, self.page1 = 0, self.width - 1, 0, self.pages - 1
        self.col, self.page = 0, 0

    def feed(self, writes: list[Write], address: int) -> None:
        for w in writes:
            if w.address != address:
                continue
            if w.control == 0x00:
                self._commands(w.data)
            else:
                for b in w.data:
                    self.ram[self.page][self.col] = b
                    self.col += 1
                    if self.col > self.col1:
                        self.col = self.col0
                        self.page = self.page + 1 if self.page < self.page1 else self.page0

    def _commands(self, cmds: list[int]) -> None:
        i = 0
        while i < len(cmds):
            c = cmds[i]
            n = _SSD1306_ARGS.get(c, 0)
            args = cmds[i + 1 : i + 1 + n]
            if c == 0x21:
                self.col0, self.col1 = args
                self.col = self.col0
            elif c == 0x22:
                self.page0, self.page1 = args
                self.page = self.page0
            i += 1 + n


@dataclass
class Sh1106Ram:
    """Page addressing: page set by 0xB0+p, column by two nibble commands; the panel's
    128 columns start at RAM column ``offset`` (2: the SH1106 has 132)."""

    width: int = 128
    pages: int = 8
    offset: int = 2
    ram: list[bytearray] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ram = [bytearray(132) for _ in range(self.pages)]
        self.col, self.page = 0, 0

    def feed(self, writes: list[Write], address: int) -> None:
        for w in writes:
            if w.address != address:
                continue
            if w.control == 0x00:
                i = 0
                while i < len(w.data):
                    c = w.data[i]
                    n = _SH1106_ARGS.get(c, 0)
                    if 0xB0 <= c <= 0xB7:
                        self.page = c - 0xB0
                    elif c <= 0x0F:
                        self.col = (self.col & 0xF0) | c
                    elif c <= 0x1F:
                        self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
                    i += 1 + n
            else:
                for b in w.data:
                    if self.col < 132:
                        self.ram[self.page][self.col] = b
                    self.col += 1

    @property
    def shown(self) -> list[bytes]:
        return [bytes(page[self.offset : self.offset + self.width]) for page in self.ram]
