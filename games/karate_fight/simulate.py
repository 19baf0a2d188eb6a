"""Random fights with a simulated cabinet: fighters play and throw, the display reports
reveals, and slaps land early, on time, together or late.

Seat bots alone cannot play Karate Fight (Hits wait for the cabinet's reveal and slaps),
so tests, benchmarks and an attract-mode demo use this driver.  All chance comes from
the ``random.Random`` handed in; stamps only ever increase, as the session guarantees.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.karate_fight.actions import PlayTop, Shown, Slaps, Throw
from games.karate_fight.engine import KarateAction, KarateFight
from games.karate_fight.jan_ken import Sign
from games.protocol import Event

FRAME_US = 16_667


class RandomFight:
    """Drives ``engine`` with random but plausible inputs.

    ``coward_rate``: chance that a fighter slaps with no Hit showing (a Coward's Blow,
    or an ignored slap during Jan Ken).
    ``tie_rate``: chance that the first slaps on a Hit share a stamp (a dead heat)."""

    def __init__(
        self, engine: KarateFight, rng: random.Random, coward_rate: float = 0.03, tie_rate: float = 0.05
    ) -> None:
        self.engine = engine
        self.rng = rng
        self.coward_rate = coward_rate
        self.tie_rate = tie_rate
        self.t_us = engine.now

    def _later(self, lo: int, hi: int) -> int:
        self.t_us += self.rng.randint(lo, hi)
        return self.t_us

    def _standing(self) -> list[int]:
        e = self.engine
        return [f for f in range(e.players) if e.in_game[f]]

    def next_actions(self) -> list[KarateAction]:
        """The next few inputs, in stamp order (several for a Hit's slaps)."""
        e, rng = self.engine, self.rng
        if e.hit is not None and e.hit.revealed_us is not None:
            return self._hit_slaps(e.hit.revealed_us)
        if rng.random() < self.coward_rate:
            return [Slaps(t_us=self._later(1, 300_000), fighters=(rng.choice(self._standing()),))]
        if e.jan_ken is not None:
            fighter = rng.choice(sorted(e.seats_to_act()))
            return [Throw(fighter, rng.choice(list(Sign)))]
        if e.awaiting_reveal:
            return [Shown(t_us=self._later(FRAME_US // 2, 2 * FRAME_US))]
        assert e.turn is not None
        return [PlayTop(e.turn, self._later(50_000, 400_000))]

    def _hit_slaps(self, revealed_us: int) -> list[KarateAction]:
        """Every fighter still in slaps once, 150–600 ms after the reveal; sometimes the
        first two share a stamp."""
        rng = self.rng
        standing = self._standing()
        stamps = {f: revealed_us + rng.randint(150_000, 600_000) for f in standing}
        if len(standing) >= 2 and rng.random() < self.tie_rate:
            a, b = rng.sample(standing, 2)
            first = min(stamps.values())
            stamps[a] = stamps[b] = first
        by_stamp: dict[int, list[int]] = {}
        for f, t in stamps.items():
            by_stamp.setdefault(t, []).append(f)
        actions: list[KarateAction] = [Slaps(t_us=t, fighters=tuple(sorted(fs))) for t, fs in sorted(by_stamp.items())]
        self.t_us = max(self.t_us, max(stamps.values()))
        return actions

    def run(self, max_actions: int) -> Iterator[tuple[KarateAction, tuple[Event, ...]]]:
        """Apply inputs until the fight ends or ``max_actions`` were applied."""
        applied = 0
        while not self.engine.over and applied < max_actions:
            for action in self.next_actions():
                if self.engine.over:
                    break
                yield action, self.engine.apply(action)
                applied += 1
