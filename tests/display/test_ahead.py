"""The title card prepares the next demo's type (display.ahead): the demo's first frames
open no type face and draw the same picture as without preparing, and each step of the
preparation is bounded."""

from __future__ import annotations

import itertools
import string
from dataclasses import replace

import pygame

from display import ahead, compose, text, theme
from display.ahead import FACE_INSTRUCTIONS, STEP_INSTRUCTIONS, glyph_instructions, warm_steps
from display.models import AttractScreen, DemoScreen
from display.renderer import Renderer

SIZE = (1920, 1080)


def _attract() -> tuple[AttractScreen, list[DemoScreen]]:
    """The title card the cabinet shows first, and the frames its first demo draws in
    its first seconds (as the frame bench measures them)."""
    from tests.bench.bench_frames import attract_frames

    models = attract_frames()
    title = models[0]
    assert isinstance(title, AttractScreen)
    return title, [m for m in models if isinstance(m, DemoScreen)][:28]


def test_a_prepared_demo_opens_no_type_face_and_draws_the_same_picture() -> None:
    """Fails without the preparation: the demo's first frame opens a face for every
    size it writes in (a stamina digit at 205 px, each name tag shrunk to fit).  From a
    cold process: no plan, no fitted size remembered by the tests before (the fitted
    sizes are forgotten all at once when 256 are kept, which a long test run reaches
    between another test's plan and this one's demo)."""
    title, demo = _attract()
    _forget()
    text._fitted.clear()
    theme.font.cache_clear()
    cold = Renderer(size=SIZE)
    pictures = []
    for model in demo:
        cold.draw(model)
        pictures.append(pygame.image.tobytes(cold.canvas, "RGB"))
    opened_cold = theme.font.cache_info().misses

    theme.font.cache_clear()
    warm = Renderer(size=SIZE)
    warm.draw(title)
    shown = pygame.image.tobytes(warm.canvas, "RGB")
    steps = 0
    while warm.prepare():
        steps += 1
    assert pygame.image.tobytes(warm.canvas, "RGB") == shown  # nothing on screen touched
    assert not warm.prepare()  # done: nothing more to do until the next title card
    opened = theme.font.cache_info().misses
    for i, model in enumerate(demo):
        warm.draw(model)
        assert pygame.image.tobytes(warm.canvas, "RGB") == pictures[i], f"demo frame {i} differs"
    assert opened_cold > 20
    assert theme.font.cache_info().misses == opened, "the demo's first seconds opened a face not prepared"
    assert steps > 10


def _forget() -> None:
    """No demo planned or warmed yet in this process (the plans and faces are its own)."""
    ahead._planned.clear()
    ahead._warmed.clear()


def test_another_screen_ends_the_preparation() -> None:
    title, demo = _attract()
    _forget()
    renderer = Renderer(size=SIZE)
    assert not renderer.prepare()  # no title card yet: nothing to prepare
    renderer.draw(title)
    assert renderer.prepare()
    renderer.draw(demo[0])
    assert not renderer.prepare()


def test_each_step_warms_a_bounded_part_of_a_face() -> None:
    """A step is one face's letters up to the step's estimated cost (at least one letter);
    every letter asked for is warmed, a face that shows a digit gets all ten, and a small
    face (FreeType's, where strings are measured to fit) every letter of a case it shows."""
    wanted = {
        (205, True): set("10 cards"),
        (41, False): set("Standard"),
        (98, True): set("CPU 2 · NORMAL"),
        (28, True): set("Hook"),
    }
    steps = list(warm_steps(wanted))
    for i, step in enumerate(steps):
        first = i == 0 or (steps[i - 1].size, steps[i - 1].bold) != (step.size, step.bold)  # opens the face
        cost = FACE_INSTRUCTIONS * first + len(step.letters) * glyph_instructions(step.size, step.bold)
        assert len(step.letters) == 1 or cost <= STEP_INSTRUCTIONS
    for (size, bold), chars in wanted.items():
        warmed = "".join(s.letters for s in steps if (s.size, s.bold) == (size, bold))
        expected = chars | set(string.digits) if chars & set(string.digits) else chars
        if size == 28:
            expected = expected | set(string.ascii_letters)
        assert sorted(warmed) == sorted(expected - {" "})
    assert len([s for s in steps if s.size == 205]) > 1  # big bold digits: several steps


def test_a_demo_prepared_once_is_not_prepared_again_while_its_faces_stay_open() -> None:
    """The next cycle's title card does nothing while the face cache has let no face go;
    once it has, the faces are warmed again without sketching the demo again."""
    title, demo = _attract()
    theme.font.cache_clear()
    _forget()
    renderer = Renderer(size=SIZE)
    renderer.draw(title)
    first = 0
    while renderer.prepare():
        first += 1

    def again() -> int:
        renderer.draw(demo[0])
        renderer.draw(title)
        steps = 0
        while renderer.prepare():
            steps += 1
        return steps

    assert again() == 0
    for size in range(500, 500 + theme.font.cache_info().maxsize):  # fills the cache: faces are let go
        theme.font(size)
    wanted = next(w for key, w in ahead._planned.items() if key[:2] == (SIZE, title.games[title.featured]))
    warmed = len(list(warm_steps(wanted)))
    assert warmed < again() < first  # warmed, and the openings drawn ahead again: not sketched


def test_a_planning_draw_makes_no_figure_and_the_next_step_makes_them_all() -> None:
    """A figure is made when first painted (``art.blit_figure``): a planning draw, which
    paints nothing, leaves it to a step of its own (the first planning draw of a boxing
    demo made both boxers' figures: 7.5 M instructions at 1080p, over a busy frame's
    budget), and the demo's first frame then makes none.  Fails with the figures
    rendered where they are drawn (the planning step makes them)."""
    from display import art

    title, _demo = _attract()
    boxing = replace(title, featured=title.games.index("Big Time Boxing"))
    _forget()
    art._figure.cache_clear()
    renderer = Renderer(size=SIZE)
    made = []
    plan = renderer.ahead._plan

    def planned(sketch: DemoScreen, sketches: ahead.Sketches, part: int | None) -> compose.Frame | None:
        before = art._figure.cache_info().misses
        frame = plan(sketch, sketches, part)
        made.append(art._figure.cache_info().misses - before)
        return frame

    renderer.ahead._plan = planned  # type: ignore[method-assign]
    renderer.draw(boxing)
    figures_after = []
    while renderer.prepare():
        figures_after.append(art._figure.cache_info().misses)
    assert made and not any(made), f"a planning draw made figures: {made}"
    assert figures_after[-1] >= 2, "no step made the boxers' figures"
    opening = next(iter(ahead.demo_sketches(boxing)))
    before = art._figure.cache_info().misses
    renderer.draw(opening)
    assert art._figure.cache_info().misses == before, "the demo's first frame made a figure not prepared"


def test_the_demos_first_frame_drawn_ahead_renders_no_string_and_records_no_segment() -> None:
    """The demo's first frame repaints the whole screen; drawn ahead for real (at every
    level its computers may play at) while the title card waits, it then fits and renders
    no string and records no segment: only the Python drawing and the paint are left.
    Fails without the openings drawn ahead (the boxing demo's first frame: 26 M
    instructions at 1080p, 12 M with them)."""
    title, demo = _attract()
    _forget()
    renderer = Renderer(size=SIZE)
    renderer.draw(title)
    while renderer.prepare():
        pass
    strings, segments = set(renderer.text._cache), set(renderer.segments._by_key)
    renderer.draw(demo[0])
    assert set(renderer.text._cache) <= strings, set(renderer.text._cache) - strings
    assert set(renderer.segments._by_key) <= segments


def _boxing_demo_prepared() -> tuple[AttractScreen, Renderer]:
    """The title card featuring Big Time Boxing, and a fresh renderer that drew it and
    ran every preparation step it had (faces and fits forgotten first)."""
    title, _demo = _attract()
    boxing = replace(title, featured=title.games.index("Big Time Boxing"))
    _forget()
    renderer = Renderer(size=SIZE)
    renderer.draw(boxing)
    while renderer.prepare():
        pass
    return boxing, renderer


def _faces_opened(monkeypatch) -> list[tuple[int, bool]]:
    """From now on, each (size, bold) face opened for the first time, in order."""
    opened: list[tuple[int, bool]] = []
    real = text.font

    def font(size: int, bold: bool = False) -> object:
        before = real.cache_info().misses
        face = real(size, bold)
        if real.cache_info().misses != before:
            opened.append((size, bold))
        return face

    monkeypatch.setattr(text, "font", font)
    return opened


def test_a_boxing_demo_showing_any_punchs_card_opens_no_face_for_it(monkeypatch) -> None:
    """Which cards a demo turns over its seed decides: Big Time Boxing's stage shows each
    card a punch may put there (thrown, blocked, its Result card) in faces opened and
    warmed while the title card waited, and fitted ahead.  Fails without the game's
    ``foreseen`` cards (HOOK first shown: a 23 M-instruction frame, faces opened for it)."""
    from display.games.big_time_boxing import screen as boxing_screen

    boxing, renderer = _boxing_demo_prepared()
    opened = _faces_opened(monkeypatch)

    opening = next(iter(ahead.demo_sketches(boxing)))
    shown = 0
    for event in boxing_screen._punch_cards():
        play = replace(opening.play, events=((1_000_000, event),), now_us=3_000_000)  # the card alone, at rest
        card = boxing_screen.shown_card(play, event)
        assert card is not None
        renderer.draw(replace(opening, play=play))
        shown += 1
    assert shown > 40
    assert not [face for face in opened if face[0] >= 40], opened  # the stage's faces (a note's are smaller)


def test_a_boxing_demo_at_any_level_opening_any_window_fits_nothing_and_opens_no_face(monkeypatch) -> None:
    """A demo's computers play at levels drawn at random, and their name tags ("CPU 1 ·
    HARD") are in what the head, the key hints and the note under a lone card say: each
    window open to each seat at each level, its turn, each note, was fitted in faces
    opened and warmed while the title card waited.  Fails without the game's ``foreseen`` names (the plan's played states are at
    one level: "CPU 1 · HARD may defend: Uppercut" fitted in a face opened for it, a
    13–19 M-instruction frame at 1080p)."""
    from display.games.big_time_boxing import screen as boxing_screen
    from display.models import StationLook
    from display.playout import playout
    from games.big_time_boxing import BigTimeBoxing, BigTimeBoxingOptions
    from games.levels import Level

    boxing, renderer = _boxing_demo_prepared()
    opened = _faces_opened(monkeypatch)
    fitted: list[str] = []
    measure = text.fitted_in

    def fitted_in(face: object, words: str, width: int, largest: int) -> int:
        fitted.append(words)
        return measure(face, words, width, largest)  # type: ignore[arg-type]

    monkeypatch.setattr(text, "fitted_in", fitted_in)
    opening = next(iter(ahead.demo_sketches(boxing)))
    states = [
        (view, events, now_us)
        for view, events, now_us in itertools.islice(playout(BigTimeBoxing(BigTimeBoxingOptions(), 2, 0), 7), 200)
        if view.phase.window is not None or view.phase is boxing_screen.Phase.TURN
    ]
    windows = {view.phase.window for view, _events, _now in states}
    assert len(windows) >= 3, windows  # a response, a combo, an escape or a trapped response
    heads: set[str] = set()
    for level in Level:
        seats = tuple(
            StationLook(f"CPU {n} · {level.name}", look.color) for n, look in enumerate(opening.play.seats, 1)
        )
        for view, events, now_us in states:
            play = replace(opening.play, seats=seats, view=view, events=events, now_us=now_us)
            words = boxing_screen._asked(play, play, view)[0]
            heads.update((words, *words.split(f"{seats[0].name} ", 1), *words.split(f"{seats[1].name} ", 1)))
            renderer.draw(replace(opening, play=play))
    heads.discard("")
    assert len(heads) > 40
    assert not heads & set(fitted), sorted(heads & set(fitted))  # nor the name or the words alone, over two lines
    named = [words for words in fitted if "CPU" in words]
    assert not named, named  # nor the note under a lone card ("CPU 2 · HARD throws: 2 energy")
    assert not [face for face in opened if face[0] <= 34], (
        opened
    )  # the head's faces and the hints' (the stage's are larger)
