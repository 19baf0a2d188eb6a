"""Issue 30: the story in order.  Over whole games at the cabinet (computers, seeded), as
the main screen drew them: every banner tied to the event that causes it; a banner a
reveal decided is drawn only after that reveal has been on screen, readable, for the
game's read time; the break between rounds is said; the header names the round the
banner names.  Each check is also run once on the fault it guards against (put back by
hand) and must catch it."""

from __future__ import annotations

import re

import pytest

from display import motion
from display.games.punch import screen as punch_screen
from firmware_py.games.punch.controls import PunchControls
from games.punch import Card, PunchOptions
from games.punch.events import Break, CardsRevealed
from tests.display import story_order
from tests.display.story_order import FRAME_US, Frame, drawn, played_models, stuck

pytestmark = pytest.mark.slow


def punch_story_faults(frames: list[Frame]) -> list[str]:
    """What the Punch! frames tell out of order (empty: the story in order)."""
    faults = []
    before: tuple[str, ...] = ()
    breaks_said: set[tuple[int, int]] = set()  # (match, round) whose break banner was drawn
    for i, f in enumerate(frames):
        for words in f.banners:
            if words.startswith("BREAK"):
                breaks_said.add(_header(f)[:2])
            rounds = re.fullmatch(r"ROUND (\d)", words)
            if rounds and _header(f)[1] != int(rounds[1]):
                faults.append(f"{f.now_us}: banner {words!r} under the header {_header(f)}")
            if words in before:
                continue
            cause = next(
                (
                    (t, ev)
                    for t, ev in reversed(f.model.events)
                    if (said := punch_screen._banner_text(f.model, ev)) is not None and said[0] == words
                ),
                None,
            )
            assert cause is not None, f"banner {words!r} tied to no event"
            reveal = next((ev for t, ev in f.model.events if t == cause[0] and isinstance(ev, CardsRevealed)), None)
            if reveal is None:
                continue
            labels = {_face(card) for card in reveal.cards}
            read = [g for g in frames[:i] if g.now_us >= f.now_us - punch_screen.READ_US + FRAME_US]
            shown = [g for g in read if labels <= set(g.texts)]
            if len(read) < punch_screen.READ_US // FRAME_US - 1 or len(shown) < len(read):
                faults.append(
                    f"{f.now_us}: {words!r} drawn after {len(shown)} frames of its reveal {sorted(labels)}"
                    f" (read time {punch_screen.READ_US} us)"
                )
        before = f.banners
    for f in frames:
        for t, ev in f.model.events:
            if isinstance(ev, Break) and f.now_us > t + motion.FLIP_US + punch_screen.READ_US + 2 * FRAME_US:
                key = (_match_of(frames, t), ev.after_round)
                if key not in breaks_said:
                    faults.append(f"the break after round {ev.after_round} (match {key[0]}) never said")
                    breaks_said.add(key)
    if not any("WINS THE GAME" in w for f in frames for w in f.banners):
        faults.append("the game's winner never said")
    return faults


def _face(card: Card) -> str:
    """A string a card's face shows only when turned up: its label (Dodge and Punch Back's
    runs over two lines: its big word)."""
    return punch_screen.CARD_SYMBOL[card] if card is Card.DODGE else card.label


def _header(f: Frame) -> tuple[int, int, int]:
    for words in f.texts:
        m = re.fullmatch(r"Match (\d+)  ·  Round (\d)  ·  Exchange (\d+)/10", words)
        if m:
            return int(m[1]), int(m[2]), int(m[3])
    raise AssertionError(f"no header drawn at {f.now_us}")


def _match_of(frames: list[Frame], t: int) -> int:
    """The match the header named when the event at ``t`` happened."""
    return next(_header(f)[0] for f in frames if f.now_us >= t)


@pytest.fixture(scope="module")
def punch_game(tmp_path_factory) -> list[tuple[int, object]]:
    """Two matches to win: a break, a new round, a match won, the game's end."""
    options = PunchOptions(matches_to_win=2)
    models = played_models(tmp_path_factory.mktemp("punch"), PunchControls(), options, 2, 11, 900_000_000)
    punch_waits[:] = story_order.waits
    return models


punch_waits: list[story_order.Waiting] = []


def test_punch_tells_each_reveal_before_what_it_decided(punch_game) -> None:
    assert punch_story_faults(drawn(punch_game)) == []


def test_punch_never_waits_on_a_seat_without_naming_its_key(punch_game) -> None:
    assert punch_waits and stuck(punch_waits) == []


def test_the_check_catches_a_banner_over_face_down_cards(punch_game, monkeypatch) -> None:
    """The fault put back: consequences said the moment the cards are revealed (the
    game's winner over the final pair still face down, ROUND 2 before exchange 10 is
    turned, the break never said)."""
    monkeypatch.setattr(punch_screen, "READ_US", -motion.FLIP_US)
    monkeypatch.setattr(punch_screen, "BANNER_US", 0)
    frames = drawn(punch_game)
    monkeypatch.setattr(punch_screen, "READ_US", punch_screen.EFFECT_HOLD_US)
    faults = punch_story_faults(frames)
    assert faults and any("never said" in f or "drawn after" in f for f in faults), faults


def test_the_stuck_check_catches_a_seat_asked_without_a_key() -> None:
    """The fault put back: a private display that says "Your turn" and no key, for 4 s."""
    asked = [story_order.Waiting(t, (0,), (("Red: 5 cards", "", "Your turn"), ())) for t in range(0, 4_000_001, 50_000)]
    assert stuck(asked)
    named = [
        story_order.Waiting(t, (0,), (("Your turn:", "A = play top card"), ())) for t in range(0, 4_000_001, 50_000)
    ]
    assert stuck(named) == []


def _karate_options():
    from games.karate_fight import KarateOptions

    return KarateOptions()


def test_karate_three_fighters_tell_the_story_and_never_leave_a_seat_unasked(tmp_path) -> None:
    """A 3-fighter fight between computers: each Jan Ken's signs are drawn before the
    banner saying who takes the cards; no seat waits over 3 s without a key named."""
    from firmware_py.games.karate_fight.controls import KarateControls

    models = played_models(tmp_path, KarateControls(), _karate_options(), 3, 5, 900_000_000)
    assert stuck(story_order.waits) == []
    frames = drawn(models)
    for i, f in enumerate(frames):
        for words in f.banners:
            if " TAKES " in words and not any(words in g.banners for g in frames[max(0, i - 1) : i]):
                signs = [g for g in frames[:i] if g.now_us >= f.now_us - 1_000_000 + FRAME_US]
                assert all(any(w.split()[0] in ("ROCK", "PAPER", "SCISSORS") for w in g.texts) for g in signs), (
                    f"{words!r} at {f.now_us} before the signs were read"
                )
