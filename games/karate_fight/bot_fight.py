"""A fight among computer fighters on a simulated cabinet, for demos, tests and benchmarks.

It plays the cabinet's part the way the session does, with time as data: the fighter
whose turn it is plays after a moment's thought, the display shows each card one frame
later, every fighter is asked for its reaction the moment a card is shown, and every
stamped input reaches the engine in stamp order (a reveal before slaps with the same
stamp, equal stamps batched), which is what the settle window guarantees.  All chance
comes from the ``random.Random`` handed in and from the bots' own seeds.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator, Sequence

from games.karate_fight.actions import PlayTop, Shown, Slaps
from games.karate_fight.engine import KarateAction, KarateFight
from games.karate_fight.fighter_bot import KarateFighterBot
from games.protocol import Event

FRAME_US = 16_667
THINK_US = (250_000, 700_000)
"""A fighter draws and places the top card this long after their turn comes."""
JAN_KEN_US = 1_500_000
"""A Jan Ken round ("Jan, Ken, Poi!") takes this long; slaps on their way land during it."""
LOOK_AGAIN_US = 1_000_000
"""When a Hit shows and nobody slapped it (every fighter missed it), each looks again
this long after the last look: at a real table somebody always notices in the end."""


class BotFight:
    """Drives ``engine`` with ``bots[seat]`` for every seat."""

    def __init__(self, engine: KarateFight, bots: Sequence[KarateFighterBot], rng: random.Random) -> None:
        if len(bots) != engine.players:
            raise ValueError(f"{engine.players} fighters need {engine.players} bots, not {len(bots)}")
        self.engine = engine
        self.bots = bots
        self.rng = rng
        self.t_us = engine.now
        self._slaps: list[tuple[int, int]] = []
        """(stamp, fighter) of slaps on their way."""
        self._looked_us = 0
        self._plan: tuple[tuple[int, int | None, bool], PlayTop | Shown] | None = None
        """The next card or reveal, kept until the fight moves on (so a slap arriving
        first does not make the fighter think again)."""

    def run(self, max_actions: int) -> Iterator[tuple[KarateAction, tuple[Event, ...]]]:
        """Apply inputs until the fight ends or ``max_actions`` were applied."""
        applied = 0
        while not self.engine.over and applied < max_actions:
            action = self._next()
            events = self.engine.apply(action)
            applied += 1
            yield action, events
            if isinstance(action, Shown):
                self._ask_all(action.t_us)

    def _next(self) -> KarateAction:
        e = self.engine
        if e.jan_ken is not None:
            if self._slaps and self._slaps[0][0] < self.t_us + JAN_KEN_US:
                return self._slap_batch()
            fighter = min(e.seats_to_act())
            if len(e.seats_to_act()) == 1:
                self.t_us += JAN_KEN_US  # the round is thrown: time has passed
            return self.bots[fighter].decide(e.view(fighter), e.legal_actions(fighter))
        planned = self._planned()
        while planned is None and not self._slaps:  # a Hit is showing and every fighter missed it
            self._ask_all(max(self.t_us, self._looked_us + LOOK_AGAIN_US))
        if self._slaps and (planned is None or self._slaps[0][0] < planned.t_us):
            return self._slap_batch()
        assert planned is not None
        self.t_us = planned.t_us
        return planned

    def _planned(self) -> PlayTop | Shown | None:
        """The next card or reveal, if the fight waits for one."""
        e = self.engine
        key = (e.cards_played, e.turn, e.awaiting_reveal)
        if self._plan is not None and self._plan[0] == key:
            return self._plan[1]
        planned: PlayTop | Shown | None = None
        if e.awaiting_reveal:
            planned = Shown(t_us=self.t_us + FRAME_US)
        elif e.hit is None and e.turn is not None:
            planned = PlayTop(e.turn, self.t_us + self.rng.randint(*THINK_US))
        self._plan = None if planned is None else (key, planned)
        return planned

    def _slap_batch(self) -> Slaps:
        stamp, fighter = heapq.heappop(self._slaps)
        fighters = {fighter}
        while self._slaps and self._slaps[0][0] == stamp:
            fighters.add(heapq.heappop(self._slaps)[1])
        self.t_us = stamp
        return Slaps(t_us=stamp, fighters=tuple(sorted(fighters)))

    def _ask_all(self, shown_us: int) -> None:
        """Every fighter's reaction to what is on screen from ``shown_us``."""
        self._looked_us = shown_us
        for seat, bot in enumerate(self.bots):
            delay = bot.reaction(self.engine.view(seat))
            if delay is not None:
                heapq.heappush(self._slaps, (shown_us + delay, seat))
