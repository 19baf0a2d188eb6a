"""The Big Time Boxing rule engine: a fight of 4 to 12 rounds between two boxers.

A turn is a Throw (then the defender's response window, then perhaps the puncher's combo
window), a Move Away, a Clinch or a Cover Up.  What a landed punch sets off (its Result
card, a Big Hit, a trap on the ropes or in the corner with its escape and defense
windows, an injury, a knockdown and its count) is queued as steps on an agenda that runs
until a window needs an answer or the turn ends, so every window is a state of the
engine and the cabinet only decides when one times out.  Rule choices the rulebook leaves
open are written down, each with the test that pins it, in ``docs/rules/big_time_boxing.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from games.big_time_boxing.actions import (
    BTB_ACTIONS,
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
    WindowClosed,
)
from games.big_time_boxing.cards import (
    CARDS,
    INJURY_DAMAGE,
    INJURY_OF,
    KNOCKDOWN_DAMAGE,
    MAX_RESULT,
    AttributeCard,
    AttributeUse,
    BigHit,
    BoxerCard,
    Column,
    Effect,
    Feature,
    Injury,
    Punch,
    ResultCard,
)
from games.big_time_boxing.events import (
    AttributeChosen,
    AttributeUsed,
    BigHitDrawn,
    Clinched,
    Count,
    CoveredUp,
    DamageCause,
    DamageTaken,
    Defended,
    EnergyCause,
    EnergyChanged,
    Escaped,
    FightEnded,
    GotUp,
    HandRefilled,
    Injured,
    InjuryTreated,
    JudgePointCause,
    JudgePoints,
    KnockedDown,
    Moved,
    MovedAway,
    Passed,
    PunchThrown,
    Released,
    ResultDeckShuffled,
    ResultDrawn,
    RoundScored,
    RoundStarted,
    ShuffleReason,
    Trapped,
    TurnStarted,
    Warned,
    WindowOpened,
)
from games.big_time_boxing.options import ATTRIBUTES_PER_FIGHT, AttributeDraw, BigTimeBoxingOptions
from games.big_time_boxing.ring import Position, Trap, area_for, column_for
from games.big_time_boxing.scoring import Finish, decision, round_scores
from games.big_time_boxing.views import (
    BigTimeBoxingPlayerView,
    BigTimeBoxingPublicView,
    BoxerStatus,
    Phase,
    ThrownPunch,
    health_dice,
)
from games.protocol import CABINET, Engine, Event, GameSpec, IllegalAction, Outcome

SPEC = GameSpec(
    name="big_time_boxing",
    title="Big Time Boxing",
    min_players=2,
    max_players=2,
    options_type=BigTimeBoxingOptions,
)

SEATS = (0, 1)
HAND_SIZE = 4
DEALT_PER_ROUND = 12
MAX_JUDGE_POINTS = 6
TIRED_AT = 2
"""Round Energy falling to this or lower costs a Fight Energy point, once a round."""
CLINCH_ENERGY = (1, 2)
TKO_KNOCKDOWNS = 3
TKO_INJURIES = 3
SECOND_WIND_ENERGY = 3
WORST_INJURY_FIRST = (Injury.CUT_OVER_EYE, Injury.NOSE_BLEED, Injury.CUT_UNDER_EYE, Injury.HURT)
"""The order Cutman treats injuries in: what threatens a TKO most first."""

_BOXERS: tuple[BoxerCard, ...] = CARDS.boxers
_RESULTS: tuple[ResultCard, ...] = CARDS.results
_ATTRIBUTES: tuple[AttributeCard, ...] = CARDS.attributes
_WINDOW_PHASES = frozenset((Phase.RESPONSE, Phase.COMBO, Phase.ESCAPE, Phase.TRAPPED_RESPONSE))
_ESCAPES = {Trap.ROPES: Feature.ESCAPE_ROPES, Trap.CORNER: Feature.ESCAPE_CORNER}
_TRAPS = {BigHit.ON_THE_ROPES: Trap.ROPES, BigHit.IN_THE_CORNER: Trap.CORNER}
_WINDOW_CLOSED = (WindowClosed(),)


@dataclass
class Boxer:
    """One boxer's player board and cards.  ``deck`` is his personal draw deck, top last."""

    fight_energy: int
    health: int
    hand: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    saved: int | None = None
    saved_round: int = 0
    position: Position = Position.OUTSIDE
    round_energy: int = 0
    round_start_energy: int = 0
    tired: bool = False
    """The Round Energy 1–2 deduction is taken for this round."""
    damage: int = 0
    judge_points: int = 0
    injuries: list[Injury] = field(default_factory=list)
    knockdowns: int = 0
    round_knockdowns: int = 0
    warnings: int = 0
    round_fouls: int = 0
    round_scores: list[int] = field(default_factory=list)
    knockdowns_caused: int = 0
    injuries_caused: int = 0
    attributes: list[int] = field(default_factory=list)
    spent: set[int] = field(default_factory=set)
    """Single Use attribute cards used."""
    used_this_round: set[int] = field(default_factory=set)
    """Once Per Round attribute cards used this round."""
    haymaker: bool = False
    """Haymaker played: the next punch result this boxer scores is 1 higher."""


# -- the agenda: what a landed punch sets off, run in order until a window opens --------
@dataclass(frozen=True)
class _Land:
    """Draw a Result card for ``punch`` (``column`` None: the better of its two results)."""

    puncher: int
    punch: Punch
    column: Column | None


@dataclass(frozen=True)
class _ReadBigHit:
    puncher: int
    punch: Punch
    trapped: bool
    """The Big Hit came on the ropes or in the corner: another trap is ignored."""
    health_tko: bool
    """The target's Health was already 0: the fight is stopped once the Big Hit is read."""


@dataclass(frozen=True)
class _OpenEscape:
    pass


@dataclass(frozen=True)
class _TrappedPunch:
    puncher: int
    punch: Punch


@dataclass(frozen=True)
class _Release:
    pass


@dataclass(frozen=True)
class _EndTurn:
    pass


_Step = _Land | _ReadBigHit | _OpenEscape | _TrappedPunch | _Release | _EndTurn


class BigTimeBoxing(
    Engine[BigTimeBoxingOptions, BigTimeBoxingAction, BigTimeBoxingPlayerView, BigTimeBoxingPublicView]
):
    """A fight between seat 0 and seat 1 from the first bell (or the Attribute draft) to
    a KO, a TKO or the judges' decision."""

    spec: ClassVar[GameSpec] = SPEC
    action_types: ClassVar[tuple[type, ...]] = BTB_ACTIONS

    def __init__(self, options: BigTimeBoxingOptions, players: int = 2, seed: int = 0) -> None:
        super().__init__(options, players, seed)
        first = options.first_player
        self.odd_round_first: int = self.rng.randrange(2) if first is None else first
        self.max_energy = [options.starting_energy, options.starting_energy]
        self.boxers = [Boxer(options.starting_energy, options.starting_health) for _ in SEATS]
        self.round = 0
        self.phase = Phase.DRAFT
        self.active = self.odd_round_first
        self.window_player: int | None = None
        self.pending_punch: Punch | None = None
        self.trap: Trap | None = None
        self.trapped: int | None = None
        self.trap_left: list[Punch] = []
        self.table: list[int] = []
        self.thrown: list[ThrownPunch] = []
        self.agenda: list[_Step] = []
        self.discard: list[int] = []
        self.unused: list[int] = list(range(len(_BOXERS)))
        """Face-down cards out of play: all of them before the first deal, then those left in
        hands and decks when a round ended, until the next reshuffle."""
        if options.thinky:
            self.pool_seats: tuple[tuple[int, ...], ...] = ((0,), (1,))
            self.pool_of = tuple(int(card.gloves_hanging) for card in _BOXERS)
        else:
            self.pool_seats = ((0, 1),)
            self.pool_of = tuple(0 for _ in _BOXERS)
        self.aside: list[list[int]] = [[] for _ in self.pool_seats]
        self.results: list[int] = []
        """The Result deck, top last."""
        self.result_discard: list[int] = []
        self.last_result: int | None = None
        self.draft_order: list[int] = []
        self.winner: int | None = None
        self.finish: Finish | None = None
        self.scorecard: list[RoundScored] = []
        """Every round scored so far: the score sheet."""
        if options.result_order is not None:
            self.results = list(reversed(options.result_order))
        else:
            self.results = list(range(len(_RESULTS)))
            self.rng.shuffle(self.results)
        events: list[Event] = []
        self._setup_attributes(events)
        self.opening_events: tuple[Event, ...] = tuple(events)

    # -- protocol ----------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase is Phase.TURN:
            return frozenset((self.active,))
        if phase in _WINDOW_PHASES:
            assert self.window_player is not None
            return frozenset((self.window_player, CABINET))
        if phase is Phase.DRAFT:
            return frozenset(self.draft_order[:1])
        return frozenset()

    def legal_actions(self, player: int) -> Sequence[BigTimeBoxingAction]:
        phase = self.phase
        if phase is Phase.OVER:
            return ()
        if player == CABINET:
            return _WINDOW_CLOSED if phase in _WINDOW_PHASES else ()
        if phase is Phase.TURN:
            return self._turn_actions(player) if player == self.active else ()
        if phase is Phase.DRAFT:
            if not self.draft_order or player != self.draft_order[0]:
                return ()
            mine = self.boxers[player].attributes
            return tuple(ChooseAttribute(player, a.id) for a in _ATTRIBUTES if a.boxer == player and a.id not in mine)
        if player != self.window_player:
            return ()
        answers: list[BigTimeBoxingAction]
        if phase is Phase.COMBO:
            answers = [Combo(player, c) for c in self._combo_cards(player)]
        elif phase is Phase.ESCAPE:
            answers = [Escape(player, c) for c in self._escape_cards(player)]
        else:
            assert self.pending_punch is not None
            answers = [Defend(player, c) for c in self._defense_cards(player, self.pending_punch)]
        answers.append(Pass(player))
        return tuple(answers)

    def check(self, action: BigTimeBoxingAction) -> None:
        if type(action) not in BTB_ACTIONS:
            raise IllegalAction(f"Big Time Boxing has no action {type(action).__name__}")
        if self.phase is Phase.OVER:
            raise IllegalAction("the fight is over")
        if action not in self.legal_actions(action.player):
            raise IllegalAction(self._why_not(action))

    def _apply(self, action: BigTimeBoxingAction) -> tuple[Event, ...]:
        events: list[Event] = []
        if isinstance(action, ChooseAttribute):
            self._choose_attribute(action, events)
        elif isinstance(action, Throw):
            self._throw(action, events)
        elif isinstance(action, (MoveAway, Clinch, CoverUp)):
            self._take_other_turn(action, events)
        elif isinstance(action, UseAttribute):
            self._use_attribute(action, events)
        else:
            self._answer_window(action, events)
        return tuple(events)

    def outcome(self) -> Outcome | None:
        if self.finish is None:
            return None
        return Outcome(self.winner, self.finish, self._cards())

    # -- legality ------------------------------------------------------------------------
    def playable(self, player: int) -> list[int]:
        """The cards ``player`` may play now: his hand, and a card saved in an earlier round."""
        boxer = self.boxers[player]
        if boxer.saved is not None and boxer.saved_round < self.round:
            return [*boxer.hand, boxer.saved]
        return boxer.hand

    def _turn_actions(self, player: int) -> tuple[BigTimeBoxingAction, ...]:
        boxer = self.boxers[player]
        cards = self.playable(player)
        energy = boxer.round_energy
        if energy == 0:
            return tuple(CoverUp(player, c) for c in cards)
        actions: list[BigTimeBoxingAction] = [Throw(player, c) for c in cards if _BOXERS[c].cost <= energy]
        actions += [MoveAway(player, c) for c in cards]
        if self._may_save(player):
            actions += [MoveAway(player, c, save=True) for c in boxer.hand]
        if energy in CLINCH_ENERGY:
            actions += [Clinch(player, c) for c in cards]
        for attribute in boxer.attributes:
            if self._may_use(player, _ATTRIBUTES[attribute]):
                actions.append(UseAttribute(player, attribute))
        return tuple(actions)

    def _may_save(self, player: int) -> bool:
        """Saving Something for Later: once a round, and never while a saved card is unplayed."""
        boxer = self.boxers[player]
        return self.options.saving_for_later and boxer.saved is None and boxer.saved_round != self.round

    def _may_use(self, player: int, attribute: AttributeCard) -> bool:
        boxer = self.boxers[player]
        if not attribute.effect.played_on_turn or not self._ready(player, attribute):
            return False
        if attribute.effect is Effect.SECOND_WIND:
            return 0 < boxer.round_energy < boxer.round_start_energy
        return not boxer.haymaker

    def _defense_cards(self, player: int, punch: Punch) -> list[int]:
        return [c for c in self.playable(player) if self._defends(player, _BOXERS[c], punch) is not None]

    def _defends(self, player: int, card: BoxerCard, punch: Punch) -> bool | None:
        """Whether ``card`` cancels ``punch``: True by its own feature (J/C cards also
        cancel H/U/B punches at Round Energy 0), False only thanks to Slick, else None."""
        wanted = Feature.JC_DEFENSE if punch.outside else Feature.HUB_DEFENSE
        if card.feature is wanted:
            return True
        if card.feature is Feature.JC_DEFENSE and self.boxers[player].round_energy == 0:
            return True
        if card.feature in (Feature.JC_DEFENSE, Feature.HUB_DEFENSE) and self._ready_effect(player, Effect.SLICK):
            return False
        return None

    def _combo_cards(self, player: int) -> list[int]:
        """Cards that may follow the first punch: a shared combo icon, never the same punch
        twice (but Jab/Jab and Body Blow/Body Blow), thrown from where the boxer stands
        (from O/S a Hook may follow, read in the OS/IS column), and affordable."""
        first = _BOXERS[self.table[0]]
        icons = first.feature.combo_icons
        boxer = self.boxers[player]
        if boxer.round_energy == 0:
            return []
        outside = boxer.position is Position.OUTSIDE
        chosen = []
        for c in self.playable(player):
            card = _BOXERS[c]
            if not icons & card.feature.combo_icons or card.cost > boxer.round_energy:
                continue
            if card.punch is first.punch and card.punch not in (Punch.JAB, Punch.BODY_BLOW):
                continue
            if outside != card.punch.outside and not (outside and card.punch is Punch.HOOK):
                continue
            chosen.append(c)
        return chosen

    def _escape_cards(self, player: int) -> list[int]:
        assert self.trap is not None
        wanted = _ESCAPES[self.trap]
        return [c for c in self.playable(player) if _BOXERS[c].feature is wanted]

    def _why_not(self, action: BigTimeBoxingAction) -> str:
        player = action.player
        if player not in self.to_act():
            if self.phase is Phase.DRAFT:
                return f"boxer {self.draft_order[0] + 1} picks an Attribute card now"
            if self.phase is Phase.TURN:
                return f"it is boxer {self.active + 1}'s turn"
            return f"boxer {(self.window_player or 0) + 1} is answering a {self.phase.value} window"
        card = getattr(action, "card", None)
        if card is not None and card not in self.playable(player):
            return f"card {card!r} is not in your hand"
        boxer = self.boxers[player]
        if self.phase is Phase.TURN:
            if boxer.round_energy == 0 and not isinstance(action, CoverUp):
                return "at Round Energy 0 you can only Cover Up"
            if isinstance(action, Throw):
                return f"that punch costs {_BOXERS[action.card].cost} energy and you have {boxer.round_energy}"
            if isinstance(action, Clinch):
                return "you can Clinch only at Round Energy 1 or 2"
            if isinstance(action, CoverUp):
                return "you can Cover Up only at Round Energy 0"
            if isinstance(action, MoveAway):
                return "you cannot save a card for later now (once a round, and only with none saved)"
            if isinstance(action, UseAttribute):
                return "that Attribute card cannot be played now"
        if isinstance(action, Defend) and self.pending_punch is not None:
            return f"that card cannot defend a {self.pending_punch.value.replace('_', ' ')}"
        if isinstance(action, Combo):
            return "that card does not combine with the punch thrown"
        if isinstance(action, Escape) and self.trap is not None:
            return f"that card cannot escape the {self.trap.value}"
        return f"{type(action).__name__} is not allowed now ({self.phase.value})"

    # -- attributes ----------------------------------------------------------------------
    def _setup_attributes(self, events: list[Event]) -> None:
        draw = self.options.attributes
        if draw is AttributeDraw.OFF:
            self._start_round(1, events)
            return
        at_random = {AttributeDraw.RANDOM: ATTRIBUTES_PER_FIGHT, AttributeDraw.MIXED: 1}.get(draw, 0)
        for seat in SEATS:
            own = [a.id for a in _ATTRIBUTES if a.boxer == seat]
            for attribute in self.rng.sample(own, at_random):
                self.boxers[seat].attributes.append(attribute)
                events.append(AttributeChosen(seat, attribute, at_random=True))
        second = 1 - self.odd_round_first
        self.draft_order = [second, 1 - second] * (ATTRIBUTES_PER_FIGHT - at_random)
        if not self.draft_order:
            self._end_draft(events)

    def _choose_attribute(self, action: ChooseAttribute, events: list[Event]) -> None:
        self.boxers[action.player].attributes.append(action.attribute)
        self.draft_order.pop(0)
        events.append(AttributeChosen(action.player, action.attribute, at_random=False))
        if not self.draft_order:
            self._end_draft(events)

    def _end_draft(self, events: list[Event]) -> None:
        for seat in SEATS:
            attribute = self._ready_effect(seat, Effect.DEEP_LUNGS)
            if attribute is not None:
                self._spend(seat, attribute, events)
                self.max_energy[seat] += 1
                self.boxers[seat].fight_energy += 1
                energy = self.boxers[seat].fight_energy
                events.append(EnergyChanged(seat, energy, energy, EnergyCause.DEEP_LUNGS))
        self._start_round(1, events)

    def _ready(self, seat: int, attribute: AttributeCard) -> bool:
        boxer = self.boxers[seat]
        if attribute.use is AttributeUse.SINGLE_USE:
            return attribute.id not in boxer.spent
        if attribute.use is AttributeUse.ONCE_PER_ROUND:
            return attribute.id not in boxer.used_this_round
        return True

    def _ready_effect(self, seat: int, effect: Effect) -> AttributeCard | None:
        """The boxer's Attribute card with ``effect``, if he holds it and may use it now."""
        for attribute in self.boxers[seat].attributes:
            card = _ATTRIBUTES[attribute]
            if card.effect is effect and self._ready(seat, card):
                return card
        return None

    def _spend(self, seat: int, attribute: AttributeCard, events: list[Event]) -> None:
        boxer = self.boxers[seat]
        if attribute.use is AttributeUse.SINGLE_USE:
            boxer.spent.add(attribute.id)
        elif attribute.use is AttributeUse.ONCE_PER_ROUND:
            boxer.used_this_round.add(attribute.id)
        events.append(AttributeUsed(seat, attribute.id))

    def _use_attribute(self, action: UseAttribute, events: list[Event]) -> None:
        seat = action.player
        attribute = _ATTRIBUTES[action.attribute]
        boxer = self.boxers[seat]
        self._spend(seat, attribute, events)
        if attribute.effect is Effect.SECOND_WIND:
            boxer.round_energy = min(boxer.round_start_energy, boxer.round_energy + SECOND_WIND_ENERGY)
            events.append(EnergyChanged(seat, boxer.round_energy, boxer.fight_energy, EnergyCause.SECOND_WIND))
        else:
            boxer.haymaker = True

    # -- rounds --------------------------------------------------------------------------
    def _start_round(self, round_: int, events: list[Event]) -> None:
        self.round = round_
        self.phase = Phase.TURN
        reshuffle = round_ % 2 == 1 or self.options.shuffle_every_round
        if round_ > 1 and reshuffle:
            self.results = sorted(self.results + self.result_discard)
            self.result_discard = []
            self.rng.shuffle(self.results)
            events.append(ResultDeckShuffled(ShuffleReason.NEW_ROUND))
        for boxer in self.boxers:
            boxer.position = Position.OUTSIDE
            boxer.round_energy = boxer.round_start_energy = boxer.fight_energy
            boxer.tired = False
            boxer.damage = boxer.judge_points = 0
            boxer.round_knockdowns = boxer.round_fouls = 0
            boxer.used_this_round.clear()
            boxer.haymaker = False
        for pool in range(len(self.pool_seats)):
            self._deal(pool, reshuffle)
        first = self.odd_round_first if round_ % 2 else 1 - self.odd_round_first
        self.active = first
        events.append(RoundStarted(round_, first, reshuffle))
        self._begin_turn(events)

    def _pool_cards(self, pool: int) -> list[int]:
        return [c for c in range(len(_BOXERS)) if self.pool_of[c] == pool]

    def _deal(self, pool: int, reshuffle: bool) -> None:
        """Twelve cards to each boxer of the pool (his first four into hand): after an even
        round (and before the first) from all the pool's cards, shuffled; after an odd
        round from the cards set aside, topped up from the discards if cards saved for
        later left too few."""
        saved = {b.saved for b in self.boxers}
        seats = self.pool_seats[pool]
        if reshuffle:
            order = self.options.boxer_order
            if self.round == 1 and order is not None:
                cards = [c for c in order if self.pool_of[c] == pool]
            else:
                cards = [c for c in self._pool_cards(pool) if c not in saved]
                self.rng.shuffle(cards)
            self.discard = [c for c in self.discard if self.pool_of[c] != pool]
            self.unused = [c for c in self.unused if self.pool_of[c] != pool]
        else:
            cards = self.aside[pool]
            short = DEALT_PER_ROUND * len(seats) - len(cards)
            if short > 0:
                spare = sorted(c for c in self.discard + self.unused if self.pool_of[c] == pool)
                self.rng.shuffle(spare)
                cards = cards + spare[:short]
                taken = set(spare[:short])
                self.discard = [c for c in self.discard if c not in taken]
                self.unused = [c for c in self.unused if c not in taken]
        for seat in seats:
            dealt, cards = cards[:DEALT_PER_ROUND], cards[DEALT_PER_ROUND:]
            self.boxers[seat].hand = dealt[:HAND_SIZE]
            self.boxers[seat].deck = list(reversed(dealt[HAND_SIZE:]))
        self.aside[pool] = cards

    def _begin_turn(self, events: list[Event]) -> None:
        """The active boxer's turn; a boxer with no cards left anywhere ends the round.
        (A boxer whose hand was emptied by defending draws back to four first.)"""
        boxer = self.boxers[self.active]
        if not boxer.hand:
            if not boxer.deck:
                self._end_round(events)
                return
            self._refill(self.active, events)
        self.phase = Phase.TURN
        events.append(TurnStarted(self.active))

    def _end_turn(self, events: list[Event]) -> None:
        player = self.active
        self.discard.extend(self.table)
        self.table = []
        self.thrown = []
        self._refill(player, events)
        boxer = self.boxers[player]
        if not boxer.hand and not boxer.deck:
            self._end_round(events)
            return
        self.active = 1 - player
        self._begin_turn(events)

    def _refill(self, player: int, events: list[Event]) -> None:
        boxer = self.boxers[player]
        drawn = 0
        while len(boxer.hand) < HAND_SIZE and boxer.deck:
            boxer.hand.append(boxer.deck.pop())
            drawn += 1
        if drawn:
            events.append(HandRefilled(player, drawn))

    def _end_round(self, events: list[Event]) -> None:
        red, blue = self.boxers
        judge = (red.judge_points, blue.judge_points)
        caused = (blue.damage, red.damage)
        totals = (judge[0] + caused[0], judge[1] + caused[1])
        downs = (red.round_knockdowns, blue.round_knockdowns)
        fouls = (red.round_fouls, blue.round_fouls)
        scores = round_scores(totals, downs, fouls)
        for seat in SEATS:
            self.boxers[seat].round_scores.append(scores[seat])
        scored = RoundScored(self.round, judge, caused, totals, scores, downs, fouls)
        self.scorecard.append(scored)
        events.append(scored)
        for boxer in self.boxers:
            self.unused.extend(boxer.hand)
            self.unused.extend(boxer.deck)
            boxer.hand, boxer.deck = [], []
        for seat in SEATS:
            self._treat_injury(seat, events)
        if self.round == self.options.rounds:
            cards = self._cards()
            knockdowns = (red.knockdowns_caused, blue.knockdowns_caused)
            injuries = (red.injuries_caused, blue.injuries_caused)
            winner, finish = decision(cards, self.options.sketchy_judges, knockdowns, injuries)
            self._finish(winner, finish, events)
            return
        for seat in SEATS:
            boxer = self.boxers[seat]
            boxer.fight_energy = max(0, boxer.fight_energy - 1)
            events.append(EnergyChanged(seat, boxer.round_energy, boxer.fight_energy, EnergyCause.END_OF_ROUND))
        spent = [seat for seat in SEATS if self.boxers[seat].fight_energy == 0]
        if len(spent) == 2:
            cards = self._cards()
            if cards[0] == cards[1]:
                self._finish(None, Finish.TECHNICAL_DRAW, events)
            else:
                self._finish(0 if cards[0] > cards[1] else 1, Finish.TECHNICAL_DECISION, events)
        elif spent:
            self._finish(1 - spent[0], Finish.TKO_EXHAUSTION, events)
        else:
            self._start_round(self.round + 1, events)

    def _treat_injury(self, seat: int, events: list[Event]) -> None:
        boxer = self.boxers[seat]
        if not boxer.injuries:
            return
        cutman = self._ready_effect(seat, Effect.CUTMAN)
        if cutman is None:
            return
        self._spend(seat, cutman, events)
        worst = min(boxer.injuries, key=WORST_INJURY_FIRST.index)
        boxer.injuries.remove(worst)
        events.append(InjuryTreated(seat, worst))

    def _cards(self) -> tuple[int, int]:
        return sum(self.boxers[0].round_scores), sum(self.boxers[1].round_scores)

    def _finish(self, winner: int | None, finish: Finish, events: list[Event]) -> None:
        self.winner, self.finish = winner, finish
        self.phase = Phase.OVER
        self.agenda = []
        self.window_player = None
        self.pending_punch = None
        events.append(FightEnded(winner, finish, self._cards()))

    # -- a turn --------------------------------------------------------------------------
    def _take(self, player: int, card: int) -> None:
        boxer = self.boxers[player]
        if card == boxer.saved and card not in boxer.hand:
            boxer.saved = None
        else:
            boxer.hand.remove(card)

    def _move(self, player: int, position: Position, events: list[Event]) -> None:
        boxer = self.boxers[player]
        if boxer.position is not position:
            boxer.position = position
            events.append(Moved(player, position))

    def _throw(self, action: Throw, events: list[Event]) -> None:
        player = action.player
        card = _BOXERS[action.card]
        self._take(player, card.id)
        self.table.append(card.id)
        self._move(player, area_for(card.punch), events)
        self._punch(player, card, combo=False, events=events)
        if self.phase is Phase.OVER:
            return
        self._open(Phase.RESPONSE, 1 - player, card.punch, events)

    def _punch(self, player: int, card: BoxerCard, combo: bool, events: list[Event]) -> None:
        """Record a thrown punch: its column, its energy, its Judge Points."""
        column = column_for(card.punch, self.boxers[player].position, self.boxers[1 - player].position)
        self.thrown.append(ThrownPunch(card.id, card.punch, column))
        events.append(PunchThrown(player, card.id, card.punch, column, combo))
        if not self._pay(player, card.cost, events):
            return
        if card.feature is Feature.JUDGE_POINT:
            self._gain_judge_point(player, JudgePointCause.CARD, events)
        if card.punch is Punch.JAB:
            fast_hands = self._ready_effect(player, Effect.FAST_HANDS)
            if fast_hands is not None:
                self._spend(player, fast_hands, events)
                self._gain_judge_point(player, JudgePointCause.FAST_HANDS, events)

    def _pay(self, player: int, cost: int, events: list[Event]) -> bool:
        """Lower Round Energy by ``cost`` with its Fight Energy consequences; False if the
        boxer's Fight Energy ran out and the fight is over."""
        if cost == 0:
            return True
        boxer = self.boxers[player]
        boxer.round_energy -= cost
        events.append(EnergyChanged(player, boxer.round_energy, boxer.fight_energy, EnergyCause.PUNCH))
        if boxer.round_energy <= TIRED_AT and not boxer.tired:
            boxer.tired = True
            boxer.fight_energy = max(0, boxer.fight_energy - 1)
            events.append(EnergyChanged(player, boxer.round_energy, boxer.fight_energy, EnergyCause.TIRED))
        if boxer.round_energy == 0:
            boxer.fight_energy = max(0, boxer.fight_energy - 1)
            events.append(EnergyChanged(player, boxer.round_energy, boxer.fight_energy, EnergyCause.EXHAUSTED))
        if boxer.fight_energy == 0:
            self._finish(1 - player, Finish.TKO_EXHAUSTION, events)
            return False
        return True

    def _take_other_turn(self, action: MoveAway | Clinch | CoverUp, events: list[Event]) -> None:
        player = action.player
        boxer = self.boxers[player]
        self._take(player, action.card)
        if isinstance(action, MoveAway):
            if action.save:
                boxer.saved, boxer.saved_round = action.card, self.round
            else:
                self.discard.append(action.card)
            events.append(MovedAway(player, None if action.save else action.card, action.save))
            self._move(player, Position.OUTSIDE, events)
            ring_general = self._ready_effect(player, Effect.RING_GENERAL)
            if ring_general is not None:
                self._spend(player, ring_general, events)
            else:
                self._lose_judge_point(player, JudgePointCause.MOVE_AWAY, events)
        elif isinstance(action, Clinch):
            self.discard.append(action.card)
            self._clinch(player, action.card, events)
        else:
            self.discard.append(action.card)
            events.append(CoveredUp(player, action.card))
        if self.phase is not Phase.OVER:
            self._end_turn(events)

    def _clinch(self, player: int, card: int, events: list[Event]) -> None:
        boxer = self.boxers[player]
        result = self._draw_result(events)
        events.append(Clinched(player, card, result.id))
        clinch = result.clinch
        gain = clinch.energy
        workhorse = self._ready_effect(player, Effect.WORKHORSE)
        if workhorse is not None:
            self._spend(player, workhorse, events)
            gain += 1
        energy = min(boxer.round_start_energy, boxer.round_energy + gain)
        if energy != boxer.round_energy:
            boxer.round_energy = energy
            events.append(EnergyChanged(player, energy, boxer.fight_energy, EnergyCause.CLINCH))
        if clinch.judge_point:
            self._lose_judge_point(player, JudgePointCause.CLINCH, events)
        self._damage(player, clinch.damage_to_you, DamageCause.HEAD_BUTT, events)
        self._damage(1 - player, clinch.damage_to_opponent, DamageCause.HEAD_BUTT, events)
        if clinch.warning:
            boxer.warnings += 1
            foul = boxer.warnings > 1
            boxer.round_fouls += foul
            events.append(Warned(player, foul))
        for seat in SEATS:
            self._move(seat, Position.OUTSIDE, events)

    # -- windows -------------------------------------------------------------------------
    def _open(self, phase: Phase, player: int, punch: Punch | None, events: list[Event]) -> None:
        """Open a window for ``player``.  It stays open whatever his hand holds (a window
        that closed early would tell the other boxer he has no card for it)."""
        self.phase = phase
        self.window_player = player
        self.pending_punch = punch
        window = phase.window
        assert window is not None
        events.append(WindowOpened(window, player, punch))

    def _answer_window(self, action: Combo | Defend | Escape | Pass | WindowClosed, events: list[Event]) -> None:
        phase = self.phase
        player = self.window_player
        assert player is not None
        window = phase.window
        assert window is not None
        self.window_player = None
        punch = self.pending_punch
        self.pending_punch = None
        if isinstance(action, (Pass, WindowClosed)):
            events.append(Passed(player, window, timed_out=isinstance(action, WindowClosed)))
            if phase is Phase.RESPONSE:
                first = self.thrown[0]
                if _BOXERS[first.card].feature.combo_icons:
                    self._open(Phase.COMBO, self.active, None, events)
                    return
                self.agenda = [_Land(self.active, first.punch, first.column), _EndTurn()]
            elif phase is Phase.COMBO:
                first = self.thrown[0]
                self.agenda = [_Land(self.active, first.punch, first.column), _EndTurn()]
            elif phase is Phase.TRAPPED_RESPONSE:
                assert punch is not None
                self.agenda.insert(0, _Land(self.active, punch, None))
        elif isinstance(action, Defend):
            assert punch is not None
            self._defend(player, action.card, punch, events)
            if phase is Phase.RESPONSE:
                self.agenda = [_EndTurn()]
        elif isinstance(action, Combo):
            card = _BOXERS[action.card]
            self._take(player, card.id)
            self.table.append(card.id)
            self._punch(player, card, combo=True, events=events)
            if self.phase is Phase.OVER:
                return
            first, second = self.thrown
            self.agenda = [
                _Land(player, first.punch, first.column),
                _Land(player, second.punch, second.column),
                _EndTurn(),
            ]
        else:
            self._escape(player, action.card, events)
        self._run(events)

    def _defend(self, player: int, card: int, punch: Punch, events: list[Event]) -> None:
        by_feature = self._defends(player, _BOXERS[card], punch)
        self._take(player, card)
        self.discard.append(card)
        if not by_feature:
            slick = self._ready_effect(player, Effect.SLICK)
            assert slick is not None
            self._spend(player, slick, events)
        events.append(Defended(player, card, punch))
        counterpuncher = self._ready_effect(player, Effect.COUNTERPUNCHER)
        if counterpuncher is not None:
            self._spend(player, counterpuncher, events)
            self._gain_judge_point(player, JudgePointCause.COUNTERPUNCHER, events)

    def _escape(self, player: int, card: int, events: list[Event]) -> None:
        self._take(player, card)
        self.discard.append(card)
        events.append(Escaped(player, card))
        self.agenda = [s for s in self.agenda if not isinstance(s, (_TrappedPunch, _Release))]
        self._release(events)

    def _release(self, events: list[Event]) -> None:
        trapped = self.trapped
        if trapped is None:
            return
        self.trap, self.trapped, self.trap_left = None, None, []
        for seat in (trapped, 1 - trapped):
            self._move(seat, Position.OUTSIDE, events)
        events.append(Released(trapped))

    # -- the agenda ----------------------------------------------------------------------
    def _run(self, events: list[Event]) -> None:
        """Carry out queued steps until a window opens, the turn passes or the fight ends."""
        self.phase = Phase.TURN
        while self.agenda:
            step = self.agenda.pop(0)
            if isinstance(step, _Land):
                self._land(step, events)
            elif isinstance(step, _ReadBigHit):
                self._read_big_hit(step, events)
            elif isinstance(step, _OpenEscape):
                assert self.trapped is not None
                self._open(Phase.ESCAPE, self.trapped, None, events)
            elif isinstance(step, _TrappedPunch):
                assert self.trapped is not None
                self.trap_left.pop(0)
                self._open(Phase.TRAPPED_RESPONSE, self.trapped, step.punch, events)
            elif isinstance(step, _Release):
                self._release(events)
            else:
                self._end_turn(events)
            if self.phase is not Phase.TURN:
                return

    def _draw_result(self, events: list[Event]) -> ResultCard:
        if not self.results:
            self.results = sorted(self.result_discard)
            self.result_discard = []
            self.rng.shuffle(self.results)
            events.append(ResultDeckShuffled(ShuffleReason.EMPTY))
        card = self.results.pop()
        self.result_discard.append(card)
        self.last_result = card
        return _RESULTS[card]

    def _land(self, step: _Land, events: list[Event]) -> None:
        puncher, target = step.puncher, 1 - step.puncher
        result = self._draw_result(events)
        value = result.value(step.punch, step.column) if step.column is not None else result.better(step.punch)
        boxer = self.boxers[puncher]
        if boxer.haymaker:
            boxer.haymaker = False
            value = min(MAX_RESULT, value + 1)
        events.append(ResultDrawn(result.id, puncher, step.punch, step.column, value))
        was_zero = self.boxers[target].health == 0
        self._damage(target, value, DamageCause.PUNCH, events)
        if value >= MAX_RESULT:
            self.agenda.insert(0, _ReadBigHit(puncher, step.punch, trapped=step.column is None, health_tko=was_zero))
        elif value >= 2 and was_zero:
            self._finish(puncher, Finish.TKO_HEALTH, events)

    def _read_big_hit(self, step: _ReadBigHit, events: list[Event]) -> None:
        puncher, target = step.puncher, 1 - step.puncher
        result = self._draw_result(events)
        big_hit = result.big_hit
        if big_hit in _TRAPS:
            ignored = step.trapped or step.health_tko
            events.append(BigHitDrawn(result.id, big_hit, ignored))
            if not ignored:
                self._trap(puncher, _TRAPS[big_hit], events)
        elif big_hit in INJURY_OF:
            injury = INJURY_OF[big_hit]
            thick_skin = self._ready_effect(target, Effect.THICK_SKIN) if injury is Injury.CUT_UNDER_EYE else None
            ignored = (injury is not Injury.HURT and not step.punch.head) or thick_skin is not None
            events.append(BigHitDrawn(result.id, big_hit, ignored))
            if thick_skin is not None and step.punch.head:
                self._spend(target, thick_skin, events)
            if not ignored:
                self._injure(puncher, injury, events)
        elif big_hit is BigHit.KNOCKDOWN:
            events.append(BigHitDrawn(result.id, big_hit, ignored=False))
            self._knockdown(puncher, events)
        else:
            events.append(BigHitDrawn(result.id, big_hit, ignored=False))
        if step.health_tko and self.phase is not Phase.OVER:
            self._finish(puncher, Finish.TKO_HEALTH, events)

    def _trap(self, puncher: int, trap: Trap, events: list[Event]) -> None:
        target = 1 - puncher
        self.trap, self.trapped = trap, target
        self.trap_left = list(trap.punches)
        self._move(target, trap.position, events)
        events.append(Trapped(target, trap))
        self._refill(puncher, events)
        steps: list[_Step] = [_OpenEscape()]
        steps += [_TrappedPunch(puncher, punch) for punch in trap.punches]
        steps.append(_Release())
        self.agenda[0:0] = steps

    def _injure(self, puncher: int, injury: Injury, events: list[Event]) -> None:
        target = 1 - puncher
        boxer = self.boxers[target]
        boxer.injuries.append(injury)
        self.boxers[puncher].injuries_caused += 1
        events.append(Injured(target, injury, len(boxer.injuries)))
        self._damage(target, INJURY_DAMAGE[injury], DamageCause.INJURY, events)
        if injury is Injury.CUT_OVER_EYE and boxer.injuries.count(injury) >= 2:
            self._finish(puncher, Finish.TKO_CUT_OVER_EYE, events)
        elif injury is Injury.NOSE_BLEED and boxer.injuries.count(injury) >= 2:
            self._finish(puncher, Finish.TKO_NOSE_BLEED, events)
        elif len(boxer.injuries) >= TKO_INJURIES:
            self._finish(puncher, Finish.TKO_INJURIES, events)

    def _knockdown(self, puncher: int, events: list[Event]) -> None:
        target = 1 - puncher
        boxer = self.boxers[target]
        boxer.knockdowns += 1
        boxer.round_knockdowns += 1
        self.boxers[puncher].knockdowns_caused += 1
        events.append(KnockedDown(target, boxer.knockdowns))
        damage = KNOCKDOWN_DAMAGE
        granite = self._ready_effect(target, Effect.GRANITE_CHIN)
        if granite is not None:
            self._spend(target, granite, events)
            damage = 3
        self._damage(target, damage, DamageCause.KNOCKDOWN, events)
        count = self._draw_result(events)
        events.append(Count(count.id, count.heart))
        by_attribute = False
        if not count.heart:
            champion = self._ready_effect(target, Effect.HEART_OF_A_CHAMPION)
            if champion is None:
                self._finish(puncher, Finish.KO, events)
                return
            self._spend(target, champion, events)
            by_attribute = True
        events.append(GotUp(target, by_attribute))
        if self.options.three_knockdown_tko and boxer.knockdowns >= TKO_KNOCKDOWNS:
            self._finish(puncher, Finish.TKO_KNOCKDOWNS, events)
            return
        # Back to the O/S areas; whatever this turn still had to land is lost in the count.
        self.agenda = [s for s in self.agenda if isinstance(s, _EndTurn)]
        self.trap, self.trapped, self.trap_left = None, None, []
        for seat in SEATS:
            self._move(seat, Position.OUTSIDE, events)

    # -- gauges --------------------------------------------------------------------------
    def _damage(self, player: int, amount: int, cause: DamageCause, events: list[Event]) -> None:
        """Raise the Damage die; every multiple of 3 it passes lowers Health by 1."""
        if amount <= 0:
            return
        boxer = self.boxers[player]
        before = boxer.damage
        boxer.damage += amount
        boxer.health = max(0, boxer.health - (boxer.damage // 3 - before // 3))
        events.append(DamageTaken(player, amount, boxer.damage, boxer.health, cause))

    def _gain_judge_point(self, player: int, cause: JudgePointCause, events: list[Event]) -> None:
        boxer = self.boxers[player]
        if boxer.judge_points < MAX_JUDGE_POINTS:
            boxer.judge_points += 1
            events.append(JudgePoints(player, 1, boxer.judge_points, cause))

    def _lose_judge_point(self, player: int, cause: JudgePointCause, events: list[Event]) -> None:
        """A boxer with no Judge Point to lose gives his opponent one instead."""
        boxer = self.boxers[player]
        if boxer.judge_points > 0:
            boxer.judge_points -= 1
            events.append(JudgePoints(player, -1, boxer.judge_points, cause))
        else:
            self._gain_judge_point(1 - player, JudgePointCause.GONE_MINUS, events)

    # -- views ---------------------------------------------------------------------------
    def _status(self, seat: int) -> BoxerStatus:
        b = self.boxers[seat]
        return BoxerStatus(
            position=b.position,
            fight_energy=b.fight_energy,
            round_energy=b.round_energy,
            round_start_energy=b.round_start_energy,
            health=b.health,
            health_dice=health_dice(b.health),
            damage=b.damage,
            judge_points=b.judge_points,
            injuries=tuple(b.injuries),
            knockdowns=b.knockdowns,
            round_knockdowns=b.round_knockdowns,
            warnings=b.warnings,
            round_fouls=b.round_fouls,
            hand_size=len(b.hand),
            deck_size=len(b.deck),
            has_saved=b.saved is not None,
            attributes=tuple(b.attributes),
            attributes_spent=tuple(sorted(b.spent | b.used_this_round)),
            round_scores=tuple(b.round_scores),
            knockdowns_caused=b.knockdowns_caused,
            injuries_caused=b.injuries_caused,
        )

    def public_view(self) -> BigTimeBoxingPublicView:
        return BigTimeBoxingPublicView(
            options=self.options,
            phase=self.phase,
            round=self.round,
            active=self.active,
            odd_round_first=self.odd_round_first,
            window_player=self.window_player,
            window_punch=self.pending_punch,
            thrown=tuple(self.thrown),
            trap=self.trap,
            trapped=self.trapped,
            trap_punches_left=tuple(self.trap_left),
            boxers=(self._status(0), self._status(1)),
            discard=tuple(self.discard),
            result_discard=tuple(self.result_discard),
            result_deck_size=len(self.results),
            set_aside=sum(len(a) for a in self.aside),
            last_result=self.last_result,
            drafting=self.draft_order[0] if self.phase is Phase.DRAFT and self.draft_order else None,
            winner=self.winner,
            finish=self.finish,
            scorecard=tuple(self.scorecard),
        )

    def view(self, player: int) -> BigTimeBoxingPlayerView:
        if player not in SEATS:
            raise ValueError(f"there is no seat {player} in Big Time Boxing")
        boxer = self.boxers[player]
        return BigTimeBoxingPlayerView(
            player=player,
            public=self.public_view(),
            hand=tuple(boxer.hand),
            saved=boxer.saved,
            saved_playable=boxer.saved is not None and boxer.saved_round < self.round,
        )

    # -- invariants ----------------------------------------------------------------------
    def card_places(self) -> dict[str, tuple[int, ...]]:
        """Every Boxer card by place: hands, decks, saved, set aside, unused, discard, table."""
        places: dict[str, tuple[int, ...]] = {}
        for seat, boxer in enumerate(self.boxers):
            places[f"hand{seat}"] = tuple(boxer.hand)
            places[f"deck{seat}"] = tuple(boxer.deck)
            places[f"saved{seat}"] = () if boxer.saved is None else (boxer.saved,)
        for pool, cards in enumerate(self.aside):
            places[f"aside{pool}"] = tuple(cards)
        places["unused"] = tuple(self.unused)
        places["discard"] = tuple(self.discard)
        places["table"] = tuple(self.table)
        return places

    def audit(self) -> None:
        """Every Boxer and Result card in exactly one place; energy, health, Judge Points and
        hands in range."""
        every = sorted(c for cards in self.card_places().values() for c in cards)
        assert every == list(range(len(_BOXERS))), "a Boxer card is missing or in two places"
        results = sorted(self.results + self.result_discard)
        assert results == list(range(len(_RESULTS))), "a Result card is missing or in two places"
        for seat, b in enumerate(self.boxers):
            top = self.max_energy[seat]
            assert 0 <= b.fight_energy <= top, f"boxer {seat}: Fight Energy {b.fight_energy} outside 0..{top}"
            assert 0 <= b.round_energy <= b.round_start_energy <= top, f"boxer {seat}: Round Energy {b.round_energy}"
            assert 0 <= b.health <= self.options.starting_health, f"boxer {seat}: Health {b.health}"
            assert 0 <= b.judge_points <= MAX_JUDGE_POINTS, f"boxer {seat}: {b.judge_points} Judge Points"
            assert len(b.hand) <= HAND_SIZE, f"boxer {seat} holds {len(b.hand)} cards"
            assert b.damage >= 0 and len(b.injuries) <= TKO_INJURIES
            assert len(b.attributes) <= ATTRIBUTES_PER_FIGHT
        if self.trap is not None and self.trapped is not None:
            assert self.boxers[self.trapped].position is self.trap.position, "a trapped boxer left the trap"
