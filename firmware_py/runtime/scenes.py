"""The cabinet's scenes: attract → game select → join → options → play → result → attract
(a game with its own way in opens its lobby after the select screen instead).  The
operator's menu is :mod:`firmware_py.runtime.service_menu`; what a scene is,
:mod:`firmware_py.runtime.scene`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pygame

from display.models import (
    AnyPlayScreen,
    AnyResultScreen,
    AttractScreen,
    DemoScreen,
    JoinScreen,
    OptionsScreen,
    PrivateModel,
    PrivateText,
    ResultScreen,
    SelectScreen,
)
from firmware_py.games import registry
from firmware_py.runtime.cabinet_sound import SceneNow
from firmware_py.runtime.computer_players import ComputerPlayers, QueuedHands, computer_look, seat_looks
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.controls import AnyControls, ResultRecords
from firmware_py.runtime.result_picture import result_picture_path, save_result_picture
from firmware_py.runtime.scene import Scene, pressed
from firmware_py.runtime.scene_kind import SceneKind
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store, start_of_today
from games.levels import Level
from games.registry import UnknownGame
from hal.events import Button, ButtonEvent, InputEvent, PadLinkEvent, SlapEvent

RESULT_US = 12_000_000
PLAY_IDLE_US = 300_000_000
"""A game nobody has touched for 5 minutes was walked away from: it is ended (kept in the
store as abandoned) so the cabinet goes back to attracting players."""
GAME_OVER_HOLD_US = 3_000_000
"""The final banner stays this long before the result screen."""
TITLE_US = 6_000_000
"""The attract mode's title card (the games, recent results, PRESS START) between demos."""
DEMO_US = 30_000_000
"""A demo game plays this long (or to its end) before the title card and the next game's."""
LED_STEP_US = 100_000
"""The attract mode's breathing LED bars change level in these steps."""
BLINK_US = 500_000
"""PRESS START blinks on and off in these steps (a whole number of LED steps)."""
DEMO_TICK_US = 200_000
"""A demo's clock-driven parts (countdowns, easing bars, flashes) advance in these steps,
so an idle cabinet redraws about 5 times a second rather than every frame (issue 13:
attract CPU ≤ 5 % of a core; at 100 ms steps the demos with their animations measured
4.7 %); a move still shows on the next frame.  A game in play is drawn every frame.
The steps fall on the LED bars' (a whole number of them, from when the attract mode
began), so the idle loop wakes once for both (issue 34's idle CPU)."""


def _next_step(now_us: int, start_us: int, step_us: int) -> int:
    """The first time after ``now_us`` on the grid of ``step_us`` steps from ``start_us``."""
    return now_us + step_us - (now_us - start_us) % step_us


def _against(computers: dict[int, str]) -> str:
    """How a stored result says it was against the computer (nothing among people)."""
    return f" vs CPU · {'/'.join(sorted({level.upper() for level in computers.values()}))}" if computers else ""


class Attract(Scene):
    """Waits for START.  A title card (the games, recent results) alternates with short
    demo games of every game in turn, played by computer players on the main screen:
    each demo is a real game session on a throwaway store in memory, so the cabinet's
    store, log and speaker never hear of it.  START starts the select screen at once."""

    kind = SceneKind.ATTRACT

    def __init__(self, ctx: CabinetContext, now_us: int) -> None:
        super().__init__(ctx, now_us)
        self.demo: Play | None = None
        self.demo_game = 0
        """Index in ``ctx.games`` of the game the next (or current) demo plays."""
        self.phase_us = now_us
        self._recent: tuple[str, ...] | None = None
        """The title card's news lines, read from the store once per title card."""

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if pressed(ev, Button.START):
            return Select(self.ctx, now_us, host=ev.station)
        return None

    def idle(self, now_us: int) -> bool:
        return False

    def tick(self, now_us: int) -> Scene | None:
        if self.demo is None:
            if now_us - self.phase_us >= TITLE_US:
                self.demo = self._start_demo(now_us)
                self.phase_us = now_us
                if self.demo is None:  # a game this cabinet has too few stations to show
                    self.demo_game = (self.demo_game + 1) % len(self.ctx.games)
            return None
        self.demo.tick(now_us)  # its own scene changes (the result, an abandon) are not for the cabinet
        over = self.demo.over_since is not None and now_us - self.demo.over_since >= GAME_OVER_HOLD_US
        if over or now_us - self.phase_us >= DEMO_US or self.demo.session.failed is not None:
            self.demo.ctx.store.close()
            self.demo = None
            self.demo_game = (self.demo_game + 1) % len(self.ctx.games)
            self.phase_us = now_us
            self._recent = None
        return None

    def _start_demo(self, now_us: int) -> Play | None:
        """The next game's demo: as many computer players as the game and the stations
        allow, each of a random level, the game's default options."""
        controls = self.ctx.games[self.demo_game]()
        spec = controls.spec
        players = min(spec.max_players, len(self.ctx.looks))
        if players < spec.min_players:
            return None
        # Never from the cabinet's seeds: a game's seed must not depend on how long the
        # attract mode ran before it (replays, HIL scenarios).
        rng = random.Random(now_us * len(self.ctx.games) + self.demo_game)
        quiet = replace(self.ctx, store=Store(None), log=lambda _line: None, sound=None, seeds=rng)
        levels = {station: rng.choice(list(Level)) for station in range(players)}
        values = {item.field: item.choices[0][0] for item in controls.options_menu}
        return Play.start(quiet, now_us, controls, controls.make_options(values), tuple(levels), levels)

    def next_due(self) -> int | None:
        return self.demo.next_due() if self.demo is not None else None

    def frame_shown(self, t_us: int, now_us: int) -> None:
        if self.demo is not None:
            self.demo.frame_shown(t_us, now_us)

    def still_until(self, now_us: int) -> int | None:
        """The next step of what the attract mode shows by the clock: the LED bars' level
        (PRESS START's blink falls on those steps), the demo's clock-driven parts, the
        title card's or the demo's end.  A demo's moves come at its computers' due
        times (:meth:`next_due`, which the loop wakes for); a change of its game's own
        between those shows at the next step, as the clock-driven parts already do."""
        until = _next_step(now_us, self.entered_us, LED_STEP_US)
        if self.demo is None:
            return min(until, self.phase_us + TITLE_US)
        ends = [self.phase_us + DEMO_US, _next_step(now_us, self.entered_us, DEMO_TICK_US)]
        if self.demo.over_since is not None:
            ends.append(self.demo.over_since + GAME_OVER_HOLD_US)
        if self.demo.computers is not None and (look := self.demo.computers.next_look(now_us)) is not None:
            ends.append(look)  # a computer done pressing decides its next move then
        return min(until, *ends)

    def screen(self, now_us: int) -> AttractScreen | DemoScreen:
        blink = ((now_us - self.entered_us) // BLINK_US) % 2 == 0
        if self.demo is not None:
            shown_us = max(self.phase_us, now_us - (now_us - self.entered_us) % DEMO_TICK_US)
            return DemoScreen(self.demo.screen(shown_us), self.demo.session.controls.spec.title, blink)
        if self._recent is None:  # read once a title card: the store is not queried every frame
            self._recent = self._recent_lines()
        boards = (registry.entrance(g.spec.name).attract_board(self.ctx, now_us) for g in self.ctx.games)
        return AttractScreen(
            games=tuple(g.spec.title for g in self.ctx.games),
            featured=self.demo_game,
            stations=self.ctx.looks,
            recent=self._recent,
            blink=blink,
            board=next((b for b in boards if b is not None), None),
        )

    def _recent_lines(self) -> tuple[str, ...]:
        """The title card's news: the store's notice, the fastest slap, recent results."""
        recent = []
        for game, station, reason, computers in self.ctx.store.recent_results(3):
            try:
                controls = self.ctx.game_named(game)
                title, words = controls.spec.title, controls.ending_words(reason)
            except UnknownGame:  # a game this cabinet no longer offers
                title, words = game, reason
            against = _against(computers) if station not in computers else ""  # a computer's name says it
            recent.append(f"{title}: {self._who(station, computers)} won ({words}){against}")
        fastest = self.ctx.store.fastest("reaction", 1)
        if fastest:
            station, value, _at = fastest[0]
            who = self.ctx.looks[station].name if station is not None and station < len(self.ctx.looks) else "?"
            recent.insert(0, f"Fastest slap: {who} {value / 1000:.1f} ms")
        if self.ctx.store.notice is not None:
            recent.insert(0, self.ctx.store.notice.headline)
        return tuple(recent)

    def _who(self, station: int | None, computers: dict[int, str]) -> str:
        if station is None or station >= len(self.ctx.looks):
            return "nobody"
        if station in computers:
            return computer_look(self.ctx.looks[station], Level(computers[station]), None).name
        return self.ctx.looks[station].name

    def led_levels(self, now_us: int) -> dict[int, float]:
        """A slow breathing chase so the cabinet looks alive from across the hall."""
        phase = ((now_us - self.entered_us) // LED_STEP_US) % 20
        level = (phase if phase <= 10 else 20 - phase) / 10
        return {s: level for s in range(len(self.ctx.looks))}


class Select(Scene):
    kind = SceneKind.SELECT

    def __init__(self, ctx: CabinetContext, now_us: int, host: int) -> None:
        super().__init__(ctx, now_us)
        self.host = host
        self.cursor = 0

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or ev.station != self.host:
            return None
        n = len(self.ctx.games)
        if ev.button is Button.A:
            self.cursor = (self.cursor - 1) % n
        elif ev.button is Button.B:
            self.cursor = (self.cursor + 1) % n
        elif ev.button is Button.START:
            self.ctx.log(f"{self.ctx.looks[self.host].name} chose {self.ctx.games[self.cursor].spec.title}")
            controls = self.ctx.games[self.cursor]()
            lobby = registry.entrance(controls.spec.name).lobby(self.ctx, now_us, self.host)
            return lobby if lobby is not None else Join(self.ctx, now_us, controls, self.host)
        return None

    def private_model(self, station: int) -> PrivateText:
        """What each station may do here: only the host chooses (issue 23: every display
        said "Press START to play" while only the host's START did anything)."""
        if station == self.host:
            return PrivateText(("CHOOSE A GAME", "", "A / B: previous/next", "START: play it"), 0)
        return PrivateText(("RINGSIDE", "", f"{self.ctx.looks[self.host].name} chooses", "the game: wait"), 0)

    def screen(self, now_us: int) -> SelectScreen:
        return SelectScreen(
            games=tuple(g.spec.title for g in self.ctx.games),
            blurbs=tuple(g.blurb for g in self.ctx.games),
            cursor=self.cursor,
            host=self.ctx.looks[self.host],
        )


class Join(Scene):
    """Stations join with START.  The host may seat computer players instead (games
    whose controls have their own, :meth:`GameControls.offers_computer`): B seats one at
    the next free station, C changes the computers' level, D stands the last one up; a
    person pressing START at a computer's station takes the seat.  With computers in,
    the host starts with A."""

    kind = SceneKind.JOIN

    def heard(self, now_us: int) -> SceneNow:
        """The sound greets the host and each station that joins after."""
        return replace(super().heard(now_us), host=self.host, joined=tuple(s for s, j in enumerate(self.joined) if j))

    def __init__(self, ctx: CabinetContext, now_us: int, controls: AnyControls, host: int) -> None:
        super().__init__(ctx, now_us)
        self.controls = controls
        self.host = host
        self.joined = [s == host for s in range(len(ctx.looks))]
        self.computers: dict[int, Level] = {}
        """Station → level of each computer seated, in the order they were seated."""
        self.level = ctx.computer_level

    @property
    def seats_open(self) -> int:
        return min(self.controls.spec.max_players, len(self.ctx.looks))

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        spec = self.controls.spec
        if pressed(ev, Button.START) and ev.station != self.host:
            self._person(ev.station)
        elif pressed(ev) and ev.station == self.host and self.controls.offers_computer():
            self._computer_key(ev.button)
        count = sum(self.joined)
        host_starts = pressed(ev, Button.A) and ev.station == self.host and count >= spec.min_players
        full = not self.computers and count >= self.seats_open  # the seats the join screen shows
        if full or host_starts:
            stations = tuple(s for s, j in enumerate(self.joined) if j)
            return Options(self.ctx, now_us, self.controls, stations, self.host, dict(self.computers))
        return None

    def _person(self, station: int) -> None:
        name = self.ctx.looks[station].name
        if station in self.computers:
            del self.computers[station]  # the person takes the computer's seat
        elif self.joined[station]:
            self.joined[station] = False
            self.ctx.log(f"{name} leaves")
            return
        self.joined[station] = True
        if sum(self.joined) > self.seats_open and self.computers:
            self._stand_up(next(reversed(self.computers)))  # a person goes before a computer
        self.ctx.log(f"{name} joins")

    def _computer_key(self, button: Button) -> None:
        if button is Button.B:
            free = [s for s, j in enumerate(self.joined) if not j]
            if free and sum(self.joined) < self.seats_open:
                self.computers[free[0]] = self.level
                self.joined[free[0]] = True
                self.ctx.log(f"computer ({self.level.value}) seated at {self.ctx.looks[free[0]].name}")
        elif button is Button.C and self.computers:
            levels = list(Level)
            self.level = levels[(levels.index(self.level) + 1) % len(levels)]
            self.computers = dict.fromkeys(self.computers, self.level)
            self.ctx.log(f"computer level: {self.level.value}")
        elif button is Button.D and self.computers:
            self._stand_up(next(reversed(self.computers)))

    def _stand_up(self, station: int) -> None:
        del self.computers[station]
        self.joined[station] = False
        self.ctx.log(f"computer leaves {self.ctx.looks[station].name}")

    def screen(self, now_us: int) -> JoinScreen:
        spec = self.controls.spec
        looks = seat_looks(self.ctx.looks, tuple(range(len(self.ctx.looks))), self.computers)
        return JoinScreen(
            game=spec.title,
            stations=looks,
            joined=tuple(self.joined),
            min_players=spec.min_players,
            max_players=self.seats_open,
            host=self.ctx.looks[self.host],
            computers=tuple(s in self.computers for s in range(len(self.ctx.looks))),
            offers_computer=self.controls.offers_computer(),
        )

    def private_model(self, station: int) -> PrivateText:
        if station in self.computers:  # named as the join screen names it: "CPU · NORMAL"
            name = computer_look(self.ctx.looks[station], self.computers[station], None).name
            return PrivateText((self.controls.spec.title, "", name, "plays here"), 2)
        state = "JOINED" if self.joined[station] else "START to join"
        return PrivateText((self.controls.spec.title, "", state), 2)


class Options(Scene):
    kind = SceneKind.OPTIONS

    def heard(self, now_us: int) -> SceneNow:
        return replace(super().heard(now_us), joined=self.stations)

    def __init__(
        self,
        ctx: CabinetContext,
        now_us: int,
        controls: AnyControls,
        stations: tuple[int, ...],
        host: int,
        computers: dict[int, Level] | None = None,
    ) -> None:
        super().__init__(ctx, now_us)
        self.controls = controls
        self.stations = stations
        self.host = host
        self.computers = computers or {}
        self.cursor = 0
        self.choice = [0] * len(controls.options_menu)

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or ev.station != self.host:
            return None
        menu = self.controls.options_menu
        if ev.button is Button.A and menu:
            self.cursor = (self.cursor + 1) % len(menu)
        elif ev.button is Button.B and menu:
            self.choice[self.cursor] = (self.choice[self.cursor] + 1) % len(menu[self.cursor].choices)
        elif ev.button is Button.START:
            values = {item.field: item.choices[i][0] for item, i in zip(menu, self.choice, strict=True)}
            options = self.controls.make_options(values)
            return Play.start(self.ctx, now_us, self.controls, options, self.stations, self.computers)
        return None

    def private_model(self, station: int) -> PrivateText:
        """What each station may do here, truly: the host sets the rules and starts the
        fight; the others wait for the host (one chooser: a second START would start a
        fight on rules the host is still setting)."""
        title = self.controls.spec.title
        if station == self.host:  # A moves between rules: not offered when there is one
            keys = ("A: next rule",) if len(self.controls.options_menu) > 1 else ()
            return PrivateText((title, "", *keys, "B: change it", "START: fight!"), 0)
        if station in self.computers:
            name = computer_look(self.ctx.looks[station], self.computers[station], None).name
            return PrivateText((title, "", name, "plays here"), 2)
        host = self.ctx.looks[self.host].name
        if station in self.stations:
            return PrivateText((title, "", "You are in!", f"{host} sets the rules", "and starts: wait"), 0)
        return PrivateText((title, "", "Not in this fight", f"{host} sets the rules"), 0)

    def screen(self, now_us: int) -> OptionsScreen:
        items = tuple(
            (item.label, item.choices[i][1]) for item, i in zip(self.controls.options_menu, self.choice, strict=True)
        )
        return OptionsScreen(
            game=self.controls.spec.title, items=items, cursor=self.cursor, host=self.ctx.looks[self.host]
        )


class Play(Scene):
    kind = SceneKind.PLAY

    def __init__(self, ctx: CabinetContext, now_us: int, session: GameSession) -> None:
        super().__init__(ctx, now_us)
        self.session = session
        self.over_since: int | None = None
        self.told_at = 0
        """When the finished game's screen has told it all (cabinet time)."""
        names = session.names
        session.listeners.append(self._log_event)
        self._names = names
        self.hands = QueuedHands()
        levels = {session.seat_of[station]: level for station, level in session.computers.items()}
        self.computers: ComputerPlayers | None = None
        """The computer players at this game's stations, pressing and slapping through
        :attr:`hands` into the session as a person's inputs come; seeded by the game, and
        shown again what they saw before a power cut (a resumed game)."""
        if levels:
            rng = random.Random(ctx.seeds.randrange(2**31))
            self.computers = ComputerPlayers(session.controls, levels, self.hands, rng, session.engine.seed)
            self.computers.recall(session.engine)

    @classmethod
    def start(
        cls,
        ctx: CabinetContext,
        now_us: int,
        controls: AnyControls,
        options: Any,
        stations: tuple[int, ...],
        computers: dict[int, Level] | None = None,
    ) -> Play:
        """A new game between ``stations``; ``computers``: station → level of each
        computer player among them."""
        seed = ctx.seeds.randrange(2**31)
        computers = computers or {}
        looks = seat_looks(tuple(ctx.looks[s] for s in stations), stations, computers)
        session = GameSession.start(
            controls, options, stations, looks, seed, ctx.store, ctx.settle_us, now_us, computers
        )
        ctx.log(f"== {controls.spec.title} #{session.game_id}: {' vs '.join(session.names)} (seed {seed}, {options})")
        return cls(ctx, now_us, session)

    def _log_event(self, t_us: int, event: Any) -> None:
        line = self.session.controls.describe(event, self._names)
        if line is not None:
            self.ctx.log(line)

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if isinstance(ev, (ButtonEvent, SlapEvent, PadLinkEvent)):
            self.session.handle(ev, now_us)
        if isinstance(ev, PadLinkEvent):
            self.ctx.log(f"slap pads {'reconnected' if ev.connected else 'DISCONNECTED: game paused'} ({ev.detail})")
        if self.over_since is not None and pressed(ev, Button.START) and now_us - self.over_since > 500_000:
            return self._result(now_us)
        return None

    def idle(self, now_us: int) -> bool:
        return False  # a game walked away from ends by itself (PLAY_IDLE_US)

    def live_session(self) -> GameSession:
        return self.session

    def tick(self, now_us: int) -> Scene | None:
        for ev in self.hands.due(now_us):  # a computer's inputs: not a person's, so no idle reset
            self.session.handle(ev, now_us)
        self.session.tick(now_us)
        if self.computers is not None:
            self.computers.act(self.session, now_us)
        if self.session.failed is not None:
            self.ctx.log(f"{self.session.controls.spec.title} #{self.session.game_id} abandoned: {self.session.failed}")
            return Attract(self.ctx, now_us)
        if not self.session.over and self.session.paused is None and now_us - self.last_input_us > PLAY_IDLE_US:
            self.ctx.store.abandon_game(self.session.game_id, "no input for 5 minutes")
            self.ctx.log(
                f"{self.session.controls.spec.title} #{self.session.game_id} abandoned: no input for 5 minutes"
            )
            return Attract(self.ctx, now_us)
        if self.session.over:
            if self.over_since is None:
                self.over_since = now_us
                told = self.session.controls.told_by(self.session.screen(now_us))
                self.told_at = now_us if told is None else told - self.session.offset_us
            elif now_us - self.over_since >= GAME_OVER_HOLD_US and now_us >= self.told_at:
                return self._result(now_us)
        return None

    def next_due(self) -> int | None:
        dues = [d for d in (self.session.next_due(), self.hands.next_due()) if d is not None]
        return min(dues, default=None)

    def _result(self, now_us: int) -> Scene:
        controls = self.session.controls
        headline, lines = controls.result_lines(self.session.engine, self.session.names)
        if self.session.computers:
            levels = sorted({level.name for level in self.session.computers.values()})
            against = f"Against the computer ({', '.join(levels)})"
            if controls.spec.judges_time:  # only a game of slaps has slap records to keep it out of
                against += ": not in the fastest-slap records"
            lines = (*lines, against)
        outcome = self.session.engine.outcome()
        winner = self.session.looks[outcome.winner] if outcome and outcome.winner is not None else None
        records = ResultRecords(
            store=self.ctx.store,
            game_id=self.session.game_id,
            stations=tuple(look.name for look in self.ctx.looks),
            people_only=not self.session.computers,
            today_since=start_of_today(),
        )
        story = controls.result_story(self.session.engine, records)
        model = ResultScreen(
            game=controls.spec.title,
            winner=winner,
            headline=headline,
            lines=lines,
            final=self.session.screen(now_us),
            story=story,
        )
        if controls.result_picture is not None and outcome is not None:
            path = result_picture_path(self.ctx.config.data_dir, self.session.game_id, controls.result_picture)
            try:
                self.ctx.log(f"{controls.result_picture} kept: {save_result_picture(model, path)}")
            except (OSError, pygame.error) as e:  # a full disk must not stop the cabinet
                self.ctx.log(f"{controls.result_picture} not kept ({path}): {e}")
        return Result(self.ctx, now_us, model)

    def screen(self, now_us: int) -> AnyPlayScreen:
        return self.session.screen(now_us)

    def frame_shown(self, t_us: int, now_us: int) -> None:
        self.session.frame_shown(t_us, now_us)

    def private_model(self, station: int) -> PrivateModel:
        if station in self.session.computers:  # its hand stays hidden from the people beside it
            name = self.session.looks[self.session.seat_of[station]].name  # "CPU · NORMAL", as on the main screen
            return PrivateText((self.session.controls.spec.title, "", name, "plays here"), 2)
        if station in self.session.seat_of:
            seat = self.session.seat_of[station]
            return replace(self.session.private_screen(seat), name=self.session.looks[seat].name)
        return PrivateText((self.session.controls.spec.title, "", "Fight in progress"))

    def led_levels(self, now_us: int) -> dict[int, float]:
        levels = {s: 0.0 for s in range(len(self.ctx.looks))}
        levels.update(self.session.led_levels())
        return levels


class Result(Scene):
    kind = SceneKind.RESULT

    def heard(self, now_us: int) -> SceneNow:
        """A fanfare for a winner, another sound for none."""
        return replace(super().heard(now_us), winner=self.model.winner is not None)

    def __init__(self, ctx: CabinetContext, now_us: int, model: AnyResultScreen) -> None:
        super().__init__(ctx, now_us)
        self.model = model
        ctx.log(f"RESULT: {model.headline} " + " / ".join(model.lines))

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if pressed(ev, Button.START) and now_us - self.entered_us > 1_000_000:
            return Attract(self.ctx, now_us)
        return None

    def idle(self, now_us: int) -> bool:
        return False

    def tick(self, now_us: int) -> Scene | None:
        return Attract(self.ctx, now_us) if now_us - self.entered_us > RESULT_US else None

    def screen(self, now_us: int) -> AnyResultScreen:
        return self.model
