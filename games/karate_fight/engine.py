"""The Karate Fight rule engine: bouts, Hits judged by microsecond stamps, Jan Ken.

The engine never reads a clock: the cabinet's session hands it every stamped input in
stamp order (see :mod:`games.karate_fight.judging`).  Rule choices the rulebook leaves
open are written down in ``docs/rules/karate_fight.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from games.karate_fight.actions import PlayTop, Shown, Slaps, Throw, TimeCheck
from games.karate_fight.cards import DECK_SIZE, CardKind, Technique, kind_of
from games.karate_fight.events import (
    BoutReason,
    BoutWon,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    DirectionReversed,
    FighterOut,
    FightWon,
    HitShowing,
    HitWon,
    IgnoreReason,
    JanKenReason,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateMaster,
    OutOfCards,
    Reaction,
    Reentered,
    SignLocked,
    SlapIgnored,
    ThrownSign,
    TimeUp,
    ToPlay,
    WinReason,
)
from games.karate_fight.hits import HitKind, hit_caused
from games.karate_fight.jan_ken import Sign, round_winners
from games.karate_fight.judging import Verdict, judge
from games.karate_fight.options import KarateOptions
from games.karate_fight.views import (
    FighterStatus,
    FighterView,
    HitReport,
    JanKenView,
    KaratePlayerView,
    KaratePublicView,
)
from games.protocol import CABINET, Engine, Event, GameSpec, IllegalAction, Outcome

SPEC = GameSpec(
    name="karate_fight",
    title="Karate Fight",
    min_players=2,
    max_players=4,
    options_type=KarateOptions,
    judges_time=True,
    uses_slaps=True,
)

KarateAction = PlayTop | Shown | Slaps | Throw | TimeCheck

_NEVER = 1 << 62
"""A deadline no stamp reaches (µs: ~146 000 years): no limit, or regulation already over."""


@dataclass
class _Hit:
    """A Hit caused by the last card; showing once its reveal stamp is known."""

    kind: HitKind
    revealed_us: int | None = None
    early: list[tuple[int, int]] = field(default_factory=list)
    """(fighter, stamp) of Coward's Blows while the card was not yet on screen."""


@dataclass
class _HitRecord:
    """The last judged Hit, kept for the after-Hit screen and the grace period."""

    kind: HitKind
    revealed_us: int
    won_us: int
    winner: int | None
    reactions: list[Reaction] = field(default_factory=list)

    def report(self) -> HitReport:
        margin = None
        if len(self.reactions) >= 2:
            margin = self.reactions[1].reaction_us - self.reactions[0].reaction_us
        return HitReport(self.kind, self.revealed_us, self.winner, tuple(self.reactions), margin)


@dataclass
class _Clock:
    """The time limit's clock (a cabinet variant; see ``KarateOptions.time_limit_us``)."""

    started_us: int | None = None
    """Stamp of the first card played: the time limit counts from here."""
    ends_us: int | None = None
    """When regulation ends (time limit only); ``None`` until the first card."""
    time_up_us: int | None = None
    """Stamp at which regulation ended (``TimeUp``)."""
    overtime_us: int | None = None
    """First stamp at or past ``ends_us`` seen while a Jan Ken was running: time is up as
    soon as that Jan Ken and its bout are settled."""


_CABINET_ONLY = frozenset((CABINET,))


@dataclass
class _JanKen:
    reason: JanKenReason
    fighters: tuple[int, ...]
    remaining: tuple[int, ...]
    signs: dict[int, Sign] = field(default_factory=dict)
    round: int = 1
    last_round: tuple[ThrownSign, ...] = ()


class KarateFight(Engine[KarateOptions, KarateAction, KaratePlayerView, KaratePublicView]):
    """A fight of 2–4 fighters, from the deal to the Karate Master (or, with a time
    limit, to the fighter holding most cards when time runs out)."""

    spec: ClassVar[GameSpec] = SPEC
    action_types: ClassVar[tuple[type, ...]] = (PlayTop, Shown, Slaps, Throw, TimeCheck)

    def __init__(self, options: KarateOptions, players: int, seed: int) -> None:
        super().__init__(options, players, seed)
        if not 0 <= options.first_fighter < players:
            raise ValueError(f"first_fighter {options.first_fighter} is not a seat of {players}")
        piles = self._deal(options, players)
        self.piles: list[deque[int]] = [deque(p) for p in piles]
        dealt = {c for p in piles for c in p}
        self.aside: tuple[int, ...] = tuple(c for c in range(DECK_SIZE) if c not in dealt)
        self.in_play = len(dealt)
        self.centre: list[int] = []
        """Bottom first."""
        self.played: list[tuple[int, CardKind]] = []
        """(fighter, kind) of this bout's played cards, in play order."""
        self.in_game = [True] * players
        self.direction = 1
        self.turn: int | None = options.first_fighter
        self.attacker: int | None = None
        self.chances: int | None = None
        self.hit: _Hit | None = None
        self.awaiting_reveal = False
        self.last_hit: _HitRecord | None = None
        self.jan_ken: _JanKen | None = None
        self.cowards = [0] * players
        self.fastest: list[int | None] = [None] * players
        self.master: int | None = None
        self.winner: int | None = None
        """Who won the fight: the Karate Master, or the winner on time."""
        self.win_reason: WinReason | None = None
        self.clock = _Clock()
        self._deadline = _NEVER
        """``clock.ends_us`` while regulation runs, else never: one compare per stamped
        input.  (The time-limit state lives in ``clock``: more than 30 attributes would
        cost CPython its fast attribute access on every action.)"""
        self.now = 0
        self.cards_played = 0
        """Latest stamp seen: stamps must never go back."""
        if not self.piles[self.turn]:
            raise ValueError("the first fighter must be dealt at least one card")

    def _deal(self, options: KarateOptions, players: int) -> list[list[int]]:
        if options.deal is None:
            deck = list(range(DECK_SIZE))
            self.rng.shuffle(deck)
            each = DECK_SIZE // players
            return [deck[i * each : (i + 1) * each] for i in range(players)]
        if len(options.deal) != players:
            raise ValueError(f"a prearranged deal needs {players} piles, not {len(options.deal)}")
        cards = [c for pile in options.deal for c in pile]
        if len(set(cards)) != len(cards) or not all(0 <= c < DECK_SIZE for c in cards):
            raise ValueError("a prearranged deal must use distinct card ids 0..53")
        return [list(p) for p in options.deal]

    # -- who acts ----------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        """The cabinet may always act while the fight runs: a slap can come at any time
        (a Coward's Blow), and so can a reveal report or a clock check."""
        if self.winner is not None:
            return frozenset()
        if self.jan_ken is not None:
            return frozenset((CABINET, *(f for f in self.jan_ken.remaining if f not in self.jan_ken.signs)))
        if self.hit is not None or self.turn is None:
            return _CABINET_ONLY
        return frozenset((CABINET, self.turn))

    def legal_actions(self, player: int) -> Sequence[KarateAction]:
        if self.winner is not None:
            return ()
        if player == CABINET:
            actions: list[KarateAction] = [Shown(t_us=self.now)] if self.awaiting_reveal else []
            actions += [Slaps(t_us=self.now, fighters=(f,)) for f in range(self.players) if self.in_game[f]]
            if self.clock.ends_us is not None and self.clock.time_up_us is None:
                actions.append(TimeCheck(t_us=max(self.now, self.clock.ends_us)))
            return tuple(actions)
        if player not in self.to_act():
            return ()
        if self.jan_ken is not None:
            return tuple(Throw(player, s) for s in Sign)
        return (PlayTop(player, self.now),)

    def check(self, action: KarateAction) -> None:
        if self.winner is not None:
            if self.master is not None:
                raise IllegalAction(f"the fight is over: fighter {self.master + 1} is Karate Master")
            raise IllegalAction(f"the fight is over: time ran out and fighter {self.winner + 1} won")
        if isinstance(action, Throw):
            self._check_throw(action)
            return
        if not isinstance(action, (PlayTop, Shown, Slaps, TimeCheck)):
            raise IllegalAction(f"Karate Fight has no action {type(action).__name__}")
        if action.t_us < self.now:
            raise IllegalAction(f"stamp {action.t_us} µs is earlier than the last input ({self.now} µs)")
        if isinstance(action, PlayTop):
            self._check_play(action)
        elif isinstance(action, Shown):
            if action.player != CABINET:
                raise IllegalAction("only the cabinet reports reveals")
        elif isinstance(action, Slaps):
            if action.player != CABINET:
                raise IllegalAction("only the cabinet reports slaps")
            if not action.fighters or len(set(action.fighters)) != len(action.fighters):
                raise IllegalAction("a slap batch names each slapping fighter once")
            if not all(0 <= f < self.players for f in action.fighters):
                raise IllegalAction(f"slap from a seat that is not in this {self.players}-fighter game")
        elif action.player != CABINET:
            raise IllegalAction("only the cabinet reports its clock")

    def _check_play(self, action: PlayTop) -> None:
        if self.jan_ken is not None:
            raise IllegalAction("Jan Ken first: throw rock, paper or scissors")
        if self.hit is not None:
            raise IllegalAction("a Hit is on the table: the bout waits until someone slaps it")
        if action.player != self.turn:
            raise IllegalAction(
                f"it is fighter {self.turn + 1}'s turn" if self.turn is not None else "no one may play now"
            )

    def _check_throw(self, action: Throw) -> None:
        if self.jan_ken is None:
            raise IllegalAction("there is no Jan Ken now")
        if action.player not in self.jan_ken.remaining:
            raise IllegalAction("you are not in this Jan Ken")
        if action.player in self.jan_ken.signs:
            raise IllegalAction("your sign is already locked for this round")
        if not isinstance(action.sign, Sign):
            raise IllegalAction("throw rock, paper or scissors")

    # -- applying ----------------------------------------------------------------------
    def _apply(self, action: KarateAction) -> tuple[Event, ...]:
        if isinstance(action, Throw):
            return tuple(self._throw(action))
        self.now = t_us = action.t_us
        if t_us >= self._deadline:
            if self.jan_ken is None:
                return tuple(self._time_up(t_us))  # the input is not applied as itself
            if self.clock.overtime_us is None:
                self.clock.overtime_us = t_us  # time is up once the running Jan Ken is settled
        if isinstance(action, PlayTop):
            if not self.cards_played:
                self._start_clock(t_us)  # the first card starts the fight's clock
            return tuple(self._play(action.player, t_us))
        if isinstance(action, Shown):
            if action.cards_played is not None and action.cards_played != self.cards_played:
                return ()  # a frame drawn before the latest card: it revealed nothing new
            return tuple(self._shown(t_us))
        if isinstance(action, Slaps):
            return tuple(self._slaps(t_us, action.fighters))
        return ()  # TimeCheck: the clock alone changes nothing before the limit

    def _play(self, fighter: int, t_us: int) -> list[Event]:
        card = self.piles[fighter].popleft()
        kind = kind_of(card)
        self.centre.append(card)
        self.played.append((fighter, kind))
        self.cards_played += 1
        self.awaiting_reveal = True
        hit = hit_caused([k for _, k in self.played])
        events: list[Event] = [CardPlayed(fighter, card, kind, hit, t_us)]
        if not self.piles[fighter]:
            events.append(OutOfCards(fighter))
        if hit is not None:
            self.hit, self.turn = _Hit(hit), None
            self.attacker = self.chances = None
            return events
        if kind is CardKind.JAN_KEN:
            fighters = tuple(f for f in range(self.players) if self.in_game[f])
            return events + self._start_jan_ken(JanKenReason.JAN_KEN_CARD, fighters)
        if kind is CardKind.COUNTER:
            self.direction = -self.direction
            events.append(DirectionReversed(self.direction))
            if self.attacker is not None:
                return events + self._attack(fighter, kind.chances)
            return events + self._pass_turn(fighter)
        if kind.technique is Technique.ATTACK:
            return events + self._attack(fighter, kind.chances)
        if self.attacker is not None:
            assert self.chances is not None
            self.chances -= 1
            if self.chances == 0 or not self.piles[fighter]:
                return events + self._win_bout(self.attacker, BoutReason.LAST_ATTACK)
            return events + [ToPlay(fighter, self.attacker, self.chances)]
        return events + self._pass_turn(fighter)

    def _next_with_cards(self, fighter: int) -> int | None:
        """The next fighter in the direction of play who can draw (may be ``fighter``)."""
        for step in range(1, self.players + 1):
            seat = (fighter + step * self.direction) % self.players
            if self.in_game[seat] and self.piles[seat]:
                return seat
        return None

    def _attack(self, attacker: int, chances: int) -> list[Event]:
        responder = self._next_with_cards(attacker)
        if responder is None or responder == attacker:
            return self._win_bout(attacker, BoutReason.LAST_ATTACK)
        self.attacker, self.chances, self.turn = attacker, chances, responder
        return [ToPlay(responder, attacker, chances)]

    def _pass_turn(self, fighter: int) -> list[Event]:
        nxt = self._next_with_cards(fighter)
        if nxt is None:
            return self._win_bout(self._fallback_winner(), BoutReason.NO_ONE_CAN_PLAY)
        self.turn = nxt
        return [ToPlay(nxt, None, None)]

    def _fallback_winner(self) -> int:
        """Who takes a bout nobody can play on: whoever played the latest card and is
        still in the game, else the first fighter still in it from the one to play."""
        for fighter, _ in reversed(self.played):
            if self.in_game[fighter]:
                return fighter
        start = self.turn if self.turn is not None else 0
        for step in range(self.players):
            seat = (start + step) % self.players
            if self.in_game[seat]:
                return seat
        raise AssertionError("no fighter left in the game")

    def _shown(self, t_us: int) -> list[Event]:
        """A reveal with nothing awaiting it (the card already ended its bout, or a
        repeated report) is no news: a Hit's reveal stamp is its first."""
        self.awaiting_reveal = False
        if self.hit is None or self.hit.revealed_us is not None:
            return []
        self.hit.revealed_us = t_us
        early = tuple(Reaction(f, slap - t_us) for f, slap in self.hit.early)
        return [HitShowing(self.hit.kind, t_us, early)]

    def _slaps(self, t_us: int, fighters: tuple[int, ...]) -> list[Event]:
        events: list[Event] = []
        slappers = []
        for f in sorted(fighters):
            if self.in_game[f]:
                slappers.append(f)
            else:
                events.append(SlapIgnored(f, t_us, IgnoreReason.OUT_OF_GAME, None, None))
        if not slappers:
            return events
        revealed = self.hit.revealed_us if self.hit is not None else None
        won = self.last_hit.won_us if self.last_hit is not None else None
        verdict = judge(
            t_us, revealed_us=revealed, won_us=won, grace_us=self.options.grace_us, jan_ken=self.jan_ken is not None
        )
        if verdict is Verdict.HIT:
            return events + self._hit_slapped(t_us, tuple(slappers))
        if verdict is Verdict.GRACE:
            return events + [self._late_slap(f, t_us) for f in slappers]
        if verdict is Verdict.JAN_KEN:
            return events + [SlapIgnored(f, t_us, IgnoreReason.JAN_KEN, None, None) for f in slappers]
        standing = {f for f in range(self.players) if self.in_game[f]}
        can_go_out = {f for f in slappers if self.piles[f]} | (standing - set(slappers))
        for f in slappers:
            events += self._cowards_blow(f, t_us, can_go_out=bool(can_go_out))
        return events + self._after_cowards()

    def _record_reaction(self, fighter: int, reaction_us: int) -> None:
        best = self.fastest[fighter]
        if best is None or reaction_us < best:
            self.fastest[fighter] = reaction_us

    def _hit_slapped(self, t_us: int, slappers: tuple[int, ...]) -> list[Event]:
        assert self.hit is not None and self.hit.revealed_us is not None
        kind, revealed = self.hit.kind, self.hit.revealed_us
        reaction = t_us - revealed
        self.hit = None
        winner = slappers[0] if len(slappers) == 1 else None
        self.last_hit = _HitRecord(kind, revealed, t_us, winner, [Reaction(f, reaction) for f in slappers])
        for f in slappers:
            self._record_reaction(f, reaction)
        if winner is None:
            events: list[Event] = [DeadHeat(kind, slappers, t_us, reaction)]
            return events + self._start_jan_ken(JanKenReason.DEAD_HEAT, slappers)
        events = [HitWon(kind, winner, revealed, t_us, reaction, by_jan_ken=False)]
        return events + self._win_bout(winner, BoutReason.HIT)

    def _late_slap(self, fighter: int, t_us: int) -> SlapIgnored:
        record = self.last_hit
        assert record is not None
        reaction = t_us - record.revealed_us
        if all(r.fighter != fighter for r in record.reactions):
            record.reactions.append(Reaction(fighter, reaction))
            self._record_reaction(fighter, reaction)
        return SlapIgnored(fighter, t_us, IgnoreReason.GRACE, reaction, t_us - record.won_us)

    def _cowards_blow(self, fighter: int, t_us: int, can_go_out: bool) -> list[Event]:
        """``can_go_out`` is false when this stamp's blows would put out every fighter
        still in: then nobody goes out (there must be someone to win)."""
        pending = self.hit.kind if self.hit is not None else None
        if self.hit is not None:
            self.hit.early.append((fighter, t_us))
        pile = self.piles[fighter]
        if not pile:
            if not can_go_out:
                return [CowardsBlow(fighter, t_us, 0, pending)]
            self.in_game[fighter] = False
            return [CowardsBlow(fighter, t_us, 0, pending), FighterOut(fighter)]
        owed = 1 if self.cowards[fighter] == 0 else 2
        self.cowards[fighter] += 1
        paid = 0
        while pile and paid < owed:
            self.centre.insert(0, pile.popleft())
            paid += 1
        events: list[Event] = [CowardsBlow(fighter, t_us, paid, pending)]
        if not pile:
            events.append(OutOfCards(fighter))
        return events

    def _after_cowards(self) -> list[Event]:
        """Mend the turn after Coward's Blows emptied or put out fighters."""
        standing = [f for f in range(self.players) if self.in_game[f]]
        if len(standing) == 1:
            self.hit = None
            return self._win_bout(standing[0], BoutReason.LAST_STANDING)
        if self.hit is not None or self.jan_ken is not None:
            return []
        if self.attacker is not None and not self.in_game[self.attacker]:
            self.attacker = self.chances = None
        assert self.turn is not None
        if self.in_game[self.turn] and self.piles[self.turn]:
            return []
        if self.attacker is not None:
            return self._win_bout(self.attacker, BoutReason.LAST_ATTACK)
        return self._pass_turn(self.turn)

    def _start_jan_ken(self, reason: JanKenReason, fighters: tuple[int, ...]) -> list[Event]:
        self.jan_ken, self.turn = _JanKen(reason, fighters, fighters), None
        self.attacker = self.chances = None
        return [JanKenStarted(reason, fighters)]

    def _throw(self, action: Throw) -> list[Event]:
        jk = self.jan_ken
        assert jk is not None
        jk.signs[action.player] = action.sign
        events: list[Event] = [SignLocked(action.player)]
        if len(jk.signs) < len(jk.remaining):
            return events
        shown = tuple(ThrownSign(f, jk.signs[f]) for f in jk.remaining)
        winners = round_winners(jk.signs)
        eliminated = () if winners is None else tuple(f for f in jk.remaining if f not in winners)
        remaining = jk.remaining if winners is None else winners
        events.append(JanKenRound(jk.round, shown, eliminated, remaining))
        jk.last_round, jk.remaining, jk.signs = shown, remaining, {}
        jk.round += 1
        if len(remaining) > 1:
            return events
        winner = remaining[0]
        self.jan_ken = None
        events.append(JanKenWon(winner, jk.reason))
        if jk.reason is JanKenReason.TIME_UP:
            return events + self._fight_won(winner, WinReason.TIME_UP_JAN_KEN)
        if jk.reason is JanKenReason.JAN_KEN_CARD:
            events += self._win_bout(winner, BoutReason.JAN_KEN)
        else:
            record = self.last_hit
            assert record is not None
            record.winner = winner
            reaction = record.won_us - record.revealed_us
            events.append(HitWon(record.kind, winner, record.revealed_us, record.won_us, reaction, by_jan_ken=True))
            events += self._win_bout(winner, BoutReason.HIT)
        if self.clock.overtime_us is not None and self.winner is None:
            if isinstance(events[-1], ToPlay):
                events.pop()  # nobody plays on: regulation is over
            events += self._time_up(self.clock.overtime_us)
        return events

    # -- time limit (a cabinet variant) ----------------------------------------------
    def _start_clock(self, t_us: int) -> None:
        self.clock.started_us = t_us
        if self.options.time_limit_us is not None:
            self.clock.ends_us = self._deadline = t_us + self.options.time_limit_us

    def _time_up(self, t_us: int) -> list[Event]:
        """Regulation is over: the bout in progress is void (a Hit on the table is won by
        nobody, the centre stays where it is and is not counted); most cards wins, a tie
        goes to Jan Ken among exactly the tied fighters."""
        self.clock.time_up_us = t_us
        self._deadline = _NEVER
        void = self.hit.kind if self.hit is not None else None
        self.hit = None
        self.awaiting_reveal = False
        self.turn = self.attacker = self.chances = None
        piles = tuple(len(p) for p in self.piles)
        events: list[Event] = [TimeUp(t_us, piles, len(self.centre), void)]
        standing = [f for f in range(self.players) if self.in_game[f]]
        most = max(piles[f] for f in standing)
        tied = tuple(f for f in standing if piles[f] == most)
        if len(tied) == 1:
            return events + self._fight_won(tied[0], WinReason.MOST_CARDS)
        return events + self._start_jan_ken(JanKenReason.TIME_UP, tied)

    def _fight_won(self, winner: int, reason: WinReason) -> list[Event]:
        self.winner, self.win_reason = winner, reason
        self.turn = None
        return [FightWon(winner, reason)]

    def _win_bout(self, winner: int, reason: BoutReason) -> list[Event]:
        pile = self.piles[winner]
        was_empty = not pile
        taken = len(self.centre)
        pile.extend(self.centre)
        self.centre = []
        self.played = []
        self.cowards = [0] * self.players
        self.attacker = self.chances = None
        self.hit = None
        self.awaiting_reveal = False
        events: list[Event] = [BoutWon(winner, taken, reason)]
        if was_empty and pile:
            events.append(Reentered(winner))
        if len(pile) == self.in_play:
            self.master = self.winner = winner
            self.win_reason = WinReason.KARATE_MASTER
            self.turn = None
            return events + [KarateMaster(winner)]
        self.turn = winner
        return events + [ToPlay(winner, None, None)]

    # -- views -------------------------------------------------------------------------
    def _status(self, fighter: int) -> FighterStatus:
        if not self.in_game[fighter]:
            return FighterStatus.OUT
        return FighterStatus.FIGHTING if self.piles[fighter] else FighterStatus.OUT_OF_CARDS

    def public_view(self) -> KaratePublicView:
        jk = self.jan_ken
        jan_ken = None
        if jk is not None:
            locked = tuple(f for f in jk.remaining if f in jk.signs)
            jan_ken = JanKenView(jk.reason, jk.fighters, jk.remaining, locked, jk.round, jk.last_round)
        showing = self.hit.kind if self.hit is not None and self.hit.revealed_us is not None else None
        return KaratePublicView(
            fighters=tuple(
                FighterView(f, len(self.piles[f]), self._status(f), self.cowards[f], self.fastest[f])
                for f in range(self.players)
            ),
            total_cards=DECK_SIZE,
            in_play=self.in_play,
            aside=len(self.aside),
            centre=tuple(kind_of(c) for c in self.centre),
            turn=self.turn,
            attacker=self.attacker,
            chances=self.chances,
            direction=self.direction,
            awaiting_reveal=self.awaiting_reveal,
            cards_played=self.cards_played,
            hit_showing=showing,
            jan_ken=jan_ken,
            last_hit=self.last_hit.report() if self.last_hit is not None else None,
            master=self.master,
            started_us=self.clock.started_us,
            ends_us=self.clock.ends_us,
            time_up_us=self.clock.time_up_us,
            winner=self.winner,
            win_reason=self.win_reason,
        )

    def view(self, player: int) -> KaratePlayerView:
        own = self.jan_ken.signs.get(player) if self.jan_ken is not None else None
        return KaratePlayerView(player, self.public_view(), own)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        assert self.win_reason is not None
        return Outcome(self.winner, self.win_reason, tuple(len(p) for p in self.piles))

    def audit(self) -> None:
        """Every one of the 54 cards in exactly one place; the out have no cards; one
        fighter at least is still standing."""
        every = [c for cards in self.card_places().values() for c in cards]
        assert len(every) == DECK_SIZE, f"{len(every)} cards where there must be {DECK_SIZE}"
        assert len(set(every)) == DECK_SIZE, "a card is in two places"
        for f in range(self.players):
            assert self.in_game[f] or not self.piles[f], f"fighter {f + 1} is out but holds cards"
        assert any(self.in_game), "nobody is standing"

    # -- for tests and tools: where every card is -------------------------------------
    def card_places(self) -> dict[str, tuple[int, ...]]:
        """Every card id by place (``pile0``…, ``centre``, ``aside``): 54 in all."""
        places = {f"pile{f}": tuple(p) for f, p in enumerate(self.piles)}
        places["centre"] = tuple(self.centre)
        places["aside"] = self.aside
        return places
