"""Private OLEDs the way a Pi drives them: luma's real SSD1306/SH1106 drivers on fake-rpi's
``smbus.SMBus`` (recording what goes over the bus), written by the OLED worker a page at
a time, off the main loop."""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import replace

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hal.oled_worker import OledWorker, PageWriter, page_bytes
from tests.i2c_bus import RecordingSMBus, Sh1106Ram, Ssd1306Ram


def random_image(seed: int, size=(128, 64)) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("1", size)
    px = img.load()
    for x in range(size[0]):
        for y in range(size[1]):
            px[x, y] = 255 if rng.random() < 0.5 else 0
    return img


def naive_pages(img: Image.Image) -> list[bytes]:
    px = img.load()
    w, h = img.size
    return [bytes(sum(1 << k for k in range(8) if px[x, 8 * p + k]) for x in range(w)) for p in range(h // 8)]


def test_page_bytes_are_the_controller_layout() -> None:
    for seed in range(3):
        img = random_image(seed)
        assert page_bytes(img) == naive_pages(img)
    assert page_bytes(random_image(9, (128, 32))) == naive_pages(random_image(9, (128, 32)))


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_a_full_frame_leaves_the_display_ram_as_lumas_own_display_does(driver) -> None:
    img = random_image(1)

    def ram_after(write) -> list[bytes]:
        bus = RecordingSMBus()
        device = driver(i2c(bus=bus, address=0x3C))
        write(device)
        model = Ssd1306Ram() if driver is ssd1306 else Sh1106Ram()
        model.feed(bus.writes, 0x3C)
        return model.shown if driver is sh1106 else [bytes(p) for p in model.ram]

    by_luma = ram_after(lambda d: d.display(img))
    by_pages = ram_after(lambda d: PageWriter(d).write(img))
    assert by_pages == by_luma == naive_pages(img)


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_only_the_pages_that_changed_go_over_the_bus(driver) -> None:
    bus = RecordingSMBus()
    device = driver(i2c(bus=bus, address=0x3D))
    writer = PageWriter(device)
    first = Image.new("1", (128, 64))
    ImageDraw.Draw(first).text((0, 0), "HAND: 3 cards", fill=255)
    assert writer.write(first) == 2 * 128  # the text spans pages 0 and 1; the rest stayed blank
    before = len(bus.writes)
    assert writer.write(first.copy()) == 0 and len(bus.writes) == before  # unchanged: nothing sent
    second = first.copy()
    ImageDraw.Draw(second).rectangle((10, 40, 20, 44), fill=255)  # rows 40-44: page 5 only
    assert writer.write(second) == 128
    model = Ssd1306Ram() if driver is ssd1306 else Sh1106Ram()
    model.feed(bus.writes, 0x3D)
    shown = model.shown if driver is sh1106 else [bytes(p) for p in model.ram]
    assert shown == naive_pages(second)


class BlockingBus(RecordingSMBus):
    """Every display-data write waits until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.entered = threading.Event()

    def write_i2c_block_data(self, i2c_addr, register, data) -> None:
        if register == 0x40:
            self.entered.set()
            assert self.gate.wait(10)
        super().write_i2c_block_data(i2c_addr, register, data)


def test_the_main_loop_hands_images_over_and_the_latest_wins() -> None:
    bus = BlockingBus()
    bus.gate.set()
    device = ssd1306(i2c(bus=bus, address=0x3C))
    bus.gate.clear()
    bus.entered.clear()  # the driver's own clear-on-open wrote display data: wait for the worker's
    worker = OledWorker({0: PageWriter(device)})
    try:
        worker.show(0, random_image(1))
        assert bus.entered.wait(5)  # the worker is inside an I2C write, stuck there
        # ... and the main loop is not: these return although the bus is blocked.
        for seed in range(2, 7):
            worker.show(0, random_image(seed))
        assert worker.superseded == 4  # 2..5 were replaced before they could be written
        bus.gate.set()
        assert worker.flush()
        writer = worker.writers[0]
        assert writer.frames_written == 2  # the first and the latest, nothing in between
        model = Ssd1306Ram()
        model.feed(bus.writes, 0x3C)
        assert [bytes(p) for p in model.ram] == naive_pages(random_image(6))
    finally:
        bus.gate.set()
        worker.close()


def test_a_failing_display_is_logged_once_and_rewritten_in_full_when_back(caplog) -> None:
    bus = RecordingSMBus()
    device = ssd1306(i2c(bus=bus, address=0x3C))
    worker = OledWorker({1: PageWriter(device)})
    try:
        worker.show(1, random_image(1))
        assert worker.flush()
        bus.present = set()  # unplugged
        with caplog.at_level(logging.WARNING):
            for seed in (2, 3):
                worker.show(1, random_image(seed))
                assert worker.flush()
        assert worker.failures == 2
        assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
            "private display of station 2: write failed (I2C device not found on address: 0x3C); "
            "retrying with each new image"
        ]
        bus.present = None  # plugged back in
        written = bus.data_bytes()
        worker.show(1, random_image(3))
        assert worker.flush()
        assert bus.data_bytes() - written == 1024  # RAM unknown after the failure: every page again
    finally:
        worker.close()


def test_an_image_of_the_wrong_size_is_refused_on_the_callers_side() -> None:
    worker = OledWorker({0: PageWriter(ssd1306(i2c(bus=RecordingSMBus(), address=0x3C)))})
    with pytest.raises(ValueError, match=r"\(128, 64\)"):
        worker.show(0, Image.new("1", (64, 32)))
    worker.close()


def test_sh1106_config_opens_lumas_sh1106(config) -> None:
    from hal.private_display import open_oled

    bus = RecordingSMBus()
    cfg = replace(config.stations[0].private_display, driver="sh1106", address=0x3D)
    display = open_oled(cfg, bus, "Red")
    assert type(display.device) is sh1106
    assert {w.address for w in bus.writes} == {0x3D}
