"""Every screen of every game, in representative states, at 1280×720 and 1920×1080: no
text over text, no text off the screen, no banner over live state (issue 16).  Each rule
is first shown to catch a violation planted on purpose."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from display.canvas import Canvas, live
from display.games import registry
from display.layout import LayoutRecord, problems
from display.models import PlayScreen
from display.renderer import Renderer
from display.widgets import BANNER_BAND, banner, paused_overlay
from tests.display.planted import planted_game
from tests.display.planted import planted_screen as planted_screen_of
from tests.display.screen_states import hil_screens, menu_screens, playout_screens

SIZES = ((1280, 720), (1920, 1080))
PLANTED = "planted_layout"


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def renderer(request: pytest.FixtureRequest) -> Renderer:
    pygame.font.init()
    return Renderer(size=request.param)


@pytest.fixture(scope="module")
def hil() -> list[tuple[str, Any]]:
    """The frames the shipped game scenarios drew (run once for both resolutions)."""
    return list(hil_screens())


def read(renderer: Renderer, screen: Any) -> list[str]:
    record = LayoutRecord(contrast=False)  # problems() reads where words went, not their contrast
    renderer.layout(screen, record)
    assert record.texts, "nothing was recorded: the screen drew no text through the canvas"
    return problems(record)


def check_all(renderer: Renderer, screens: list[tuple[str, Any]]) -> None:
    found = {name: p for name, screen in screens if (p := read(renderer, screen))}
    assert not found, "\n".join(f"{name}: {p}" for name, ps in found.items() for p in ps[:3])


# -- the rules catch what they are for -------------------------------------------------------
@pytest.fixture
def planted() -> Iterator[list[Any]]:
    with planted_game(PLANTED) as plan:
        yield plan


def planted_screen() -> PlayScreen:
    return planted_screen_of(PLANTED)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_rule_catches_a_planted_violation(planted: list[Any], size: tuple[int, int]) -> None:
    r = Renderer(size=size)
    ok = [
        lambda s, t: t.draw(s, "STAMINA", 32, (255, 255, 255), (100, 300)),
        lambda s, t: t.draw(s, "cards in hand", 30, (255, 255, 255), (100, 340)),
        lambda s, t: live(s, pygame.Rect(40, 290, 400, 100), "a boxer's panel"),
        lambda s, t: banner(s, t, "ROUND 2", (90, 90, 90)),  # in the band: covers nothing live
    ]
    planted[:] = ok
    assert read(r, planted_screen()) == []

    planted[:] = [*ok, lambda s, t: t.draw(s, "LOCKED IN", 44, (255, 255, 255), (110, 310))]
    assert any(p.startswith("text over text: 'STAMINA'") for p in read(r, planted_screen()))

    planted[:] = [*ok, lambda s, t: t.draw(s, "a name too far right", 40, (255, 255, 255), (1200, 600))]
    assert any(p.startswith("text off the screen: 'a name too far right'") for p in read(r, planted_screen()))

    planted[:] = [*ok, lambda s, t: banner(s, t, "KNOCKOUT!", (200, 0, 0), pygame.Rect(0, 280, 1280, 80))]
    assert any('covers live state "a boxer\'s panel"' in p for p in read(r, planted_screen()))

    planted[:] = [*ok, lambda s, t: live(s, BANNER_BAND.inflate(0, -20), "a card in the band"), ok[-1]]
    assert any("covers live state 'a card in the band'" in p for p in read(r, planted_screen()))

    # A pause dims everything: what lies under it is not being read, only the pause itself.
    planted[:] = [*ok, lambda s, t: paused_overlay(s, t, "Slap pad 2 unplugged")]
    assert read(r, planted_screen()) == []


def test_the_old_karate_banner_would_have_been_caught(renderer: Renderer) -> None:
    """The Hit banner used to sit at y 150 over the centre card's name: the rule sees it."""
    screen = next(s for name, s in playout_screens() if name.startswith("karate_fight-2p-") and s.view.centre)
    record = LayoutRecord()
    canvas = Canvas(renderer.canvas, record)
    registry.screens("karate_fight").play(canvas, renderer.text, screen)
    assert not problems(record)
    banner(canvas, renderer.text, "HIT! CHOP", (255, 80, 70), pygame.Rect(0, 110, 1280, 110))
    assert any("covers live state 'the centre pile'" in p for p in problems(record))


# -- every screen ------------------------------------------------------------------------------
def test_menus_and_service_pages_read(renderer: Renderer) -> None:
    check_all(renderer, list(menu_screens()))


@pytest.mark.slow
def test_every_game_reads_along_random_playouts(renderer: Renderer) -> None:
    """Every registered game at its smallest and largest table, with banners, a
    pause, as the attract demo and on its result screen."""
    screens = list(playout_screens())
    games = {name.split("-")[0] for name, _s in screens}
    assert games >= set(registry.games()) - {PLANTED}
    check_all(renderer, screens)


@pytest.mark.slow  # plays every shipped HIL game scenario to capture its frames (about 20 s)
def test_every_hil_scenario_frame_reads(renderer: Renderer, hil: list[tuple[str, Any]]) -> None:
    assert {name.split("-")[1] for name, _s in hil} == set(registry.games())
    check_all(renderer, hil)


def test_laying_out_records_what_drawing_records(renderer: Renderer) -> None:
    """The checks of words read :meth:`Renderer.layout`, which paints nothing: it must
    record every string, live state, banner and cut string where drawing records it."""

    def recorded(record: LayoutRecord) -> tuple[object, ...]:
        return tuple(record.texts), tuple(record.lives), tuple(record.covers), tuple(record.cuts)

    screens = [*menu_screens(), *playout_screens(samples=2)]
    for name, screen in screens:
        drawn, laid_out = LayoutRecord(contrast=False), LayoutRecord(contrast=False)
        renderer.draw(screen, drawn)
        renderer.layout(screen, laid_out)
        assert recorded(laid_out) == recorded(drawn), name
        assert len(laid_out.shapes) == len(drawn.shapes), name


# -- resolution ----------------------------------------------------------------------------------
def test_big_screens_are_drawn_at_their_own_resolution() -> None:
    """At 1920×1080 the type is rendered 1.5 times as large (crisp), not a 720p bitmap
    stretched: the same layout, in units, at every size."""
    screen = next(s for name, s in menu_screens() if name == "attract")
    small, big = LayoutRecord(), LayoutRecord()
    canvas720 = Renderer(size=(1280, 720)).draw(screen, small).copy()
    canvas = Renderer(size=(1920, 1080)).draw(screen, big)
    assert canvas.get_size() == (1920, 1080)
    for a, b in zip(small.texts, big.texts, strict=True):
        assert a.what == b.what
        # each glyph's advance is rounded to whole pixels at either size: up to 2 % of a long line's width
        slack = 3 + a.rect.width // 50
        assert abs(a.rect.centerx - b.rect.centerx) <= slack and abs(a.rect.centery - b.rect.centery) <= 3
    title = next(t for t in small.texts if t.what == "RINGSIDE").rect

    def glyph_rows(surf: pygame.Surface, scale: float) -> int:
        """Rows of the title's box holding its gold letters."""
        box = pygame.Rect(
            round(title.x * scale), round(title.y * scale), round(title.w * scale), round(title.h * scale)
        )
        return sum(
            any(surf.get_at((x, y))[:3] == (255, 200, 40) for x in range(box.x, box.right, 2))
            for y in range(box.y, box.bottom)
        )

    assert glyph_rows(canvas, 1.5) == pytest.approx(1.5 * glyph_rows(canvas720, 1.0), rel=0.06)


def test_the_calibration_page_is_drawn_at_a_big_screens_own_resolution() -> None:
    """The calibration page is laid out in units like every screen: at 1920×1080 its
    title rule runs the whole width and its text is rendered 1.5 times as large (crisp),
    not a 720p page stretched."""
    from display.calibration_screen import CalibrationScreen

    page = CalibrationScreen(
        title="Calibrate", step="slap pad 1", progress=0.5, lines=("Slap the pad",), traces=(), footer="SERVICE: back"
    )
    small, big = LayoutRecord(), LayoutRecord()
    Renderer(size=(1280, 720)).draw(page, small)
    canvas = Renderer(size=(1920, 1080)).draw(page, big)
    assert canvas.get_size() == (1920, 1080)
    gold_line = [x for x in range(0, 1920, 4) if canvas.get_at((x, 97))[:3] == (255, 200, 40)]
    assert len(gold_line) > 400  # the title bar's gold rule (y 64 at 720p) runs across the whole width
    assert "slap pad 1" in [t.what for t in big.texts]  # drawn through the canvas, so the layout record sees it
    assert [t.what for t in small.texts] == [t.what for t in big.texts]
    for a, b in zip(small.texts, big.texts, strict=True):  # the same places, in units (type hinting aside)
        assert abs(a.rect.x - b.rect.x) <= 2 and abs(a.rect.y - b.rect.y) <= 2, (a.what, a.rect, b.rect)
        assert b.rect.width == pytest.approx(a.rect.width, rel=0.05), (a.what, a.rect, b.rect)
