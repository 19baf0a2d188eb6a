"""One game at the cabinet: station inputs in, engine actions through the journal, effects out.

The session maps stations to seats, asks the game's controls what a press means, and —
for games judged by time — holds stamped inputs in the settle window so the engine sees
them in stamp order.  The engine decides each action first (judging does not wait for the
disk), and the action is written to the store *before* any of its effects is shown; a
write that fails rebuilds the engine from the journal without it (:meth:`GameSession.submit`).
So a power cut loses nothing shown: :meth:`GameSession.resume` replays the journal.

Game time: a game's stamps must only move forward, but a restarted process's monotonic
clock starts anywhere (after a reboot, far below the old one).  So the session maps the
cabinet's clock to the game's: ``game_us = cabinet_us + offset``, with offset 0 for a new
game and, on resume, ``game time when last taken up − cabinet time now``, so the game
continues from its last stamp and the outage does not count.  Only what reaches the
engine — through the settle window, whose stamps become the actions' — and the play
screen, which compares the engine's times with now, is in game time; refusals, the
events' times and the main loop's wake-ups (:meth:`next_due`) stay in cabinet time.

A store that stops accepting writes (disk full, I/O error) pauses the game with a
message on screen; the session probes the store every :data:`PROBE_US` and goes on once
it records again.  A journal that conflicts with the store abandons that game (kept).

A refused press (the controls' :class:`Refusal`, the engine's ``IllegalAction``, an
action the store could not record) is said on that seat's private display only
(:meth:`GameSession.private_screen`): why a press is refused depends on what the player
holds, and the main screen (:meth:`GameSession.screen`) shows only the public view.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from display.models import AnyPlayScreen, AnyPrivateScreen, PlayScreen, StationLook
from firmware_py.runtime.computer_players import seat_looks
from firmware_py.runtime.controls import AnyControls, Refusal
from firmware_py.runtime.settle import SettleBuffer
from firmware_py.runtime.store import SavedGame, Store
from games.codec import encode
from games.levels import Level
from games.protocol import Action, Engine, Event, IllegalAction
from hal.events import ButtonEvent, InputEvent, PadLinkEvent, SlapEvent

log = logging.getLogger("ringside.session")

REFUSAL_US = 1_500_000
"""How long a refusal stays on the player's private display."""
PROBE_US = 1_000_000
"""While the store cannot record, how often the session tries it again."""
STORE_PAUSE = "Store cannot record ({}): game paused until it can. Operator: free disk space or check the data folder"

EventListener = Callable[[int, Event], None]

# Ranks order inputs with equal stamps: the reveal first, then presses, then slaps.
RANK_SHOWN, RANK_BUTTON, RANK_SLAP = 0, 1, 2


class GameSession:
    def __init__(
        self,
        controls: AnyControls,
        engine: Engine[Any, Any, Any, Any],
        seats: tuple[int, ...],
        looks: tuple[StationLook, ...],
        store: Store,
        game_id: int,
        settle_us: int = 0,
        computers: Mapping[int, Level] | None = None,
    ) -> None:
        self.controls = controls
        self.engine = engine
        self.seats = seats
        self.seat_of = {station: seat for seat, station in enumerate(seats)}
        self.looks = looks
        self.store = store
        self.game_id = game_id
        self.buffer: SettleBuffer[Action] = SettleBuffer(settle_us if controls.spec.judges_time else 0)
        self.recent: deque[tuple[int, Event]] = deque(maxlen=48)
        self._told = 0
        """Events told so far (appended to :attr:`recent`)."""
        self._parts: tuple[object, tuple[int, int, int], tuple[Any, tuple[tuple[int, Event], ...], Any]] | None = None
        """The engine, the key and the parts :meth:`_game_parts` made last."""
        self.refusals: dict[int, tuple[int, str]] = {}
        """Seat → (cabinet time it ends, words) of the refusal its private display shows."""
        self.listeners: list[EventListener] = []
        self.offset_us = 0
        """Game time minus cabinet time (see the module docstring)."""
        self.link_paused: str | None = None
        self.store_paused: str | None = None
        self.failed: str | None = None
        """Why this game was abandoned mid-play (its journal conflicts with the store)."""
        self._next_probe_us = 0
        self.store_errors = 0
        self.computers = dict(computers or {})
        """Station → level of each computer player (recorded with the game)."""
        self._computers_unsaved = False
        """:meth:`seat_computers` is still to be recorded (the store could not)."""

    # -- creation ------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        controls: AnyControls,
        options: Any,
        seats: tuple[int, ...],
        looks: tuple[StationLook, ...],
        seed: int,
        store: Store,
        settle_us: int = 0,
        now_us: int = 0,
        computers: Mapping[int, Level] | None = None,
    ) -> GameSession:
        """A new game; ``computers``: station → level of each computer player in it."""
        engine = controls.engine_type(options, len(seats), seed)
        session = cls(controls, engine, seats, looks, store, -1, settle_us, computers)
        session._begin(now_us)
        session._emit(engine.opening_events, now_us)
        return session

    def _begin(self, now_us: int) -> None:
        """Record the new game; a store that cannot record it pauses the game until it can."""
        try:
            self._record_game(now_us)
        except sqlite3.Error as e:
            self._store_failed(e, now_us)

    def _record_game(self, now_us: int) -> None:
        d = self.engine.to_dict()
        computers = {station: level.value for station, level in self.computers.items()}
        self.game_id = self.store.begin_game(
            d["game"], d["options"], self.engine.players, self.engine.seed, self.seats, computers
        )
        self.store.note_time_base(self.game_id, 0, now_us, now_us)

    @classmethod
    def resume(
        cls,
        controls: AnyControls,
        saved: SavedGame,
        looks: tuple[StationLook, ...],
        store: Store,
        settle_us: int = 0,
        now_us: int = 0,
    ) -> GameSession:
        """Rebuild a game cut short (power loss) from its journal in the store; its time
        continues from its last stamp, whatever this process's clock reads."""
        engine = controls.engine_type.from_dict(saved.engine_dict())
        computers = {station: Level(level) for station, level in saved.computers.items()}
        looks = seat_looks(looks, saved.seats, computers)
        session = cls(controls, engine, saved.seats, looks, store, saved.id, settle_us, computers)
        game_us = max(saved.game_us, latest_stamp(saved.actions))
        session.offset_us = game_us - now_us
        try:
            store.note_time_base(saved.id, len(saved.actions), now_us, game_us)
        except sqlite3.Error as e:  # the stamps in the journal still give the time next time
            log.error("game %s: time base not recorded (%s)", saved.id, e)
        return session

    def seat_computers(self, computers: Mapping[int, Level], now_us: int) -> None:
        """Computer players take ``computers``' stations (station → level) of this game,
        begun as people's: recorded with the game, so its slaps and wins are not ranked
        among people's (the exhibition, whose computers walked the menus as people do).
        A store that cannot record it pauses the game until it can."""
        self.computers.update(computers)
        self.looks = seat_looks(self.looks, self.seats, {s: lv for s, lv in computers.items()})
        self._computers_unsaved = True
        self._save_computers(now_us)

    def _save_computers(self, now_us: int) -> None:
        levels = {station: level.value for station, level in self.computers.items()}
        try:
            self.store.seat_computers(self.game_id, levels)
        except sqlite3.Error as e:
            self._store_failed(e, now_us)
            return
        self._computers_unsaved = False

    def game_us(self, cabinet_us: int) -> int:
        """A cabinet-clock time as this game's time."""
        return cabinet_us + self.offset_us

    @property
    def paused(self) -> str | None:
        """Why the game waits (the store, the slap pads), or None while it runs."""
        return self.store_paused or self.link_paused

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(look.name for look in self.looks)

    # -- inputs --------------------------------------------------------------------------
    def handle(self, event: InputEvent, now_us: int) -> None:
        if isinstance(event, PadLinkEvent):
            if self.controls.spec.uses_slaps:
                self.link_paused = (
                    None
                    if event.connected
                    else f"Slap pads disconnected ({event.detail or event.source}): reconnecting…"
                )
            return
        if self.paused is not None:
            return
        seat = self.seat_of.get(event.station) if isinstance(event, (ButtonEvent, SlapEvent)) else None
        if seat is None:
            return
        if isinstance(event, ButtonEvent):
            if not event.pressed:
                return
            result = self.controls.on_button(self.engine, seat, event.button, self.game_us(event.t_us))
            rank = RANK_BUTTON
        else:
            assert isinstance(event, SlapEvent)  # the other events have no seat: returned above
            result = self.controls.on_slap(self.engine, seat, self.game_us(event.t_us), event.velocity)
            rank = RANK_SLAP
        self._route(result, event.t_us, now_us, rank)

    def frame_shown(self, t_us: int, now_us: int) -> None:
        """The display flipped a frame at ``t_us``: games that time reveals learn of it."""
        if self.paused is None:
            self._route(self.controls.on_frame_shown(self.engine, self.game_us(t_us)), t_us, now_us, RANK_SHOWN)

    def _route(self, result: Action | Refusal | None, t_us: int, now_us: int, rank: int) -> None:
        if isinstance(result, Refusal):
            self.refuse(result.seat, result.text, now_us)
        elif result is not None:
            if self.controls.spec.judges_time:
                self.buffer.add(self.game_us(t_us), result, self.game_us(now_us), rank)
            else:
                self.submit(result, now_us)

    def tick(self, now_us: int) -> None:
        if self.store_paused is not None and now_us >= self._next_probe_us:
            self._probe(now_us)
        if self.paused is None:
            self._route(self.controls.on_clock(self.engine, self.game_us(now_us)), now_us, now_us, RANK_BUTTON)
        released = self.buffer.release(self.game_us(now_us))
        for t_us, action in self.controls.coalesce(released) if released else ():
            self.submit(action, t_us - self.offset_us)
        self.refusals = {seat: (until, text) for seat, (until, text) in self.refusals.items() if until > now_us}

    def refuse(self, seat: int, text: str, now_us: int) -> None:
        """Tell ``seat``, on its own display only, why its press did nothing."""
        self.refusals.pop(seat, None)  # the newest last
        self.refusals[seat] = (now_us + REFUSAL_US, text)

    def refusal(self, seat: int) -> str:
        """What ``seat``'s private display says about its last refused press ("" none)."""
        shown = self.refusals.get(seat)
        return shown[1] if shown is not None else ""

    def submit(self, action: Action, at_us: int) -> tuple[Event, ...]:
        """Check and decide ``action``, record it durably, then show its effects.

        The engine decides first (judging must not wait for the disk); nothing of the
        decision is shown until the action, its records and any outcome are committed in
        one transaction.  If that commit fails the engine is rebuilt from the journal
        without the action, the player is asked to press again and the game pauses
        until the store records again: an effect a power cut would lose is never shown."""
        if self.engine.over or self.failed is not None:
            return ()
        if self.store_paused is not None:
            if action.player >= 0:
                self.refuse(action.player, "Not recorded: press again", at_us)
            return ()
        seq = len(self.engine.journal)
        try:
            events = self.engine.apply(action)
        except IllegalAction as e:
            if action.player >= 0:
                names = tuple(look.name for look in self.looks)
                self.refuse(
                    action.player, self.controls.refusal_words(self.engine, action.player, str(e), names), at_us
                )
            return ()
        records = [
            (rec.kind, self.seats[rec.seat] if rec.seat is not None and rec.seat >= 0 else None, rec.value, rec.detail)
            for rec in self.controls.records(events, self.seats)
        ]
        outcome = self.engine.outcome()
        finish = None
        if outcome is not None:
            finish = (self.seats[outcome.winner] if outcome.winner is not None else None, outcome.how.value)
        try:
            self.store.commit_action(self.game_id, seq, encode(action), records, finish)
        except sqlite3.Error as e:
            self.store_errors += 1
            log.error(
                "game %s: action %s not recorded (%s); rolled back, player asked to press again", self.game_id, seq, e
            )
            saved = self.engine.to_dict()
            saved["actions"].pop()
            self.engine = type(self.engine).from_dict(saved)
            # The controls remember what they reported (a reveal, a clock check): they
            # start afresh, as after a resume, so a report the store lost is made again.
            self.controls = type(self.controls)()
            if action.player >= 0:
                self.refuse(action.player, "Not recorded: press again", at_us)
            if isinstance(e, sqlite3.IntegrityError):
                self._journal_conflict(seq, e)
            else:
                self._store_failed(e, at_us)
            return ()
        self._emit(events, at_us)
        return events

    def _store_failed(self, error: sqlite3.Error, now_us: int) -> None:
        if self.store_paused is None:
            log.error("game %s: %s", self.game_id, STORE_PAUSE.format(error))
        self.store_paused = STORE_PAUSE.format(error)
        self._next_probe_us = now_us + PROBE_US

    def _probe(self, now_us: int) -> None:
        """Try the store again: a game not yet recorded is recorded now, else one small write."""
        try:
            if self.game_id < 0:
                self._record_game(now_us)
            else:
                self.store.probe()
                if self._computers_unsaved:
                    self.store.seat_computers(self.game_id, {s: lv.value for s, lv in self.computers.items()})
                    self._computers_unsaved = False
        except sqlite3.Error as e:
            self.store_paused = STORE_PAUSE.format(e)
            self._next_probe_us = now_us + PROBE_US
            return
        log.warning("game %s: the store records again; game goes on", self.game_id)
        self.store_paused = None

    def _journal_conflict(self, seq: int, error: sqlite3.Error) -> None:
        """The store already holds something else where this action goes (a second writer,
        a journal edited by hand): this game cannot be recorded any more, so it ends
        here, abandoned, and its journal is kept as it is."""
        self.failed = f"its journal conflicts with the store at action {seq} ({error})"
        log.error("game %s abandoned: %s", self.game_id, self.failed)
        self.store.abandon_game(self.game_id, f"journal conflict at action {seq}")

    def _emit(self, events: tuple[Event, ...], at_us: int) -> None:
        for ev in events:
            self.recent.append((at_us, ev))
            self._told += 1
            for listener in self.listeners:
                listener(at_us, ev)

    # -- outputs -------------------------------------------------------------------------
    def screen(self, now_us: int) -> AnyPlayScreen:
        view, events, story = self._game_parts()
        return PlayScreen(
            game=self.controls.spec.name,
            title=self.controls.spec.title,
            seats=self.looks,
            view=view,
            events=events,
            now_us=self.game_us(now_us),
            paused=self.paused,
            story=story,
            computers=tuple(station in self.computers for station in self.seats),
        )

    def _game_parts(self) -> tuple[Any, tuple[tuple[int, Event], ...], Any]:
        """The engine's public view, the recent events and the story, made again only
        when one of them can have changed (an action applied, an event told, a new engine
        or clock offset).  The loop asks for a screen every frame, and compares it with the
        last one drawn: parts kept are the same objects, told equal at once, where parts
        made again were compared deep (Big Time Boxing's view: 0.3-0.8 M instructions
        between two frames its demo draws)."""
        engine = self.engine
        key = (len(engine.journal), self._told, self.offset_us)
        kept = self._parts
        if kept is not None and kept[0] is engine and kept[1] == key:
            return kept[2]
        recent = tuple(self.recent)
        parts = (
            engine.public_view(),
            tuple((self.game_us(t), ev) for t, ev in recent),
            self.controls.play_story(engine, tuple(ev for _t, ev in recent)),
        )
        self._parts = (engine, key, parts)
        return parts

    def private_screen(self, seat: int) -> AnyPrivateScreen:
        """What ``seat``'s private display shows: its game's private screen and, for a
        moment after a refused press, why (not once the game is over: the result is
        what the player reads then, not a band over it)."""
        refusal = "" if self.engine.over else self.refusal(seat)
        return replace(self.controls.private_screen(self.engine, seat), refusal=refusal)

    def led_levels(self) -> dict[int, float]:
        """Station → LED bar level."""
        return {station: self.controls.led_level(self.engine, seat) for seat, station in enumerate(self.seats)}

    def next_due(self) -> int | None:
        """Cabinet time when the settle window next releases a held input (None: nothing held)."""
        due = self.buffer.next_due()
        return None if due is None else due - self.offset_us

    @property
    def over(self) -> bool:
        return self.engine.over and len(self.buffer) == 0


def latest_stamp(actions: tuple[dict[str, Any], ...]) -> int:
    """The latest game time in a journal: every stamped action carries its time as
    ``t_us`` (docs/design.md: times enter as fields of actions); 0 when none is stamped."""
    return max((a["t_us"] for a in actions if isinstance(a.get("t_us"), int)), default=0)
