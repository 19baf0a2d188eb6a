"""The main display: a pygame window (or the dummy driver when headless) that shows the
renderer's canvas, drawn at the window's own size (a canvas of another size is scaled)."""

from __future__ import annotations

import os

import pygame


def has_screen() -> bool:
    """True when a desktop session is there to open a window on."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def use_headless_drivers() -> None:
    """Point SDL at its dummy video and audio drivers (before pygame initialises)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


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
        self, size: tuple[int, int], fullscreen: bool = False, title: str = "Ringside", strip_height: int = 0
    ) -> None:
        """``strip_height``: room under the main display for the development panels (the
        display is then shrunk to fit a laptop screen: :func:`development_size`)."""
        pygame.display.init()
        pygame.font.init()
        if strip_height:
            size = development_size(size, strip_height)
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.surface = pygame.display.set_mode((size[0], size[1] + strip_height), flags)
        pygame.display.set_caption(title)
        self.size = size
        self.strip = self.surface.subsurface((0, size[1], size[0], strip_height)) if strip_height else None

    def present(self, canvas: pygame.Surface) -> None:
        """Put ``canvas`` on screen and flip; the caller stamps the flip time."""
        main = self.surface.subsurface((0, 0, *self.size))
        if canvas.get_size() == self.size:
            main.blit(canvas, (0, 0))
        else:
            pygame.transform.smoothscale(canvas, self.size, main)
        pygame.display.flip()

    def close(self) -> None:
        pygame.display.quit()
