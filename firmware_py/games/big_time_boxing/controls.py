"""Big Time Boxing at the cabinet.

On your turn A–D throw the card in that slot of your hand (your token moves itself to
where the punch is thrown from); E then a card Moves Away (E twice: keep the card face
down for later, with that optional rule); F then a card Clinches at Round Energy 1–2 or
Covers Up at 0 (F again steps on to an Attribute card you may play now, START plays it).
When a window opens for you — defend the punch thrown at you, add a combo punch, escape
the ropes or the corner, defend a punch there — A–D answer with that card and START lets
it go on.  A card saved for later is START on your turn and E in a window.

Windows are timed here, not in the engine: each stays open for the fight's ``answer_us``
and the cabinet closes it with :class:`WindowClosed` when the time is up.  It never
closes sooner because the answering boxer holds no card for it (the other boxer would
learn what is in the hand): only his own choice ends it early.  The LED bar is Round
Energy.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import Any, ClassVar

from display.games.big_time_boxing import screen as btb_screen
from display.games.big_time_boxing.private import Held, Mode, Station
from display.games.big_time_boxing.words import FINISH, INJURY, POSITION, PUNCH, TRAP, card_words
from display.models import AnyPlayScreen, PrivateScreen
from display.words import plural
from firmware_py.runtime.controls import GameControls, OptionItem, Record, Refusal
from games.big_time_boxing import (
    CARDS,
    AttributeChosen,
    AttributeDraw,
    AttributeUsed,
    BigHitDrawn,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    BigTimeBoxingPlayerView,
    ChooseAttribute,
    Clinch,
    Clinched,
    Combo,
    Count,
    CoveredUp,
    CoverUp,
    Defend,
    Defended,
    Escape,
    Escaped,
    FightEnded,
    Finish,
    GotUp,
    Injured,
    KnockedDown,
    MoveAway,
    MovedAway,
    Pass,
    Passed,
    Phase,
    PunchThrown,
    ResultDrawn,
    RoundScored,
    RoundStarted,
    Throw,
    Trapped,
    UseAttribute,
    Warned,
    WindowClosed,
)
from games.big_time_boxing.bot import BoxerBot
from games.levels import Level
from games.protocol import CABINET, Action, Event
from hal.events import Button

SLOT_BUTTONS = (Button.A, Button.B, Button.C, Button.D)
"""One button per card of the hand of four, in hand order."""
SAVED_ON_TURN = Button.START
SAVED_IN_WINDOW = Button.E
"""The card saved for later (an optional rule) is played with START on your turn and
answers a window with E (START there lets the window go)."""


_CARD_ACTIONS = {Mode.MOVE_AWAY: MoveAway, Mode.CLINCH: Clinch, Mode.COVER_UP: CoverUp}


class BigTimeBoxingControls(GameControls[BigTimeBoxing, None, None]):
    blurb = "Boxer cards and a Result deck: Big Hits, the ropes, knockdowns, the judges' cards."
    endings: ClassVar[dict[Enum, str]] = {how: words for how, words in FINISH.items()}
    result_picture = "score-sheet"
    options_menu = (
        OptionItem("Rounds", "rounds", ((4, "4"), (6, "6"), (8, "8"), (10, "10"), (12, "12"))),
        OptionItem(
            "Time to answer",
            "answer_us",
            ((4_000_000, "4 s"), (6_000_000, "6 s"), (8_000_000, "8 s"), (3_000_000, "3 s")),
        ),
        OptionItem("Three knockdowns", "three_knockdown_tko", ((True, "TKO"), (False, "fight on"))),
        OptionItem(
            "Attribute cards",
            "attributes",
            (
                (AttributeDraw.OFF, "Off"),
                (AttributeDraw.CHOSEN, "Chosen"),
                (AttributeDraw.RANDOM, "Random"),
                (AttributeDraw.MIXED, "1 random, 2 chosen"),
            ),
        ),
        OptionItem("Saving for Later", "saving_for_later", ((False, "Off"), (True, "On"))),
        OptionItem("Sketchy Judges", "sketchy_judges", ((False, "Off"), (True, "On"))),
        OptionItem("Shuffle every round", "shuffle_every_round", ((False, "Off"), (True, "On"))),
        OptionItem("Thinky game", "thinky", ((False, "Off"), (True, "On"))),
    )

    def __init__(self) -> None:
        self._held: dict[int, tuple[int, Held]] = {}
        """Seat -> (journal length when chosen, the half-made choice); stale once the
        fight moves on."""
        self._browsing: dict[int, int] = {}
        self._window: tuple[int, int] | None = None
        """(journal length, µs) of the open window: when the cabinet first saw it open."""

    def make_options(self, values: dict[str, Any]) -> BigTimeBoxingOptions:
        return BigTimeBoxingOptions(**values)

    # -- presses -------------------------------------------------------------------------
    def on_button(self, engine: BigTimeBoxing, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        view = engine.view(seat)
        phase = view.public.phase
        if phase is Phase.OVER:
            return None
        if phase is Phase.DRAFT:
            return self._draft(engine, seat, button)
        if seat not in engine.seats_to_act():
            return Refusal(seat, "Wait: the other boxer's move")
        if phase is Phase.TURN:
            return self._turn(engine, view, button)
        return self._answer(engine, view, button)

    def _turn(self, engine: BigTimeBoxing, view: BigTimeBoxingPlayerView, button: Button) -> Action | Refusal | None:
        seat = view.player
        held = self.held(engine, seat)
        if button is Button.E:
            if not any(isinstance(a, MoveAway) for a in engine.legal_actions(seat)):  # Round Energy 0
                return Refusal(seat, "No Move Away at Round Energy 0: F, then a card, to Cover Up")
            self._hold(engine, seat, self._after_e(engine, seat, held))
            return None
        if button is Button.F:
            modes = self.f_modes(engine, seat)
            if not modes:
                return Refusal(seat, "Clinch only at Round Energy 1 or 2")
            self._hold(engine, seat, _next_in(modes, held))
            return None
        if held is not None and held.mode is Mode.ATTRIBUTE:
            if button is Button.START and held.attribute is not None:
                self._hold(engine, seat, None)
                return UseAttribute(seat, held.attribute)
            return Refusal(seat, "START plays the Attribute card, F moves on")
        card = self._card(view, button, on_turn=True)
        if isinstance(card, Refusal):
            return card
        if held is None:
            if view.public.boxers[seat].round_energy == 0:
                return Refusal(seat, "Round Energy 0: F, then a card, to Cover Up")
            action: Action = Throw(seat, card)
            if action not in engine.legal_actions(seat):
                return Refusal(
                    seat, f"Not enough Round Energy ({view.public.boxers[seat].round_energy}) for that punch"
                )
            return action
        if held.mode is Mode.SAVE:
            action = MoveAway(seat, card, save=True)
        else:
            action = _CARD_ACTIONS[held.mode](seat, card)
        if action not in engine.legal_actions(seat):
            return Refusal(seat, "Only a card in your hand can be saved")
        self._hold(engine, seat, None)
        return action

    def _after_e(self, engine: BigTimeBoxing, seat: int, held: Held | None) -> Held | None:
        """E: Move Away; E again: save the card for later (when allowed); again: cancel."""
        if held is None or held.mode not in (Mode.MOVE_AWAY, Mode.SAVE):
            return Held(Mode.MOVE_AWAY)
        may_save = any(isinstance(a, MoveAway) and a.save for a in engine.legal_actions(seat))
        return Held(Mode.SAVE) if held.mode is Mode.MOVE_AWAY and may_save else None

    def f_modes(self, engine: BigTimeBoxing, seat: int) -> list[Held]:
        """What F offers now, in the order F steps through them: Clinch (Round Energy 1–2)
        or Cover Up (0), then each Attribute card that may be played now."""
        legal = engine.legal_actions(seat)
        modes = []
        if any(isinstance(a, CoverUp) for a in legal):
            modes.append(Held(Mode.COVER_UP))
        if any(isinstance(a, Clinch) for a in legal):
            modes.append(Held(Mode.CLINCH))
        modes += [Held(Mode.ATTRIBUTE, a.attribute) for a in legal if isinstance(a, UseAttribute)]
        return modes

    def _answer(self, engine: BigTimeBoxing, view: BigTimeBoxingPlayerView, button: Button) -> Action | Refusal | None:
        seat, pub = view.player, view.public
        if button is Button.START:
            return Pass(seat)
        if button is Button.F:
            return Refusal(seat, "A–D answer with a card, START lets it go on")
        card = self._card(view, button, on_turn=False)
        if isinstance(card, Refusal):
            return card
        action: Action
        if pub.phase is Phase.COMBO:
            action, why = Combo(seat, card), f"That card does not combine with the {PUNCH[pub.thrown[0].punch]}"
        elif pub.phase is Phase.ESCAPE:
            action, why = Escape(seat, card), f"That card cannot escape {TRAP[pub.trap]}" if pub.trap else ""
        else:
            punch = PUNCH[pub.window_punch] if pub.window_punch else "punch"
            action, why = Defend(seat, card), f"That card cannot defend a {punch}"
        return action if action in engine.legal_actions(seat) else Refusal(seat, why)

    def _card(self, view: BigTimeBoxingPlayerView, button: Button, on_turn: bool) -> int | Refusal:
        """The card a button names: a slot of the hand, or the card saved for later."""
        if button in SLOT_BUTTONS:
            slot = SLOT_BUTTONS.index(button)
            return view.hand[slot] if slot < len(view.hand) else Refusal(view.player, "No card on that button")
        if button is (SAVED_ON_TURN if on_turn else SAVED_IN_WINDOW):
            if view.saved is None and not view.public.options.saving_for_later:
                words = "A–D throw, E Move Away, F Clinch" if on_turn else "A–D answer, START lets it go on"
                return Refusal(view.player, words)
            if view.saved is None:
                return Refusal(view.player, "No card saved for later")
            if not view.saved_playable:
                return Refusal(view.player, "A saved card plays from the next round")
            return view.saved
        return Refusal(view.player, "A–D play a card")

    def _draft(self, engine: BigTimeBoxing, seat: int, button: Button) -> Action | Refusal | None:
        choices = [a.attribute for a in engine.legal_actions(seat) if isinstance(a, ChooseAttribute)]
        if not choices:
            return Refusal(seat, "The other boxer picks now")
        at = choices.index(self.browsing(engine, seat))
        if button is Button.START:
            return ChooseAttribute(seat, choices[at])
        if button in (Button.A, Button.B):
            self._browsing[seat] = choices[(at + (1 if button is Button.B else -1)) % len(choices)]
            return None
        return Refusal(seat, "A/B browse the Attribute cards, START picks")

    # -- what the controls hold ------------------------------------------------------------
    def held(self, engine: BigTimeBoxing, seat: int) -> Held | None:
        """The half-made choice of ``seat`` (None once the fight has moved on)."""
        entry = self._held.get(seat)
        return entry[1] if entry is not None and entry[0] == len(engine.journal) else None

    def _hold(self, engine: BigTimeBoxing, seat: int, held: Held | None) -> None:
        if held is None:
            self._held.pop(seat, None)
        else:
            self._held[seat] = (len(engine.journal), held)

    def browsing(self, engine: BigTimeBoxing, seat: int) -> int:
        """The Attribute card under ``seat``'s cursor in the draft (the first still free
        if the cursor's card is gone)."""
        choices = [a.attribute for a in engine.legal_actions(seat) if isinstance(a, ChooseAttribute)]
        current = self._browsing.get(seat)
        return current if current in choices else choices[0]

    def private_screen(self, engine: BigTimeBoxing, seat: int) -> PrivateScreen[BigTimeBoxingPlayerView]:
        """The seat's view, with what his station holds: the cards whose button does
        something now, a half-made choice, the draft's cursor."""
        screen = super().private_screen(engine, seat)
        pub = screen.view.public
        live = frozenset(a.card for a in engine.legal_actions(seat) if isinstance(a, (Throw, Defend, Combo, Escape)))
        browsing = self.browsing(engine, seat) if pub.phase is Phase.DRAFT and pub.drafting == seat else None
        return replace(screen, held=(Station(live, self.held(engine, seat), browsing),))

    # -- the clock: windows close when their time is up ----------------------------------
    def on_clock(self, engine: BigTimeBoxing, now_us: int) -> Action | None:
        """:class:`WindowClosed` once the open window has been open ``answer_us``.  A window
        is timed from the step its action was applied in (a press's, or the closing of
        the window before it); nothing about the answering boxer's hand shortens it."""
        if CABINET not in engine.to_act():
            self._window = None
            return None
        key = len(engine.journal)
        if self._window is None or self._window[0] != key:
            self._window = (key, now_us)
        if now_us - self._window[1] >= engine.options.answer_us:
            self._window = (key + 1, now_us)  # a window this closing opens is timed from now
            return WindowClosed()
        return None

    # -- outputs -----------------------------------------------------------------------------
    def led_level(self, engine: BigTimeBoxing, seat: int) -> float:
        """Round Energy, on the scale of the fight's starting energy: a full bar at the
        first bell, shorter bars in later rounds as Fight Energy drains."""
        energy = engine.public_view().boxers[seat].round_energy
        return min(1.0, energy / engine.options.starting_energy)

    def make_bot(self, level: Level, seed: int) -> BoxerBot:
        """The computer boxer at ``level``: it decides from its boxer's view alone, and the
        cabinet's think time before its presses is drawn without looking at its hand."""
        return BoxerBot(seed, level)

    def bot_presses(self, engine: BigTimeBoxing, seat: int, action: Action) -> tuple[Button, ...]:
        view = engine.view(seat)
        if isinstance(action, Pass):
            return (Button.START,)
        if isinstance(action, ChooseAttribute):
            choices = [a.attribute for a in engine.legal_actions(seat) if isinstance(a, ChooseAttribute)]
            steps = (choices.index(action.attribute) - choices.index(self.browsing(engine, seat))) % len(choices)
            return (*(Button.B,) * steps, Button.START)
        if isinstance(action, UseAttribute):
            modes = self.f_modes(engine, seat)
            return (*(Button.F,) * (modes.index(Held(Mode.ATTRIBUTE, action.attribute)) + 1), Button.START)
        if isinstance(action, (Throw, MoveAway, Clinch, CoverUp)):
            card = SAVED_ON_TURN if action.card not in view.hand else SLOT_BUTTONS[view.hand.index(action.card)]
            if isinstance(action, MoveAway):
                return (Button.E, Button.E, card) if action.save else (Button.E, card)
            if isinstance(action, (Clinch, CoverUp)):
                return (Button.F, card)
            return (card,)
        if isinstance(action, (Defend, Combo, Escape)):
            return (SAVED_IN_WINDOW if action.card not in view.hand else SLOT_BUTTONS[view.hand.index(action.card)],)
        raise TypeError(f"no presses for {action!r}")

    def records(self, events: tuple[Event, ...], seats: tuple[int, ...]) -> list[Record]:
        """Each boxer's round-score as each round is scored, every knockdown, the finish."""
        out = []
        for ev in events:
            if isinstance(ev, RoundScored):
                for seat in (0, 1):
                    detail = (
                        f"round {ev.round}: {ev.judge_points[seat]} Judge Points + "
                        f"{ev.damage_caused[seat]} damage caused = {ev.totals[seat]}"
                    )
                    out.append(Record("round_score", seat, ev.scores[seat], detail))
            elif isinstance(ev, KnockedDown):
                out.append(Record("knockdown", ev.player, ev.knockdowns, ""))
            elif isinstance(ev, FightEnded):
                out.append(Record("fight", ev.winner, None, ev.finish.value))
        return out

    def told_by(self, screen: AnyPlayScreen) -> int | None:
        return btb_screen.told_by(screen)

    def result_lines(self, engine: BigTimeBoxing, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        v = engine.public_view()
        outcome = engine.outcome()
        if outcome is None:
            return "NO RESULT", ()
        how = FINISH[outcome.how] if isinstance(outcome.how, Finish) else str(outcome.how)
        headline = "A DRAW" if outcome.winner is None else f"{names[outcome.winner].upper()} WINS"
        cards = outcome.score
        lines = [
            how[0].upper() + how[1:],
            f"Scorecards  {names[0]} {cards[0]} – {cards[1]} {names[1]}",
            f"{len(v.scorecard)} of {v.options.rounds} rounds scored",
        ]
        for seat in (0, 1):
            b = v.boxers[seat]
            hurt = ", ".join(INJURY[i] for i in b.injuries) or "no injuries"
            downs = plural(b.knockdowns, "knockdown") if b.knockdowns else "no knockdowns"
            lines.append(f"{names[seat]}: {downs}, {hurt}")
        return headline, tuple(lines)

    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        def who(seat: int | None) -> str:
            return names[seat] if seat is not None else "nobody"

        if isinstance(event, RoundStarted):
            return f"-- Round {event.round}: {who(event.first_player)} goes first"
        if isinstance(event, PunchThrown):
            combo = " (combo)" if event.combo else ""
            return f"{who(event.player)} throws {card_words(event.card)}{combo} [{event.column.value}]"
        if isinstance(event, Defended):
            return f"  {who(event.player)} defends with {card_words(event.card)}"
        if isinstance(event, Passed) and event.timed_out:
            return f"  {who(event.player)}'s time ran out"
        if isinstance(event, ResultDrawn):
            return f"  lands: {event.value} damage"
        if isinstance(event, BigHitDrawn):
            ignored = " (ignored)" if event.ignored else ""
            return f"  BIG HIT: {event.big_hit.value.replace('_', ' ')}{ignored}"
        if isinstance(event, Trapped):
            return f"  {who(event.player)} is {POSITION[event.trap.position]}!"
        if isinstance(event, Escaped):
            return f"  {who(event.player)} escapes"
        if isinstance(event, Injured):
            return f"  {who(event.player)}: {INJURY[event.injury]}"
        if isinstance(event, KnockedDown):
            return f"  KNOCKDOWN! {who(event.player)} is down ({event.knockdowns})"
        if isinstance(event, Count):
            return "  ...gets up (heart)" if event.heart else "  ...no heart: the count reaches ten"
        if isinstance(event, GotUp) and event.by_attribute:
            return f"  {who(event.player)} gets up on Heart of a Champion"
        if isinstance(event, MovedAway):
            return f"{who(event.player)} moves away" + (" (saves a card)" if event.saved else "")
        if isinstance(event, Clinched):
            return f"{who(event.player)} clinches"
        if isinstance(event, CoveredUp):
            return f"{who(event.player)} covers up"
        if isinstance(event, Warned):
            return f"  {who(event.player)}: {'FOUL' if event.foul else 'warning'}"
        if isinstance(event, AttributeChosen):
            return f"{who(event.player)} takes {CARDS.attributes[event.attribute].name}"
        if isinstance(event, AttributeUsed):
            return f"  {who(event.player)}: {CARDS.attributes[event.attribute].name}"
        if isinstance(event, RoundScored):
            return (
                f"== Round {event.round}: {names[0]} {event.scores[0]} – {event.scores[1]} {names[1]} "
                f"(totals {event.totals[0]}-{event.totals[1]})"
            )
        if isinstance(event, FightEnded):
            return f"*** {'DRAW' if event.winner is None else who(event.winner) + ' WINS'} {FINISH[event.finish]} ***"
        return None


def _next_in(modes: list[Held], held: Held | None) -> Held | None:
    """F steps through what it offers, then back to nothing."""
    if held is None or held not in modes:
        return modes[0]
    at = modes.index(held) + 1
    return modes[at] if at < len(modes) else None
