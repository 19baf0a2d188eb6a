"""Punch Cards at the cabinet: which button does what in a duel, and the game's way in.

In a duel: the challenged answers with A (accept) or B (refuse, only where the challenge
rule allows it); to stake, A/B browse one's collection and START stakes the card shown;
A–D pick the corner (top left, top right, bottom left, bottom right); A calls High, B
Low, C Both.  Punch Cards is not a select → join → play game: after the select screen
its lobby (``punch_cards_lobby``) signs players in with a name and PIN, and the duel,
trade and practice tables are its own scenes; its attract board is the leaderboard and
it adds the operator's items (closing time, voids, export) to the service menu.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, ClassVar

from display.games.punch_cards.models import DuelPrivate
from firmware_py.games.punch_cards.settings import PunchCardsSettings, read_settings
from firmware_py.runtime.controls import GameControls, Refusal
from games.protocol import Action, Event
from games.punch_cards import (
    CORNERS,
    Answer,
    Call,
    CallIt,
    ChallengeAnswered,
    DuelEnd,
    DuelWon,
    Phase,
    PickCorner,
    PunchCardsDuel,
    Revealed,
    Stake,
    StakesShown,
)
from hal.config import TableReader
from hal.events import Button

CORNER_BUTTONS = (Button.A, Button.B, Button.C, Button.D)
CALL_BUTTONS = {Button.A: Call.HIGH, Button.B: Call.LOW, Button.C: Call.BOTH}


class PunchCardsControls(GameControls[PunchCardsDuel, None, None]):
    blurb = "Duel anyone at the con for their cards: collect the most names."
    resumes = False  # a duel's result must reach the ledger from the scene that holds the players
    endings: ClassVar[dict[Enum, str]] = {
        DuelEnd.HIGH: "High",
        DuelEnd.LOW: "Low",
        DuelEnd.BOTH: "Both ways",
        DuelEnd.BOTH_FAILED: "a failed Both",
        DuelEnd.REFUSED: "challenge refused",
    }

    @classmethod
    def read_settings(cls, table: Mapping[str, Any], reader: TableReader) -> PunchCardsSettings:
        return read_settings(table, reader)

    def __init__(self) -> None:
        self.cursor: dict[int, int] = {0: 0, 1: 0}
        """Index into each duellist's collection of the card shown while staking."""

    # -- a duel ---------------------------------------------------------------------------
    def on_button(self, engine: PunchCardsDuel, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        phase = engine.phase
        if phase is Phase.ANSWER:
            if seat != 1:
                return Refusal(seat, "waiting for your rival to answer")
            if button in (Button.A, Button.B):
                return Answer(seat, button is Button.A)
        elif phase is Phase.STAKE:
            cards = engine.collections[seat]
            if button in (Button.A, Button.B):
                self.cursor[seat] = (self.cursor[seat] + (1 if button is Button.B else -1)) % len(cards)
                return None
            if button is Button.START:
                return Stake(seat, cards[self.cursor[seat] % len(cards)].serial)
        elif phase is Phase.CORNER and button in CORNER_BUTTONS:
            return PickCorner(seat, CORNERS[CORNER_BUTTONS.index(button)])
        elif phase is Phase.CALL and button in CALL_BUTTONS:
            return CallIt(seat, CALL_BUTTONS[button])
        return None

    def led_level(self, engine: PunchCardsDuel, seat: int) -> float:
        """Lit while the duel waits for this duellist's choice."""
        return 1.0 if seat in engine.to_act() else 0.0

    def private_screen(self, engine: PunchCardsDuel, seat: int) -> Any:
        from display.models import PrivateScreen

        return PrivateScreen(
            game=self.spec.name,
            seat=seat,
            view=DuelPrivate(view=engine.view(seat), cursor=self.cursor[seat], result="", waiting=""),
            to_act=seat in engine.to_act(),
        )

    def bot_presses(self, engine: PunchCardsDuel, seat: int, action: Action) -> tuple[Button, ...]:
        if isinstance(action, Answer):
            return (Button.A if action.accept else Button.B,)
        if isinstance(action, Stake):
            serials = [c.serial for c in engine.collections[seat]]
            steps = (serials.index(action.serial) - self.cursor[seat]) % len(serials)
            return (Button.B,) * steps + (Button.START,)
        if isinstance(action, PickCorner):
            return (CORNER_BUTTONS[CORNERS.index(action.corner)],)
        if isinstance(action, CallIt):
            return (next(b for b, c in CALL_BUTTONS.items() if c is action.call),)
        return ()

    def result_lines(self, engine: PunchCardsDuel, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        outcome = engine.outcome()
        if outcome is None or outcome.winner is None:
            return "Challenge refused", (f"{names[1]} refused {names[0]}'s challenge: no card moves",)
        taken = engine.taken
        assert taken is not None
        return (
            f"{names[outcome.winner].upper()} WINS!",
            (f"{names[outcome.winner]} takes card #{taken.serial} ({taken.name})", f"by {self.endings[outcome.how]}"),
        )

    def practice_lines(self, engine: PunchCardsDuel, names: tuple[str, ...]) -> tuple[str, ...]:
        """A practice duel's result: who won and how, and that no card moves (the
        computer's packet is nobody's, so no serial of it is named)."""
        outcome = engine.outcome()
        assert outcome is not None and outcome.winner is not None  # the computer never refuses
        return (
            f"PRACTICE: {names[outcome.winner].upper()} WINS!",
            f"{names[outcome.winner]} won by {self.endings[outcome.how]}",
            "Practice: no card moves, nothing is recorded",
        )

    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        if isinstance(event, ChallengeAnswered):
            return f"{names[1]} {'accepts' if event.accepted else 'refuses'} the challenge"
        if isinstance(event, StakesShown):
            return f"stakes: {names[0]} card #{event.serials[0]}, {names[1]} card #{event.serials[1]}"
        if isinstance(event, Revealed):
            calls = " v ".join(c.value for c in event.calls)
            again = f": play again ({event.again.value})" if event.again is not None else ""
            return f"reveal {event.play}: {event.numbers[0]} v {event.numbers[1]}, {calls}{again}"
        if isinstance(event, DuelWon):
            return f"{names[event.winner]} wins ({event.how.value}), takes card #{event.taken}"
        return None
