"""Punch Cards' lobby: a desk per station where a player signs in (name, then PIN) or
registers (name, PIN, PIN again: a packet of five cards), and from where signed-in
players challenge each other, trade, practise against the computer or re-enter.

Every ledger call is made here or in the tables it opens, off the main loop (the link's
worker): the desk says what it waits for ("Checking PIN...") and takes no press until the
answer comes on a later frame; a ledger that cannot be reached or does not answer is said
on screen and nothing starts.  The lobby stays signed in while its
players duel and trade; left untouched for a minute it signs everyone out (attract).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from PIL import Image

from display.games.punch_cards.glyphs import undrawable
from display.games.punch_cards.models import DeskPrivate, DeskStep, DeskView, LobbyView, PunchCardsPlay
from display.models import PrivateScreen
from display.private import draw_private
from firmware_py.games.punch_cards.duel import DuelScene
from firmware_py.games.punch_cards.keyboard import NameKeyboard, PinPad
from firmware_py.games.punch_cards.ledger import (
    Ledger,
    LedgerClosed,
    LedgerError,
    PinLocked,
    Receipt,
    UnknownPlayer,
    WrongPin,
)
from firmware_py.games.punch_cards.ledger_link import LedgerLink, headline, link_for, new_key, passing, state_of, words
from firmware_py.games.punch_cards.trade import TradeScene
from firmware_py.runtime.background import Job, NoAnswer
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, pressed
from games.punch_cards import SPEC, Card, DuelOptions, NameRefused, name_key, normalise_name, points
from hal.events import Button, ButtonEvent, InputEvent, TypedEvent

PIN_STEPS = (DeskStep.PIN, DeskStep.NEW_PIN, DeskStep.REPEAT_PIN)
LEDGER_NOT_ANSWERING = "The ledger is not answering: duels are not recorded"
"""The lobby's title bar while the ledger cannot be read (the error, with the server's
address, goes to the log)."""
CLOSED_AT_THE_DESK = "The event has closed: no new players. Players may sign in to see their cards"
T = TypeVar("T")
Failed = (LedgerError, NoAnswer)
"""What a ledger job's result may raise for the desk to say."""


def known_player(ledger: Ledger, name: str) -> bool:
    try:
        ledger.collection(name)
    except UnknownPlayer:
        return False
    return True


def sign_in(ledger: Ledger, name: str, pin: str) -> tuple[str, tuple[Card, ...]]:
    """The registered name and cards of ``name`` if ``pin`` is theirs (one job: the PIN's
    slow hash and the reads, all off the loop)."""
    official = ledger.sign_in(name, pin)
    return official, ledger.collection(official)


def register(ledger: Ledger, key: str, name: str, pin: str) -> tuple[Receipt, tuple[Card, ...]]:
    receipt = ledger.register(key, name, pin)
    return receipt, ledger.collection(name)


def reenter(ledger: Ledger, key: str, name: str) -> tuple[Card, ...]:
    ledger.reenter(key, name)
    return ledger.collection(name)


def closing_words(closing: int | str | None, wall_us: int) -> str:
    """The event's state for the lobby's title bar (``wall_us``: the ledger's time now)."""
    if isinstance(closing, str):
        return headline(closing)
    if closing is None:
        return ""
    if closing <= wall_us:
        return "CLOSED: no new players, duels or trades"
    return "closes at " + time.strftime("%a %H:%M", time.localtime(closing / 1e6))


@dataclass
class Desk:
    station: int
    step: DeskStep = DeskStep.IDLE
    keyboard: NameKeyboard | None = None
    pad: PinPad | None = None
    name: str = ""
    """The name being signed in, or the signed-in player's registered name."""
    first_pin: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    """Idempotency keys of writes being retried (a registration, a re-entry)."""
    cards: tuple[Card, ...] = ()
    message: str = ""
    bad: bool = False
    job: Job[Any] | None = None
    """A ledger call this desk waits for (no press counts meanwhile), and what then."""
    then: Callable[[Job[Any], int], Scene | None] | None = None
    reading: Job[tuple[Card, ...]] | None = None
    """The signed-in player's cards being read again (presses still count)."""

    @property
    def signed_in(self) -> bool:
        return self.step is DeskStep.MENU

    def say(self, message: str, bad: bool = False) -> None:
        self.message, self.bad = message, bad

    def reset(self) -> None:
        self.step, self.keyboard, self.pad, self.name, self.first_pin, self.cards = (
            DeskStep.IDLE,
            None,
            None,
            "",
            "",
            (),
        )
        self.keys.clear()
        self.job = self.then = self.reading = None


class Lobby(Scene):
    def __init__(self, ctx: CabinetContext, now_us: int, host: int) -> None:
        super().__init__(ctx, now_us)
        self.link: LedgerLink = link_for(ctx)
        self.desks = [Desk(s) for s in range(len(ctx.looks))]
        self._said = ""
        self.typist = host
        """The station that last pressed a button while entering a name: a USB keyboard
        types there."""
        self.now_us = now_us
        """The latest time the cabinet gave this scene (input, tick or frame)."""
        self._to_name(self.desks[host])
        ctx.log("Punch Cards lobby: sign in or register")

    def sound_cues(self, now_us: int) -> tuple[str, ...]:
        """The closing time passing while the lobby is open rings its cue once (not when
        the cabinet starts after it: the lobby already says the event has closed)."""
        closing = self.link.closing(now_us)
        closed = isinstance(closing, int) and closing <= self.link.wall_us()
        state = state_of(self.ctx)
        self.ctx.game_state[SPEC.name] = replace(state, closing_heard=closed)
        return ("closing_time",) if closed and state.closing_heard is False else ()

    # -- coming back from a table ------------------------------------------------------
    def back(self, now_us: int, messages: dict[int, tuple[str, bool]]) -> Lobby:
        """Return here after a duel, trade or practice, with a word for each station."""
        self.last_input_us = now_us
        self.now_us = max(self.now_us, now_us)
        self.link.changed()
        for desk in self.desks:
            if desk.signed_in:
                self._refresh(desk)
            if desk.station in messages:
                desk.say(*messages[desk.station])
        return self

    # -- the ledger, off the loop ----------------------------------------------------------
    def _ask(
        self,
        desk: Desk,
        waiting: str,
        what: str,
        work: Callable[[Ledger], T],
        then: Callable[[Job[T], int], Scene | None],
    ) -> None:
        """Give ``work`` to the ledger's worker; the desk says ``waiting`` and takes no
        press until ``then`` reads the answer (on a later frame)."""
        desk.job, desk.then = self.link.call(what, work), then
        desk.say(waiting)

    def tick(self, now_us: int) -> Scene | None:
        self.now_us = max(self.now_us, now_us)
        for desk in self.desks:
            reading = desk.reading
            if reading is not None and reading.ready():
                desk.reading = None
                try:
                    desk.cards = reading.result()
                except Failed as e:
                    self._trouble(desk, e, "Cards not read")
            job, then = desk.job, desk.then
            if job is not None and then is not None and job.ready():
                desk.job = desk.then = None
                nxt = then(job, now_us)
                if nxt is not None:
                    return nxt
        return None

    def _trouble(self, desk: Desk, e: BaseException, doing: str, hint: str = "") -> None:
        """Say what went wrong in plain words (the details go to the log)."""
        self.ctx.log(f"Punch Cards at {self.ctx.looks[desk.station].name}: {doing}: {e}")
        if passing(e):
            desk.say(f"{doing}: {words(e)}" if doing else words(e), bad=True)
        else:
            desk.say(f"{doing}: {words(e)}{': ' + hint if hint else ''}" if doing else f"{words(e)}: {hint}", bad=True)

    # -- input ---------------------------------------------------------------------------
    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        self.now_us = max(self.now_us, now_us)
        if isinstance(ev, TypedEvent):
            self._typed(ev, now_us)
            return None
        if not pressed(ev) or not isinstance(ev, ButtonEvent) or ev.station >= len(self.desks):
            return None
        desk = self.desks[ev.station]
        if desk.job is not None:
            return None  # waiting for the ledger: the desk says so
        button = ev.button
        if desk.step in (DeskStep.IDLE, DeskStep.NAME):
            self.typist = desk.station
        if desk.step is DeskStep.IDLE:
            if button is Button.START:
                self._to_name(desk)
        elif desk.step is DeskStep.NAME:
            assert desk.keyboard is not None
            if desk.keyboard.press(button):
                self._name_done(desk)
            elif desk.bad:  # a refusal stays up until the next press
                desk.say("Closed: players sign in only" if self._closed_now(now_us) else "Type your name")
        elif desk.step in PIN_STEPS:
            assert desk.pad is not None
            done = desk.pad.press(button)
            if done == "back":
                self._to_name(desk, desk.name)
            elif done == "done":
                self._pin_done(desk, desk.pad.pin)
        else:
            return self._menu(desk, button, now_us)
        return None

    def _typed(self, ev: TypedEvent, now_us: int) -> None:
        """A USB keyboard types into the desk entering a name: the one whose buttons were
        pressed last, else the first (it belongs to no station)."""
        typing = [d for d in self.desks if d.step is DeskStep.NAME and d.keyboard is not None]
        desk = next((d for d in typing if d.station == self.typist), typing[0] if typing else None)
        if desk is None or desk.keyboard is None:
            return
        self.last_input_us = now_us
        if ev.key == "enter":
            self._name_done(desk)
            return
        if ev.key == "backspace":
            desk.keyboard.delete()
        elif ev.text:
            desk.keyboard.type_text("".join(c for c in ev.text if c.isprintable()))
        if desk.bad:
            desk.say("Closed: players sign in only" if self._closed_now(now_us) else "Type your name")

    def _to_name(self, desk: Desk, text: str = "") -> None:
        desk.reset()
        desk.step, desk.keyboard = DeskStep.NAME, NameKeyboard(text)
        if self._closed_now(self.now_us):  # said before anyone types, not after the PIN twice
            desk.say(CLOSED_AT_THE_DESK, bad=True)
        else:
            desk.say("Type your name")

    def _closed_now(self, now_us: int) -> bool:
        """The event has closed, by the closing time the link last read (no ledger call)."""
        closing = self.link.closing(now_us)
        return isinstance(closing, int) and closing <= self.link.wall_us()

    def _name_done(self, desk: Desk) -> None:
        assert desk.keyboard is not None
        if not desk.keyboard.text:
            desk.reset()
            desk.say("")
            return
        try:
            clean = normalise_name(desk.keyboard.text)
        except NameRefused as e:
            desk.say(f"Not a name: {e}", bad=True)
            return
        missing = undrawable(clean)
        if missing:
            desk.say(f"Not a name: the screens cannot draw {' '.join(missing[:3])}", bad=True)
            return
        here = next((d for d in self.desks if d.signed_in and name_key(d.name) == name_key(clean)), None)
        if here is not None:
            desk.say(f"{here.name} is signed in at {self.ctx.looks[here.station].name}", bad=True)
            return
        self._ask(
            desk,
            f"Looking up {clean}...",
            "look up a player",
            lambda ledger: known_player(ledger, clean),
            lambda job, _now: self._looked_up(desk, clean, job),
        )

    def _looked_up(self, desk: Desk, clean: str, job: Job[bool]) -> None:
        try:
            known = job.result()
        except Failed as e:
            self._trouble(desk, e, "", "START to try again")
            return
        if not known and self._closed_now(self.now_us):
            desk.say(CLOSED_AT_THE_DESK, bad=True)
            return
        desk.name, desk.pad = clean, PinPad()
        if known:
            desk.step = DeskStep.PIN
            desk.say(f"PIN for {clean}")
        else:
            desk.step = DeskStep.NEW_PIN
            desk.say(f"New player {clean}: choose a PIN")

    def _pin_done(self, desk: Desk, pin: str) -> None:
        ledger_step = desk.step
        desk.pad = PinPad()
        if ledger_step is DeskStep.NEW_PIN:
            desk.first_pin, desk.step = pin, DeskStep.REPEAT_PIN
            desk.say("Repeat the PIN")
            return
        if ledger_step is DeskStep.REPEAT_PIN:
            if pin != desk.first_pin:
                desk.step = DeskStep.NEW_PIN
                desk.say("The two PINs differ: choose a PIN again", bad=True)
                return
            self._register(desk, pin)
            return
        name = desk.name
        self._ask(
            desk,
            "Checking PIN...",
            "sign in",
            lambda ledger: sign_in(ledger, name, pin),
            lambda job, _now: self._signed_in(desk, job),
        )

    def _signed_in(self, desk: Desk, job: Job[tuple[str, tuple[Card, ...]]]) -> None:
        try:
            official, cards = job.result()
        except WrongPin as e:
            desk.say(f"{str(e)[:1].upper()}{str(e)[1:]}", bad=True)
            return
        except PinLocked as e:  # how long, as the ledger's clock said when it refused
            if e.minutes_left is None:
                desk.say("LOCKED after too many wrong PINs: ask the operator", bad=True)
            else:
                desk.say(f"LOCKED after 5 wrong PINs: try in {e.minutes_left} min", bad=True)
            return
        except Failed as e:
            self._trouble(desk, e, "", "enter the PIN again")
            return
        desk.name, desk.step, desk.cards = official, DeskStep.MENU, cards
        desk.say(f"Signed in: {official}")
        self.ctx.log(f"Punch Cards: {official} signed in at {self.ctx.looks[desk.station].name}")

    def _register(self, desk: Desk, pin: str) -> None:
        key = desk.keys.setdefault("register", new_key("register"))
        name = desk.name
        self._ask(
            desk,
            "Registering...",
            "register",
            lambda ledger: register(ledger, key, name, pin),
            lambda job, _now: self._registered(desk, pin, job),
        )

    def _registered(self, desk: Desk, pin: str, job: Job[tuple[Receipt, tuple[Card, ...]]]) -> None:
        try:
            receipt, cards = job.result()
        except NameRefused as e:
            self._to_name(desk)
            desk.say(f"Not registered: {e}", bad=True)
            return
        except LedgerClosed as e:
            desk.reset()
            desk.say(f"Not registered: {e}", bad=True)
            return
        except Failed as e:  # unreachable, busy, no answer: the same key retries safely
            self.ctx.log(f"Punch Cards: {desk.name} not registered yet: {e}")
            desk.step, desk.first_pin = DeskStep.REPEAT_PIN, pin
            desk.say(f"Not registered yet ({words(e)}): repeat the PIN to try again", bad=True)
            return
        desk.keys.pop("register", None)
        desk.step, desk.cards = DeskStep.MENU, cards
        self.link.changed()
        serials = [m.card for m in receipt.moves]
        desk.say(f"Welcome {desk.name}! Your packet: cards #{min(serials)}-#{max(serials)}")
        self.ctx.log(f"Punch Cards: {desk.name} registered at {self.ctx.looks[desk.station].name}")

    def _refresh(self, desk: Desk) -> None:
        """Read the player's cards again, in the background (presses still count)."""
        if desk.reading is None:
            name = desk.name
            desk.reading = self.link.call("read cards", lambda ledger: ledger.collection(name))

    def rival(self, desk: Desk) -> Desk | None:
        """The other signed-in player, by station order after this one."""
        n = len(self.desks)
        for i in range(1, n):
            other = self.desks[(desk.station + i) % n]
            if other.signed_in:
                return other
        return None

    def _menu(self, desk: Desk, button: Button, now_us: int) -> Scene | None:
        if button is Button.E:
            self.ctx.log(f"Punch Cards: {desk.name} signed out")
            desk.reset()
            desk.say("Signed out")
            return None
        if button is Button.START:
            self._refresh(desk)
            return None
        if button is Button.D:
            self._reenter(desk)
            return None
        if button is Button.C:
            if not desk.cards:
                desk.say("No cards to practise with: D re-enters", bad=True)
                return None
            return DuelScene.practice(self.ctx, now_us, self, desk.station, desk.name, desk.cards)
        if button not in (Button.A, Button.B):
            return None
        rival = self.rival(desk)
        if rival is None:
            desk.say("Your rival signs in at another station first", bad=True)
            return None
        if self._closed():
            desk.say("The event has closed: no more duels or trades", bad=True)
            return None
        if not desk.cards or not rival.cards:
            who = desk if not desk.cards else rival
            desk.say(f"{who.name} has no cards (D re-enters)", bad=True)
            return None
        if button is Button.B:
            return TradeScene(
                self.ctx,
                now_us,
                self,
                (desk.station, rival.station),
                (desk.name, rival.name),
                (desk.cards, rival.cards),
            )
        names = (desk.name, rival.name)
        self._ask(
            desk,
            f"Challenging {rival.name}...",
            "duel options",
            lambda ledger: ledger.duel_options(*names),
            lambda job, now_us: self._duel(desk, rival, names, job, now_us),
        )
        return None

    def _duel(
        self, desk: Desk, rival: Desk, names: tuple[str, str], job: Job[DuelOptions], now_us: int
    ) -> Scene | None:
        try:
            options = job.result()
        except Failed as e:
            self._trouble(desk, e, "No duel")
            return None
        if not (desk.signed_in and rival.signed_in and (desk.name, rival.name) == names):
            desk.say(f"{names[1]} has signed out: no duel", bad=True)
            return None
        desk.say("")
        return DuelScene(self.ctx, now_us, self, (desk.station, rival.station), names, options)

    def _closed(self) -> bool:
        return self.link.closed_now()  # as last read; the write itself refuses a late one

    def _reenter(self, desk: Desk) -> None:
        if desk.cards:
            desk.say("Re-entry is for players with no cards left", bad=True)
            return
        key = desk.keys.setdefault("reenter", new_key("reenter"))
        name = desk.name
        self._ask(
            desk,
            "Re-entering...",
            "re-enter",
            lambda ledger: reenter(ledger, key, name),
            lambda job, _now: self._reentered(desk, job),
        )

    def _reentered(self, desk: Desk, job: Job[tuple[Card, ...]]) -> None:
        try:
            desk.cards = job.result()
        except Failed as e:
            self._trouble(desk, e, "Not re-entered")
            return
        desk.keys.pop("reenter", None)
        self.link.changed()
        desk.say(f"Re-entered: a new packet of {len(desk.cards)} cards")

    # -- outputs -------------------------------------------------------------------------
    def _hints(self, desk: Desk) -> tuple[str, ...]:
        """The buttons' legends, short enough for a private display's 21-character rows."""
        if desk.step is DeskStep.IDLE:
            return ("START: sign in or register",)
        if desk.step is DeskStep.NAME:
            opened = desk.keyboard is not None and desk.keyboard.open is not None
            if opened:
                return ("A-F: the letter", "START: back")
            return ("A-F: a key, then a letter", "E delete  START done")
        if desk.step in PIN_STEPS:
            return ("A-F: PIN letters", "START: OK / undo")
        rival = self.rival(desk)
        duel = f"A duel {rival.name}" if rival else "A duel: no rival yet"
        if desk.cards:
            return (duel, "B trade", "C practice", "E sign out")
        return (duel, "B trade", "D re-enter", "E sign out")

    def _message(self, desk: Desk) -> tuple[str, bool]:
        """What the desk says; an idle desk after the closing time says the event closed
        (before anyone starts typing a name)."""
        if desk.step is DeskStep.IDLE and not desk.message and self._closed_now(self.now_us):
            return CLOSED_AT_THE_DESK, True
        return desk.message, desk.bad

    def _desk_view(self, desk: Desk) -> DeskView:
        kb = desk.keyboard.view() if desk.step is DeskStep.NAME and desk.keyboard else None
        signed = desk.signed_in
        return DeskView(
            look=self.ctx.looks[desk.station],
            step=desk.step,
            player=desk.name,
            keyboard=kb,
            pin_length=len(desk.pad.pin) if desk.pad is not None and desk.step in PIN_STEPS else 0,
            cards=len(desk.cards) if signed else None,
            points=points(c.name for c in desk.cards) if signed else None,
            message=self._message(desk)[0],
            bad=self._message(desk)[1],
            hints=self._hints(desk),
        )

    def screen(self, now_us: int) -> PunchCardsPlay:
        self.now_us = max(self.now_us, now_us)
        board = self.link.board(now_us)
        closing = self.link.closing(now_us)
        if isinstance(closing, str) and closing != self._said:  # the detail once, in the log
            self.ctx.log(f"Punch Cards lobby: {closing}")
        self._said = closing if isinstance(closing, str) else ""
        view = LobbyView(
            tuple(self._desk_view(d) for d in self.desks),
            board if isinstance(board, tuple) else (),
            closing_words(closing, self.link.wall_us()),
            alert=isinstance(closing, str) or self._closed_now(now_us),
        )
        return PunchCardsPlay(
            game=SPEC.name, title=SPEC.title, seats=self.ctx.looks, view=view, events=(), now_us=now_us
        )

    def private_image(self, station: int, size: tuple[int, int]) -> Image.Image:
        desk = self.desks[station]
        kb = desk.keyboard.view() if desk.step is DeskStep.NAME and desk.keyboard else None
        pin = desk.pad.pin if desk.pad is not None and desk.step in PIN_STEPS else ""
        cards = len(desk.cards) if desk.signed_in else None
        model = DeskPrivate(
            step=desk.step,
            player=desk.name,
            keyboard=kb,
            pin=pin,
            message=self._message(desk)[0],
            bad=self._message(desk)[1],
            hints=self._hints(desk),
            cards=cards,
        )
        return draw_private(
            PrivateScreen(game=SPEC.name, seat=station, view=model, to_act=desk.step is not DeskStep.IDLE), size
        )

    def led_levels(self, now_us: int) -> dict[int, float]:
        return {d.station: 1.0 if d.signed_in else 0.0 for d in self.desks}
