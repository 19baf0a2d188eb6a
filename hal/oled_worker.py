"""Private OLED updates off the main loop.

A 128×64 frame is 1 KiB over I2C: about 90 ms of bus time at the Pi's default 100 kHz,
23 ms at 400 kHz (``dtparam=i2c_arm=on,i2c_arm_baudrate=400000``).  The main loop must
not wait for that while a Hit is being judged, so it only hands each station's newest
image over (:meth:`OledWorker.show` returns at once); a worker thread per I2C bus writes
them.  An image superseded before it was written is never written (the latest wins), a
display whose image did not change is not written at all, and of one that did only the
8-row pages that changed go over the bus (:class:`PageWriter`).  The bus waits release
the GIL, so the main loop runs on while a frame is on the wire.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

log = logging.getLogger(__name__)


def page_bytes(image: Image.Image) -> list[bytes]:
    """The controller's RAM layout of a 1-bit image: one ``bytes`` per 8-row page, a byte
    per column, bit 0 the page's top row (what luma's drivers send, computed in C)."""
    width, height = image.size
    pages = height // 8
    data = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [data[pages - 1 - p :: pages][:width] for p in range(pages)]


class PageWriter:
    """Writes a luma device's frames page by page, only the pages that changed.

    The page commands mirror luma's own ``display()`` for the SSD1306 (column and page
    address window, horizontal addressing: one transaction per run of changed pages)
    and the SH1106 (page address plus column start per page).  Any other luma device
    (the ``dummy`` one included) gets luma's whole-frame ``display()``."""

    def __init__(self, device: Any) -> None:
        from luma.oled.device import sh1106, ssd1306

        self.device = device
        self.size = (device.width, device.height)
        self.kind = "ssd1306" if type(device) is ssd1306 else "sh1106" if type(device) is sh1106 else "other"
        # luma's drivers clear the display as they start: the RAM is known to be blank.
        blank = Image.new("1", self.size)
        self._shown: list[bytes] | None = page_bytes(device.preprocess(blank)) if self.kind != "other" else None
        self.bytes_written = 0
        self.frames_written = 0

    def write(self, image: Image.Image) -> int:
        """Show ``image``; returns how many pixel bytes went to the display (0: unchanged)."""
        frame = image.convert(self.device.mode)
        if self.kind == "other":
            self.device.display(frame)
            self.frames_written += 1
            return 0
        pages = page_bytes(self.device.preprocess(frame))
        shown = self._shown
        changed = [p for p in range(len(pages)) if shown is None or shown[p] != pages[p]]
        if not changed:
            return 0
        self._shown = None  # unknown until every write went through
        written = 0
        for first, last in _runs(changed):
            written += self._write_pages(first, last, pages)
        self._shown = pages
        self.bytes_written += written
        self.frames_written += 1
        return written

    def _write_pages(self, first: int, last: int, pages: list[bytes]) -> int:
        d = self.device
        if self.kind == "ssd1306":
            d.command(d._const.COLUMNADDR, d._colstart, d._colend - 1, d._const.PAGEADDR, first, last)
            data = b"".join(pages[first : last + 1])
            d.data(data)
            return len(data)
        offset = d._page_address_offset
        for p in range(first, last + 1):
            d.command(0xB0 + p, offset & 0x0F, 0x10 | (offset >> 4) & 0x0F)
            d.data(pages[p])
        return sum(len(pages[p]) for p in range(first, last + 1))

    def forget(self) -> None:
        """The display's RAM is unknown (a failed write, a power blip): next frame in full."""
        if self.kind != "other":
            self._shown = None


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """[1, 2, 3, 6] → [(1, 3), (6, 6)]."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


class OledWorker:
    """One thread writing the displays of one I2C bus; ``writers`` maps station → writer."""

    def __init__(self, writers: Mapping[int, PageWriter], name: str = "oled") -> None:
        self.writers = dict(writers)
        self.superseded = 0
        """Images replaced by a newer one before they were written."""
        self.failures = 0
        self._latest: dict[int, Image.Image] = {}
        self._busy = False
        self._closing = False
        self._failing: set[int] = set()
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def show(self, station: int, image: Image.Image) -> None:
        """Hand over ``station``'s newest image; returns at once."""
        writer = self.writers[station]
        if image.size != writer.size:
            raise ValueError(f"private display is {writer.size}, image is {image.size}")
        with self._cond:
            if station in self._latest:
                self.superseded += 1
            self._latest[station] = image
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._latest and not self._closing:
                    self._cond.wait()
                if not self._latest:
                    return  # closing, nothing left to write
                work, self._latest = self._latest, {}
                self._busy = True
            for station, image in sorted(work.items()):
                self._write(station, image)
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _write(self, station: int, image: Image.Image) -> None:
        writer = self.writers[station]
        try:
            writer.write(image)
        except Exception as e:  # an unplugged OLED must not stop the cabinet
            self.failures += 1
            writer.forget()
            if station not in self._failing:
                self._failing.add(station)
                log.warning(
                    "private display of station %d: write failed (%s); retrying with each new image", station + 1, e
                )
            return
        if station in self._failing:
            self._failing.discard(station)
            log.info("private display of station %d: writing again", station + 1)

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until every handed-over image is written; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._latest and not self._busy, timeout_s)

    def close(self, timeout_s: float = 2.0) -> None:
        """Write what is pending (up to ``timeout_s``), then stop the thread."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout_s)


class OledWorkers:
    """Every station's private display, one :class:`OledWorker` per I2C bus.

    ``displays``: per station ``(bus, luma device)``, or None for a station without one."""

    def __init__(self, displays: list[tuple[int, Any] | None], make_writer: Callable[[Any], PageWriter] = PageWriter):
        by_bus: dict[int, dict[int, PageWriter]] = {}
        for station, entry in enumerate(displays):
            if entry is not None:
                bus, device = entry
                by_bus.setdefault(bus, {})[station] = make_writer(device)
        self.workers = {bus: OledWorker(w, name=f"oled-i2c-{bus}") for bus, w in sorted(by_bus.items())}
        self._of_station = {s: worker for worker in self.workers.values() for s in worker.writers}

    def show(self, station: int, image: Image.Image) -> None:
        worker = self._of_station.get(station)
        if worker is not None:
            worker.show(station, image)

    def writer(self, station: int) -> PageWriter | None:
        worker = self._of_station.get(station)
        return worker.writers[station] if worker is not None else None

    def flush(self, timeout_s: float = 5.0) -> bool:
        return all(w.flush(timeout_s) for w in self.workers.values())

    def close(self) -> None:
        for w in self.workers.values():
            w.close()
