"""Computer boxers: a counting, weighing boxer (with difficulty levels) and the simple
greedy boxer it is measured against.

Both decide from what their boxer may see — his hand and saved card, everything face up
(discards, Result cards drawn since the last shuffle, gauges, positions) — and his legal
actions, which follow from the same; never from the other hand, a deck's order or the
Result deck's order.  :meth:`BoxerBot.decide` takes exactly that view and those actions,
so the cabinet and the tests can prove it.

The boxer counts cards: the Result cards still to come are the 30 less those drawn since
the last shuffle, and the Boxer cards the opponent may hold are the 48 less the boxer's own
and those face up.  With that it weighs each action in points of the round total
(Judge Points + Damage caused), the chance of ending the fight, and what energy and
cards are worth for the rest of the round and the fight.  The levels (:data:`SKILLS`)
read less of this and choose at random more often the lower they are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, exp

from games.big_time_boxing.actions import (
    BigTimeBoxingAction,
    ChooseAttribute,
    Clinch,
    Combo,
    CoverUp,
    Defend,
    Escape,
    MoveAway,
    Pass,
    Throw,
    UseAttribute,
)
from games.big_time_boxing.cards import (
    CARDS,
    INJURY_DAMAGE,
    INJURY_OF,
    MAX_RESULT,
    BigHit,
    BoxerCard,
    Column,
    Effect,
    Feature,
    Injury,
    Punch,
)
from games.big_time_boxing.engine import BigTimeBoxing
from games.big_time_boxing.ring import Position, area_for, column_for
from games.big_time_boxing.views import BigTimeBoxingPlayerView, BoxerStatus, Phase
from games.levels import Level


@dataclass(frozen=True)
class Skill:
    """How well one level boxes (the cabinet's ladder, games.levels): how often it makes
    a random legal choice, and how much of the view it reads when it weighs one."""

    noise: float
    """Share of choices made at random among the legal actions."""
    counts_results: bool
    """Weighs punches against the Result cards still to come (else the whole deck)."""
    counts_cards: bool
    """Leaves the face-up discards out of the cards the opponent may hold when it weighs
    his defenses (else only its own hand and saved card)."""
    reads_round: bool
    """Weighs a point by how open the round still is (else every point alike)."""


SKILLS: dict[Level, Skill] = {
    Level.EASY: Skill(0.5, counts_results=False, counts_cards=False, reads_round=False),
    Level.NORMAL: Skill(0.25, counts_results=False, counts_cards=False, reads_round=True),
    Level.HARD: Skill(0.12, counts_results=True, counts_cards=False, reads_round=True),
    Level.EXPERT: Skill(0.0, counts_results=True, counts_cards=True, reads_round=True),
}
"""Each level reads less of the view and chooses at random more often than the one above
(docs/computer-opponents.md: the random share is what separates levels most; each
reading left out costs a little more)."""

_BOXERS = CARDS.boxers
_ALL_RESULTS = CARDS.results
_KEEP_BY_FEATURE = {
    Feature.JC_DEFENSE: 0.9,
    Feature.HUB_DEFENSE: 1.2,
    Feature.ESCAPE_ROPES: 0.35,
    Feature.ESCAPE_CORNER: 0.3,
    Feature.COMBO_A: 0.25,
    Feature.COMBO_B: 0.3,
    Feature.COMBO_AB: 0.35,
    Feature.JUDGE_POINT: 0.45,
}
"""What holding a card is worth beyond its punch (points of a round total), before it is
scaled by how much of the round is left to use it in."""
_DRAFT_ORDER = (
    Effect.HEART_OF_A_CHAMPION,
    Effect.DEEP_LUNGS,
    Effect.SLICK,
    Effect.COUNTERPUNCHER,
    Effect.FAST_HANDS,
    Effect.GRANITE_CHIN,
    Effect.HAYMAKER,
    Effect.WORKHORSE,
    Effect.SECOND_WIND,
    Effect.CUTMAN,
    Effect.THICK_SKIN,
    Effect.RING_GENERAL,
)
RESULTS_MEMO = 512
"""Entries kept by each memo of result-deck odds.  A game fills about 150 (every
decision looks at one deck, under every punch and column); a deck seldom comes back in
another game, so 4096 only grew a long-running cabinet by ~140 KB a game for 30 games."""
INSIDE_RISK = 0.45
"""Points a boxer expects to lose for standing I/S without an H/U/B Defense in hand."""
CLINCH_WEIGHT = 0.7
"""Points per energy point a clinch regains."""
ENERGY_BASE = 0.12
ENERGY_TIGHT = 0.5
"""Points per energy point spent: the base, plus this much more as the round's energy runs
short of its remaining turns."""
FIGHT_POINT = 0.35
"""Points per round still to come for each Fight Energy point lost."""
STRANDED = 0.8
"""Points per turn left in the round once Round Energy is 0 (nothing but Cover Up)."""
HEALTH_WEIGHT = 0.3
"""Lasting points per Health point taken off (every 3 Damage in a round)."""
TRAP_POINTS = 3.5
"""Points a trap on the ropes or in the corner is worth to the hitter (three punches at
their better result, less escapes and defenses)."""
KNOCKDOWN_POINT = 3.0
"""Lasting points of a knockdown besides its 5 Damage: a round-score point, and nearer the
three-knockdown TKO."""
INJURY_POINT = 1.5
"""Lasting points of an injury besides its Damage: nearer a TKO."""
JAB_DEFENDED = 0.55
"""How often an opponent holding a J/C Defense card uses it on a Jab."""
COMBO_THREAT = 0.6
"""Points a defense is worth beyond the punch when it stops a combo card."""
URGENCY_FLOOR = 0.2


@dataclass(frozen=True)
class _Value:
    """What an outcome is worth: ``round`` points of this round's total (weighed by how
    much the round is still in play) and ``lasting`` points for the rest of the fight."""

    round: float = 0.0
    lasting: float = 0.0

    def __add__(self, other: _Value) -> _Value:
        return _Value(self.round + other.round, self.lasting + other.lasting)

    def __sub__(self, other: _Value) -> _Value:
        return _Value(self.round - other.round, self.lasting - other.lasting)

    def __mul__(self, k: float) -> _Value:
        return _Value(self.round * k, self.lasting * k)


@lru_cache(maxsize=RESULTS_MEMO)
def _column_stats(results: frozenset[int], punch: Punch, column: Column | None) -> tuple[float, float, float]:
    """(mean result, chance of a 3, chance of 2 or more) over ``results``."""
    cards = [_ALL_RESULTS[r] for r in results]
    values = [c.better(punch) if column is None else c.value(punch, column) for c in cards]
    n = len(values)
    return sum(values) / n, values.count(MAX_RESULT) / n, sum(v >= 2 for v in values) / n


@lru_cache(maxsize=RESULTS_MEMO)
def _big_hit_odds(results: frozenset[int]) -> tuple[dict[BigHit, float], float]:
    """How often each Big Hit section comes up among ``results``, and the chance of no heart."""
    odds = dict.fromkeys(BigHit, 0.0)
    for r in results:
        odds[_ALL_RESULTS[r].big_hit] += 1 / len(results)
    return odds, sum(not _ALL_RESULTS[r].heart for r in results) / len(results)


@lru_cache(maxsize=RESULTS_MEMO)
def _big_hit_value(
    results: frozenset[int], head: bool, trapped: bool, third: bool, injuries: tuple[Injury, ...], win_value: float
) -> _Value:
    """What a Big Hit's card is worth to the puncher: a trap (never inside one), a
    knockdown (a knockout without a heart, or a TKO on the third), an injury (head
    injuries only from head punches; a TKO when it makes three, or a second cut over the
    eye or nose bleed)."""
    odds, no_heart = _big_hit_odds(results)
    value = _Value()
    if not trapped:
        value += _Value(TRAP_POINTS) * (odds[BigHit.ON_THE_ROPES] + odds[BigHit.IN_THE_CORNER])
    knockdown = _Value(5.0, KNOCKDOWN_POINT + (1.0 if third else no_heart) * win_value)
    value += knockdown * odds[BigHit.KNOCKDOWN]
    for big, injury in INJURY_OF.items():
        if injury is not Injury.HURT and not head:
            continue
        stops = len(injuries) >= 2 or (injury in (Injury.CUT_OVER_EYE, Injury.NOSE_BLEED) and injury in injuries)
        value += _Value(INJURY_DAMAGE[injury], INJURY_POINT + (win_value if stops else 0.0)) * odds[big]
    return value


@dataclass
class _Reading:
    """What one decision knows: the view, digested."""

    view: BigTimeBoxingPlayerView
    me: BoxerStatus
    opp: BoxerStatus
    results: frozenset[int]
    unseen: list[BoxerCard]
    rounds_left: int
    win_value: float
    urgency: float
    """How much a point of this round's total still matters (1: the round is wide open)."""

    def worth(self, value: _Value) -> float:
        return self.urgency * value.round + value.lasting


class BoxerBot:
    """The computer boxer.  ``decide`` sees only the boxer's view and legal actions."""

    def __init__(self, seed: int, level: Level = Level.EXPERT) -> None:
        self.rng = random.Random(seed)
        self.level = level
        self.skill = SKILLS[level]

    def choose(self, engine: BigTimeBoxing, player: int) -> BigTimeBoxingAction:
        return self.decide(engine.view(player), engine.legal_actions(player))

    def decide(self, view: BigTimeBoxingPlayerView, legal: Sequence[BigTimeBoxingAction]) -> BigTimeBoxingAction:
        if not legal:
            raise ValueError(f"boxer {view.player} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.skill.noise:
            return self.rng.choice(list(legal))
        reading = self._read(view)
        scored = [(reading.worth(self._value(reading, action)), i) for i, action in enumerate(legal)]
        best = max(score for score, _ in scored)
        top = [i for score, i in scored if score >= best - 1e-9]
        return legal[self.rng.choice(top)]

    # -- reading the view ----------------------------------------------------------------
    def _read(self, view: BigTimeBoxingPlayerView) -> _Reading:
        public = view.public
        me, opp = public.boxers[view.player], public.boxers[1 - view.player]
        everything = frozenset(range(len(_ALL_RESULTS)))
        if not self.skill.counts_results or not public.result_deck_size:
            results = everything
        else:
            results = everything - frozenset(public.result_discard)
        seen = set(view.hand)
        if self.skill.counts_cards:
            seen |= set(public.discard) | {t.card for t in public.thrown}
        if view.saved is not None:
            seen.add(view.saved)
        unseen = [c for c in _BOXERS if c.id not in seen]
        rounds_left = public.options.rounds - public.round
        urgency = self._urgency(me, opp, rounds_left) if self.skill.reads_round else 1.0
        return _Reading(view, me, opp, results, unseen, rounds_left, 30.0 + 6.0 * rounds_left, urgency)

    @staticmethod
    def _urgency(me: BoxerStatus, opp: BoxerStatus, rounds_left: int) -> float:
        """Near 1 while the round's totals are close for the turns left, lower as one boxer
        pulls out of reach; lower too when the scorecards already decide the fight."""
        margin = (me.judge_points + opp.damage) - (opp.judge_points + me.damage)
        turns = me.hand_size + me.deck_size + opp.hand_size + opp.deck_size
        spread = 1.6 * (turns + 1) ** 0.5
        urgency = max(URGENCY_FLOOR, exp(-(margin * margin) / (2 * spread * spread)))
        lead = sum(me.round_scores) - sum(opp.round_scores)
        if abs(lead) > 2 * rounds_left + 2:
            urgency *= 0.5
        return urgency

    # -- scoring an action ---------------------------------------------------------------
    def _value(self, r: _Reading, action: BigTimeBoxingAction) -> _Value:
        if isinstance(action, Throw):
            return self._throw_value(r, _BOXERS[action.card])
        if isinstance(action, Combo):
            return self._combo_value(r, _BOXERS[action.card])
        if isinstance(action, Defend):
            return self._incoming(r) - self._keep(r, _BOXERS[action.card])
        if isinstance(action, Escape):
            return _Value(lasting=10.0)
        if isinstance(action, Pass):
            return _Value(0.5 if self._save_for_later_in_trap(r) else 0.0)
        if isinstance(action, MoveAway):
            return self._move_away_value(r, action)
        if isinstance(action, Clinch):
            return self._clinch_value(r, _BOXERS[action.card])
        if isinstance(action, CoverUp):
            return _Value() - self._keep(r, _BOXERS[action.card])
        if isinstance(action, UseAttribute):
            return _Value(lasting=self._attribute_value(r, CARDS.attributes[action.attribute].effect))
        assert isinstance(action, ChooseAttribute)
        return _Value(lasting=-float(_DRAFT_ORDER.index(CARDS.attributes[action.attribute].effect)))

    # -- punches -------------------------------------------------------------------------
    def _landed(self, r: _Reading, punch: Punch, column: Column | None, target: BoxerStatus) -> _Value:
        """What ``punch`` landing in ``column`` on ``target`` is worth to the puncher."""
        mean, p3, p2 = _column_stats(r.results, punch, column)
        value = _Value(mean, mean / 3 * HEALTH_WEIGHT) + self._big_hit(r, punch, target, column is None) * p3
        if target.health == 0:
            value += _Value(lasting=p2 * r.win_value)
        return value

    def _big_hit(self, r: _Reading, punch: Punch, target: BoxerStatus, trapped: bool) -> _Value:
        """What a Big Hit's own card is worth to the puncher against ``target``."""
        third = target.knockdowns >= 2 and r.view.public.options.three_knockdown_tko
        return _big_hit_value(r.results, punch.head, trapped, third, tuple(target.injuries), r.win_value)

    def _defended_chance(self, r: _Reading, punch: Punch) -> float:
        """Chance the opponent holds a card that cancels ``punch`` (and uses it)."""
        hand = r.opp.hand_size
        if hand == 0:
            return 0.0
        wanted = {Feature.JC_DEFENSE if punch.outside else Feature.HUB_DEFENSE}
        if r.opp.round_energy == 0:
            wanted.add(Feature.JC_DEFENSE)
        defenses = sum(c.feature in wanted for c in r.unseen)
        pool = len(r.unseen)
        if pool < hand:
            return 0.5
        holds = 1 - comb(pool - defenses, hand) / comb(pool, hand)
        return holds * (JAB_DEFENDED if punch is Punch.JAB else 0.9)

    def _throw_value(self, r: _Reading, card: BoxerCard) -> _Value:
        me = r.me
        position = area_for(card.punch)
        column = column_for(card.punch, position, r.opp.position)
        land = 1 - self._defended_chance(r, card.punch)
        value = self._landed(r, card.punch, column, r.opp) * land
        if card.feature is Feature.JUDGE_POINT and me.judge_points < 6:
            value += _Value(1.0)
        if card.feature.combo_icons and land > 0:
            follow = [
                r.worth(self._combo_value(r, _BOXERS[c], first=card, position=position))
                for c in self._hand(r)
                if c != card.id and self._combines(card, _BOXERS[c], position, me.round_energy - card.cost)
            ]
            value += _Value(lasting=land * max([0.0, *follow]))
        value -= self._energy_cost(r, me.round_energy, card.cost)
        value -= self._keep(r, card)
        if position is Position.INSIDE and not self._holds(r, Feature.HUB_DEFENSE, skip=card.id):
            value -= _Value(INSIDE_RISK)
        return value

    def _combines(self, first: BoxerCard, second: BoxerCard, position: Position, energy: int) -> bool:
        if not first.feature.combo_icons & second.feature.combo_icons or second.cost > energy or energy <= 0:
            return False
        if second.punch is first.punch and second.punch not in (Punch.JAB, Punch.BODY_BLOW):
            return False
        outside = position is Position.OUTSIDE
        return outside == second.punch.outside or (outside and second.punch is Punch.HOOK)

    def _combo_value(
        self, r: _Reading, card: BoxerCard, first: BoxerCard | None = None, position: Position | None = None
    ) -> _Value:
        me = r.me
        where = me.position if position is None else position
        column = column_for(card.punch, where, r.opp.position)
        spent = 0 if first is None else first.cost
        value = self._landed(r, card.punch, column, r.opp)
        if card.feature is Feature.JUDGE_POINT and me.judge_points < 6:
            value += _Value(1.0)
        return value - self._energy_cost(r, me.round_energy - spent, card.cost) - self._keep(r, card)

    # -- defending -----------------------------------------------------------------------
    def _incoming(self, r: _Reading) -> _Value:
        """What the punch the window is about would cost this boxer."""
        public = r.view.public
        punch = public.window_punch
        assert punch is not None
        trapped = public.phase is Phase.TRAPPED_RESPONSE
        column = None if trapped else (public.thrown[0].column if public.thrown else Column.OS_OS)
        value = self._landed(r, punch, column, r.me)
        thrown = public.thrown[0] if public.thrown and not trapped else None
        if thrown is not None and _BOXERS[thrown.card].feature.combo_icons:
            value += _Value(COMBO_THREAT)  # a defended combo card cannot start its combination
        return value

    def _save_for_later_in_trap(self, r: _Reading) -> bool:
        """On the ropes or in the corner, keep a Defense card for a harder punch still to come."""
        public = r.view.public
        punch = public.window_punch
        if public.phase is not Phase.TRAPPED_RESPONSE or punch is None:
            return False
        here = _column_stats(r.results, punch, None)[0]
        later = [p for p in public.trap_punches_left if p.outside == punch.outside]
        stronger = [p for p in later if _column_stats(r.results, p, None)[0] > here]
        wanted = Feature.JC_DEFENSE if punch.outside else Feature.HUB_DEFENSE
        held = sum(_BOXERS[c].feature is wanted for c in self._hand(r))
        return len(stronger) >= held

    # -- the other turns -----------------------------------------------------------------
    def _move_away_value(self, r: _Reading, action: MoveAway) -> _Value:
        value = _Value(0.15 if self._has(r, Effect.RING_GENERAL) else -0.85)
        if r.me.position is Position.INSIDE:
            value += _Value(INSIDE_RISK * 0.5)
        card = _BOXERS[action.card]
        if action.save:
            return value + (_Value(lasting=0.3 * self._keep(r, card).round) if r.rounds_left else _Value(-1.0))
        return value - self._keep(r, card)

    def _clinch_value(self, r: _Reading, card: BoxerCard) -> _Value:
        gain = 0.0
        for rid in r.results:
            c = _ALL_RESULTS[rid].clinch
            gain += CLINCH_WEIGHT * min(c.energy, r.me.round_start_energy - r.me.round_energy)
            gain += (
                c.judge_point - c.damage_to_you + c.damage_to_opponent - (1.0 if c.warning and r.me.warnings else 0.0)
            )
        value = gain / len(r.results) * min(1.0, self._turns_left(r) / 3)
        return _Value(value + 0.1) - self._keep(r, card)

    def _attribute_value(self, r: _Reading, effect: Effect) -> float:
        if effect is Effect.SECOND_WIND:
            return 1.0 if r.me.round_energy <= 3 and self._turns_left(r) >= 4 else -1.0
        # Haymaker: worth it before a strong inside punch that is likely to land.
        best = max(
            (
                (1 - self._defended_chance(r, _BOXERS[c].punch))
                for c in self._hand(r)
                if not _BOXERS[c].punch.outside and _BOXERS[c].cost <= r.me.round_energy
            ),
            default=0.0,
        )
        return 1.0 if best >= 0.75 else -1.0

    # -- what cards, energy and turns are worth ------------------------------------------
    def _hand(self, r: _Reading) -> list[int]:
        view = r.view
        return [*view.hand, view.saved] if view.saved is not None and view.saved_playable else list(view.hand)

    def _holds(self, r: _Reading, feature: Feature, skip: int) -> bool:
        return any(_BOXERS[c].feature is feature for c in self._hand(r) if c != skip)

    def _has(self, r: _Reading, effect: Effect) -> bool:
        return any(CARDS.attributes[a].effect is effect for a in r.me.attributes)

    def _turns_left(self, r: _Reading) -> int:
        return r.me.hand_size + r.me.deck_size

    def _keep(self, r: _Reading, card: BoxerCard) -> _Value:
        """What keeping ``card`` is worth for the rest of the round (cards do not carry over)."""
        opponent_turns = r.opp.hand_size + r.opp.deck_size
        use = min(1.0, opponent_turns / 6) if card.feature in (Feature.JC_DEFENSE, Feature.HUB_DEFENSE) else 1.0
        own = min(1.0, (self._turns_left(r) - 1) / 4)
        return _Value(_KEEP_BY_FEATURE[card.feature] * use * max(0.0, own))

    def _energy_cost(self, r: _Reading, energy: int, cost: int) -> _Value:
        """What lowering Round Energy from ``energy`` by ``cost`` costs: energy the round's
        later turns will miss, and Fight Energy points lost for the rounds to come."""
        if cost == 0:
            return _Value()
        me = r.me
        after = energy - cost
        turns = max(1, self._turns_left(r) - 1)
        tightness = max(0.0, min(1.0, (turns * 1.1 - after) / max(1.0, turns)))
        this_round = cost * (ENERGY_BASE + ENERGY_TIGHT * tightness)
        lost = 0
        if after <= 2 and me.fight_energy == me.round_start_energy:
            lost += 1  # the 1-2 point is not yet taken this round
        if after == 0:
            lost += 1
            this_round += STRANDED * turns
        if lost and me.fight_energy - lost <= 0:
            return _Value(lasting=r.win_value * 2)
        fight_point = FIGHT_POINT * r.rounds_left + (3.0 if me.fight_energy - lost <= r.rounds_left + 1 else 0.0)
        return _Value(this_round, lost * fight_point)


class GreedyBot:
    """The simple greedy boxer the computer boxer is measured against: throws the
    affordable punch with the best average result (plus its Judge Point), always defends
    and escapes when it can, always adds the best combo card, clinches when it may and has
    nothing to throw, and discards its first card otherwise."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, engine: BigTimeBoxing, player: int) -> BigTimeBoxingAction:
        return self.decide(engine.view(player), engine.legal_actions(player))

    def decide(self, view: BigTimeBoxingPlayerView, legal: Sequence[BigTimeBoxingAction]) -> BigTimeBoxingAction:
        if not legal:
            raise ValueError(f"boxer {view.player} has nothing to do now")
        opp = view.public.boxers[1 - view.player].position
        everything = frozenset(range(len(_ALL_RESULTS)))

        def worth(card: BoxerCard, where: Position) -> float:
            mean = _column_stats(everything, card.punch, column_for(card.punch, where, opp))[0]
            return mean + (1.0 if card.feature is Feature.JUDGE_POINT else 0.0)

        for answer in (Escape, Defend):
            answers = [a for a in legal if isinstance(a, answer)]
            if answers:
                return answers[0]
        combos = [a for a in legal if isinstance(a, Combo)]
        if combos:
            where = view.public.boxers[view.player].position
            return max(combos, key=lambda a: worth(_BOXERS[a.card], where))
        throws = [a for a in legal if isinstance(a, Throw)]
        if throws:
            return max(throws, key=lambda a: worth(_BOXERS[a.card], area_for(_BOXERS[a.card].punch)))
        for kind in (Clinch, CoverUp, MoveAway, ChooseAttribute, Pass):
            found = [a for a in legal if isinstance(a, kind) and not getattr(a, "save", False)]
            if found:
                return found[0]
        return legal[0]
