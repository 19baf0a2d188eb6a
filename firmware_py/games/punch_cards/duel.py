"""A Punch Cards duel at two stations, or a practice duel against the computer.

The duel runs through a :class:`~firmware_py.runtime.session.GameSession` like any game (every
choice journaled in the cabinet's store, events to the log and to HIL).  What is
particular: the result is recorded in the ledger *before* it is shown.  Until the ledger
has committed the duel, the screens show neither the deciding reveal nor a winner but
"Saving the duel..."; the recording runs off the main loop (the link's worker) and its
answer is read on a later frame.  A ledger that cannot be reached or does not answer is
said on screen and tried again until it answers (the same idempotency key, so a duel
whose first answer came late still counts once).  A duel the ledger refuses (a staked
card was taken at another cabinet first, the event closed) moves nobody's card, and the
screens say so without a winner.  A practice duel is never recorded: it is marked
PRACTICE, the computer chooses its corner and call at random, and it counts nowhere.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from display.games.punch_cards.models import DuelPrivate, DuelTable, PunchCardsPlay
from display.games.punch_cards.screen import OPEN_US, RESULT_READ_US
from display.models import PrivateModel, PrivateScreen, PrivateText, StationLook
from firmware_py.games.punch_cards.controls import PunchCardsControls
from firmware_py.games.punch_cards.ledger import Receipt
from firmware_py.games.punch_cards.ledger_link import LedgerWrite, Refused, Retrying, Saved, new_key
from firmware_py.games.punch_cards.way_back import WayBack
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, pressed
from firmware_py.runtime.scenes import PLAY_IDLE_US, RESULT_US
from firmware_py.runtime.session import GameSession
from games.bots import RandomBot
from games.punch_cards import MAX_SERIAL, Card, DuelEnd, DuelOptions, DuelPublicView, cards_problem, packet
from games.punch_cards.events import Revealed
from hal.events import Button, ButtonEvent, InputEvent

COMPUTER = "Computer"
COMPUTER_COLOR = (150, 150, 160)
BOT_THINK_US = (500_000, 1_500_000)


class DuelScene(Scene):
    def __init__(
        self,
        ctx: CabinetContext,
        now_us: int,
        lobby: WayBack,
        stations: tuple[int, int],
        players: tuple[str, str],
        options: DuelOptions,
        practice: bool = False,
    ) -> None:
        super().__init__(ctx, now_us)
        self.lobby = lobby
        self.link = lobby.link
        self.stations = stations
        self.players = players
        self.is_practice = practice
        self.controls = PunchCardsControls()
        colors = [ctx.looks[s].color if s < len(ctx.looks) else COMPUTER_COLOR for s in stations]
        looks = (StationLook(players[0], colors[0]), StationLook(players[1], colors[1]))
        seed = ctx.seeds.randrange(2**31)
        self.session = GameSession.start(
            self.controls, options, stations, looks, seed, ctx.store, ctx.settle_us, now_us
        )
        self.session.listeners.append(self._log_event)
        self.key = new_key("duel")
        self.bot = RandomBot(seed)
        self.bot_rng = random.Random(seed)
        self.bot_at: int | None = None
        self.result: tuple[str, ...] = ()
        self.seat_lines: tuple[str, str] = ("", "")
        self.recorded = False
        self.ticked_us = now_us
        """The cabinet's time at the last tick (the private displays are drawn without one)."""
        self.settled_us: int | None = None
        self.saving: LedgerWrite[Receipt] = LedgerWrite(
            self.link, "record a duel", "Saving the duel...", "the result shows once it has recorded the duel"
        )
        if practice:
            self.challenge = "PRACTICE against the computer: never recorded, no card moves"
        elif options.may_refuse:
            self.challenge = (
                f"{players[1]} may refuse: you fought each other last and have not both fought someone else since"
            )
        else:
            self.challenge = f"{players[1]} must accept: a first challenge from a rival cannot be refused"
        who = "PRACTICE " if practice else ""
        ctx.log(f"== Punch Cards {who}duel #{self.session.game_id}: {players[0]} challenges {players[1]}")

    @classmethod
    def practice(
        cls, ctx: CabinetContext, now_us: int, lobby: WayBack, station: int, name: str, cards: tuple[Card, ...]
    ) -> DuelScene:
        """A duel against the computer, which holds a packet of its own (never the ledger's)."""
        rng = random.Random(ctx.seeds.randrange(2**31))
        while True:
            rival = packet(rng.randrange(2**62), MAX_SERIAL - 5, COMPUTER)
            if cards_problem(cards + rival) is None:
                break
        options = DuelOptions((cards, rival), may_refuse=False)
        return cls(ctx, now_us, lobby, (station, len(ctx.looks)), (name, COMPUTER), options, practice=True)

    # -- what happens ----------------------------------------------------------------------
    def _log_event(self, t_us: int, event: Any) -> None:
        line = self.controls.describe(event, self.players)
        if line is not None:
            self.ctx.log(line)

    @property
    def engine(self) -> Any:
        return self.session.engine

    @property
    def settled(self) -> bool:
        return self.settled_us is not None

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if self.settled:
            if pressed(ev, Button.START) and now_us >= self.leaves_at():
                return self._back(now_us)
            return None
        if isinstance(ev, ButtonEvent):
            self.session.handle(ev, now_us)
            self._settle(now_us)
        return None

    def idle(self, now_us: int) -> bool:
        return False  # a duel walked away from ends by itself (PLAY_IDLE_US)

    def live_session(self) -> GameSession:
        return self.session

    def tick(self, now_us: int) -> Scene | None:
        self.ticked_us = now_us
        self.session.tick(now_us)
        if self.session.failed is not None:
            return self.lobby.back(now_us, self._all(f"Duel abandoned: {self.session.failed}", True))
        if self.is_practice:
            self._computer(now_us)
        self._settle(now_us)
        if self.settled and now_us - (self.settled_us or 0) > RESULT_US:
            return self._back(now_us)
        if not self.engine.over and now_us - self.last_input_us > PLAY_IDLE_US:
            self.ctx.store.abandon_game(self.session.game_id, "no input for 5 minutes")
            return self.lobby.back(now_us, self._all("Duel abandoned: nobody pressed for 5 minutes", True))
        return None

    def _all(self, text: str, bad: bool) -> dict[int, tuple[str, bool]]:
        return {s: (text, bad) for s in self.stations if s < len(self.ctx.looks)}

    def _back(self, now_us: int) -> Scene:
        lines = {s: (self.seat_lines[i], not self.recorded or self._lost(i)) for i, s in enumerate(self.stations)}
        return self.lobby.back(now_us, {s: m for s, m in lines.items() if s < len(self.ctx.looks)})

    def _lost(self, seat: int) -> bool:
        """This seat's card went to the winner: said in red, never in the winner's green."""
        outcome = self.engine.outcome()
        return not self.is_practice and outcome is not None and outcome.winner is not None and outcome.winner != seat

    def _computer(self, now_us: int) -> None:
        if self.engine.over or 1 not in self.engine.to_act():
            self.bot_at = None
            return
        if self.bot_at is None:
            self.bot_at = now_us + self.bot_rng.randrange(*BOT_THINK_US)
        elif now_us >= self.bot_at:
            self.bot_at = None
            self.session.submit(self.bot.choose(self.engine, 1), now_us)

    def _settle(self, now_us: int) -> None:
        """Once the duel is over: record it in the ledger (a real duel) before anything of
        its result is shown; retry while the ledger cannot be reached."""
        if self.settled or not self.session.over or not self.saving.due(now_us):
            return
        outcome = self.engine.outcome()
        assert outcome is not None
        if self.is_practice:
            self.ctx.store.abandon_game(self.session.game_id, "practice duel: counts nowhere")
            self._shown(now_us, self.controls.practice_lines(self.engine, self.players), True)
            return
        if outcome.how is DuelEnd.REFUSED:
            self._shown(now_us, (f"{self.players[1]} refused the challenge", "No card moves"), True)
            return
        key, players, engine = self.key, self.players, self.engine
        match self.saving.step(now_us, lambda ledger: ledger.record_duel(key, *players, engine)):
            case None:
                return
            case Retrying(error=e, first=first):  # sent again with the same key: it counts once, however late
                if first:
                    self.ctx.log(f"Punch Cards duel #{self.session.game_id} not recorded yet: {e}")
            case Refused(error=e):
                self.ctx.store.abandon_game(self.session.game_id, f"the ledger refused it: {e}")
                self.ctx.log(f"Punch Cards duel #{self.session.game_id} NOT recorded: {e}")
                self._shown(now_us, ("NOT RECORDED", str(e), "Nobody's card moves"), False)
            case Saved(answer=receipt):
                headline, lines = self.controls.result_lines(self.engine, self.players)
                self.ctx.log(
                    f"Punch Cards duel #{self.session.game_id} recorded in the ledger as entry {receipt.entry}"
                )
                self._shown(now_us, (headline, *lines), True)

    def _shown(self, now_us: int, result: tuple[str, ...], recorded: bool) -> None:
        self.result, self.recorded, self.settled_us = result, recorded, now_us
        outcome = self.engine.outcome()
        taken = self.engine.taken
        if recorded and not self.is_practice and outcome is not None and outcome.winner is not None and taken:
            won = f"You won card #{taken.serial} ({taken.name})"
            lost = f"You lost card #{taken.serial} ({taken.name})"
            self.seat_lines = (won, lost) if outcome.winner == 0 else (lost, won)
        elif self.is_practice and outcome is not None:
            self.seat_lines = (f"Practice {'won' if outcome.winner == 0 else 'lost'}: no card moves", "")
        else:
            self.seat_lines = (result[0], result[0])

    # -- outputs ---------------------------------------------------------------------------
    def _public(self) -> DuelPublicView:
        """The public view, without the deciding reveal and the winner until the ledger has
        recorded them (a refused or practice duel shows how it went)."""
        public: DuelPublicView = self.engine.public_view()
        if public.winner is None or (self.settled and (self.recorded or self.is_practice)):
            return public
        return replace(public, last_reveal=None, winner=None, how=None)

    def screen(self, now_us: int) -> PunchCardsPlay:
        base = self.session.screen(now_us)
        public = self._public()
        table = DuelTable(
            public=public,
            players=self.players,
            practice=self.is_practice,
            challenge=self.challenge,
            result=self.result,
            waiting=self.saving.shown(now_us),
            leaves=self.settled and now_us >= self.leaves_at(),
        )
        events = base.events if public.winner is not None or self.engine.outcome() is None else ()
        return PunchCardsPlay(
            game=base.game,
            title=base.title,
            seats=base.seats,
            view=table,
            events=events,
            now_us=base.now_us,
            paused=base.paused,
        )

    def private_model(self, station: int) -> PrivateModel:
        seat = self.session.seat_of.get(station)
        if seat is None or station >= len(self.ctx.looks):
            return PrivateText(("Punch Cards", "", "Duel in progress"))
        view = replace(self.engine.view(seat), public=self._public())
        line = self.seat_lines[seat] if self.settled and self._reveal_read() else ""
        model = DuelPrivate(
            view=view,
            cursor=self.controls.cursor[seat],
            result=line,
            waiting="Recording..." if self.saving.shown(self.ticked_us) else "",
        )
        return PrivateScreen(
            game=self.controls.spec.name,
            seat=seat,
            view=model,
            to_act=seat in self.engine.to_act(),
            refusal=self.session.refusal(seat),
        )

    def leaves_at(self) -> int:
        """When START may leave the settled duel's result for the lobby (cabinet time): once
        its banner has been up for :data:`RESULT_READ_US`.  The banner comes with the
        result, and not before the deciding reveal's holes have opened (``OPEN_US``)."""
        assert self.settled_us is not None
        revealed = self._revealed_us()
        shown = self.settled_us if revealed is None else max(self.settled_us, revealed + OPEN_US)
        return shown + RESULT_READ_US

    def _revealed_us(self) -> int | None:
        return next((t for t, ev in reversed(self.session.recent) if isinstance(ev, Revealed)), None)

    def _reveal_read(self) -> bool:
        """The last reveal has opened on the main screen (its numbers drawn), so a duellist's
        display may say what it decided: not before (issue 30, the story in order: "Practice
        won" came on the private display while the main screen still showed the corners shut)."""
        revealed = self._revealed_us()
        return revealed is None or self.ticked_us >= revealed + OPEN_US

    def led_levels(self, now_us: int) -> dict[int, float]:
        levels = {s: 0.0 for s in range(len(self.ctx.looks))}
        levels.update({s: v for s, v in self.session.led_levels().items() if s < len(self.ctx.looks)})
        return levels
