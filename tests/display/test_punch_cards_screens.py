"""Punch Cards' screens with the longest and strangest names the rules accept (wide
letters, other scripts, right-to-left letters, stacked accents, look-alike full-width
forms): every piece of text stays inside the screen and inside its place, and the private
displays draw them (in the characters their font has).  Hostile names (SQL, control
characters, bidi overrides, 10 kB, emoji) never reach a screen: they are refused, and the
refusal, which is shown, fits.  PNGs are left in out/test-artifacts for a person to look at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from display import theme
from display.games.punch_cards.models import (
    DeskPrivate,
    DeskStep,
    DeskView,
    DuelPrivate,
    DuelTable,
    LobbyView,
    TradePrivate,
    TradeTableView,
)
from display.games.punch_cards.private import WIDTH, draw_punch_cards_private
from display.games.punch_cards.screen import OPEN_US
from display.layout import Cover, LayoutRecord, problems
from display.models import AttractBoard, AttractScreen, PlayScreen, PrivateScreen, StationLook
from display.private import image_text
from display.renderer import Renderer
from display.text import TextCache
from display.widgets import BANNER_BAND
from firmware_py.games.punch_cards.controls import PunchCardsControls
from firmware_py.games.punch_cards.keyboard import NameKeyboard
from firmware_py.games.punch_cards.lobby import LEDGER_NOT_ANSWERING
from games.punch_cards import (
    CORNERS,
    MAX_SERIAL,
    Call,
    CallIt,
    DuelOptions,
    NameRefused,
    PickCorner,
    PunchCardsDuel,
    Stake,
    Standing,
    make_card,
    normalise_name,
    packet,
)
from tests.firmware_py.ledger.support import decided_duel

STRANGE = (
    "W" * 20,
    "Ｗ" * 20,  # full-width: NFKC makes it W
    "龘" * 20,
    "محمد" * 5,
    "שלום" * 5,
    ("A" + "\u0308\u0324") * 20,  # two accents on each of 20 letters
    "क्षि" * 5,
    "𒀀" * 20,
    "O'Brien-Smith & Co.",
    "MMMMMMMMMMMMMMMMMMMM",
)
HOSTILE = (
    "Robert'); DROP TABLE players;--",
    "Ann\x00",
    "Ann\x1b[2J",
    "Ann\u202eeviL",
    "Ann\u2066x\u2069",
    "x" * 10_240,
    "Ann 🥊",
    "a\nb",
    "Ann\u200b",
)
LOOKS = (
    StationLook("Red", (229, 57, 53)),
    StationLook("Blue", (30, 136, 229)),
    StationLook("Green", (67, 160, 71)),
    StationLook("Gold", (251, 192, 45)),
)
SEED = 99


@pytest.fixture(scope="module")
def names() -> tuple[str, ...]:
    assert normalise_name("Ｗ" * 20) == "W" * 20  # full-width forms are stored as their plain letters
    return tuple(dict.fromkeys(normalise_name(n) for n in STRANGE))


class Placed:
    """Every text drawn: where it landed and the width it was given, if any."""

    def __init__(self) -> None:
        self.items: list[tuple[str, pygame.Rect, int | None]] = []


@pytest.fixture
def placed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Placed]:
    record = Placed()
    draw, fitted = TextCache.draw, TextCache.draw_fitted

    def spy_draw(self, target, text, size, color, pos, anchor="topleft", bold=False, max_width=None):  # type: ignore[no-untyped-def]
        rect = draw(self, target, text, size, color, pos, anchor, bold, max_width)
        record.items.append((text, rect, None))
        return rect

    def spy_fitted(self, target, text, size, color, pos, max_width, anchor="topleft", bold=False):  # type: ignore[no-untyped-def]
        rect = fitted(self, target, text, size, color, pos, max_width, anchor, bold)
        record.items.append((text, rect, max_width))
        return rect

    monkeypatch.setattr(TextCache, "draw", spy_draw)
    monkeypatch.setattr(TextCache, "draw_fitted", spy_fitted)
    yield record


def check_inside(placed: Placed, canvas: pygame.Surface) -> None:
    bounds = canvas.get_rect()
    assert placed.items
    for text, rect, max_width in placed.items:
        assert bounds.contains(rect), f"{text!r} at {rect} leaves the {bounds.size} screen"
        if max_width is not None:
            assert rect.width <= max_width, f"{text!r} is {rect.width} px wide in a place of {max_width}"


def save(canvas: pygame.Surface, artifacts: Path, name: str) -> None:
    pygame.image.save(canvas, str(artifacts / f"punch-cards-{name}.png"))


def lobby(names: tuple[str, ...], message: str = "") -> LobbyView:
    steps = (DeskStep.MENU, DeskStep.PIN, DeskStep.NAME, DeskStep.MENU)
    desks = tuple(
        DeskView(
            look=LOOKS[i],
            step=step,
            player=names[i],
            keyboard=NameKeyboard(names[i]).view() if step is DeskStep.NAME else None,
            pin_length=3,
            cards=999 if step is DeskStep.MENU else None,
            points=120 if step is DeskStep.MENU else None,
            message=message or f"Signed in: {names[i]}",
            bad=bool(message),
            hints=(
                ("A-F: a key, then a letter", "E delete  START done")
                if step is DeskStep.NAME
                else (f"A duel {names[(i + 1) % 4]}", "B trade", "C practice", "E sign out")
            ),
        )
        for i, step in enumerate(steps)
    )
    board = tuple(Standing(i + 1, n, 9999 - i, (1,), 99999) for i, n in enumerate(names[:5]))
    return LobbyView(desks, board, LEDGER_NOT_ANSWERING, alert=True)


@pytest.mark.slow
def test_the_lobby_with_the_strangest_names_keeps_every_text_in_its_place(
    names, placed: Placed, artifacts: Path
) -> None:
    for start in range(0, len(names), 4):
        group = (names[start:] + names)[:4]
        screen = PlayScreen(
            game="punch_cards",
            title="Punch Cards",
            seats=LOOKS,
            view=lobby(group + names),
            events=(),
            now_us=0,
        )
        canvas = Renderer().draw(screen)
        check_inside(placed, canvas)
        save(canvas, artifacts, f"lobby-strange-{start}")


def test_refusals_of_hostile_names_are_shown_and_fit(names, placed: Placed, artifacts: Path) -> None:
    for hostile in HOSTILE:
        with pytest.raises(NameRefused) as refused:
            normalise_name(hostile)
        message = f"Not a name: {refused.value}"
        assert len(message) < 200
        canvas = Renderer().draw(
            PlayScreen(
                game="punch_cards",
                title="Punch Cards",
                seats=LOOKS,
                view=lobby(names, message),
                events=(),
                now_us=0,
            )
        )
        check_inside(placed, canvas)
    save(canvas, artifacts, "lobby-refusal")


def finished_duel(a: str, b: str):  # type: ignore[no-untyped-def]
    cards = (tuple(make_card(SEED, s, a) for s in (1, 2)), tuple(make_card(SEED, s, b) for s in (3, 4)))
    duel = decided_duel(DuelOptions(cards), winner=1)
    assert duel is not None
    return duel


@pytest.mark.slow
def test_the_duel_and_trade_tables_with_the_strangest_names(names, placed: Placed, artifacts: Path) -> None:
    for i in range(0, len(names) - 1, 2):
        a, b = names[i], names[i + 1]
        duel = finished_duel(a, b)
        table = DuelTable(
            public=duel.public_view(),
            players=(a, b),
            practice=False,
            challenge=f"{b} must accept: a first challenge",
            result=(f"{b.upper()} WINS!", f"{b} takes card #1 ({a})", "by High"),
            waiting="",
        )
        canvas = Renderer().draw(
            PlayScreen(game="punch_cards", title="Punch Cards", seats=LOOKS[:2], view=table, events=(), now_us=0)
        )
        check_inside(placed, canvas)
        save(canvas, artifacts, f"duel-strange-{i}")
        trade = TradeTableView(
            players=(a, b), gives=(duel.collections[0], duel.collections[1]), confirmed=(True, False), message=""
        )
        canvas = Renderer().draw(
            PlayScreen(game="punch_cards", title="Punch Cards", seats=LOOKS[:2], view=trade, events=(), now_us=0)
        )
        check_inside(placed, canvas)
        save(canvas, artifacts, f"trade-strange-{i}")


def test_the_attract_leaderboard_with_the_strangest_names(names, placed: Placed, artifacts: Path) -> None:
    rows = tuple((f"{i + 1}.", n, "9999", "99999") for i, n in enumerate(names[:5]))
    board = AttractBoard(
        title="Punch Cards leaders",
        header=("#", "name", "points", "cards"),
        rows=rows,
        note="5000 players: duel at START",
    )
    screen = AttractScreen(
        games=("Punch!", "Karate Fight", "Punch Cards"),
        featured=2,
        stations=LOOKS[:2],
        recent=(),
        blink=True,
        board=board,
    )
    canvas = Renderer().draw(screen)
    check_inside(placed, canvas)
    save(canvas, artifacts, "attract-board")
    for name in names[:5]:
        [(_, rect, width)] = [p for p in placed.items if p[0] == name]  # each name once, fitted to its column
        assert width is not None and rect.width <= width


def test_private_displays_draw_any_accepted_name(names, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row is laid out to the display's 21 characters (never cut by the last-resort
    guard) and in the characters its font has, whatever the name."""
    import display.games.punch_cards.private as private

    laid_out: list[str] = []
    guarded = private.text_lines

    def spy(lines: list[str], inverted_row: int | None, size: tuple[int, int], rows: int = private.ROWS):  # type: ignore[no-untyped-def]
        laid_out.extend(lines)
        return guarded(lines, inverted_row, size, rows)

    monkeypatch.setattr(private, "text_lines", spy)
    for name in names:
        duel = finished_duel(name, name[::-1] if name[::-1] != name else name + "x")
        staking = PunchCardsDuel(DuelOptions(duel.collections), 2, 0)
        models = (
            DeskPrivate(
                step=DeskStep.MENU,
                player=name,
                keyboard=None,
                pin="",
                message=f"Signed in: {name}",
                hints=(f"A duel {name}", "B trade", "C practice", "E sign out"),
                cards=5,
            ),
            DeskPrivate(step=DeskStep.PIN, player=name, keyboard=None, pin="AB", message="", hints=()),
            DeskPrivate(
                step=DeskStep.NAME,
                player="",
                keyboard=NameKeyboard(name).view(),
                pin="",
                message="",
                hints=(),
            ),
            DuelPrivate(view=duel.view(0), cursor=0, result=f"You lost card #1 ({name})", waiting=""),
            DuelPrivate(view=staking.view(0), cursor=0, result="", waiting=""),
            TradePrivate(collection=duel.collections[0], cursor=0, giving=frozenset({1}), confirmed=False, message=""),
        )
        for model in models:
            image = draw_punch_cards_private(
                PrivateScreen(game="punch_cards", seat=0, view=model, to_act=True), (128, 64)
            )
            lines = image_text(image)
            assert lines is not None and all(len(line) <= WIDTH for line in lines), lines
            assert all(ord(c) < 256 for line in lines for c in line)
    overflowing = [line for line in laid_out if len(private.oled_safe(line)) > WIDTH]
    assert not overflowing, overflowing


def recorded_duel_screen(table: DuelTable) -> tuple[pygame.Surface, LayoutRecord]:
    record = LayoutRecord()
    canvas = Renderer().draw(
        PlayScreen(game="punch_cards", title="Punch Cards", seats=LOOKS[:2], view=table, events=(), now_us=0),
        record,
    )
    return canvas, record


class Inks:
    """Every text drawn, with its colour."""

    def __init__(self) -> None:
        self.items: list[tuple[str, pygame.Rect, tuple[int, int, int]]] = []

    def of(self, words: str) -> list[tuple[pygame.Rect, tuple[int, int, int]]]:
        return [(rect, colour) for text, rect, colour in self.items if text == words]


@pytest.fixture
def inks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Inks]:
    found = Inks()
    draw, fitted = TextCache.draw, TextCache.draw_fitted

    def spy_draw(self, target, text, size, color, pos, anchor="topleft", bold=False, max_width=None):  # type: ignore[no-untyped-def]
        rect = draw(self, target, text, size, color, pos, anchor, bold, max_width)
        found.items.append((text, rect, tuple(color)))
        return rect

    def spy_fitted(self, target, text, size, color, pos, max_width, anchor="topleft", bold=False):  # type: ignore[no-untyped-def]
        rect = fitted(self, target, text, size, color, pos, max_width, anchor, bold)
        found.items.append((text, rect, tuple(color)))
        return rect

    monkeypatch.setattr(TextCache, "draw", spy_draw)
    monkeypatch.setattr(TextCache, "draw_fitted", spy_fitted)
    yield found


def test_the_duel_result_is_a_banner_in_caps_and_the_lost_card_is_stamped_red(inks: Inks, artifacts: Path) -> None:
    """Issue 23: the result reads like the other games' ("BOB WINS!" in the banner band, in
    the winner's colour), and the card Ann lost is stamped LOST in red on her side, never
    in the winner's green."""
    duel = finished_duel("Ann", "Bob")  # Bob (seat 1) wins Ann's card #1
    table = DuelTable(
        public=duel.public_view(),
        players=("Ann", "Bob"),
        practice=False,
        challenge="",
        result=("BOB WINS!", "Bob takes card #1 (Ann)", "by High"),
        waiting="",
    )
    canvas, record = recorded_duel_screen(table)
    save(canvas, artifacts, "duel-result")
    [(band, kind)] = [(d, k) for d, k in record.covers if d.what == "BOB WINS!"]
    assert kind is Cover.BANNER and band.rect == BANNER_BAND
    assert canvas.get_at((10, BANNER_BAND.centery))[:3] == theme.shade(LOOKS[1].color, 0.8)
    [(stamp, colour)] = inks.of("LOST")
    assert colour == theme.BAD and stamp.centerx < 640  # on Ann's side, the left
    [(_, lost_colour)] = inks.of("loses card #1")
    [(_, won_colour)] = inks.of("takes card #1")
    assert lost_colour == theme.BAD and won_colour == theme.GOOD
    assert not problems(record), problems(record)


def test_the_reveal_shows_each_chosen_corners_numbers_through_its_hole(inks: Inks, artifacts: Path) -> None:
    """The cards are the centrepiece: each staked card is drawn with its serial and name,
    and at the reveal the numbers of the chosen corner show inside that corner of the card
    (the other corners stay dark); between the cards, how High and Low went."""
    duel = finished_duel("Ann", "Bob")
    view = duel.public_view()
    reveal = view.last_reveal
    assert reveal is not None
    table = DuelTable(public=view, players=("Ann", "Bob"), practice=False, challenge="", result=(), waiting="")
    canvas, record = recorded_duel_screen(table)
    save(canvas, artifacts, "duel-reveal")
    cards = [d.rect for d in record.lives if d.what in ("Ann's card", "Bob's card")]
    assert len(cards) == 2 and cards[0].right < 640 < cards[1].left
    for seat, card in enumerate(cards):
        corner = reveal.corners[seat].value
        quarter = pygame.Rect(card.x, card.y, card.width // 2, card.height // 2).move(
            card.width // 2 * (corner % 2), card.height // 2 * (corner // 2)
        )
        for n in reveal.numbers[seat]:
            assert any(quarter.contains(rect) for rect, _ in inks.of(str(n))), (seat, n, quarter)
        assert inks.of(f"#{view.stakes[seat]}") and any(card.contains(r) for r, _ in inks.of(("Ann", "Bob")[seat]))
    assert inks.of("HIGH") and inks.of("LOW") and inks.of(f"called {reveal.calls[0].value.upper()}")
    assert not problems(record), problems(record)


def test_practice_shows_no_card_changing_hands(inks: Inks, artifacts: Path) -> None:
    """Issue 23: practice moved no card yet showed "Zed takes card #981515 (Computer)".
    The computer's card shows no serial, nothing says a card is taken or lost."""
    computer = packet(7, MAX_SERIAL - 5, "Computer")
    mine = tuple(make_card(SEED, s, "Zed") for s in (1, 2))
    duel = decided_duel(DuelOptions((mine, computer)), winner=1)
    assert duel is not None
    controls = PunchCardsControls()
    result = controls.practice_lines(duel, ("Zed", "Computer"))
    table = DuelTable(
        public=duel.public_view(), players=("Zed", "Computer"), practice=True, challenge="", result=result, waiting=""
    )
    canvas, record = recorded_duel_screen(table)
    save(canvas, artifacts, "duel-practice")
    words = [text for text, _r, _c in inks.items]
    assert "PRACTICE" in words and any("no card moves" in w for w in words)
    serials = {str(c.serial) for c in computer}
    assert not [w for w in words if any(s in w for s in serials)], "a practice shows the computer's card serial"
    assert not [w for w in words if "takes card" in w or "LOST" in w or "loses card" in w]
    assert not problems(record), problems(record)


def test_the_holes_open_before_the_numbers_and_the_result_show(inks: Inks) -> None:
    """Coherent (issue 23): at a reveal the chosen holes open; the numbers, the calls, how
    High and Low went and the result banner show once they are open, never before."""
    duel = finished_duel("Ann", "Bob")
    reveal = duel.public_view().last_reveal
    assert reveal is not None
    table = DuelTable(
        public=duel.public_view(),
        players=("Ann", "Bob"),
        practice=False,
        challenge="",
        result=("BOB WINS!", "Bob takes card #1 (Ann)", "by High"),
        waiting="",
    )

    def frame(now_us: int) -> LayoutRecord:
        record = LayoutRecord()
        Renderer().draw(
            PlayScreen(
                game="punch_cards",
                title="Punch Cards",
                seats=LOOKS[:2],
                view=table,
                events=((1_000_000, reveal),),
                now_us=now_us,
            ),
            record,
        )
        return record

    inks.items.clear()
    opening = frame(1_000_000 + OPEN_US // 2)
    words = {text for text, _r, _c in inks.items}
    assert not any(str(n) in words for n in reveal.numbers[1]) and "LOST" not in words and "HIGH" not in words
    assert not opening.covers  # no banner yet
    inks.items.clear()
    frame(1_000_000 + OPEN_US)
    words = {text for text, _r, _c in inks.items}
    assert all(str(n) in words for n in reveal.numbers[1]) and "LOST" in words and "BOB WINS!" in words


def test_a_play_again_shows_its_reveal_until_the_next_play_is_under_way(inks: Inks) -> None:
    """One moment at a time: after High against Low the reveal stays up with its reason
    while both choose afresh, and goes once one of them has picked the next corner."""
    cards = (tuple(make_card(SEED, s, "Ann") for s in (1, 2)), tuple(make_card(SEED, s, "Bob") for s in (3, 4)))
    duel = PunchCardsDuel(DuelOptions(cards), 2, 0)
    for action in (
        Stake(0, 1),
        Stake(1, 3),
        PickCorner(0, CORNERS[0]),
        PickCorner(1, CORNERS[3]),
        CallIt(0, Call.HIGH),
        CallIt(1, Call.LOW),
    ):
        duel.apply(action)
    reveal = duel.public_view().last_reveal
    assert reveal is not None and reveal.again is not None

    def shown() -> tuple[set[str], LayoutRecord]:
        inks.items.clear()
        table = DuelTable(
            public=duel.public_view(), players=("Ann", "Bob"), practice=False, challenge="", result=(), waiting=""
        )
        _canvas, record = recorded_duel_screen(table)
        return {text for text, _r, _c in inks.items}, record

    words, record = shown()
    assert "HIGH AGAINST LOW: PLAY AGAIN" in words and all(str(n) in words for n in reveal.numbers[1])
    duel.apply(PickCorner(0, CORNERS[1]))
    words, record = shown()
    assert not record.covers and not any(str(n) in words for n in reveal.numbers[1] if n > 4)
    duel.apply(PickCorner(1, CORNERS[1]))  # both picked: calling, still not the old reveal
    words, record = shown()
    assert not record.covers and not any(str(n) in words for n in reveal.numbers[1] if n > 4)
