"""The rendered-text cache is bounded by the pixels it holds, and keeps what was drawn
last: a long-running cabinet meets endless new strings (clocks, scores, names)."""

from __future__ import annotations

import pygame

from display.text import TextCache


def pixels(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()


def test_the_cache_never_holds_more_pixels_than_its_budget() -> None:
    pygame.font.init()
    cache = TextCache(budget_bytes=200_000)
    for i in range(500):
        cache.render(f"Exchange {i} of a long game", 36 + i % 40, (255, 255, 255), bold=i % 2 == 0)
        assert cache.bytes <= cache.budget_bytes
    assert cache.bytes == sum(pixels(s) for s in cache._cache.values())
    assert 0 < len(cache._cache) < 500


def test_the_least_recently_drawn_go_first() -> None:
    pygame.font.init()
    cache = TextCache(budget_bytes=10**9)
    title = cache.render("PRESS  START", 72, (255, 255, 255), True)
    for i in range(20):
        cache.render(f"clock {i}", 36, (200, 200, 200))
        assert cache.render("PRESS  START", 72, (255, 255, 255), True) is title  # drawn every frame: kept
    cache.budget_bytes = cache.bytes  # now full: the next new string evicts the oldest
    cache.render("a new string", 36, (200, 200, 200))
    assert cache.render("PRESS  START", 72, (255, 255, 255), True) is title
    assert ("clock 0", 36, (200, 200, 200), False) not in cache._cache
    assert ("clock 19", 36, (200, 200, 200), False) in cache._cache


def test_symbols_the_font_lacks_are_drawn_as_ones_it_has() -> None:
    """A terminal's ✗ and → (calibration's report lines) would be boxes in the bundled
    font; they are drawn as × and » instead."""
    import pygame

    from display.text import TextCache
    from display.theme import font

    pygame.font.init()
    box = font(30).metrics("✗")[0]
    assert font(30).metrics("×")[0] != box  # the stand-in is a real glyph
    cache = TextCache()
    drawn = pygame.image.tobytes(cache.render("✗ pad 3 → cable", 30, (255, 255, 255)), "RGB")
    meant = pygame.image.tobytes(cache.render("× pad 3 » cable", 30, (255, 255, 255)), "RGB")
    assert drawn == meant


def test_a_fitted_size_is_shared_only_by_words_exactly_as_wide() -> None:
    """``fitting_size`` remembers an answer for words that differ only in their digits
    where every face it may measure in is FreeType's (a boxing demo's "CPU 1 · HARD
    may defend: Uppercut" and "CPU 2 · …" fitted once): that holds only if each digit
    is as wide as any other there, in every bold face from the least fitted size up,
    between a string's first and last letters (at its ends a string's box is its ink's:
    not shared).  Above FreeType's sizes (SDL_ttf hints each glyph) nothing is shared."""
    from display import text
    from display.theme import UNHINTED_BELOW, font

    pygame.font.init()
    strings = ("CPU 1 · HARD may defend: Uppercut", "a 7 cards", "Round 3.", "(9/12)", "x4x", "CPU 2 · EASY: 0 energy")
    for size in range(text.MIN_SIZE, UNHINTED_BELOW):
        face = font(size, True)
        for words in strings:
            widths = {face.size(words.translate(str.maketrans("0123456789", d * 10)))[0] for d in "0123456789"}
            assert len(widths) == 1, (size, words, widths)
    text._fitted.clear()
    one = text.fitting_size("CPU 1 · EXPERT may defend: Body Blow", 300, 34)
    assert text.fitting_size_known("CPU 2 · EXPERT may defend: Body Blow", 300, 34) == one
    assert text.fitted_in(font, "CPU 2 · EXPERT may defend: Body Blow", 300, 34) == one
    text.fitting_size("CPU 1 · EXPERT", 200, 60)
    assert text.fitting_size_known("CPU 2 · EXPERT", 200, 60) is None
    text.fitting_size("Round 3", 60, 30)
    assert text.fitting_size_known("Round 4", 60, 30) is None
