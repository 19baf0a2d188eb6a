"""One Punch Cards duel between two signed-in players (the convention-wide game's unit).

The challenged may refuse if the challenge rule allows it; then each duellist stakes a
card of their collection, picks a corner in secret and calls High, Low or Both in secret;
the reveal is judged by :func:`games.punch_cards.reveal.judge`, and a reveal that decides
nothing is played again (new corners, new calls, same stakes).  The winner takes the
loser's staked card: the ledger records that move, the engine only says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from games.protocol import Engine, Event, GameSpec, IllegalAction, Outcome
from games.punch_cards.actions import DUEL_ACTIONS, Answer, CallIt, PickCorner, Stake
from games.punch_cards.cards import CORNERS, Card, Corner, cards_problem, packet
from games.punch_cards.events import ChallengeAnswered, DuelWon, Locked, Revealed, StakesShown
from games.punch_cards.options import DuelOptions
from games.punch_cards.reveal import Call, DuelEnd, judge
from games.punch_cards.views import DuelPlayerView, DuelPublicView, Phase

SPEC = GameSpec(name="punch_cards", title="Punch Cards", min_players=2, max_players=2, options_type=DuelOptions)

SEATS = (0, 1)
CHALLENGED = 1
EXHIBITION_NAMES = ("Red", "Blue")
"""The names on the cards of an exhibition duel (no ledger collections given)."""

DuelAction = Answer | Stake | PickCorner | CallIt
_CHOICE_OF_PHASE: dict[Phase, type] = {
    Phase.ANSWER: Answer,
    Phase.STAKE: Stake,
    Phase.CORNER: PickCorner,
    Phase.CALL: CallIt,
}


class PunchCardsDuel(Engine[DuelOptions, DuelAction, DuelPlayerView, DuelPublicView]):
    """A duel: seat 0 challenged seat 1."""

    spec: ClassVar[GameSpec] = SPEC
    action_types: ClassVar[tuple[type, ...]] = DUEL_ACTIONS

    def __init__(self, options: DuelOptions, players: int = 2, seed: int = 0) -> None:
        super().__init__(options, players, seed)
        if options.collections is None:
            collections = tuple(packet(seed, seat * 5, EXHIBITION_NAMES[seat]) for seat in SEATS)
        else:
            collections = options.collections
        if len(collections) != 2 or not all(collections):
            raise ValueError("a duel needs two collections of at least one card each")
        problem = cards_problem(collections[0] + collections[1])
        if problem is not None:
            raise ValueError(f"these cards cannot be cards of one event: {problem}")
        self.collections: tuple[tuple[Card, ...], ...] = collections
        self._cards = {card.serial: (seat, card) for seat in SEATS for card in collections[seat]}
        self.phase = Phase.ANSWER if options.may_refuse else Phase.STAKE
        self._waiting = {CHALLENGED} if options.may_refuse else set(SEATS)
        self.stakes: list[int | None] = [None, None]
        self.corners: list[Corner | None] = [None, None]
        self.calls: list[Call | None] = [None, None]
        self.play = 1
        self.last_reveal: Revealed | None = None
        self._outcome: Outcome | None = None
        self._how: DuelEnd | None = None

    # -- protocol ----------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        return frozenset(self._waiting)

    def legal_actions(self, player: int) -> Sequence[DuelAction]:
        if player not in self._waiting:
            return ()
        if self.phase is Phase.ANSWER:
            return (Answer(player, accept=True), Answer(player, accept=False))
        if self.phase is Phase.STAKE:
            return tuple(Stake(player, card.serial) for card in self.collections[player])
        if self.phase is Phase.CORNER:
            return tuple(PickCorner(player, corner) for corner in CORNERS)
        return tuple(CallIt(player, call) for call in Call)

    def check(self, action: DuelAction) -> None:
        if self._outcome is not None:
            raise IllegalAction("the duel is over")
        player = action.player
        if player not in SEATS:
            raise IllegalAction(f"a duel has seats 0 and 1, not {player}")
        expected = _CHOICE_OF_PHASE[self.phase]
        if not isinstance(action, expected):
            raise IllegalAction(f"now is the time to {self._step_words()}, not {type(action).__name__}")
        if player not in self._waiting:
            if self.phase is Phase.ANSWER:
                raise IllegalAction("only the challenged player answers a challenge")
            raise IllegalAction(f"you have already chosen: waiting for the other duellist to {self._step_words()}")
        if isinstance(action, Answer):
            if not isinstance(action.accept, bool):
                raise IllegalAction("accept or refuse")
        elif isinstance(action, Stake):
            owner = self._cards.get(action.serial)
            if owner is None or owner[0] != player:
                raise IllegalAction(f"card {action.serial} is not in your collection")
        elif isinstance(action, PickCorner):
            if not isinstance(action.corner, Corner):
                raise IllegalAction("pick one of the four corners")
        elif not isinstance(action.call, Call):
            raise IllegalAction("call High, Low or Both")

    def _step_words(self) -> str:
        return {
            Phase.ANSWER: "answer the challenge",
            Phase.STAKE: "stake a card",
            Phase.CORNER: "pick a corner",
            Phase.CALL: "call High, Low or Both",
            Phase.OVER: "leave: the duel is over",
        }[self.phase]

    def _apply(self, action: DuelAction) -> tuple[Event, ...]:
        player = action.player
        if isinstance(action, Answer):
            if not action.accept:
                self._finish(None, DuelEnd.REFUSED)
                return (ChallengeAnswered(accepted=False),)
            self.phase, self._waiting = Phase.STAKE, set(SEATS)
            return (ChallengeAnswered(accepted=True),)
        self._waiting.discard(player)
        events: list[Event] = [Locked(player)]
        if isinstance(action, Stake):
            self.stakes[player] = action.serial
        elif isinstance(action, PickCorner):
            self.corners[player] = action.corner
        else:
            self.calls[player] = action.call
        if self._waiting:
            return tuple(events)
        if self.phase is Phase.STAKE:
            serials = self._staked()
            names = (self._cards[serials[0]][1].name, self._cards[serials[1]][1].name)
            events.append(StakesShown(serials, names))
            self.phase = Phase.CORNER
        elif self.phase is Phase.CORNER:
            self.phase = Phase.CALL
        else:
            events.extend(self._reveal())
            return tuple(events)
        self._waiting = set(SEATS)
        return tuple(events)

    def _staked(self) -> tuple[int, int]:
        a, b = self.stakes
        assert a is not None and b is not None
        return (a, b)

    def _reveal(self) -> list[Event]:
        a, b = self._staked()
        c0, c1 = self.corners
        k0, k1 = self.calls
        assert c0 is not None and c1 is not None and k0 is not None and k1 is not None
        numbers = (self._cards[a][1].numbers(c0), self._cards[b][1].numbers(c1))
        verdict = judge((k0, k1), numbers)
        reveal = Revealed(
            self.play, (c0, c1), numbers, (k0, k1), verdict.high, verdict.low, verdict.winner, verdict.again
        )
        self.last_reveal = reveal
        events: list[Event] = [reveal]
        if verdict.winner is None:
            self.play += 1
            self.corners, self.calls = [None, None], [None, None]
            self.phase, self._waiting = Phase.CORNER, set(SEATS)
            return events
        assert verdict.how is not None
        self._finish(verdict.winner, verdict.how)
        events.append(DuelWon(verdict.winner, verdict.how, self._staked()[1 - verdict.winner]))
        return events

    def _finish(self, winner: int | None, how: DuelEnd) -> None:
        self.phase, self._waiting = Phase.OVER, set()
        self._how = how
        self._outcome = Outcome(winner, how)

    # -- what the rest of the cabinet reads ---------------------------------------------
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def taken(self) -> Card | None:
        """The loser's staked card, which the winner takes (``None`` until won)."""
        if self._outcome is None or self._outcome.winner is None:
            return None
        return self._cards[self._staked()[1 - self._outcome.winner]][1]

    def staked_card(self, seat: int) -> Card | None:
        serial = self.stakes[seat]
        return None if serial is None else self._cards[serial][1]

    def public_view(self) -> DuelPublicView:
        stakes = self._staked() if None not in self.stakes else None
        names = None if stakes is None else (self._cards[stakes[0]][1].name, self._cards[stakes[1]][1].name)
        outcome = self._outcome
        choosing = self.phase is not Phase.OVER
        return DuelPublicView(
            phase=self.phase,
            stakes=stakes,
            stake_names=names,
            locked=(choosing and 0 not in self._waiting, choosing and 1 not in self._waiting),
            play=self.play,
            last_reveal=self.last_reveal,
            winner=None if outcome is None else outcome.winner,
            how=self._how,
        )

    def view(self, player: int) -> DuelPlayerView:
        return DuelPlayerView(
            player=player,
            public=self.public_view(),
            collection=self.collections[player],
            stake=self.stakes[player],
            corner=self.corners[player],
            call=self.calls[player],
            may_refuse=self.phase is Phase.ANSWER and player == CHALLENGED,
        )

    def audit(self) -> None:
        """Stakes come from their own seat's collection; secret choices exist only in the
        steps that follow them; the game is over exactly when nobody is waiting."""
        for seat in SEATS:
            serial = self.stakes[seat]
            if serial is not None:
                assert self._cards[serial][0] == seat, f"seat {seat} staked a card it does not hold"
        order = (Phase.ANSWER, Phase.STAKE, Phase.CORNER, Phase.CALL)
        if self.phase in order[:2]:
            assert self.corners == [None, None] and self.calls == [None, None]
        if self.phase in order[1:]:
            assert self.phase is Phase.STAKE or None not in self.stakes, "a corner before both stakes"
        if self.phase is Phase.CORNER:
            assert self.calls == [None, None]
        assert (self._outcome is not None) == (self.phase is Phase.OVER) == (not self._waiting)
        assert self.play >= 1
