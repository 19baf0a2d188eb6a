"""The main display: a pygame window (or the dummy driver when headless) that shows the
renderer's canvas, drawn at the window's own size (a canvas of another size is scaled).

The video driver is chosen on purpose, never by SDL's fallback: left to itself, SDL
tries x11, wayland, kmsdrm and then settles on its ``offscreen`` driver, so a ``DISPLAY``
that names no X server (an SSH session without forwarding, a stale variable in a
service) gave a "window" nobody can see while the cabinet logged "ready: attract screen
shown".  On Linux a :class:`Window` takes the driver ``SDL_VIDEODRIVER`` names (the
cabinet's service names ``kmsdrm``, the headless paths ``dummy``:
:func:`use_headless_drivers`), else the one the environment promises
(:func:`promised_driver`), and raises :class:`NoVisibleScreen` when that one cannot
start or SDL still ends up on a driver that shows nothing (elsewhere SDL's own first
choice stands, under the same check).
"""

from __future__ import annotations

import os
import sys

import pygame


def has_screen() -> bool:
    """True when a desktop session is there to open a window on."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def use_headless_drivers() -> None:
    """Point SDL at its dummy video and audio drivers (before pygame initialises)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


INVISIBLE_DRIVERS = ("offscreen", "dummy", "evdev")
"""SDL video drivers that show nothing on a screen (fine only when asked for by name)."""


class NoVisibleScreen(pygame.error):
    """SDL found no screen to draw on and fell back to a driver that shows nothing."""


def promised_driver() -> str | None:
    """The SDL video driver the environment says a screen is on, on Linux: ``x11`` with
    ``DISPLAY`` (SDL 2's own first choice, XWayland included), ``wayland`` with only
    ``WAYLAND_DISPLAY``, the console's ``kmsdrm`` with neither; None elsewhere (macOS,
    Windows: SDL's one native driver)."""
    if not sys.platform.startswith("linux"):
        return None
    if os.environ.get("DISPLAY"):
        return "x11"
    return "wayland" if os.environ.get("WAYLAND_DISPLAY") else "kmsdrm"


def screen_problem(driver: str | None) -> str:
    """Why ``driver`` found no screen, in the words of the variable that promised one."""
    if driver == "x11":
        return f"DISPLAY={os.environ.get('DISPLAY', '')} names no X server that answers (SSH without -X? no desktop?)"
    if driver == "wayland":
        return f"WAYLAND_DISPLAY={os.environ.get('WAYLAND_DISPLAY', '')} names no Wayland compositor that answers"
    if driver == "kmsdrm":
        return "no console screen (is one connected, and is no desktop holding it?)"
    return "no screen found"


DEVELOPMENT_HEIGHT = 700
"""The development window's whole height: a 768-pixel-high laptop screen less its title
bar and desktop panel."""


def development_size(size: tuple[int, int], strip_height: int) -> tuple[int, int]:
    """The main display's size in the development window: ``size``, shrunk (same shape)
    so the display and the strip under it fit :data:`DEVELOPMENT_HEIGHT`."""
    height = min(size[1], DEVELOPMENT_HEIGHT - strip_height)
    return round(size[0] * height / size[1]), height


class Window:
    def __init__(
        self,
        size: tuple[int, int],
        fullscreen: bool = False,
        title: str = "Ringside",
        strip_height: int = 0,
        render: tuple[int, int] | None = None,
    ) -> None:
        """``strip_height``: room under the main display for the development panels (the
        display is then shrunk to fit a laptop screen: :func:`development_size`).
        ``render``: draw frames at this smaller size and let SDL scale them up to the
        screen (``pygame.SCALED``: its renderer, the GPU on a Pi); ignored with a strip."""
        asked = os.environ.get("SDL_VIDEODRIVER", "")
        promised = None if asked else promised_driver()
        if promised is not None:
            os.environ["SDL_VIDEODRIVER"] = promised
        try:
            pygame.display.init()
        except pygame.error as e:
            if promised is not None:
                del os.environ["SDL_VIDEODRIVER"]  # the caller's fallback (headless) chooses afresh
            raise NoVisibleScreen(
                f"SDL video driver {promised or asked or 'default'} cannot start ({e}): {screen_problem(promised or asked)}"
            ) from e
        driver = pygame.display.get_driver()
        if driver in INVISIBLE_DRIVERS and driver not in asked.lower().split(","):
            pygame.display.quit()
            raise NoVisibleScreen(
                f"SDL fell back to its {driver!r} video driver, which shows nothing: {screen_problem(promised)}"
            )
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        if strip_height:
            size = development_size(size, strip_height)
        elif render is not None and render != size:
            size, flags = render, flags | pygame.SCALED
        self.surface = pygame.display.set_mode((size[0], size[1] + strip_height), flags)
        pygame.display.set_caption(title)
        self.size = size
        """The main display's size in the pixels frames are drawn in."""
        self.main = self.surface.subsurface((0, 0, *size)) if strip_height else self.surface
        """The main display's pixels: a renderer drawing straight into them saves a copy a frame."""
        self.strip = self.surface.subsurface((0, size[1], size[0], strip_height)) if strip_height else None

    def present(self, canvas: pygame.Surface, changed: list[pygame.Rect] | None = None) -> None:
        """Put ``canvas`` on screen; the caller stamps the flip time.  ``changed``: the
        only rectangles of a canvas that is :attr:`main` itself that differ from what is
        shown (none: nothing to do); else the whole window is flipped."""
        if canvas is self.main and changed is not None and self.strip is None:
            if changed:
                pygame.display.update(changed)
            return
        if canvas is not self.main:
            if canvas.get_size() == self.size:
                self.main.blit(canvas, (0, 0))
            else:
                pygame.transform.smoothscale(canvas, self.size, self.main)
        pygame.display.flip()

    def close(self) -> None:
        pygame.display.quit()
