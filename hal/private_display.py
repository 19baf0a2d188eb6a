"""Each station's private display (a 128×64 I2C OLED through luma.oled): what only that
player may see, such as their hand.  Tests and the simulator use luma's ``dummy`` device,
which keeps the last frame as a PIL image."""

from __future__ import annotations

from typing import Any

from PIL import Image

from hal.config import PrivateDisplayConfig


class PrivateDisplay:
    """Shows a PIL image on one station's OLED; skips frames identical to the last."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.size = (device.width, device.height)
        self._last: bytes | None = None

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"private display is {self.size}, image is {image.size}")
        frame = image.convert(self.device.mode)
        data = frame.tobytes()
        if data == self._last:
            return
        self.device.display(frame)
        self._last = data

    @property
    def image(self) -> Image.Image | None:
        """The frame last shown (dummy devices only)."""
        return getattr(self.device, "image", None)


def open_oled(cfg: PrivateDisplayConfig, bus: Any = None, station: str = "") -> PrivateDisplay:
    """The real OLED on a Pi's I2C bus.  ``bus``: an smbus-like object already open on
    ``cfg.i2c_bus`` (tests pass a recording stand-in); None opens the bus with smbus2.
    A bus that cannot be opened or a display that does not answer raises one clear
    :class:`~hal.hardware_errors.HardwareError` naming the station and address."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    from hal.hardware_errors import HardwareError, i2c_error, oled_error

    driver = {"ssd1306": ssd1306, "sh1106": sh1106}[cfg.driver]
    try:
        serial = i2c(bus=bus, port=cfg.i2c_bus, address=cfg.address)
    except (DeviceNotFoundError, DevicePermissionError, OSError) as e:
        raise i2c_error(cfg.i2c_bus, str(e)) or HardwareError(f"I2C bus {cfg.i2c_bus} cannot be opened: {e}") from None
    try:
        device = driver(serial, width=cfg.width, height=cfg.height)
    except (DeviceNotFoundError, OSError) as e:
        raise oled_error(station, cfg.driver, cfg.i2c_bus, cfg.address, str(e)) from None
    return PrivateDisplay(device)


def open_dummy(cfg: PrivateDisplayConfig) -> PrivateDisplay:
    """luma's in-memory device: same API, frame kept as ``.image``."""
    from luma.core.device import dummy

    return PrivateDisplay(dummy(width=cfg.width, height=cfg.height, mode="1"))
