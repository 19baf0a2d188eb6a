"""The program's own figures: every pose of every style reads differently, wears the
station's colour, and fits inside its square (nothing cut at the edge)."""

from __future__ import annotations

import itertools

import pygame
import pytest

from display import theme
from display.art import Pose, Style, figure

COLORS = theme.STATION_FALLBACK


def _opaque(surf: pygame.Surface) -> set[tuple[int, int]]:
    w, h = surf.get_size()
    return {(x, y) for x in range(w) for y in range(h) if surf.get_at((x, y)).a > 0}


@pytest.mark.parametrize(("style", "pose"), list(itertools.product(Style, Pose)))
def test_a_figure_fits_its_square_and_wears_its_station_colour(style: Style, pose: Pose) -> None:
    for color in COLORS:
        surf = figure(96, color, pose, style)
        w, h = surf.get_size()
        edge = [(x, 0) for x in range(w)] + [(x, h - 1) for x in range(w)]
        edge += [(0, y) for y in range(h)] + [(w - 1, y) for y in range(h)]
        assert all(surf.get_at(p).a == 0 for p in edge), "the figure is cut at its square's edge"
        pixels = [surf.get_at((x, y))[:3] for x in range(w) for y in range(h) if surf.get_at((x, y)).a > 0]
        assert sum(1 for px in pixels if tuple(px) == color) >= 20  # belt or trunks, gloves, headband


@pytest.mark.parametrize("style", list(Style))
def test_every_pose_has_its_own_silhouette(style: Style) -> None:
    shapes = {pose: _opaque(figure(64, COLORS[0], pose, style)) for pose in Pose}
    for a, b in itertools.combinations(Pose, 2):
        differ = len(shapes[a] ^ shapes[b]) / len(shapes[a] | shapes[b])
        assert differ > 0.3, f"{a.value} and {b.value} look alike"


def test_facing_left_is_the_mirror_of_facing_right() -> None:
    right = figure(64, COLORS[1], Pose.HIT, Style.BOXER, facing_right=True)
    left = figure(64, COLORS[1], Pose.HIT, Style.BOXER, facing_right=False)
    mirrored, shown, unturned = _opaque(pygame.transform.flip(right, True, False)), _opaque(left), _opaque(right)
    assert len(mirrored & shown) / len(mirrored) > 0.85  # alike but for a pixel of rounding
    assert len(unturned & shown) / len(unturned) < 0.6


def test_a_figure_is_drawn_once_and_reused_every_frame() -> None:
    assert figure(80, COLORS[2], Pose.WIN, Style.KARATE) is figure(80, COLORS[2], Pose.WIN, Style.KARATE)


def test_a_figure_on_a_big_screen_is_drawn_at_its_pixels_not_stretched() -> None:
    """On 1920×1080 a figure of 96 units is asked for at 144 pixels (crisp), and stands
    where its units say."""
    from display.art import draw_figure
    from display.canvas import Canvas

    spans = {}
    for size in ((1280, 720), (1920, 1080)):
        surf = pygame.Surface(size, pygame.SRCALPHA)
        canvas = Canvas(surf)
        draw_figure(canvas, pygame.Rect(100, 100, 96, 96), COLORS[0], Pose.WIN, Style.BOXER)
        box = surf.get_bounding_rect()
        spans[size] = box
        assert canvas.unit_rect(box).colliderect(pygame.Rect(100, 100, 96, 96))
        assert pygame.Rect(100, 100, 96, 96).contains(canvas.unit_rect(box).inflate(-2, -2))
    small, big = spans[(1280, 720)], spans[(1920, 1080)]
    assert abs(big.height - 1.5 * small.height) <= 3
