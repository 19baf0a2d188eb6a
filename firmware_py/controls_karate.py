"""Karate Fight at the cabinet: button A plays the top card when it is your turn, the slap
pad answers Hits (judged by stamp, after the settle window), A/B/C throw rock, paper or
scissors in a Jan Ken; the LED bar shows each fighter's share of the cards in play."""

from __future__ import annotations

import random
from enum import Enum
from itertools import groupby
from typing import ClassVar

from firmware_py.controls import GameControls, OptionItem, Record, Refusal
from firmware_py.controls_registry import register
from games.karate_fight import (
    SPEC,
    BoutWon,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    FighterOut,
    FighterStatus,
    FightWon,
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
from games.protocol import Action, Event
from hal.events import Button

SIGN_BUTTONS = {Button.A: Sign.ROCK, Button.B: Sign.PAPER, Button.C: Sign.SCISSORS}


def card_name(kind) -> str:
    return kind.value.replace("_", " ").title()


def hit_name(kind) -> str:
    return kind.value.replace("_", " ").title()


class KarateControls(GameControls[KarateFight]):
    spec = SPEC
    engine_type = KarateFight
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
        self._time_checked_for: int | None = None

    def make_options(self, values: dict) -> KarateOptions:
        return KarateOptions(**values)

    def on_button(self, engine: KarateFight, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        jan_ken = engine.public_view().jan_ken
        if jan_ken is not None:
            if button in SIGN_BUTTONS and seat in jan_ken.remaining:
                return Throw(seat, SIGN_BUTTONS[button])
            return None
        if button is Button.A:
            return PlayTop(seat, t_us)
        return None

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

    def bot_slap_delay(self, engine: KarateFight, seat: int, rng: random.Random) -> int | None:
        """Bots slap a showing Hit after a human reaction time, and now and then lose
        their nerve and slap at nothing (a Coward's Blow)."""
        v = engine.public_view()
        if v.jan_ken is not None or v.winner is not None or v.fighters[seat].status is FighterStatus.OUT:
            return None
        if v.hit_showing is not None and not v.awaiting_reveal:
            return rng.randrange(180_000, 420_000)
        if rng.random() < 0.002:
            return rng.randrange(0, 100_000)
        return None

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

    def callout(self, event: Event) -> str | None:
        """The card's name as it lands (the rulebook: declare it, louder is better)."""
        if isinstance(event, CardPlayed):
            return event.kind.value
        if isinstance(event, HitShowing):
            return "hit"
        if isinstance(event, CowardsBlow):
            return "cowards_blow"
        if isinstance(event, KarateMaster):
            return "karate_master"
        if isinstance(event, TimeUp):
            return "time_up"
        return None

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


register(KarateControls)
