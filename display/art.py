"""Fighters and boxers drawn by the program (no downloaded assets): a stick-and-block
figure in its station's colour, in a few poses that tell the story from two metres —
ready, hit, winning, knocked down.

A figure is a list of limbs in a 100 × 100 pose space, scaled to the size asked for and
kept in a small cache, so a screen that shows four figures a frame pays for drawing each
pose once.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

import pygame

from display import compose, draw, theme
from display.canvas import Canvas

Color = tuple[int, int, int]
Point = tuple[float, float]


class Pose(Enum):
    READY = "ready"
    HIT = "hit"
    WIN = "win"
    DOWN = "down"

    __hash__ = object.__hash__
    """Hashed as the one object each member is (in C: ``Enum``'s hashes its name in Python),
    as a figure's paint operation is hashed several times a frame to find what changed."""


class Style(Enum):
    KARATE = "karate"
    """A white gi with a belt and headband in the station's colour, open hands."""
    BOXER = "boxer"
    """Trunks and gloves in the station's colour."""

    __hash__ = object.__hash__
    """As :attr:`Pose.__hash__`."""


# Joints in pose space (x right, y down, 0–100), facing right.  Each pose names the same
# joints so the limbs below draw every pose.
_POSES: dict[Pose, dict[str, Point]] = {
    Pose.READY: {
        "head": (50, 16),
        "neck": (50, 27),
        "hip": (48, 58),
        "l_elbow": (60, 40),
        "l_hand": (72, 30),
        "r_elbow": (38, 42),
        "r_hand": (58, 36),
        "l_knee": (60, 74),
        "l_foot": (68, 94),
        "r_knee": (38, 76),
        "r_foot": (30, 94),
    },
    Pose.HIT: {
        "head": (36, 20),
        "neck": (40, 30),
        "hip": (50, 60),
        "l_elbow": (28, 38),
        "l_hand": (16, 30),
        "r_elbow": (52, 40),
        "r_hand": (66, 30),
        "l_knee": (60, 76),
        "l_foot": (70, 94),
        "r_knee": (44, 78),
        "r_foot": (34, 94),
    },
    Pose.WIN: {
        "head": (50, 18),
        "neck": (50, 29),
        "hip": (50, 60),
        "l_elbow": (64, 22),
        "l_hand": (68, 10),
        "r_elbow": (36, 22),
        "r_hand": (32, 10),
        "l_knee": (58, 77),
        "l_foot": (62, 95),
        "r_knee": (42, 77),
        "r_foot": (38, 95),
    },
    Pose.DOWN: {
        "head": (12, 84),
        "neck": (22, 84),
        "hip": (54, 86),
        "l_elbow": (30, 74),
        "l_hand": (40, 70),
        "r_elbow": (26, 94),
        "r_hand": (38, 95),
        "l_knee": (70, 78),
        "l_foot": (88, 88),
        "r_knee": (72, 92),
        "r_foot": (92, 95),
    },
}
_LIMBS = (
    ("neck", "hip", 13),
    ("neck", "l_elbow", 7), ("l_elbow", "l_hand", 6),
    ("neck", "r_elbow", 7), ("r_elbow", "r_hand", 6),
    ("hip", "l_knee", 8), ("l_knee", "l_foot", 7),
    ("hip", "r_knee", 8), ("r_knee", "r_foot", 7),
)  # fmt: skip
"""(from, to, thickness in pose units): the body first, so the arms draw over it."""


def figure(size: int, color: Color, pose: Pose, style: Style, facing_right: bool = True) -> pygame.Surface:
    """The figure in a ``size`` × ``size`` transparent square (cached: call it every frame)."""
    return _figure(size, color, pose, style, facing_right)


def draw_figure(
    target: Canvas | pygame.Surface,
    rect: pygame.Rect,
    color: Color,
    pose: Pose,
    style: Style,
    facing_right: bool = True,
) -> None:
    """A figure standing in the square of ``rect`` (units on a canvas: the figure is drawn
    at the display's own pixel size, so it is as crisp at 1080p as at 720p)."""
    size = min(rect.width, rect.height)
    left = (rect.centerx - size // 2, rect.bottom - size)
    if isinstance(target, Canvas):
        px, at = target.px(size), target.px_point(left)
        target.paint(blit_figure, (px, color, pose, style, facing_right, at), pygame.Rect(at, (px, px)))
    else:
        target.blit(figure(size, color, pose, style, facing_right), left)


def blit_figure(
    surface: pygame.Surface, size: int, color: Color, pose: Pose, style: Style, facing_right: bool, at: tuple[int, int]
) -> pygame.Rect:
    """Paint a figure (pixels) with its top-left corner at ``at``: made when first painted,
    so a frame only planned (:mod:`display.ahead`) makes none, and makes it in a step of
    its own (``compose.MADE_WHEN_PAINTED``: about half a million instructions a figure at
    1080p, most of the first planning draw of a boxing demo)."""
    return surface.blit(figure(size, color, pose, style, facing_right), at)


def _made(size: int, color: Color, pose: Pose, style: Style, facing_right: bool, _at: tuple[int, int]) -> object:
    return figure(size, color, pose, style, facing_right)


compose.MADE_WHEN_PAINTED[blit_figure] = _made


@lru_cache(maxsize=64)
def _figure(size: int, color: Color, pose: Pose, style: Style, facing_right: bool) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    joints = _POSES[pose]
    k = size / 100 * 0.84  # pose space inside a margin that the thickest limb and a glove need
    margin = (size - 100 * k) / 2

    points = {
        name: (round(margin + (x if facing_right else 100 - x) * k), round(margin + y * k))
        for name, (x, y) in joints.items()
    }
    at = points.__getitem__

    body = theme.shade(theme.WHITE, 0.92) if style is Style.KARATE else theme.shade(color, 0.55)
    outline = theme.shade(color, 0.35)
    skin = (236, 196, 160)
    for a, b, width in _LIMBS:
        w = max(2, round(width * k))
        arm_or_leg = a != "neck" or b != "hip"
        shade = body if (style is Style.KARATE or not arm_or_leg or b.endswith(("knee", "foot"))) else skin
        if style is Style.BOXER and b.endswith(("elbow", "hand")):
            shade = skin
        pygame.draw.line(surf, outline, at(a), at(b), w + max(2, round(2 * k)))
        pygame.draw.line(surf, shade, at(a), at(b), w)
        pygame.draw.circle(surf, shade, at(b), w // 2)
    # Trunks or belt at the hip, in the station's colour: the figure's team at a glance.
    hip = at("hip")
    sash = pygame.Rect(0, 0, round(16 * k), round(7 * k))
    sash.center = hip
    draw.rect(surf, color, sash, border_radius=max(1, round(2 * k)))
    if style is Style.BOXER:
        for hand in ("l_hand", "r_hand"):
            pygame.draw.circle(surf, outline, at(hand), round(8 * k))
            pygame.draw.circle(surf, color, at(hand), round(7 * k))
    else:
        for hand in ("l_hand", "r_hand"):
            pygame.draw.circle(surf, skin, at(hand), round(4 * k))
    head = at("head")
    r = round(10 * k)
    pygame.draw.circle(surf, outline, head, r + max(1, round(1.5 * k)))
    pygame.draw.circle(surf, skin, head, r)
    if style is Style.KARATE:  # the headband, tails flying behind
        band = pygame.Rect(head[0] - r, head[1] - round(5 * k), 2 * r, round(4 * k))
        pygame.draw.rect(surf, color, band)
        back = -1 if facing_right else 1
        tail = (head[0] + back * (r + round(8 * k)), head[1] - round(1 * k))
        pygame.draw.line(surf, color, (head[0] + back * r, band.centery), tail, max(2, round(3 * k)))
    if pose is Pose.HIT:  # stars of the blow
        for dx, dy in ((-14, -12), (-4, -18), (6, -12)):
            cx = head[0] + round((dx if facing_right else -dx) * k)
            pygame.draw.circle(surf, theme.GOLD, (cx, head[1] + round(dy * k)), max(2, round(2.5 * k)))
    return surf
