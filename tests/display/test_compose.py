"""Composed frames (display.compose): a frame repaints only what changed since the last
one, and the picture is the same, pixel for pixel, as drawing the whole screen afresh."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display import compose
from display.compose import Composer, Frame
from display.games.registry import screens
from display.layout import LayoutRecord
from display.motion import STILL_AFTER_US
from display.renderer import Renderer
from games import registry
from tests.bench.bench_frames import game_frames

SIZE = (1920, 1080)


@pytest.mark.parametrize("game", [e.spec.name for e in registry.engines()])
def test_composed_frames_equal_whole_redraws_frame_after_frame(game: str) -> None:
    """A random playout drawn at 60 fps (cards turning over, bars easing, banners,
    knockdown shakes): every composed frame is the whole redraw's picture, and the frames
    repaint less than the whole screen on the whole."""
    composed, whole = Renderer(size=SIZE), Renderer(size=SIZE)
    repainted = 0
    models = game_frames(game, 160)
    for i, model in enumerate(models):
        composed.draw(model)
        whole.draw(model, LayoutRecord())
        repainted += sum(r.w * r.h for r in composed.dirty)
        assert pygame.image.tobytes(composed.canvas, "RGB") == pygame.image.tobytes(whole.canvas, "RGB"), (
            f"frame {i} differs; repainted {composed.dirty}"
        )
    assert repainted < 0.5 * len(models) * SIZE[0] * SIZE[1]


def test_a_frame_that_changed_nothing_repaints_nothing() -> None:
    model = game_frames("punch", 30)[-1]
    renderer = Renderer(size=SIZE)
    renderer.draw(model)
    assert renderer.dirty == [pygame.Rect(0, 0, *SIZE)]
    renderer.draw(model)
    assert renderer.dirty == []


@pytest.mark.parametrize("game", [e.spec.name for e in registry.engines()])
def test_a_play_screen_is_still_after_its_newest_event_unless_its_game_says_moving(game: str) -> None:
    """The renderer does not draw a model again once it is past STILL_AFTER_US: every
    state of a playout must then look the same as 20 s later (a longer animation, or a
    perpetual one its game does not declare, fails here)."""
    moving = screens(game).moving
    then, later = Renderer(), Renderer()
    for model in game_frames(game, 1200)[::24][:50]:
        if moving is not None and moving(model):
            continue
        still = model.events[-1][0] + STILL_AFTER_US
        then.draw(replace(model, now_us=still), LayoutRecord())
        later.draw(replace(model, now_us=still + 20_000_000), LayoutRecord())
        assert pygame.image.tobytes(then.canvas, "RGB") == pygame.image.tobytes(later.canvas, "RGB")


def test_a_still_play_screen_is_not_drawn_again() -> None:
    model = game_frames("punch", 30)[-1]
    still = replace(model, now_us=model.events[-1][0] + STILL_AFTER_US)
    renderer = Renderer(size=SIZE)
    renderer.draw(still)
    renderer.draw(replace(still, now_us=still.now_us + 16_667))
    assert renderer.dirty == []
    renderer.draw(replace(still, now_us=still.now_us + 33_333, paused="the cable"))
    assert renderer.dirty


def _frame(*ops: tuple[tuple[int, int, int], tuple[int, int, int, int] | None]) -> Frame:
    from display import compose

    frame = Frame((100, 100))
    for color, rect in ops:
        frame.add(compose.fill, (color, rect), pygame.Rect(rect or (0, 0, 100, 100)))
    return frame


def test_only_the_changed_box_is_repainted_in_paint_order() -> None:
    surface = pygame.Surface((100, 100))
    composer = Composer(surface)
    black, red, blue = (0, 0, 0), (255, 0, 0), (0, 0, 255)
    composer.compose(_frame((black, None), (red, (10, 10, 10, 10)), (blue, (50, 50, 10, 10))))
    assert composer.compose(_frame((black, None), (red, (12, 10, 10, 10)), (blue, (50, 50, 10, 10)))) == [
        pygame.Rect(10, 10, 12, 10)
    ]
    assert surface.get_at((11, 15))[:3] == black and surface.get_at((21, 15))[:3] == red
    # the same two squares painted in the other order: the one on top changes where they overlap
    composer.compose(_frame((black, None), (blue, (15, 10, 10, 10)), (red, (12, 10, 10, 10))))
    assert surface.get_at((20, 15))[:3] == red


def test_a_frame_not_starting_with_a_whole_fill_is_painted_whole() -> None:
    surface = pygame.Surface((100, 100))
    composer = Composer(surface)
    composer.compose(_frame(((0, 0, 0), None)))
    assert composer.compose(_frame(((9, 9, 9), (0, 0, 5, 5)))) == [pygame.Rect(0, 0, 100, 100)]


def test_the_attract_mode_composed_equals_whole_redraws() -> None:
    """The title card (PRESS START blinking over a segment recorded once) and the demo
    game drawn shrunk above its band: each composed frame is the whole redraw's picture,
    with the next demo prepared in the frames between (``Renderer.prepare``)."""
    from tests.bench.bench_frames import attract_frames, until_drawn

    composed, whole = Renderer(size=SIZE), Renderer(size=SIZE)
    last = None
    for i, model in enumerate(until_drawn(attract_frames(every_frame=True), 60)):
        if model == last:  # left on screen, as the cabinet's loop does
            composed.prepare()
            continue
        last = model
        composed.draw(model)
        whole.draw(model, LayoutRecord())
        assert pygame.image.tobytes(composed.canvas, "RGB") == pygame.image.tobytes(whole.canvas, "RGB"), (
            f"attract frame {i} ({type(model).__name__}) differs; repainted {composed.dirty}"
        )


def test_a_segment_is_recorded_once_for_its_inputs_and_again_when_they_change() -> None:
    """A drawing marked as a segment runs once while its inputs stay the same (the frame
    holds it as one operation), again when they change; the picture follows its inputs."""
    from display.canvas import Canvas, segment

    runs: list[tuple[int, int, int]] = []

    @segment
    def square(surf: Canvas, color: tuple[int, int, int], rect: pygame.Rect) -> None:
        runs.append(color)
        surf.fill(color, rect)

    surface = pygame.Surface((1280, 720))
    composer, segments = Composer(surface), compose.Segments()
    for color in ((200, 0, 0), (200, 0, 0), (0, 200, 0)):
        frame = Frame(surface.get_size(), segments)
        canvas = Canvas(surface, frame=frame)
        canvas.fill((0, 0, 0))
        square(canvas, color, pygame.Rect(10, 10, 20, 20))
        assert len(frame.ops) == 2
        composer.compose(frame)
        assert surface.get_at((15, 15))[:3] == color
    assert runs == [(200, 0, 0), (0, 200, 0)]
    assert composer.compose(frame) == []


@pytest.mark.parametrize("width", [0, 1, 4, 7])
def test_a_rounded_rect_repainted_under_any_clip_is_pygames_rounded_rect(width: int) -> None:
    """compose.rounded_rect paints plain fills where the clip meets no corner: under
    clips inside the edges, across corners and over all of it, the pixels are
    pygame.draw.rect's own."""
    rect, radius = (20, 30, 200, 120), 25
    clips = [(60, 60, 40, 40), (20, 30, 200, 10), (0, 80, 300, 8), (210, 140, 30, 30), (15, 25, 30, 30), None]
    for clip in clips:
        ours, pygames = pygame.Surface((260, 180)), pygame.Surface((260, 180))
        for surface in (ours, pygames):
            surface.fill((9, 9, 9))
            surface.set_clip(clip)
        compose.rounded_rect(ours, (200, 120, 40), rect, width, radius)
        pygame.draw.rect(pygames, (200, 120, 40), rect, width, radius)
        assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(pygames, "RGB"), f"clip {clip}"


def test_a_clip_put_back_leaves_the_operations_after_it_as_they_were() -> None:
    """A drawing that clips and puts the clip back (get_clip, then set_clip) leaves no
    clip: what it draws after compares equal to the last frame's, so a frame where only
    the clipped part changed does not repaint everything after it."""
    from display.canvas import Canvas

    surface = pygame.Surface(SIZE)
    composer = Composer(surface)

    def frame(card: bool) -> Frame:
        f = Frame(SIZE)
        canvas = Canvas(surface, frame=f)
        canvas.fill((0, 0, 0))
        if card:  # drawn in one frame only (a card turned over), clipped to its place
            kept = canvas.get_clip()
            canvas.set_clip((10, 10, 50, 50))
            canvas.fill((200, 0, 0), (0, 0, 100, 100))
            canvas.set_clip(kept)
        canvas.fill((255, 255, 255), (600, 400, 100, 100))
        return f

    composer.compose(frame(card=True))
    assert composer.compose(frame(card=False)) == [pygame.Rect(15, 15, 75, 75)]


def test_a_demo_whose_game_did_not_move_is_not_drawn_again_while_its_band_blinks(monkeypatch) -> None:
    """PRESS START blinks over a demo game that has not moved: the game's drawing is not run
    again (its operations are put in again), only the band is repainted, and the picture is
    the whole redraw's; when the game moves it is drawn again, change by change (issue 34:
    a fifth of a Big Time Boxing demo's frames drew the whole game in Python for a blink)."""
    from dataclasses import replace as changed_model

    from display.games import registry as screens_registry
    from display.models import DemoScreen
    from tests.bench.bench_frames import attract_frames

    demo = [m for m in attract_frames(featured=2) if isinstance(m, DemoScreen)]
    game = demo[0].play.game
    drawer = screens_registry.screens(game)
    calls = []

    def counted(surf, text, play) -> None:
        calls.append(play.now_us)
        drawer.play(surf, text, play)

    monkeypatch.setattr(screens_registry, "screens", lambda name: replace(drawer, play=counted))
    composed, whole = Renderer(size=SIZE), Renderer(size=SIZE)
    first = demo[10]
    frames = [first, changed_model(first, blink=not first.blink), first, demo[11]]
    drawn = []
    for i, model in enumerate(frames):
        before = len(calls)
        composed.draw(model)
        drawn.append(len(calls) - before)
        whole.draw(model, LayoutRecord())
        assert pygame.image.tobytes(composed.canvas, "RGB") == pygame.image.tobytes(whole.canvas, "RGB"), i
        if i in (1, 2):
            assert composed.dirty and all(r.y >= SIZE[1] * 0.85 for r in composed.dirty), composed.dirty
    assert demo[11].play != first.play
    assert drawn == [1, 0, 0, 1]


@pytest.mark.parametrize("width", [0, 1, 4, 7, 30])
def test_a_rounded_rect_is_laid_out_once_for_its_look_wherever_and_however_large(width: int, monkeypatch) -> None:
    """A rounded rect repainted across its corners (a card sliding in or turning over, a
    panel whose edge changed) is pygame.draw.rect's picture at every place, size and
    clip, and pygame lays it out once for its colour, border and radius, not once a frame
    (issue 34: a fifth of a Big Time Boxing demo frame went to laying out its stage card
    and panels again)."""
    laid_out = []
    pygames_rect = pygame.draw.rect

    def counted(*args: object) -> pygame.Rect:
        laid_out.append(args)
        return pygames_rect(*args)  # type: ignore[arg-type]

    radius = 24
    clips = [None, (0, 0, 40, 40), (100, 90, 300, 8), (50, 0, 30, 400), (7, 5, 200, 200)]
    places = [(20, 30), (21, 30), (63, 47), (140, 9), (3, 111)]
    for place, size in zip(places, [(131, 97), (131, 97), (77, 120), (99, 99), (130, 91)], strict=True):
        for clip in clips:
            ours, pygames = pygame.Surface((300, 220)), pygame.Surface((300, 220))
            for surface in (ours, pygames):
                surface.fill((9, 9, 9))
                surface.set_clip(clip)
            monkeypatch.setattr(pygame.draw, "rect", counted)
            compose.rounded_rect(ours, (200, 120, 40), (*place, *size), width, radius)
            monkeypatch.setattr(pygame.draw, "rect", pygames_rect)
            pygame.draw.rect(pygames, (200, 120, 40), (*place, *size), width, radius)
            assert pygame.image.tobytes(ours, "RGB") == pygame.image.tobytes(pygames, "RGB"), f"at {place}, clip {clip}"
    assert len(laid_out) == 1


def test_the_segments_kept_drop_the_least_recently_used() -> None:
    """A segment found is marked used (in place: a key holding a game's state hashes in
    Python), and the one used longest ago goes when one more is recorded than are kept."""
    segments = compose.Segments(kept=2)
    a, b, c = (compose.Segment(Frame((10, 10)), n) for n in range(3))
    segments.put("a", a)
    segments.put("b", b)
    assert segments.get("a") is a  # a used after b
    segments.put("c", c)
    assert segments.get("b") is None
    assert segments.get("a") is a and segments.get("c") is c


def test_a_panel_whose_edge_changed_repaints_its_sides_not_its_inside() -> None:
    """A board's panel whose edge turned gold (the turn passing) is another segment at the
    same place: only where the two differ is repainted (the four sides of its edge, the
    outline's colour alone having changed), nothing inside it, and the picture is the
    whole redraw's.  Fails
    with a changed segment's whole box repainted (the whole board, 650–880 kpx of a Big
    Time Boxing demo frame at 1080p)."""
    from display.canvas import Canvas
    from display.widgets import panel

    rect = pygame.Rect(100, 100, 400, 400)
    segments = compose.Segments()

    def frame(surface: pygame.Surface, edge: tuple[int, int, int]) -> Frame:
        f = Frame(surface.get_size(), segments)
        canvas = Canvas(surface, frame=f)
        canvas.fill((0, 0, 0))
        panel(canvas, rect, (40, 40, 60), edge)
        canvas.fill((200, 0, 0), (250, 250, 20, 20))  # something on the panel
        return f

    surface, whole = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    composer = Composer(surface)
    composer.compose(frame(surface, (90, 90, 90)))
    dirty = composer.compose(frame(surface, (255, 200, 40)))
    Composer(whole).compose(frame(whole, (255, 200, 40)))
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(whole, "RGB")
    inside = rect.inflate(-2 * 18, -2 * 18)  # within the corners' radius of the edge
    assert dirty and not any(r.colliderect(inside) for r in dirty), dirty
    assert sum(r.w * r.h for r in dirty) < rect.w * rect.h // 4
