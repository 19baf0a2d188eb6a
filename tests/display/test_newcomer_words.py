"""Issue 30, "Words and controls": what a newcomer or an operator read that meant
nothing, was cut short or offered a move the rules forbid.  Each test is the fault's
guard: it fails with the fault put back (each was seen failing so; the commits say how)."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from display.calibration_screen import CalibrationScreen, PadTrace
from display.games.big_time_boxing.screen import shown_card
from display.games.punch_cards.models import DeskPrivate, DeskStep, LobbyView
from display.games.punch_cards.private import key_legends
from display.layout import MIN_SIZE, LayoutRecord, unreadable
from display.models import PlayScreen, PrivateScreen, ResultScreen, StationLook
from display.private import draw_private, image_text
from display.renderer import Renderer
from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.games.punch.controls import PunchControls
from firmware_py.games.punch_cards.keyboard import NameKeyboard
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.controls import ResultRecords
from firmware_py.runtime.service_menu import StatsPage
from firmware_py.runtime.store import Store
from games.big_time_boxing import BigHit, BigHitDrawn
from games.karate_fight import PlayTop, Shown, Sign, Slaps, Throw
from games.punch import Phase, Punch, PunchOptions
from games.punch_cards import Standing
from hal.events import Button
from tests.cabinet_driving import press, run_for
from tests.display.hint_player import named_keys
from tests.display.screen_states import playout
from tests.display.test_photo_finish import PLAYED, SHOWN, WON
from tests.display.test_punch_cards_screens import lobby
from tests.firmware_py.test_cabinet_big_time_boxing import HOOK, engine, fight
from tests.firmware_py.test_cabinet_punch_cards import (  # noqa: F401
    duel_to_the_end,
    ledger,
    pc,
    service_page,
    two_players,
    use,
    wall,
)
from tests.firmware_py.test_punch_cards_name_entry import oled
from tests.games.big_time_boxing.helpers import stacked
from tests.games.karate_fight.helpers import fight as karate_fight

README = Path(__file__).resolve().parents[2] / "README.md"
CPUS = (StationLook("CPU 1 · NORMAL", (200, 40, 40)), StationLook("CPU 2 · NORMAL", (40, 90, 200)))


def recorded(model: object) -> LayoutRecord:
    record = LayoutRecord(contrast=False)
    Renderer().draw(model, record)
    return record


# -- Karate Fight ------------------------------------------------------------------------------
def test_mashing_a_in_a_jan_ken_throws_no_sign() -> None:
    """A plays your top card; in a Jan Ken it throws nothing (it threw rock before anyone
    was asked): rock, paper, scissors are B, C, D."""
    e = karate_fight("Sdd", "dd")
    e.apply(PlayTop(0, PLAYED))
    e.apply(Shown(t_us=SHOWN))
    e.apply(Slaps(t_us=WON, fighters=(0, 1)))
    assert e.public_view().jan_ken is not None
    controls = KarateControls()
    assert controls.on_button(e, 0, Button.A, WON + 1) is None
    thrown = [controls.on_button(e, 0, b, WON + 1) for b in (Button.B, Button.C, Button.D)]
    assert thrown == [Throw(0, Sign.ROCK), Throw(0, Sign.PAPER), Throw(0, Sign.SCISSORS)]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_chances_to_answer_read_from_two_metres(size: tuple[int, int]) -> None:
    """The line "N chances to answer" was shrunk to about 12 px at 1280×720 (one line squeezed under
    the centre pile).  With the longest names a seat gets (three computers: "CPU 2 · EXPERT"),
    both its lines are drawn whole at the readable minimum, as every string of
    tests/display/test_readable.py is."""
    e = karate_fight("Kdb", "bjd", "ejd")
    played = e.apply(PlayTop(0, PLAYED))
    view = e.public_view()
    assert (view.attacker, view.turn, view.chances) == (0, 1, 2)
    seats = tuple(StationLook(f"CPU {i + 1} · EXPERT", (200, 40 + 60 * i, 40)) for i in range(3))
    model = PlayScreen(
        game="karate_fight",
        title="Karate Fight",
        seats=seats,
        view=view,
        events=tuple((PLAYED, ev) for ev in played),
        now_us=PLAYED + 100_000,
    )
    record = LayoutRecord()
    Renderer(size=size).draw(model, record)
    lines = {t.text.what: t.size for t in record.types if "chance" in t.text.what or "to answer" in t.text.what}
    assert lines and all(size >= MIN_SIZE for size in lines.values()), lines
    assert not [p for p in unreadable(record) if "chance" in p or "to answer" in p]
    assert " ".join(lines) == "CPU 2 · EXPERT: 2 chances to answer CPU 1 · EXPERT", lines


def test_a_rules_screen_with_one_rule_offers_no_next_rule(tmp_path) -> None:
    """Found playing in the window: Karate Fight's rules screen has one rule (the time
    limit) and offered "A next rule", on the screen and the host's display, a key that
    did nothing.  A is offered only where there is another rule to go to (Punch!'s three)."""
    from firmware_py.runtime.scenes import Options
    from tests.display.screen_states import live_context

    ctx = live_context(tmp_path)
    for controls, rules in ((KarateControls(), 1), (PunchControls(), 3)):
        options = Options(ctx, 0, controls, (0, 1), host=0)
        shown = [t.what for t in recorded(options.screen(0)).texts]
        private = list(options.private_model(0).lines)
        assert len(options.controls.options_menu) == rules
        assert ("A" in named_keys(shown), "A" in named_keys(private)) == (rules > 1,) * 2, (shown, private)
        assert "B" in named_keys(shown) and "START" in named_keys(private)


def test_the_photo_finish_says_its_winner_whole_against_the_computer() -> None:
    """Found playing in the window: the photo finish of a Hit the computer won alone read
    "CPU · NORMAL · nobody else in t…".  A name too long for the words beside it is the
    seat's short name, as the lanes write it ("CPU"); the words are never cut (the old
    headline put back: fails, seen)."""
    from display.games.karate_fight.photo_finish import PhotoFinish, SlapMark, SlapVerdict
    from games.karate_fight import HitKind

    seats = (StationLook("Red", (229, 57, 53)), StationLook("CPU · NORMAL", (30, 136, 229)))
    for margin, said in ((None, "CPU · nobody else in time"), (2_191, "CPU · NORMAL by 2.191 ms")):
        slaps = (SlapMark(1, 309_323, SlapVerdict.WON), SlapMark(0, 1_409_000, SlapVerdict.COWARD, 1))
        pf = PhotoFinish(
            hit=HitKind.STRIKE,
            revealed_us=SHOWN,
            played_at_us=-16_000,
            won_at_us=309_323,
            grace_us=500_000,
            slaps=slaps if margin is None else (*slaps[:1], SlapMark(0, 311_514, SlapVerdict.LATE)),
            winner=1,
            margin_us=margin,
        )
        e = karate_fight("Sdd", "dd")
        model = PlayScreen(
            game="karate_fight",
            title="Karate Fight",
            seats=seats,
            view=e.public_view(),
            events=(),
            now_us=SHOWN + 400_000,
            story=pf,
        )
        record = recorded(model)
        assert said in [t.what for t in record.texts] and record.cuts == [], [c.what for c in record.cuts]


def test_the_karate_result_names_a_computer_whole() -> None:
    """Found playing in the window: the result's BEST SLAP panel read "CPU · NORM…".  A
    name too long for its column is the seat's short name ("CPU"), never cut (the old
    column put back: fails, seen)."""
    from display.games.karate_fight.result import KarateStory

    seats = (StationLook("Red", (229, 57, 53)), StationLook("CPU · NORMAL", (30, 136, 229)))
    e = karate_fight("Sdd", "dd")
    final = PlayScreen(
        game="karate_fight", title="Karate Fight", seats=seats, view=e.public_view(), events=(), now_us=0
    )
    story = KarateStory(
        hits=(),
        best=(1_548_297, 266_786),
        cowards_blows=(19, 0),
        fastest_ever=(),
        fastest_today=(),
        counted=False,
    )
    result = ResultScreen(
        game="Karate Fight", winner=seats[1], headline="CPU · NORMAL: KARATE MASTER", lines=(), final=final, story=story
    )
    for size in ((960, 540), (1280, 720)):  # the development window's main screen, the cabinet's
        record = LayoutRecord()
        Renderer(size=size).draw(result, record)
        names = [t.size for t in record.types if t.text.what == "CPU"]
        assert names and min(names) >= MIN_SIZE and record.cuts == [], (names, [c.what for c in record.cuts])


# -- Big Time Boxing ---------------------------------------------------------------------------
def test_at_round_energy_0_move_away_is_never_offered(cabinet: Cabinet, sim) -> None:
    """The rulebook has no Move Away at Round Energy 0: E is refused, saying what to do,
    and the private display never asks "MOVE AWAY: discard?"."""
    play = fight(cabinet, hand0=[HOOK])
    engine(play).boxers[0].round_energy = 0
    run_for(cabinet, sim, 50_000)

    def shown() -> str:
        return "\n".join(image_text(sim.private[0].image) or ())

    assert "COVER UP" in shown() and "E Move Away" not in shown()
    press(cabinet, sim, 0, Button.E)
    assert "Cover Up" in play.session.refusal(0) and "MOVE AWAY" not in shown()
    run_for(cabinet, sim, 2_000_000)  # the refusal gone: nothing held
    assert "MOVE AWAY" not in shown() and "COVER UP" in shown()
    assert not BigTimeBoxingControls().held(engine(play), 0)


def test_the_boxing_result_counts_knockdowns_in_words() -> None:
    """Found on the result sheets: "Red: 0 knockdown(s), no injuries".  Each boxer's line
    says "no knockdowns", "1 knockdown", "2 knockdowns" (the old line put back: fails, seen)."""
    from tests.display.test_big_time_boxing_screen import fought

    said: dict[int, str] = {}
    for seed in range(2, 40):
        game, _events = fought(seed=seed)
        _headline, lines = BigTimeBoxingControls().result_lines(game, ("Red", "Blue"))
        for seat, name in enumerate(("Red", "Blue")):
            said[game.public_view().boxers[seat].knockdowns] = next(x for x in lines if x.startswith(f"{name}: "))
        if {0, 1} <= set(said):
            break
    assert said[0].startswith("Red: no knockdowns,") or said[0].startswith("Blue: no knockdowns,"), said
    assert ": 1 knockdown," in said[1], said
    assert not [line for line in said.values() if "(s)" in line], said


def test_a_big_hit_card_with_no_effect_says_it_is_only_the_damage() -> None:
    """ "Big Hit: 3 only" meant nothing to a newcomer."""
    game = stacked(hand0=[HOOK])
    screen = PlayScreen(
        game="big_time_boxing", title="Big Time Boxing", seats=CPUS, view=game.public_view(), events=(), now_us=0
    )
    card = shown_card(screen, BigHitDrawn(card=0, big_hit=BigHit.NONE, ignored=False))
    assert card is not None and card.label == "just the 3 damage"


# -- Punch Cards -------------------------------------------------------------------------------
def test_a_signed_in_desk_says_its_news_whole_and_counts_in_words() -> None:
    """'Practice lost: no c..': the news was cut at the display's 21 characters; "(1 cards)"."""
    hints = ("A duel: no rival yet", "B trade", "C practice", "E sign out")
    message = "Practice lost: no card changes hands"
    lines = oled(
        DeskPrivate(step=DeskStep.MENU, player="Ann", keyboard=None, pin="", message=message, hints=hints, cards=1)
    )
    assert lines[0] == "Ann (1 card)"
    assert message in " ".join(lines), lines
    assert all(any(h in line for line in lines) for h in hints), lines


def test_the_lobby_counts_in_words() -> None:
    """The board said "1 pts", a desk "1 cards"."""
    names = ("Ann", "Bob", "Cid", "Dee")
    v = lobby(names)
    one = LobbyView(
        tuple(d if d.cards is None else d.__class__(**{**d.__dict__, "cards": 1, "points": 1}) for d in v.desks),
        (Standing(1, "Ann", 1, (1,), 1), Standing(2, "Bob", 2, (1,), 2)),
        "",
    )
    texts = [
        t.what
        for t in recorded(
            PlayScreen(game="punch_cards", title="Punch Cards", seats=CPUS * 2, view=one, events=(), now_us=0)
        ).texts
    ]
    assert "1 pt · 1 card" in texts and "2 pts · 2 cards" in texts and "1 card · 1 point" in texts, texts


@pytest.mark.slow
def test_a_duels_result_offers_start_only_once_start_leaves(pc: Cabinet, sim, ledger) -> None:  # noqa: F811
    """After a duel's reveal START is ignored until the result has been read (1.32 s at
    the earliest: docs/rules/punch_cards.md); the footer said "START: back to the lobby"
    all that time, a key that did nothing.  Frame by frame from the result: no START is
    named on the main screen or a duellist's display while START is ignored; from the
    moment it leaves, the footer says so (the old footer put back: fails, seen)."""
    two_players(pc, sim)
    scene = duel_to_the_end(pc, sim)
    named: list[tuple[int, bool, bool]] = []  # (time, START named, START taken)
    for _ in range(120):  # 2.4 s of 20 ms frames: the result comes, is read, START leaves
        now = sim.clock.now_us()
        main = [t.what for t in recorded(scene.screen(now)).texts]
        shown = main + [line for station in (0, 1) for line in image_text(sim.private[station].image) or ()]
        named.append((now, "START" in named_keys(shown), scene.settled and now >= scene.leaves_at()))
        run_for(pc, sim, 20_000)
    assert any(taken for _t, _named, taken in named) and not all(taken for _t, _named, taken in named)
    assert [t for t, said, taken in named if said != taken] == []
    assert scene.result and any("START: back to the lobby" in t.what for t in recorded(scene.screen(now)).texts)


# -- Punch! ------------------------------------------------------------------------------------
def test_the_punch_hand_names_only_the_keys_of_cards_held() -> None:
    """Found playing in the window: with only Do Nothing left the boxer's display still
    said "play A-F", and a newcomer pressing the keys named went through five refusals
    before D.  Its foot names the keys of the cards held, and only those (the old foot
    put back: fails, seen)."""
    view = Punch(PunchOptions(), 2, seed=3).view(0)  # seed 3: Red holds all six kinds

    def foot(*held: int) -> str:
        hand = view.hand.__class__(n if i in held else 0 for i, n in enumerate(view.hand))
        exchange = replace(view, hand=hand, public=replace(view.public, phase=Phase.EXCHANGE))
        model = PrivateScreen(game="punch", seat=0, view=exchange, to_act=True, held=())
        return (image_text(draw_private(model)) or ("",))[-1]

    assert foot(0, 1, 2, 3, 4, 5) == "Stamina 10  play A-F"
    assert foot(3) == "Stamina 10  play D" and named_keys([foot(3)]) == {"D"}
    assert named_keys([foot(1, 3)]) == {"B", "D"}
    assert named_keys([foot(0, 2, 3, 4, 5)]) == {"A", "C", "D", "E", "F"}
    assert named_keys([foot(0, 1, 3, 4)]) == {"A", "B", "D", "E"}


def test_each_matchs_verdict_is_drawn_whole_on_the_result() -> None:
    """ "CPU 2 · NORMAL by kn…": the verdict had half the chart's width beside its title."""
    e = Punch(PunchOptions(), 2, 1)
    view, events, now = list(playout(e, 1))[-1]
    names = tuple(look.name for look in CPUS)
    controls = PunchControls()
    headline, lines = controls.result_lines(e, names)
    records = ResultRecords(store=Store(None), game_id=-1, stations=names, people_only=True, today_since="")
    final = PlayScreen(game="punch", title="Punch!", seats=CPUS, view=view, events=events, now_us=now)
    result = ResultScreen(
        game="Punch!",
        winner=CPUS[e.outcome().winner],
        headline=headline,
        lines=lines,
        final=final,
        story=controls.result_story(e, records),
    )
    record = recorded(result)
    verdicts = [t.what for t in record.texts if re.fullmatch(r"CPU \d · NORMAL (by knockout|on stamina)", t.what)]
    assert len(verdicts) >= 2 and record.cuts == [], [c.what for c in record.cuts]


def test_a_one_match_game_says_one_match() -> None:
    """Found playing in the window: a game of one match said "1 matches fought"."""
    e = Punch(PunchOptions(matches_to_win=1), 2, 1)
    deque(playout(e, 1), maxlen=0)
    _headline, lines = PunchControls().result_lines(e, ("Red", "Blue"))
    assert e.public_view().match == 1 and lines[-1] == "1 match fought", lines


# -- operator pages ----------------------------------------------------------------------------
def test_the_standings_page_keeps_its_words_in_its_panel(cabinet: Cabinet, sim, ledger) -> None:  # noqa: F811
    """The "Written: …" line gave both files' full paths and ran past its panel."""
    use(cabinet, ledger)
    page = service_page(cabinet, sim, "Standings")
    press(cabinet, sim, 0, Button.START)
    for _ in range(50):
        if page.message.startswith("Written"):
            break
        run_for(cabinet, sim, 100_000)
    assert page.message.startswith("Written: standings.csv and standings.html"), page.message
    record = recorded(page.screen(sim.clock.now_us()))
    w, h = 1280, 720
    body = pygame.Rect(420, 90, w - 450, h - 160)
    inside = [t for t in record.texts if t.rect.x >= body.x and body.y <= t.rect.y < body.bottom]
    assert any(t.what == page.message for t in inside)
    assert [t.what for t in inside if t.rect.right > body.right] == []


def test_the_stats_page_names_games_by_their_titles(cabinet: Cabinet, store: Store) -> None:
    store.finish_game(store.begin_game("karate_fight", {}, 2, 1, (0, 1)), 0, "time")
    body = StatsPage().body(cabinet.ctx, 0)
    assert "  Karate Fight: 1" in body and not any("karate_fight" in line for line in body), body


def test_a_calibration_trace_says_what_its_marks_are() -> None:
    """The trace said "threshold ±300  mask 40 ms": the red lines and the shaded bands in words."""
    trace = PadTrace(
        label="Pad 1",
        t0_us=0,
        t1_us=1_000_000,
        times=tuple(range(0, 1_000_000, 10_000)),
        values=tuple(900 if t == 200_000 else 10 for t in range(0, 1_000_000, 10_000)),
        threshold=300,
        mask_us=40_000,
        hits=((200_000, 800),),
        scale=1000,
        status="PASS",
    )
    screen = CalibrationScreen(title="Calibrate", step="Report", progress=1.0, lines=(), traces=(trace,), footer="")
    words = " ".join(t.what for t in recorded(screen).texts)
    assert "red: a slap past ±300" in words and "shaded: deaf 40 ms after" in words and "1 slap" in words, words
    assert "1 slaps" not in words and "threshold" not in words and "mask" not in words


# -- README ------------------------------------------------------------------------------------
def test_the_readme_teaches_the_name_keyboard_the_desk_shows() -> None:
    """The README described the old cursor keyboard (A/B left/right, F types)."""
    readme = README.read_text()
    part = readme[readme.index("- **Punch Cards**") :]
    part = part[: part.index("\n- **")] if "\n- **" in part else part
    quoted = re.findall(r'"([A-F] [a-z]{6})"', part)
    legends = key_legends(
        DeskPrivate(step=DeskStep.NAME, player="", keyboard=NameKeyboard("").view(), pin="", message="", hints=())
    )
    assert len(quoted) >= 2 and all(any(q.lower() in line.lower() for line in legends) for q in quoted), (
        quoted,
        legends,
    )
    assert "left/right" not in part
