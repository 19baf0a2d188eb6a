"""Computer fighters that slap like people.

A person sees a card land, decides whether it makes a Hit and slaps: the time that takes
is a human reaction time, which has a long right tail.  Each level draws its reaction
times from an ex-Gaussian distribution (a normal part plus an exponential tail, the usual
model of human reaction times), sometimes does not slap a Hit at all (a miss), and is
sometimes fooled by a card that looks like a Hit and slaps for nothing (a Coward's
Blow).  The bot only ever answers "slap this long after the card was shown" or "no
slap": the cabinet stamps the slap at reveal + delay and sends it through the same
settle window and judging as a person's slap (:mod:`games.karate_fight.judging`).

Playing the top card is the only thing a fighter can do on their turn; a Jan Ken sign
is thrown at random (no sign is better than another against an unknown hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.bots import Bot
from games.karate_fight.actions import PlayTop, Throw
from games.karate_fight.cards import ATTACKS, DEFENSES, CardKind
from games.karate_fight.engine import KarateAction
from games.karate_fight.jan_ken import Sign
from games.karate_fight.views import FighterStatus, KaratePlayerView
from games.levels import Level

NORMAL_SHARE = 0.6
"""The normal part's share of the spread (σ = 0.6 × spread, τ = 0.8 × spread, so that
σ² + τ² = spread²): an exponential tail as wide as the normal part or wider is what
reaction-time studies fit (Ratcliff 1993; Luce 1986)."""
TAIL_SHARE = 0.8


@dataclass(frozen=True)
class Reflexes:
    """How one level slaps.  ``mean_us``/``spread_us``: mean and standard deviation of
    its reaction times (ex-Gaussian); ``floor_us``: nobody reacts faster (a draw below
    it is drawn again: faster "reactions" are guesses, and guesses are what ``fooled``
    models); ``miss``: chance of not slapping a Hit; ``fooled``: chance of slapping a
    card that looks like a Hit as much as a card can (scaled by :func:`lure`)."""

    mean_us: int
    spread_us: int
    miss: float
    fooled: float
    floor_us: int = 100_000

    @property
    def mu_us(self) -> float:
        """Mean of the normal part."""
        return self.mean_us - TAIL_SHARE * self.spread_us

    @property
    def sigma_us(self) -> float:
        return NORMAL_SHARE * self.spread_us

    @property
    def tau_us(self) -> float:
        """Mean of the exponential tail."""
        return TAIL_SHARE * self.spread_us


REFLEXES: dict[Level, Reflexes] = {
    Level.EASY: Reflexes(mean_us=450_000, spread_us=110_000, miss=0.12, fooled=0.12),
    Level.NORMAL: Reflexes(mean_us=340_000, spread_us=70_000, miss=0.06, fooled=0.06),
    Level.HARD: Reflexes(mean_us=260_000, spread_us=45_000, miss=0.03, fooled=0.03),
    Level.EXPERT: Reflexes(mean_us=200_000, spread_us=30_000, miss=0.01, fooled=0.01),
}
"""An expert reacts in about 200 ms, close to the fastest simple reaction times people
manage; slower levels are slower, less steady, miss more and are fooled more often.
Deciding whether a card makes a Hit is a choice, and choice reactions are slower and
more spread than simple ones, which is where the easier levels sit."""


def lure(view: KaratePlayerView) -> float:
    """How much the card just shown looks like a Hit when it is not one, 0..1.

    Judged from the top of the face-up pile, as a person at the table would: a skill
    card other than Strike (Counter, Jan Ken) looks like a Strike (1); three different
    defenses in a row look like a Perfect Defense (¾), and a defense on any other
    defense like a Clumsy Defense (½); three attack kinds in the bout look like an
    Ultimate Combo (¾), and a second card of one attack kind like a Flurry (½)."""
    centre = view.public.centre
    if not centre:
        return 0.0
    last = centre[-1]
    if last in (CardKind.COUNTER, CardKind.JAN_KEN):
        return 1.0
    if last in DEFENSES:
        run: list[CardKind] = []
        for kind in reversed(centre):
            if kind not in DEFENSES or kind in run:
                break
            run.append(kind)
        return 0.75 if len(run) >= 3 else 0.5 if len(run) == 2 else 0.0
    if last in ATTACKS:
        if len({kind for kind in centre if kind in ATTACKS}) == 3:
            return 0.75
        if sum(1 for kind in centre if kind is last) == 2:
            return 0.5
    return 0.0


class KarateFighterBot(Bot[KaratePlayerView, KarateAction]):
    """A computer fighter of one ``level``.  :meth:`decide` plays its turn or throws its
    Jan Ken sign; :meth:`reaction` says when (if at all) it slaps the card just shown."""

    def __init__(self, level: Level, seed: int) -> None:
        super().__init__(seed)
        self.level = level
        self.reflexes = REFLEXES[level]

    def decide(self, view: KaratePlayerView, legal: Sequence[KarateAction]) -> KarateAction:
        for action in legal:
            if isinstance(action, PlayTop):
                return action
        if view.public.jan_ken is not None:
            return Throw(view.seat, self.rng.choice(tuple(Sign)))
        raise ValueError(f"fighter {view.seat} has nothing to do now")

    def reaction(self, view: KaratePlayerView) -> int | None:
        """µs after the latest card was shown at which this fighter slaps, or ``None``.

        Ask once per card, right after the cabinet reported it shown (the view then has
        ``awaiting_reveal`` false): a Hit showing is slapped unless missed, any other
        card is slapped if it fools the fighter."""
        public = view.public
        me = public.fighters[view.seat]
        if public.winner is not None or public.jan_ken is not None or public.awaiting_reveal:
            return None
        if me.status is FighterStatus.OUT:
            return None
        if public.hit_showing is not None:
            return None if self.rng.random() < self.reflexes.miss else self.reaction_time()
        if self.rng.random() < self.reflexes.fooled * lure(view):
            return self.reaction_time()
        return None

    def reaction_time(self) -> int:
        """One draw of this level's reaction time (µs)."""
        r = self.reflexes
        while True:
            t = self.rng.gauss(r.mu_us, r.sigma_us) + self.rng.expovariate(1.0 / r.tau_us)
            if t >= r.floor_us:
                return round(t)
