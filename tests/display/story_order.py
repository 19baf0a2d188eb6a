"""Issue 30, "the story in order": a game played at the simulated cabinet by computer
players, each frame of its play screen drawn with a layout record, so a test can see
what was on the main screen when — which banner, which words — and tie each to the
event that causes it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from display import motion
from display.games.big_time_boxing import screen as btb_screen
from display.games.punch import screen as punch_screen
from display.layout import Cover, LayoutRecord
from display.models import PlayScreen
from display.private import draw_private, image_text
from display.renderer import Renderer
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.controls import AnyControls
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.store import Store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from games.levels import Level
from games.punch import Card, Phase
from games.punch.events import Break, CardsRevealed
from hal.clock import ManualClock
from hal.config import load_config
from hal.sim import SimCabinet

FRAME_US = 50_000
"""Frames 20 a second: fine enough against the read times (≥ 1 s), quick to draw."""


@dataclass(frozen=True)
class Frame:
    """One play-screen frame: its model, the banners and the strings drawn on it."""

    now_us: int
    model: Any
    banners: tuple[str, ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Waiting:
    """At one frame: the seats the game waits on, and what each station's private display said."""

    now_us: int
    asked: tuple[int, ...]
    privates: tuple[tuple[str, ...], ...]


waits: list[Waiting] = []
"""What :func:`played_models` saw the game wait on, frame by frame (its last run)."""


def played_models(
    tmp_path, controls: AnyControls, options: Any, players: int, seed: int, limit_us: int
) -> list[tuple[int, Any]]:
    """A whole game between computers (expert level) at a ``players``-station cabinet:
    the play-screen model of every frame, to the result.  Nothing is drawn (the models
    are), but every frame is reported flipped at its time, as the live loop does after
    drawing it: a game that times its reveals by the flip (Karate Fight's Hits, which
    the computers slap) plays as at the cabinet."""
    cfg = replace(load_config("hal/data/cabinet-4.toml" if players > 2 else None), data_dir=tmp_path)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    store = Store(None)
    cabinet = Cabinet(cfg, sim, clock, store, log=lambda _line: None, seed=seed)
    levels = dict.fromkeys(range(players), Level.EXPERT)
    play = Play.start(cabinet.ctx, clock.now_us(), controls, options, tuple(range(players)), levels)
    cabinet.scene = play
    models: list[tuple[int, Any]] = []

    def after(t: int, is_frame: bool) -> bool:
        if is_frame and cabinet.scene is play:
            models.append((t, play.screen(t)))
            play.frame_shown(t, t)  # drawn and flipped at t, as the live loop reports it: Karate's Hits show
            asked = tuple(sorted(seat for seat in play.session.engine.to_act() if seat >= 0))
            privates = tuple(  # what a person in that seat would read (a computer's says "plays here")
                image_text(draw_private(play.session.private_screen(seat))) or () for seat in range(players)
            )
            waits.append(Waiting(t, asked, privates))
        return cabinet.scene is not play

    waits.clear()
    VirtualTimeDriver(cabinet, FRAME_US, render=False).run_until(clock.now_us() + limit_us, after=after)
    sim.close()
    assert cabinet.scene is not play, "the game did not end in time"
    return models


KEY_WORDS = re.compile(r"\b(?:[A-F](?:[-–/][A-F])?|START|SLAP|slap)\b")
"""A key named on a private display: A–F (or a range), START, the slap pad."""
STUCK_US = 3_000_000


def stuck(seen: list[Waiting]) -> list[str]:
    """Stretches over :data:`STUCK_US` where the game waited on a seat whose private
    display named no key to press (the station cannot know it must act, or how)."""
    out = []
    since: dict[int, int] = {}
    for w in seen:
        for seat in range(len(w.privates)):
            silent = seat in w.asked and not KEY_WORDS.search(" ".join(w.privates[seat]))
            if not silent:
                since.pop(seat, None)
                continue
            start = since.setdefault(seat, w.now_us)
            if w.now_us - start > STUCK_US:
                out.append(f"seat {seat} asked since {start} us, its display names no key: {w.privates[seat]}")
                since[seat] = w.now_us + 10**12  # said once per stretch
    return out


def drawn(models: list[tuple[int, Any]]) -> list[Frame]:
    """Each model drawn as the live cabinet draws it, with what the drawing recorded."""
    renderer = Renderer()
    frames = []
    for t, model in models:
        record = LayoutRecord(contrast=False)
        renderer.layout(model, record)
        banners = tuple(d.what for d, kind in record.covers if kind is Cover.BANNER)
        frames.append(Frame(t, model, banners, tuple(d.what for d in record.texts)))
    return frames


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
    ended = bool(frames) and frames[-1].model.view.phase is Phase.OVER
    if ended and not any("WINS THE GAME" in w for f in frames for w in f.banners):
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
    return next((_header(f)[0] for f in frames if f.now_us >= t), 0)


SIGNS = ("ROCK", "PAPER", "SCISSORS")
SIGNS_READ_US = 1_000_000
"""A Jan Ken's signs are on screen this long before what they decided is said."""


def karate_story_faults(frames: list[Frame]) -> list[str]:
    """What Karate Fight's frames tell out of order: a Jan Ken's "… TAKES N CARDS" banner
    drawn before the signs thrown were on screen for the second before it; a Hit's banner
    over a card not drawn; a photo finish (a Hit's consequence) over the fight's end; the
    fight's winner not said from the frame it is decided (after its signs, if a Jan Ken
    decided it) to the result."""
    faults = []
    for i, f in enumerate(frames):
        for words in f.banners:
            if " TAKES " in words and not any(words in g.banners for g in frames[max(0, i - 1) : i]):
                signs = [g for g in frames[:i] if g.now_us >= f.now_us - SIGNS_READ_US + FRAME_US]
                if not signs or not all(any(w.split()[0] in SIGNS for w in g.texts if w) for g in signs):
                    faults.append(f"{words!r} at {f.now_us} before the signs were read")
            if words.startswith("HIT! ") and i and words not in frames[i - 1].banners:
                faults += _hit_said_after_its_card(frames[i - 1], f, words)
        faults += _karate_end_faults(f)
    return list(dict.fromkeys(faults))


def _hit_said_after_its_card(before: Frame, f: Frame, words: str) -> list[str]:
    """A Hit is said ("HIT! STRIKE") once the card that caused it has been on screen: the
    frame before drew that card's face, and the Hit shown is the one the engine revealed."""
    from games.karate_fight import HitShowing

    centre = f.model.view.centre
    face = centre[-1].name.replace("_", " ").upper() if centre else None
    shown = next((ev for t, ev in reversed(f.model.events) if isinstance(ev, HitShowing) and t <= f.now_us), None)
    out = []
    if face is None or face not in before.texts or before.model.view.centre[-1:] != centre[-1:]:
        out.append(f"{words!r} at {f.now_us}: its card {face!r} was not on screen the frame before")
    if shown is None or words != f"HIT! {shown.kind.name.replace('_', ' ')}":
        out.append(f"{words!r} at {f.now_us} tied to no Hit revealed (last: {shown})")
    return out


def _karate_end_faults(f: Frame) -> list[str]:
    """The fight's end in one frame: once decided, its winner's banner is up; once time is
    up, no Hit's photo finish is (the piles decide now, not the last Hit, whose winner
    may not be the fight's; a Hit that makes a Karate Master keeps its photo finish: it
    decided the fight)."""
    from games.karate_fight import FightWon, JanKenRound, KarateMaster, TimeUp

    events = f.model.events
    out = []
    up = next((t for t, ev in events if isinstance(ev, TimeUp)), None)
    if up is not None and f.now_us >= up and "PHOTO FINISH" in f.texts:
        out.append(f"a Hit's photo finish at {f.now_us} over the fight's end (time up at {up})")
    won = next(((t, ev) for t, ev in events if isinstance(ev, FightWon | KarateMaster)), None)
    if won is None or f.now_us < won[0]:
        return out
    t, ev = won
    said = t + SIGNS_READ_US if any(isinstance(e, JanKenRound) and u == t for u, e in events) else t
    name = f.model.seats[ev.fighter].name.upper()
    if f.now_us >= said + FRAME_US and not any(name in w and ("WINS" in w or "MASTER" in w) for w in f.banners):
        out.append(f"{name}'s win (decided at {t}, said from {said}) not on the banner at {f.now_us}: {f.banners}")
    return out


def big_time_boxing_story_faults(frames: list[Frame]) -> list[str]:
    """What Big Time Boxing's frames tell out of order: a banner a card decided (a
    knockdown, the fight's end: "RED WINS — KO!") drawn before that card had been turned up
    and on screen for the read time (its chip, or its face when the play has one card,
    drawn in every frame of the :data:`~display.games.big_time_boxing.screen.READ_US` before)."""
    faults = []
    for i, f in enumerate(frames):
        for words in f.banners:
            if i and words in frames[i - 1].banners:
                continue
            deciding = _deciding_card(f.model, words)
            if deciding is None:
                continue
            read = [g for g in frames[:i] if g.now_us >= f.now_us - btb_screen.READ_US + FRAME_US]
            shown = [g for g in read if deciding.chip in g.texts or deciding.big in g.texts]
            covered = bool(read) and read[0].now_us <= f.now_us - btb_screen.READ_US + 2 * FRAME_US
            if not covered or len(shown) < len(read):
                faults.append(
                    f"{f.now_us}: {words!r} drawn after {len(shown)} of {len(read)} frames showing its card"
                    f" {deciding.chip!r} (read time {btb_screen.READ_US} us)"
                )
    return faults


def _deciding_card(model: Any, words: str) -> btb_screen.Shown | None:
    """The card that decided the newest event said as the banner ``words``: the last card
    turned before it in its play (None: no card decided it, a round's bell)."""
    events = list(model.events)
    for k in range(len(events) - 1, -1, -1):
        t, ev = events[k]
        said = btb_screen._banner_words(model, ev)
        if said is None or said[0] != words:
            continue
        before = [btb_screen.shown_card(model, e) for u, e in events[:k] if u == t]
        cards = [c for c in before if c is not None]
        return cards[-1] if cards else None
    return None


def story_faults(frames: list[Frame]) -> list[str]:
    """The story check of the game these frames show (Punch!, Karate Fight, Big Time
    Boxing; Punch Cards' duel is told on the duellists' displays: tests/display/test_hint_player)."""
    games = {f.model.game for f in frames}
    out = []
    if "big_time_boxing" in games:
        out += big_time_boxing_story_faults([f for f in frames if f.model.game == "big_time_boxing"])
    if "punch" in games:
        out += punch_story_faults([f for f in frames if f.model.game == "punch"])
    if "karate_fight" in games:
        out += karate_story_faults([f for f in frames if f.model.game == "karate_fight"])
    return out


@contextmanager
def recorded(renderer: Renderer) -> Iterator[list[Frame]]:
    """Every play screen ``renderer`` draws with a layout record while inside, as a
    :class:`Frame` (the frame check draws each with one): the story check then reads
    the frames another check drew, at no cost of its own."""
    frames: list[Frame] = []
    draw = renderer.draw

    def spy(screen: Any, record: LayoutRecord | None = None) -> Any:
        surface = draw(screen, record)
        if record is not None and isinstance(screen, PlayScreen):
            banners = tuple(d.what for d, kind in record.covers if kind is Cover.BANNER)
            frames.append(Frame(screen.now_us, screen, banners, tuple(d.what for d in record.texts)))
        return surface

    renderer.draw = spy  # type: ignore[method-assign]
    try:
        yield frames
    finally:
        del renderer.draw
