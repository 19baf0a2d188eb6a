"""The Punch! rule engine: matches of three rounds of ten simultaneous card exchanges.

State is kept as small mutable lists (counts per card kind, stamina per seat) and views
are built only when asked, so an exchange costs a few dictionary lookups: the bots and
benchmarks play hundreds of thousands of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.protocol import Engine, Event, GameSpec, IllegalAction, Outcome
from games.punch.actions import PUNCH_ACTIONS, Draft, PlayCard, Redeal
from games.punch.cards import CARDS, COPIES_PER_KIND, HAND_SIZE, ROUNDS, Card, cards_of, counts_of, full_deck
from games.punch.clash import STANDARD_CLASHES, Cause, clash
from games.punch.drafts import draftable_hands
from games.punch.events import (
    Break,
    CardChosen,
    CardsRevealed,
    DraftChosen,
    GameEnded,
    GameEndReason,
    HandDealt,
    HandKept,
    HandSource,
    Knockout,
    MatchEnded,
    MatchEndReason,
    MatchStarted,
    Redealt,
    RoundEnded,
    RoundStarted,
    StaminaChanged,
)
from games.punch.options import PunchOptions, Rules
from games.punch.views import Phase, PunchPlayerView, PunchPublicView

SEATS = (0, 1)
SEAT_NAMES = ("Red", "Blue")
MAX_STAMINA = 10
BREAK_REST = {1: 3, 2: 2}
"""Stamina regained in the break after rounds 1 and 2; none after round 3."""
REDEAL_KIND_COUNT = 4
"""A hand holding this many (or more) of one kind may be re-dealt, in rounds 1 and 2.
Every boxer answers after every such deal (keep, or re-deal if allowed), so being asked
says nothing about a hand."""

SPEC = GameSpec(name="punch", title="Punch!", min_players=2, max_players=2, options_type=PunchOptions)

_PLAYS = tuple(tuple(PlayCard(seat, card) for card in CARDS) for seat in SEATS)
_REDEAL_CHOICES = tuple((Redeal(seat, redeal=True), Redeal(seat, redeal=False)) for seat in SEATS)
_KEEP_ONLY = tuple((Redeal(seat, redeal=False),) for seat in SEATS)
_ACTING = {
    (False, False): frozenset(),
    (True, False): frozenset({0}),
    (False, True): frozenset({1}),
    (True, True): frozenset({0, 1}),
}


@lru_cache(maxsize=512)
def _draft_actions(player: int, pool: tuple[int, ...]) -> tuple[Draft, ...]:
    return tuple(Draft(player, cards_of(hand)) for hand in draftable_hands(pool))


def _qualifies_for_redeal(hand: list[int]) -> bool:
    return max(hand) >= REDEAL_KIND_COUNT


class Punch(Engine[PunchOptions, PlayCard | Redeal | Draft, PunchPlayerView, PunchPublicView]):
    """A game of Punch! between Red (seat 0) and Blue (seat 1), first to win
    ``options.matches_to_win`` matches.  ``opening_events`` are what setting up the first
    match caused (there is no action to return them from)."""

    spec = SPEC
    action_types = PUNCH_ACTIONS

    def __init__(self, options: PunchOptions, players: int = 2, seed: int = 0) -> None:
        super().__init__(options, players, seed)
        if options.matches_to_win < 1:
            raise ValueError(f"matches_to_win must be at least 1, not {options.matches_to_win}")
        self._drafting = options.rules is Rules.ADVANCED
        self._phase = Phase.OVER
        self._match = 0
        self._round = 0
        self._exchange = 0
        self._wins = [0, 0]
        self._stamina = [MAX_STAMINA, MAX_STAMINA]
        self._decks: list[list[Card]] = [[], []]
        self._hands: list[list[int]] = [[0] * len(CARDS), [0] * len(CARDS)]
        self._played: list[list[int]] = [[0] * len(CARDS), [0] * len(CARDS)]
        self._locked: list[Card | None] = [None, None]
        self._waiting = [False, False]
        self._last_reveal: tuple[Card, Card] | None = None
        self._outcome: Outcome | None = None
        events: list[Event] = []
        self._start_match(events, replay=False)
        self.opening_events: tuple[Event, ...] = tuple(events)

    # -- protocol ----------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        return _ACTING[self._waiting[0], self._waiting[1]]

    def legal_actions(self, player: int) -> Sequence[PlayCard | Redeal | Draft]:
        if player not in SEATS or not self._waiting[player]:
            return ()
        if self._phase is Phase.EXCHANGE:
            hand = self._hands[player]
            plays = _PLAYS[player]
            return tuple(plays[i] for i in range(len(CARDS)) if hand[i])
        if self._phase is Phase.REDEAL:
            if _qualifies_for_redeal(self._hands[player]):
                return _REDEAL_CHOICES[player]
            return _KEEP_ONLY[player]
        return _draft_actions(player, counts_of(self._decks[player]))

    def check(self, action: PlayCard | Redeal | Draft) -> None:
        kind = type(action)
        if kind not in PUNCH_ACTIONS:
            raise IllegalAction(f"Punch! has no action {kind.__name__}")
        player = action.player
        if player not in SEATS:
            raise IllegalAction(f"There is no seat {player} in Punch!")
        if self._phase is Phase.OVER:
            raise IllegalAction("The game is over")
        if type(action) is PlayCard:
            self._check_play(action)
        elif type(action) is Redeal:
            self._check_redeal(action)
        elif type(action) is Draft:
            self._check_draft(action)

    def _apply(self, action: PlayCard | Redeal | Draft) -> tuple[Event, ...]:
        if type(action) is PlayCard:
            return self._play(action)
        if type(action) is Redeal:
            return self._redeal(action)
        assert type(action) is Draft
        return self._draft(action)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def audit(self) -> None:
        """Stamina in 0..10; each boxer's 30 cards each in exactly one place (hand, deck,
        played or face down); both boxers have played as many cards as each other."""
        public = self.public_view()
        for seat in SEATS:
            assert 0 <= self._stamina[seat] <= 10, f"stamina {self._stamina[seat]} out of range"
            view = self.view(seat)
            locked = [int(view.locked_card is card) for card in CARDS]
            for i in range(len(CARDS)):
                held = view.hand[i] + view.deck[i] + public.played[seat][i] + locked[i]
                assert held == COPIES_PER_KIND, f"{CARDS[i].label}: {held} of {COPIES_PER_KIND} accounted for"
            assert 0 <= self._wins[seat] <= self.options.matches_to_win
        assert sum(public.played[0]) == sum(public.played[1])

    def public_view(self) -> PunchPublicView:
        return PunchPublicView(
            options=self.options,
            phase=self._phase,
            match=self._match,
            round=self._round,
            exchange=self._exchange,
            stamina=(self._stamina[0], self._stamina[1]),
            match_wins=(self._wins[0], self._wins[1]),
            locked=(self._is_locked(0), self._is_locked(1)),
            last_reveal=self._last_reveal,
            hand_sizes=(sum(self._hands[0]), sum(self._hands[1])),
            deck_sizes=(len(self._decks[0]), len(self._decks[1])),
            played=(tuple(self._played[0]), tuple(self._played[1])),
            winner=self._outcome.winner if self._outcome else None,
        )

    def view(self, player: int) -> PunchPlayerView:
        if player not in SEATS:
            raise ValueError(f"There is no seat {player} in Punch!")
        deck = counts_of(self._decks[player])
        drafting = self._phase is Phase.DRAFT and self._waiting[player]
        return PunchPlayerView(
            public=self.public_view(),
            player=player,
            hand=tuple(self._hands[player]),
            locked_card=self._locked[player],
            redeal_offered=(
                self._phase is Phase.REDEAL and self._waiting[player] and _qualifies_for_redeal(self._hands[player])
            ),
            deck=deck,
            draft_pool=deck if drafting else None,
        )

    def _is_locked(self, player: int) -> bool:
        """Chosen and waiting for the other boxer (a card, or a drafted hand)."""
        if self._phase is Phase.EXCHANGE:
            return self._locked[player] is not None
        return self._phase is Phase.DRAFT and not self._waiting[player]

    # -- checks ------------------------------------------------------------------------
    def _check_play(self, action: PlayCard) -> None:
        if self._phase is not Phase.EXCHANGE:
            raise IllegalAction(f"Cards are not played now: {self._phase_wait()}")
        player = action.player
        if self._locked[player] is not None:
            raise IllegalAction("You have already chosen your card for this exchange")
        card = action.card
        if not isinstance(card, Card):
            raise IllegalAction(f"{card!r} is not a Punch! card")
        if not self._hands[player][card.index]:
            raise IllegalAction(f"You have no {card.label} left")

    def _check_redeal(self, action: Redeal) -> None:
        if self._phase is not Phase.REDEAL:
            raise IllegalAction(f"There is no re-deal now: {self._phase_wait()}")
        if not isinstance(action.redeal, bool):
            raise IllegalAction("Answer with re-deal or keep")
        if not self._waiting[action.player]:
            raise IllegalAction("You have already kept your hand for this round")
        if action.redeal and not _qualifies_for_redeal(self._hands[action.player]):
            raise IllegalAction(f"Your hand does not hold {REDEAL_KIND_COUNT} of one kind, so you may not re-deal")

    def _check_draft(self, action: Draft) -> None:
        if self._phase is not Phase.DRAFT:
            raise IllegalAction(f"There is no drafting now: {self._phase_wait()}")
        player = action.player
        if not self._waiting[player]:
            raise IllegalAction("You have already drafted your hand for this round")
        hand = action.hand
        if not all(isinstance(card, Card) for card in hand):
            raise IllegalAction("A drafted hand must be made of Punch! cards")
        if len(hand) != HAND_SIZE:
            raise IllegalAction(f"Draft exactly {HAND_SIZE} cards, not {len(hand)}")
        wanted = counts_of(hand)
        left = counts_of(self._decks[player])
        for card, want, have in zip(CARDS, wanted, left):
            if want > have:
                raise IllegalAction(f"You have only {have} {card.label} left to draft, not {want}")

    def _phase_wait(self) -> str:
        return {
            Phase.REDEAL: "waiting for re-deal decisions",
            Phase.DRAFT: "waiting for drafts",
            Phase.EXCHANGE: "cards are being played",
            Phase.OVER: "the game is over",
        }[self._phase]

    # -- actions -----------------------------------------------------------------------
    def _play(self, action: PlayCard) -> tuple[Event, ...]:
        player = action.player
        card = action.card
        self._locked[player] = card
        self._hands[player][card.index] -= 1
        self._waiting[player] = False
        chosen = CardChosen(player)
        other = self._locked[1 - player]
        if other is None:
            return (chosen,)
        events: list[Event] = [chosen]
        self._exchange_cards(events)
        return tuple(events)

    def _redeal(self, action: Redeal) -> tuple[Event, ...]:
        player = action.player
        events: list[Event] = []
        if action.redeal:
            hand = self._hands[player]
            shown = tuple(card for card, n in zip(CARDS, hand) if n >= REDEAL_KIND_COUNT for _ in range(n))
            deck = self._decks[player]
            deck.extend(cards_of(hand))
            self.rng.shuffle(deck)
            self._deal(player)
            events.append(Redealt(player, shown))
            events.append(HandDealt(player, self._round, HandSource.REDEALT))
            # The re-dealer answers again about the new hand (still waiting).
        else:
            events.append(HandKept(player))
            self._waiting[player] = False
        if not any(self._waiting):
            self._begin_exchanges()
        return tuple(events)

    def _draft(self, action: Draft) -> tuple[Event, ...]:
        player = action.player
        drafted = counts_of(action.hand)
        left = counts_of(self._decks[player])
        self._decks[player] = list(cards_of(tuple(n - d for n, d in zip(left, drafted))))
        self._hands[player] = list(drafted)
        self._waiting[player] = False
        events: list[Event] = [DraftChosen(player)]
        if not any(self._waiting):
            events.extend(HandDealt(seat, self._round, HandSource.DRAFTED) for seat in SEATS)
            self._begin_exchanges()
        return tuple(events)

    # -- flow --------------------------------------------------------------------------
    def _start_match(self, events: list[Event], replay: bool) -> None:
        """Full decks, full stamina; standard decks are shuffled red first, then blue."""
        self._match += 1
        self._stamina = [MAX_STAMINA, MAX_STAMINA]
        self._played = [[0] * len(CARDS), [0] * len(CARDS)]
        self._last_reveal = None
        for seat in SEATS:
            deck = full_deck()
            if not self._drafting:
                self.rng.shuffle(deck)
            self._decks[seat] = deck
            self._hands[seat] = [0] * len(CARDS)
        events.append(MatchStarted(self._match, replay))
        self._start_round(1, events)

    def _start_round(self, round_: int, events: list[Event]) -> None:
        self._round = round_
        self._exchange = 1
        self._locked = [None, None]
        events.append(RoundStarted(round_))
        if round_ == ROUNDS:
            for seat in SEATS:
                self._deal(seat)
                events.append(HandDealt(seat, round_, HandSource.LAST_TEN))
            self._begin_exchanges()
        elif self._drafting:
            self._phase = Phase.DRAFT
            self._waiting = [True, True]
        else:
            for seat in SEATS:
                self._deal(seat)
                events.append(HandDealt(seat, round_, HandSource.DEALT))
            # Both boxers answer, qualifying or not, so nothing reveals whose hand could re-deal.
            self._phase = Phase.REDEAL
            self._waiting = [True, True]

    def _deal(self, player: int) -> None:
        """The top 10 of the deck become the hand (in round 3, that is the whole deck)."""
        deck = self._decks[player]
        self._hands[player] = list(counts_of(deck[-HAND_SIZE:]))
        del deck[-HAND_SIZE:]

    def _begin_exchanges(self) -> None:
        self._phase = Phase.EXCHANGE
        self._waiting = [True, True]
        self._locked = [None, None]

    def _exchange_cards(self, events: list[Event]) -> None:
        """Reveal both locked cards, resolve them, then end the round or match if due."""
        red, blue = self._locked
        assert red is not None and blue is not None, "both cards are locked before a reveal"
        cards = (red, blue)
        self._last_reveal = cards
        self._played[0][red.index] += 1
        self._played[1][blue.index] += 1
        events.append(CardsRevealed(cards))
        stamina = self._stamina
        if self.options.no_mercy:
            effects = clash(cards, (min(red.punch, stamina[0]), min(blue.punch, stamina[1])))
        else:
            effects = STANDARD_CLASHES[cards]
        knocked_out = None
        for seat, amount, cause in effects:
            before = stamina[seat]
            after = min(MAX_STAMINA, max(0, before + amount))
            if after != before:
                stamina[seat] = after
                events.append(StaminaChanged(seat, after - before, after, cause))
                if after == 0:
                    knocked_out = seat
        if knocked_out is not None:
            events.append(Knockout(knocked_out))
            self._end_match(1 - knocked_out, MatchEndReason.KNOCKOUT, events)
            return
        self._locked = [None, None]
        self._waiting = [True, True]
        if self._exchange < HAND_SIZE:
            self._exchange += 1
            return
        self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        round_ = self._round
        events.append(RoundEnded(round_))
        if round_ == ROUNDS:
            red, blue = self._stamina
            if red == blue:
                self._end_match(None, MatchEndReason.TIE, events)
            else:
                self._end_match(0 if red > blue else 1, MatchEndReason.STAMINA, events)
            return
        rest = BREAK_REST[round_]
        gains = tuple(min(MAX_STAMINA, s + rest) - s for s in self._stamina)
        events.append(Break(round_, rest, (gains[0], gains[1])))
        for seat in SEATS:
            if gains[seat]:
                self._stamina[seat] += gains[seat]
                events.append(StaminaChanged(seat, gains[seat], self._stamina[seat], Cause.BREAK))
        self._start_round(round_ + 1, events)

    def _end_match(self, winner: int | None, reason: MatchEndReason, events: list[Event]) -> None:
        if winner is not None:
            self._wins[winner] += 1
        stamina = (self._stamina[0], self._stamina[1])
        events.append(MatchEnded(winner, reason, stamina, (self._wins[0], self._wins[1])))
        if winner is not None and self._wins[winner] >= self.options.matches_to_win:
            self._phase = Phase.OVER
            self._waiting = [False, False]
            self._locked = [None, None]
            self._outcome = Outcome(winner, GameEndReason.MATCH_WINS, (self._wins[0], self._wins[1]))
            events.append(GameEnded(winner))
            return
        self._start_match(events, replay=winner is None)
