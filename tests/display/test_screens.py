"""Screens rendered headless to PNG (left in out/test-artifacts for a person to look at),
checked for what a player must be able to see at a glance."""

from __future__ import annotations

import pygame
import pytest

from display.layout import LayoutRecord
from display.models import (
    AttractScreen,
    JoinScreen,
    OptionsScreen,
    PlayScreen,
    ResultScreen,
    SelectScreen,
    ServiceScreen,
    StationLook,
)
from display.renderer import Renderer
from games.punch import Card, Punch, PunchOptions
from games.punch.actions import PlayCard, Redeal
from games.punch.events import Knockout

RED, BLUE = StationLook("Red", (229, 57, 53)), StationLook("Blue", (30, 136, 229))


def colour_share(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int], tol: int = 12) -> float:
    """Fraction of pixels in ``rect`` within ``tol`` of ``colour``."""
    sub = surface.subsurface(rect)
    data = pygame.image.tobytes(sub, "RGB")
    hits = sum(1 for i in range(0, len(data), 3 * 7) if all(abs(data[i + k] - colour[k]) <= tol for k in range(3)))
    return hits / (len(data) / (3 * 7))


def fresh_punch() -> Punch:
    game = Punch(PunchOptions(), 2, seed=4)
    while game.to_act() and game.public_view().phase.value == "redeal":
        for seat in sorted(game.to_act()):
            game.apply(Redeal(seat, False))
    return game


def play_screen(game: Punch, events=(), paused=None) -> PlayScreen:
    return PlayScreen(
        game="punch",
        title="Punch!",
        seats=(RED, BLUE),
        view=game.public_view(),
        events=tuple(events),
        now_us=10_000_000,
        paused=paused,
    )


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def save(renderer: Renderer, artifacts, name: str) -> pygame.Surface:
    pygame.image.save(renderer.canvas, str(artifacts / f"{name}.png"))
    return renderer.canvas


@pytest.mark.slow
def test_every_menu_screen_renders(renderer: Renderer, artifacts) -> None:
    screens = {
        "attract": AttractScreen(
            games=("Punch!",), featured=0, stations=(RED, BLUE), recent=("Punch!: Blue won (3-1)",), blink=True
        ),
        "select": SelectScreen(games=("Punch!",), blurbs=("Two boxers…",), cursor=0, host=RED),
        "join": JoinScreen(
            game="Punch!", stations=(RED, BLUE), joined=(True, False), min_players=2, max_players=2, host=RED
        ),
        "options": OptionsScreen(game="Punch!", items=(("Hands", "Dealt"), ("No Mercy", "Off")), cursor=1, host=RED),
        "result": ResultScreen(game="Punch!", winner=BLUE, headline="BLUE WINS!", lines=("Matches Red 1 – 3 Blue",)),
        "service": ServiceScreen(
            title="Stats",
            items=("Stats", "Input test"),
            cursor=0,
            body=("Games finished:", "  punch: 3"),
            footer="footer",
        ),
    }
    for name, model in screens.items():
        surf = renderer.draw(model)
        save(renderer, artifacts, f"screen-{name}")
        assert len(set(pygame.image.tobytes(surf, "RGB")[::997])) > 3, f"{name} looks blank"


FOUR_GAMES = ("Punch!", "Karate Fight", "Big Time Boxing", "Punch Cards")


def test_four_games_fit_the_select_and_attract_screens(renderer: Renderer, artifacts) -> None:
    """Registering more games needs no edit here: the lists close up to stay clear of the
    key hints and of PRESS START."""
    from display.theme import BACKGROUND

    surf = renderer.draw(SelectScreen(games=FOUR_GAMES, blurbs=("a", "b", "c", "d"), cursor=3, host=RED))
    save(renderer, artifacts, "screen-select-4")
    w, h = surf.get_size()
    hint_band = pygame.Rect(w - 400, h - 64, 200, 40)  # beside the key hints, under the cards
    assert colour_share(surf, hint_band, BACKGROUND, tol=2) > 0.999
    last_card = pygame.Rect(w - 400, 560, 200, 20)
    assert colour_share(surf, last_card, BACKGROUND, tol=2) < 0.5  # the fourth card is there, above
    surf = renderer.draw(AttractScreen(games=FOUR_GAMES, featured=0, stations=(RED, BLUE), recent=(), blink=False))
    save(renderer, artifacts, "screen-attract-4")
    assert colour_share(surf, pygame.Rect(300, 574, 680, 70), BACKGROUND, tol=2) > 0.999  # PRESS START goes here


def test_join_screen_lights_the_joined_station_in_its_colour(renderer: Renderer, artifacts) -> None:
    surf = renderer.draw(
        JoinScreen(game="Punch!", stations=(RED, BLUE), joined=(True, False), min_players=2, max_players=2, host=RED)
    )
    save(renderer, artifacts, "join-red-ready")
    left, right = pygame.Rect(60, 140, 540, 360), pygame.Rect(680, 140, 540, 360)
    assert colour_share(surf, left, (127, 31, 29)) > 0.5  # Red's panel lit (shade 0.55)
    assert colour_share(surf, right, (127, 31, 29)) == 0


def test_play_screen_shows_stamina_and_keeps_choices_secret(renderer: Renderer, artifacts) -> None:
    game = fresh_punch()
    hand = game.view(0).hand
    card = next(c for c in Card if hand[c.index])
    game.apply(PlayCard(0, card))
    surf = renderer.draw(play_screen(game))
    save(renderer, artifacts, "punch-red-locked")
    # The two boxers' panels: Red left, Blue right, in their colours.
    assert colour_share(surf, pygame.Rect(40, 160, 380, 40), (64, 15, 14), tol=6) > 0.2
    assert colour_share(surf, pygame.Rect(860, 160, 380, 40), (8, 38, 64), tol=6) > 0.2
    # Before the reveal, card backs (no face colour) sit in the middle.
    assert colour_share(surf, pygame.Rect(480, 180, 320, 200), (250, 248, 240)) == 0


def test_reveal_shows_both_faces_and_knockout_banner(renderer: Renderer, artifacts) -> None:
    game = fresh_punch()
    for seat in (0, 1):
        hand = game.view(seat).hand
        game.apply(PlayCard(seat, next(c for c in Card if hand[c.index])))
    surf = renderer.draw(play_screen(game))
    save(renderer, artifacts, "punch-reveal")
    assert colour_share(surf, pygame.Rect(440, 120, 400, 260), (250, 248, 240)) > 0.02  # card faces
    surf = renderer.draw(play_screen(game, events=[(9_900_000, Knockout(1))]))
    save(renderer, artifacts, "punch-knockout")
    band = pygame.Rect(0, 90, 1280, 40)  # the banner band, under the title bar
    assert colour_share(surf, band, (183, 45, 42), tol=20) > 0.3  # Red's colour (shade 0.8): Red knocked Blue out


def test_paused_overlay(renderer: Renderer, artifacts) -> None:
    surf = renderer.draw(play_screen(fresh_punch(), paused="Slap pads disconnected: reconnecting…"))
    save(renderer, artifacts, "punch-paused")
    assert colour_share(surf, pygame.Rect(0, 300, 1280, 20), (48, 52, 73), tol=6) > 0.5


def test_development_window_shows_private_panels_and_led_bars(config, sim, clock, store, artifacts) -> None:
    """Under the main display: each station's OLED, marked PRIVATE, and its LED bar."""
    from display.dev_panels import HEIGHT
    from display.window import Window
    from firmware_py.runtime.cabinet import Cabinet

    window = Window((1280, 720), strip_height=HEIGHT)
    cabinet = Cabinet(config, sim, clock, store, window, log=lambda _l: None, seed=1)
    sim.set_led_level(1, 0.3)
    cabinet.step(clock.now_us())
    cabinet.render()
    pygame.image.save(window.surface, str(artifacts / "dev-window.png"))
    strip = window.strip
    assert colour_share(strip, pygame.Rect(0, 28, 480, 14), (255, 80, 70), tol=10) > 0.01  # the PRIVATE label
    oled = pygame.Rect(16, 50, 200, 100)
    assert colour_share(strip, oled, (255, 255, 255), tol=0) > 0.02  # lit OLED pixels
    # The whole window fits a 1366×768 laptop screen, and the main display keeps its shape.
    assert window.surface.get_height() <= 700 and window.surface.get_width() <= 1366
    assert window.size[0] * 9 == window.size[1] * 16
    assert cabinet.renderer.canvas.get_size() == window.size  # drawn at that size, not shrunk after
    window.close()


def test_a_long_service_page_stays_in_its_panel_and_counts_the_rest(renderer: Renderer) -> None:
    """The Stats page of a busy cabinet once ran its lines past the panel's foot."""
    body = tuple(f"game {i}: {3 * i} finished" for i in range(40))
    record = LayoutRecord()
    renderer.draw(ServiceScreen(title="Stats", items=("Stats",), cursor=0, body=body, footer="back"), record)
    panel = pygame.Rect(420, 90, 1280 - 450, 720 - 160)
    lines = [t for t in record.texts if t.rect.x >= panel.x and t.rect.y >= panel.y]
    assert lines and all(panel.contains(t.rect) for t in lines)
    assert lines[-1].what == f"… {40 - len(lines) + 1} more"


def test_a_play_screen_whose_clock_moved_is_told_apart_before_its_view_is_compared() -> None:
    """The loop draws a frame only when its model changed: a demo's drawn frames (the
    clock moved) compared their engines' views field by field first, ~0.05 M instructions
    each (BENCHMARKS.md, issue 34's eleventh round)."""
    from display.models import PlayScreen

    compared: list[object] = []

    class View:
        def __eq__(self, other: object) -> bool:
            compared.append(other)
            return True

        __hash__ = object.__hash__

    one = PlayScreen(game="g", title="G", seats=(), view=View(), events=(), now_us=1)
    two = PlayScreen(game="g", title="G", seats=(), view=View(), events=(), now_us=2)
    assert one != two
    assert not compared
    assert one == PlayScreen(game="g", title="G", seats=(), view=View(), events=(), now_us=1)
    assert compared
