"""Punch! at the cabinet: A–F lay one card kind each (Punch 1, 2, 3, Do Nothing, Block,
Dodge), START answers the re-deal offer and confirms a draft; the LED bar is stamina."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import Any, ClassVar

from display.games.punch import screen as punch_screen
from display.games.punch.result import PunchStory
from display.models import AnyPlayScreen, PrivateScreen
from firmware_py.games.punch.story import punch_story
from firmware_py.runtime.controls import GameControls, OptionItem, Record, Refusal, ResultRecords, journal_events
from games.levels import Level
from games.protocol import Action, Event
from games.punch import Card, Phase, Punch, PunchOptions, PunchPlayerView, Rules
from games.punch.actions import Draft, PlayCard, Redeal
from games.punch.cards import CARDS, HAND_SIZE
from games.punch.events import (
    Break,
    CardsRevealed,
    GameEnded,
    GameEndReason,
    Knockout,
    MatchEnded,
    Redealt,
    RoundStarted,
    StaminaChanged,
)
from games.punch.levels import ComputerBoxer
from hal.events import ACTION_BUTTONS, Button


class PunchControls(GameControls[Punch, None, PunchStory]):
    blurb = "Two boxers, secret cards, three rounds: bluff, block, knock out."
    endings: ClassVar[dict[Enum, str]] = {
        GameEndReason.MATCH_WINS: "most matches"
    }  # not "won on matches" after a stamina win
    options_menu = (
        OptionItem("Hands", "rules", ((Rules.STANDARD, "Dealt"), (Rules.ADVANCED, "Drafted"))),
        OptionItem("No Mercy", "no_mercy", ((False, "Off"), (True, "On"))),
        OptionItem("Match wins needed", "matches_to_win", ((3, "3"), (1, "1"), (2, "2"))),
    )

    def __init__(self) -> None:
        self.picks: dict[int, list[Card]] = {0: [], 1: []}

    def make_options(self, values: dict[str, Any]) -> PunchOptions:
        return PunchOptions(**values)

    def on_button(self, engine: Punch, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        phase = engine.public_view().phase
        if phase is Phase.EXCHANGE and button in ACTION_BUTTONS:
            return PlayCard(seat, CARDS[ACTION_BUTTONS.index(button)])
        if phase is Phase.REDEAL and button in (Button.A, Button.START):
            return Redeal(seat, button is Button.A)
        if phase is Phase.DRAFT:
            return self._draft(engine, seat, button)
        return None

    def _draft(self, engine: Punch, seat: int, button: Button) -> Action | Refusal | None:
        view = engine.view(seat)
        if view.draft_pool is None:
            return Refusal(seat, "Hand drafted: wait")
        picks = self.picks[seat]
        if button is Button.START:
            if len(picks) == HAND_SIZE:
                hand, self.picks[seat] = tuple(picks), []
                return Draft(seat, hand)
            if picks:
                picks.pop()
            return None
        card = CARDS[ACTION_BUTTONS.index(button)]
        if len(picks) >= HAND_SIZE:
            return Refusal(seat, "10 picked: START to confirm")
        if picks.count(card) >= view.draft_pool[card.index]:
            return Refusal(seat, f"No {card.label} left")
        picks.append(card)
        return None

    def make_bot(self, level: Level, seed: int) -> ComputerBoxer:
        return ComputerBoxer(level, seed)

    def led_level(self, engine: Punch, seat: int) -> float:
        return engine.public_view().stamina[seat] / 10

    def private_screen(self, engine: Punch, seat: int) -> PrivateScreen[PunchPlayerView]:
        return replace(super().private_screen(engine, seat), held=tuple(self.picks[seat]))

    def bot_presses(self, engine: Punch, seat: int, action: Action) -> tuple[Button, ...]:
        if isinstance(action, PlayCard):
            return (ACTION_BUTTONS[action.card.index],)
        if isinstance(action, Redeal):
            return (Button.A if action.redeal else Button.START,)
        if isinstance(action, Draft):
            return (*(ACTION_BUTTONS[c.index] for c in action.hand), Button.START)
        raise TypeError(f"no presses for {action!r}")

    def records(self, events: tuple[Event, ...], seats: tuple[int, ...]) -> list[Record]:
        return [Record("match", ev.winner, None, ev.reason.value) for ev in events if isinstance(ev, MatchEnded)]

    def told_by(self, screen: AnyPlayScreen) -> int | None:
        return punch_screen.told_by(screen)

    def result_story(self, engine: Punch, records: ResultRecords) -> PunchStory:
        return punch_story(journal_events(engine))

    def result_lines(self, engine: Punch, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        v = engine.public_view()
        outcome = engine.outcome()
        headline = f"{names[outcome.winner].upper()} WINS!" if outcome and outcome.winner is not None else "NO WINNER"
        lines = (
            f"Matches  {names[0]} {v.match_wins[0]} – {v.match_wins[1]} {names[1]}",
            f"{v.match} match{'' if v.match == 1 else 'es'} fought",
        )
        return headline, lines

    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        if isinstance(event, CardsRevealed):
            return f"{names[0]}: {event.cards[0].label}  vs  {names[1]}: {event.cards[1].label}"
        if isinstance(event, StaminaChanged) and event.delta:
            sign = f"+{event.delta}" if event.delta > 0 else str(event.delta)
            return f"  {names[event.player]} {event.cause.value.replace('_', ' ')} {sign} -> stamina {event.stamina}"
        if isinstance(event, Knockout):
            return f"KNOCKOUT! {names[event.player]} is down"
        if isinstance(event, RoundStarted):
            return f"-- Round {event.round}"
        if isinstance(event, Break):
            return f"-- Break after round {event.after_round}: +{event.rest} stamina"
        if isinstance(event, Redealt):
            return f"{names[event.player]} shows {len(event.shown)} alike and re-deals"
        if isinstance(event, MatchEnded):
            if event.winner is None:
                return f"== Match drawn {event.stamina[0]}-{event.stamina[1]}: it is fought again"
            return (
                f"== {names[event.winner]} wins the match by {event.reason.value} "
                f"(matches {event.match_wins[0]}-{event.match_wins[1]})"
            )
        if isinstance(event, GameEnded):
            return f"*** {names[event.winner]} WINS THE GAME ***"
        return None
