"""The colour a string is read against (the layout record's readability check judges
contrast on it): the colour most often under its solid letters, sampled before it is
drawn, and only where the letters lie on the screen."""

from __future__ import annotations

import pygame

from display.text import _behind

RED, BLUE, GREEN = (200, 0, 0), (0, 0, 200), (0, 160, 0)


def letters(w: int, h: int, solid: pygame.Rect | None = None) -> pygame.Surface:
    """A rendered string's stand-in: transparent, solid (alpha 255) inside ``solid``."""
    words = pygame.Surface((w, h), pygame.SRCALPHA)
    words.fill((255, 255, 255, 0))
    words.fill((255, 255, 255, 255), solid or words.get_rect())
    return words


def screen(*bands: tuple[pygame.Rect, tuple[int, int, int]]) -> pygame.Surface:
    surface = pygame.Surface((200, 100))
    surface.fill((0, 0, 0))
    for rect, colour in bands:
        surface.fill(colour, rect)
    return surface


def test_the_colour_under_most_of_the_letters_wins() -> None:
    surface = screen((pygame.Rect(0, 0, 70, 100), RED), (pygame.Rect(70, 0, 130, 100), BLUE))
    assert _behind(surface, letters(100, 24), pygame.Rect(40, 10, 100, 24)) == BLUE  # 30 px red, 70 px blue
    assert _behind(surface, letters(100, 24), pygame.Rect(0, 10, 100, 24)) == RED  # 70 px red


def test_only_solid_letters_count_not_the_transparent_box_round_them() -> None:
    surface = screen((pygame.Rect(0, 0, 50, 100), GREEN), (pygame.Rect(50, 0, 150, 100), BLUE))
    words = letters(120, 24, solid=pygame.Rect(0, 0, 40, 24))  # ink only over the green
    assert _behind(surface, words, pygame.Rect(0, 0, 120, 24)) == GREEN


def test_a_tie_goes_to_the_colour_met_first_row_by_row() -> None:
    half = [pygame.Rect(0, 0, 50, 12), pygame.Rect(50, 12, 50, 12)]
    other = [pygame.Rect(50, 0, 50, 12), pygame.Rect(0, 12, 50, 12)]
    red_first = screen(*[(r, RED) for r in half], *[(r, BLUE) for r in other])
    assert _behind(red_first, letters(100, 24), pygame.Rect(0, 0, 100, 24)) == RED  # red = blue, red at (0, 0)
    blue_first = screen(*[(r, BLUE) for r in half], *[(r, RED) for r in other])
    assert _behind(blue_first, letters(100, 24), pygame.Rect(0, 0, 100, 24)) == BLUE


def test_letters_off_the_screen_are_not_sampled() -> None:
    surface = screen((pygame.Rect(0, 0, 30, 100), GREEN), (pygame.Rect(30, 0, 170, 100), RED))
    # Most of the string hangs off the left edge over nothing; what is on screen is green.
    assert _behind(surface, letters(100, 24), pygame.Rect(-75, 5, 100, 24)) == GREEN
    assert _behind(surface, letters(100, 24), pygame.Rect(195, 90, 100, 24)) == RED  # off right and bottom
    assert _behind(surface, letters(100, 24), pygame.Rect(-200, 5, 100, 24)) == (0, 0, 0)  # nothing on screen


def test_an_opaque_string_counts_every_pixel() -> None:
    surface = screen((pygame.Rect(0, 0, 200, 100), BLUE))
    assert _behind(surface, pygame.Surface((60, 20)), pygame.Rect(10, 10, 60, 20)) == BLUE
