"""Karate Fight at the cabinet: button A plays the top card when it is your turn, the slap
pad answers Hits (judged by stamp, after the settle window), B/C/D throw rock, paper or
scissors in a Jan Ken (not A: a fighter mashing A for a card must not throw a sign); the LED bar shows each fighter's share of the cards in play."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from itertools import groupby
from typing import Any, ClassVar

from display.games.karate_fight.photo_finish import PhotoFinish
from display.games.karate_fight.result import KarateStory
from firmware_py.games.karate_fight.story import karate_story, photo_finish
from firmware_py.runtime.controls import (
    GameControls,
    OptionItem,
    Record,
    Refusal,
    ResultRecords,
    SlapCue,
    journal_events,
)
from games.karate_fight import (
    BoutWon,
    CardKind,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    FighterOut,
    FightWon,
    HitKind,
    HitShowing,
    HitWon,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateFight,
    KarateMaster,
    KarateOptions,
    PlayTop,
    Reentered,
    Shown,
    Sign,
    SlapIgnored,
    Slaps,
    Throw,
    TimeCheck,
    TimeUp,
    WinReason,
)
from games.karate_fight.bot_fight import LOOK_AGAIN_US
from games.karate_fight.fighter_bot import KarateFighterBot
from games.levels import Level
from games.protocol import Action, Event
from hal.events import Button

SIGN_BUTTONS = {Button.B: Sign.ROCK, Button.C: Sign.PAPER, Button.D: Sign.SCISSORS}
"""A Jan Ken's signs: apart from A, which plays a card, so mashing A never throws one."""


def card_name(kind: CardKind) -> str:
    return kind.value.replace("_", " ").title()


def hit_name(kind: HitKind) -> str:
    return kind.value.replace("_", " ").title()


class KarateControls(GameControls[KarateFight, PhotoFinish, KarateStory]):
    blurb = "2–4 fighters, blind piles, lightning slaps judged to the microsecond."

    endings: ClassVar[dict[Enum, str]] = {
        WinReason.KARATE_MASTER: "Karate Master",
        WinReason.MOST_CARDS: "most cards when time ran out",
        WinReason.TIME_UP_JAN_KEN: "won the Jan Ken for most cards when time ran out",
    }
    options_menu = (
        OptionItem(
            "Time limit",
            "time_limit_us",
            (
                (None, "Off (Karate Master only)"),
                (180_000_000, "3 min"),
                (300_000_000, "5 min"),
                (600_000_000, "10 min"),
            ),
        ),
    )

    def __init__(self) -> None:
        self._shown_for: int | None = None
        self._shown_us: tuple[int, int] | None = None
        """(cards played, game time) of the latest reveal reported: what computers answer."""
        self._time_checked_for: int | None = None
        self._photo: tuple[int, PhotoFinish | None] = (-1, None)
        """(actions applied, the photo finish then): the events change only with an action."""

    def make_options(self, values: dict[str, Any]) -> KarateOptions:
        return KarateOptions(**values)

    def on_button(self, engine: KarateFight, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        jan_ken = engine.public_view().jan_ken
        if jan_ken is not None:
            if button in SIGN_BUTTONS and seat in jan_ken.remaining:
                return Throw(seat, SIGN_BUTTONS[button])
            return None
        if button is Button.A:
            turn = engine.public_view().turn
            if turn is not None and turn != seat and not engine.over:  # said without a seat number
                return Refusal(seat, "Not your turn yet: wait for YOUR TURN on your panel")
            return PlayTop(seat, t_us)
        return None

    def refusal_words(self, engine: KarateFight, seat: int, words: str, names: tuple[str, ...]) -> str:
        """The engine's refusals that number a fighter ("it is fighter 2's turn", "the
        fight is over: … fighter 1 won") said with the names on the main screen (issue
        30); read from the state the engine refused in, which the refusal left unchanged."""
        v = engine.public_view()
        if v.winner is not None:
            return f"The fight is over: {names[v.winner]} won"
        if v.turn is not None and v.turn != seat and v.jan_ken is None and "turn" in words:
            return f"It is {names[v.turn]}'s turn"
        return words

    def on_slap(self, engine: KarateFight, seat: int, t_us: int, velocity: int | None) -> Action:
        return Slaps(t_us=t_us, fighters=(seat,))

    def on_clock(self, engine: KarateFight, now_us: int) -> Action | None:
        """Once the clock passes the limit, tell the engine (once per limit), so a fight
        nobody touches still ends on time; the settle window keeps stamp order."""
        if engine.options.time_limit_us is None:
            return None  # the rulebook game: no clock to keep (and no view to build per step)
        ends = engine.public_view().ends_us
        if ends is None or now_us < ends or self._time_checked_for == ends or engine.over:
            return None
        self._time_checked_for = ends
        return TimeCheck(t_us=now_us)

    def on_frame_shown(self, engine: KarateFight, t_us: int) -> Action | None:
        """Report the first flip after a card was played: from then its Hit is showing."""
        view = engine.public_view()
        if not view.awaiting_reveal or self._shown_for == view.cards_played:
            return None
        self._shown_for = view.cards_played
        self._shown_us = (view.cards_played, t_us)
        return Shown(t_us=t_us, cards_played=view.cards_played)

    def coalesce(self, released: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
        """Slaps with the identical µs stamp become one batch: a dead heat is decided by
        the engine, never by which slap the process happened to handle first."""
        out: list[tuple[int, Action]] = []
        for (t_us, is_slap), group in groupby(released, key=lambda p: (p[0], isinstance(p[1], Slaps))):
            items = [a for _t, a in group]
            if is_slap:
                fighters = tuple(sorted({f for a in items if isinstance(a, Slaps) for f in a.fighters}))
                out.append((t_us, Slaps(t_us=t_us, fighters=fighters)))
            else:
                out += [(t_us, a) for a in items]
        return out

    def led_level(self, engine: KarateFight, seat: int) -> float:
        v = engine.public_view()
        return v.fighters[seat].pile_size / v.in_play if v.in_play else 0.0

    def bot_presses(self, engine: KarateFight, seat: int, action: Action) -> tuple[Button, ...]:
        if isinstance(action, PlayTop):
            return (Button.A,)
        if isinstance(action, Throw):
            return (next(b for b, s in SIGN_BUTTONS.items() if s is action.sign),)
        raise TypeError(f"no presses for {action!r}")

    def make_bot(self, level: Level, seed: int) -> KarateFighterBot:
        return KarateFighterBot(level, seed)

    def slap_cue(self, engine: KarateFight, now_us: int) -> SlapCue | None:
        """The latest card, once the engine has taken its reveal: computer fighters react
        to it once (their bots decide whether it is worth a slap).  While a Hit stays
        showing unslapped, they look again every second, as people at a table do.  A
        card shown before a restart (its reveal time unknown here) counts as shown now."""
        v = engine.public_view()
        if v.awaiting_reveal or not v.cards_played:
            return None
        if self._shown_us is None or self._shown_us[0] != v.cards_played:
            self._shown_us = (v.cards_played, now_us)
        shown = self._shown_us[1]
        looks = max(0, now_us - shown) // LOOK_AGAIN_US if v.hit_showing is not None else 0
        return SlapCue((v.cards_played, looks), shown + looks * LOOK_AGAIN_US)

    def play_story(self, engine: KarateFight, events: Sequence[Event]) -> PhotoFinish | None:
        """The photo finish of the last Hit judged (the screen shows it for a while)."""
        if self._photo[0] != len(engine.journal):
            self._photo = (len(engine.journal), photo_finish(events, engine.options.grace_us))
        return self._photo[1]

    def result_story(self, engine: KarateFight, records: ResultRecords) -> KarateStory:
        return karate_story(journal_events(engine), engine.players, records)

    def records(self, events: tuple[Event, ...], seats: tuple[int, ...]) -> list[Record]:
        out = []
        for ev in events:
            if isinstance(ev, HitWon) and not ev.by_jan_ken:
                out.append(Record("reaction", ev.winner, ev.reaction_us, ev.kind.value))
            elif isinstance(ev, DeadHeat):
                out += [Record("reaction", f, ev.reaction_us, "dead heat") for f in ev.fighters]
            elif isinstance(ev, SlapIgnored) and ev.reaction_us is not None:
                out.append(Record("reaction", ev.fighter, ev.reaction_us, "runner-up"))
        return out

    def result_lines(self, engine: KarateFight, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        v = engine.public_view()
        outcome = engine.outcome()
        if outcome is None or outcome.winner is None:
            headline = "NO WINNER"
        elif outcome.how is WinReason.KARATE_MASTER:
            headline = f"{names[outcome.winner].upper()}: KARATE MASTER"
        else:
            headline = f"{names[outcome.winner].upper()} WINS ON TIME"
        lines = [
            f"{names[f.seat]}: {f.pile_size} cards"
            + (f", fastest {f.fastest_us / 1000:.3f} ms" if f.fastest_us else "")
            for f in v.fighters
        ]
        if outcome is not None and outcome.how is not WinReason.KARATE_MASTER:
            lines.append(self.endings[outcome.how].capitalize())
        return headline, tuple(lines)

    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        if isinstance(event, CardPlayed):
            hit = f"  -> HIT ({hit_name(event.hit)})" if event.hit else ""
            return f"{names[event.fighter]} plays {card_name(event.kind).upper()}!{hit}"
        if isinstance(event, HitShowing):
            return f"  HIT showing from {event.revealed_us} µs"
        if isinstance(event, HitWon):
            how = " (won the Jan Ken)" if event.by_jan_ken else f" in {event.reaction_us} µs"
            return f"  {names[event.winner]} wins the Hit{how}"
        if isinstance(event, DeadHeat):
            return f"  DEAD HEAT at {event.reaction_us} µs: {', '.join(names[f] for f in event.fighters)} -> Jan Ken"
        if isinstance(event, SlapIgnored):
            behind = f", {event.behind_us} µs behind" if event.behind_us is not None else ""
            return f"  {names[event.fighter]} slap ignored ({event.reason.value}{behind})"
        if isinstance(event, CowardsBlow):
            return f"  COWARD'S BLOW by {names[event.fighter]}: pays {event.cards_paid} card(s)"
        if isinstance(event, JanKenStarted):
            return f"  Jan Ken: {', '.join(names[f] for f in event.fighters)}"
        if isinstance(event, JanKenRound):
            signs = ", ".join(f"{names[s.fighter]} {s.sign.value}" for s in event.signs)
            return f"  Jan Ken round {event.round}: {signs}"
        if isinstance(event, JanKenWon):
            return f"  {names[event.winner]} wins the Jan Ken"
        if isinstance(event, BoutWon):
            return f"== {names[event.winner]} takes the bout ({event.cards_taken} cards, {event.reason.value.replace('_', ' ')})"
        if isinstance(event, FighterOut):
            return f"{names[event.fighter]} is OUT"
        if isinstance(event, Reentered):
            return f"{names[event.fighter]} is back in the fight"
        if isinstance(event, KarateMaster):
            return f"*** {names[event.fighter]} IS KARATE MASTER ***"
        if isinstance(event, TimeUp):
            piles = ", ".join(f"{names[f]} {n}" for f, n in enumerate(event.piles))
            return f"TIME! piles: {piles}" + (" (the Hit on the table is void)" if event.hit_void else "")
        if isinstance(event, FightWon):
            return f"*** {names[event.fighter]} WINS ON TIME ({self.endings[event.reason]}) ***"
        return None
