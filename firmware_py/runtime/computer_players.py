"""Computer players at the cabinet's stations: one mechanism for live play against the
computer, the headless exhibition and the attract demos.

A computer seat plays the way a person at that station does.  It looks at what its seat
may see (``engine.view(seat)``, the same view its player's display shows) and the legal
actions, and its bot decides (``decide(view, legal)``: never the engine's hidden state).
It then *presses the station's buttons* after a moment's thought, and for games with
slaps it answers what is shown (:meth:`GameControls.slap_cue`) with a slap stamped at
the time shown + its bot's ``reaction(view)``.  Presses and slaps enter the cabinet
through :class:`Hands`: in the exhibition the simulated cabinet's mock pins and pads
(``firmware_py.tools.exhibition.SimHands``)
(the whole stack from the pins up), in live play events handed to the session like a
station's (:class:`QueuedHands`).  Either way a slap is judged by its stamp through the
session's settle window, exactly as a person's: it reaches the session anywhere up to a
settle window after its stamp, as a slap through a real pad's transport may, and a
later-stamped slap that arrived first still loses to it.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from display.models import StationLook
from firmware_py.runtime.controls import AnyControls, Bot
from firmware_py.runtime.settle import SettleBuffer
from games.levels import Level
from games.protocol import Action, Engine
from hal.events import Button, ButtonEvent, InputEvent, SlapEvent

THINK_US = (300_000, 1_500_000)
"""A computer player looks at the game this long before it presses (humanly unhurried)."""
PRESS_GAP_US = 150_000
"""Between two presses of the same computer player: humanly quick, clear of the debounce."""
AFTER_PRESSES_US = 200_000
"""After its last press a computer player waits this long before it looks again."""
VELOCITY = (40, 127)
"""A computer's slaps hit the pad this hard (padboard velocity)."""
SOURCE = "computer"
"""The transport named on a computer's slaps handed straight to the session."""


class SeatedGame(Protocol):
    """What computer players read of a game in play (a
    :class:`firmware_py.runtime.session.GameSession`, which also seats them)."""

    engine: Engine[Any, Any, Any, Any]
    controls: AnyControls
    seats: tuple[int, ...]
    offset_us: int
    buffer: SettleBuffer[Action]

    @property
    def paused(self) -> str | None: ...

    def game_us(self, cabinet_us: int) -> int: ...


@runtime_checkable
class Reacts(Protocol):
    """A bot that slaps: µs after the cue was shown at which it slaps, or None."""

    def reaction(self, view: Any) -> int | None: ...


class Hands(Protocol):
    """How a computer player's presses and slaps reach the cabinet."""

    def press(self, station: int, button: Button, at_us: int) -> None: ...

    def slap(self, station: int, t_us: int, arrive_us: int, velocity: int) -> None: ...


class QueuedHands:
    """Input events for the session, each handed over at its arrival time (live play on
    any cabinet: a computer's station has nobody at its buttons or pad)."""

    def __init__(self) -> None:
        self._queue: list[tuple[int, int, InputEvent]] = []
        self._seq = itertools.count()

    def press(self, station: int, button: Button, at_us: int) -> None:
        heapq.heappush(self._queue, (at_us, next(self._seq), ButtonEvent(station, button, True, at_us)))

    def slap(self, station: int, t_us: int, arrive_us: int, velocity: int) -> None:
        heapq.heappush(self._queue, (arrive_us, next(self._seq), SlapEvent(station, t_us, velocity, SOURCE)))

    def due(self, now_us: int) -> list[InputEvent]:
        """Every event that has arrived by ``now_us``, in arrival order."""
        out = []
        while self._queue and self._queue[0][0] <= now_us:
            out.append(heapq.heappop(self._queue)[2])
        return out

    def next_due(self) -> int | None:
        return self._queue[0][0] if self._queue else None


class ComputerPlayers:
    """The computer seats of one game: ``levels`` maps each computer's seat to its level.

    The bots' seeds and the thinking times come from ``seed`` (the game's seed: a game
    resumed after a power cut gets the same players, thinking as long at the same
    positions, :meth:`recall`), or from ``rng`` when ``seed`` is None; the slaps'
    transport delays and velocities from ``rng``."""

    def __init__(
        self,
        controls: AnyControls,
        levels: Mapping[int, Level],
        hands: Hands,
        rng: random.Random,
        seed: int | None = None,
    ) -> None:
        self.levels = dict(levels)
        self.hands = hands
        self.rng = rng
        self.bots: dict[int, Bot] = {
            seat: controls.make_bot(level, rng.randrange(2**31) if seed is None else bot_seed(seed, seat))
            for seat, level in levels.items()
        }
        self._think_seed = rng.randrange(2**31) if seed is None else seed
        self._busy_until: dict[int, int] = {}
        self._cue_seen: dict[int, object] = {}
        self._slapping_until: dict[int, int] = {}

    def recall(self, engine: Engine[Any, Any, Any, Any]) -> None:
        """Show each bot again, in order, the views it was shown while ``engine``'s game
        was played so far (a game resumed after a power cut), so it remembers what it
        had learned and its choices go on as if the game had never stopped.

        The journal is replayed on a fresh engine with the same options and seed; a bot
        is shown its seat's view where the live game asked it: the first position at
        which its seat was to act since its last action (its answer is dropped: the
        journal says what was played).  The position the journal ends in is left for
        :meth:`act`, which asks there as the uninterrupted game did.  A bot remembers
        only views it was shown, so nothing hidden reaches it this way either."""
        replay = type(engine)(engine.options, engine.players, engine.seed)
        answered: set[int] = set()
        """Computer seats asked at this position or before and not yet seen to act."""
        for action in engine.journal:
            for seat in sorted(replay.seats_to_act()):
                if seat in self.bots and seat not in answered:
                    self.bots[seat].decide(replay.view(seat), replay.legal_actions(seat))
                    answered.add(seat)
            replay.apply(action)
            answered.discard(action.player)

    def act(self, session: SeatedGame, now_us: int) -> None:
        """Look at the game at ``now_us`` (cabinet time): answer a new cue with a slap,
        and press for every computer seat that has to act and is not busy pressing."""
        engine = session.engine
        if engine.over or session.paused is not None:
            return
        controls = session.controls
        if controls.spec.uses_slaps:
            self._slaps(session, now_us)
        for seat in sorted(engine.seats_to_act()):
            if seat not in self.bots or self._busy_until.get(seat, 0) > now_us:
                continue
            action = self.bots[seat].decide(engine.view(seat), engine.legal_actions(seat))
            at = now_us + self._think_us(seat, len(engine.journal))
            station = session.seats[seat]
            for button in controls.bot_presses(engine, seat, action):
                self.hands.press(station, button, at)
                at += PRESS_GAP_US
            self._busy_until[seat] = at + AFTER_PRESSES_US

    def next_look(self, now_us: int) -> int | None:
        """When a computer busy pressing now looks at the game again (:meth:`act` decides
        for it then); None: none is busy."""
        return min((until for until in self._busy_until.values() if until > now_us), default=None)

    def pressing(self, now_us: int) -> bool:
        """Whether a computer is still pressing at ``now_us`` (or has only just pressed):
        a power cut now would lose presses it has decided on."""
        return any(until > now_us for until in self._busy_until.values())

    def _think_us(self, seat: int, position: int) -> int:
        """How long ``seat`` thinks at the game's ``position`` (actions so far): drawn
        without looking at its hand or its choice, so how long it takes tells nobody
        anything, and the same at the same position of the same game (a resumed game's
        computers take their time as they would have without the power cut)."""
        return random.Random(f"ringside think {self._think_seed} {seat} {position}").randrange(*THINK_US)

    def _slaps(self, session: SeatedGame, now_us: int) -> None:
        game_now = session.game_us(now_us)
        cue = session.controls.slap_cue(session.engine, game_now)
        if cue is None:
            return
        for seat, bot in self.bots.items():
            if self._cue_seen.get(seat) == cue.key:
                continue
            self._cue_seen[seat] = cue.key
            if self._slapping_until.get(seat, 0) > now_us or not isinstance(bot, Reacts):
                continue  # still slapping at what came before: a person's hand is busy too
            delay = bot.reaction(session.engine.view(seat))
            if delay is None:
                continue
            stamp = max(cue.shown_us + delay, game_now) - session.offset_us
            arrive = stamp + self.rng.randrange(0, session.buffer.settle_us + 1)
            self.hands.slap(session.seats[seat], stamp, arrive, self.rng.randrange(*VELOCITY))
            self._slapping_until[seat] = arrive + session.buffer.settle_us


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the computer player at ``seat`` of the game seeded ``game_seed``:
    derived by hashing, so it says nothing of the game's own draws (the deck order)."""
    return random.Random(f"ringside computer player {game_seed} {seat}").randrange(2**31)


def computer_look(look: StationLook, level: Level, number: int | None) -> StationLook:
    """A computer's name tag on the main screen, in its station's colour: ``CPU · HARD``
    (``CPU 2 · HARD`` where several computers play)."""
    who = "CPU" if number is None else f"CPU {number}"
    return StationLook(f"{who} · {level.name}", look.color)


def seat_looks(
    looks: tuple[StationLook, ...], stations: tuple[int, ...], computers: Mapping[int, Level]
) -> tuple[StationLook, ...]:
    """The looks of a game's seats (``looks[seat]`` of ``stations[seat]``): a computer's
    name tag where a computer plays (``computers``: station → level)."""
    several = len(computers) > 1
    numbers = {station: n for n, station in enumerate(sorted(computers), start=1)}
    return tuple(
        computer_look(look, computers[s], numbers[s] if several else None) if s in computers else look
        for look, s in zip(looks, stations, strict=True)
    )
