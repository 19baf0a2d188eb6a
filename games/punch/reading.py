"""Reading the opponent in one exchange: what they are likely to play, style by style.

Punch!'s exchange is a guessing game (its card table is a rock-paper-scissors cycle:
punches beat resting, Dodge beats punches, resting beats Block and Dodge), so the
equilibrium is a mixed strategy, and against it every other way of playing does about
as well: an equilibrium player beats a random one only by a hair (51 % of matches in
600).  Real strength is reading a predictable opponent and answering that, without
becoming predictable oneself.  This module predicts the opponent under a few styles of
play, each a level of reasoning about the one below (a cognitive hierarchy):

* :attr:`Style.RANDOM_BUTTON`: presses any button that has a card (level 0, a careless
  boxer at the cabinet): every kind held is as likely, however many of it are held;
* :attr:`Style.RANDOM_CARD`: plays any card of the hand, each card as likely (so kinds
  held twice come twice as often).  Against it no order of cards does much better than
  another (every card meets a random one of theirs whatever the order), which is why
  :class:`~games.punch.bot.PunchBot`, nearly this, is hard to beat by much;
* :attr:`Style.BEST_VS_RANDOM`: plays the card that does best against a random button
  (level 1);
* :attr:`Style.BEST_VS_READERS`: answers a mix of level-0 and level-1 opponents, partly
  trusting that mix, otherwise guarding as the equilibrium does (level 2);
* :attr:`Style.EQUILIBRIUM`: the matrix game's equilibrium (nobody to read).

A prediction is made from the predictor's knowledge only: the opponent's unseen cards
and the predictor's own cards as the opponent can count them.  Their hand is known on
average (exactly in round 3), so "the best card they hold" becomes a distribution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from games.matrix_game import Solution, respond, solve
from games.punch.cards import ROUNDS
from games.punch.endgame import Endgame
from games.punch.knowledge import Knowledge, holding_chances
from games.punch.outlook import Cards, Outlook

Mix = tuple[float, ...]
"""Probabilities over a list of card kinds (a matrix's rows or columns)."""


class Style(Enum):
    """A way of choosing cards that a reader can recognise (see the module docstring)."""

    RANDOM_BUTTON = "random_button"
    RANDOM_CARD = "random_card"
    BEST_VS_RANDOM = "best_vs_random"
    BEST_VS_READERS = "best_vs_readers"
    EQUILIBRIUM = "equilibrium"


@dataclass(frozen=True)
class Thinking:
    """How a reasoning boxer plays, as far as a reader must know it to predict them.

    ``careless``: chance of playing a random card of the hand instead of thinking;
    ``expects``: the styles they expect of their opponent, with weights summing to 1;
    ``trust``: how far they trust that expectation (0 plays the equilibrium, 1 the best
    response to it, see :func:`games.matrix_game.respond`)."""

    careless: float
    expects: tuple[tuple[Style, float], ...]
    trust: float


class Exchange:
    """One exchange as one boxer sees it: their own payoff matrix and the predictions.

    ``rows`` are the boxer's kinds in hand, ``columns`` the opponent's kinds that may be
    in theirs; ``matrix[r][c]`` the boxer's chance of winning the match after that pair.
    ``endgame`` (round 3 only) replaces the projection by the exact value when at most
    ``exact_from`` cards are left."""

    def __init__(self, knowledge: Knowledge, endgame: Endgame | None = None, exact_from: int = 0) -> None:
        k = knowledge
        self.knowledge = k
        left = k.cards_left
        self.theirs = Cards.unseen(k.theirs, left)
        if endgame is not None and k.round == ROUNDS and left <= exact_from:
            self.rows = tuple(i for i, n in enumerate(k.hand) if n)
            self.columns = tuple(j for j, n in enumerate(k.theirs) if n)
            self.matrix = endgame.matrix(k.hand, k.theirs, k.stamina, k.their_stamina)
            self._public_matrix: list[list[float]] | None = self.matrix
        else:
            outlook = Outlook(k.round, left, k.no_mercy, Cards.own(k.hand, k.deck), self.theirs)
            self.rows, self.columns = outlook.rows, outlook.columns
            self.matrix = outlook.matrix(k.stamina, k.their_stamina)
            self._public_matrix = self.matrix if k.round == ROUNDS else None
        self.random_theirs: Mix = _share(self.theirs.hand, self.columns)
        holding = holding_chances(k.theirs, left)
        self.their_holding = tuple(holding[j] for j in self.columns)
        self.button_theirs: Mix = _normalised(self.their_holding)

    # -- the opponent's view of me -------------------------------------------------------
    @cached_property
    def _me_as_seen(self) -> Cards:
        return Cards.unseen(self.knowledge.mine, self.knowledge.cards_left)

    @cached_property
    def public_rows(self) -> tuple[int, ...]:
        """My kinds that may be in my hand, for all the opponent knows."""
        return self._me_as_seen.playable()

    @cached_property
    def public_matrix(self) -> list[list[float]]:
        """The exchange matrix as the opponent can work it out: my hand known on average
        (rows :attr:`public_rows`), theirs on average as before.  In round 3 both hands
        are known to both, and it is :attr:`matrix`."""
        if self._public_matrix is not None:
            return self._public_matrix
        k = self.knowledge
        outlook = Outlook(k.round, k.cards_left, k.no_mercy, self._me_as_seen, self.theirs)
        return outlook.matrix(k.stamina, k.their_stamina)

    @cached_property
    def _my_holding_as_seen(self) -> tuple[float, ...]:
        k = self.knowledge
        holding = holding_chances(k.mine, k.cards_left)
        return tuple(holding[i] for i in self.public_rows)

    @cached_property
    def _button_mine_as_seen(self) -> Mix:
        return _normalised(self._my_holding_as_seen)

    # -- predictions over :attr:`columns` ------------------------------------------------
    def predict(self, style: Style, readers: dict[Style, Thinking]) -> Mix:
        """What the opponent plays if they play in ``style``; ``readers`` says how the
        reasoning styles think (careless rate, expectations, trust)."""
        if style is Style.RANDOM_BUTTON:
            return self.button_theirs
        if style is Style.RANDOM_CARD:
            return self.random_theirs
        if style is Style.EQUILIBRIUM:
            return self.equilibrium.columns
        thinking = readers[style]
        if style is Style.BEST_VS_RANDOM:
            mine = self._button_mine_as_seen
            public = self.public_matrix
            scores = [sum(p * (1.0 - row[c]) for p, row in zip(mine, public)) for c in range(len(self.columns))]
            planned = best_held(scores, self.their_holding)
        else:
            planned = self._their_answer(thinking, readers)
        return _blend(planned, self.button_theirs, thinking.careless)

    @cached_property
    def equilibrium(self) -> Solution:
        return solve(self.matrix)

    def _their_answer(self, thinking: Thinking, readers: dict[Style, Thinking]) -> Mix:
        """A level-2 opponent: they predict me from what they can count, then respond."""
        public = self.public_matrix
        expected = [0.0] * len(self.public_rows)
        for style, weight in thinking.expects:
            if style is Style.RANDOM_BUTTON:
                mine = self._button_mine_as_seen
            elif style is Style.BEST_VS_RANDOM:
                scores = [sum(p * x for p, x in zip(self.button_theirs, row)) for row in public]
                best = best_held(scores, self._my_holding_as_seen)
                mine = _blend(best, self._button_mine_as_seen, readers[style].careless)
            else:
                raise ValueError(f"a level-2 boxer expects level 0 or 1 play, not {style.value}")
            expected = [e + weight * m for e, m in zip(expected, mine)]
        theirs = [[1.0 - public[r][c] for r in range(len(self.public_rows))] for c in range(len(self.columns))]
        answer = respond(theirs, expected, thinking.trust).rows
        return _normalised([a * h for a, h in zip(answer, self.their_holding)])


def best_held(scores: Sequence[float], holding: Sequence[float]) -> Mix:
    """The chances of each kind being the best-scoring one held, when each kind is held
    with the given chance (independently, an approximation); equal scores share."""
    order = sorted(range(len(scores)), key=lambda c: -scores[c])
    chances = [0.0] * len(scores)
    none_yet = 1.0
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] >= scores[order[start]] - 1e-12:
            end += 1
        group = order[start : end + 1]
        missing = 1.0
        for c in group:
            missing *= 1.0 - holding[c]
        held = sum(holding[c] for c in group)
        if held:
            for c in group:
                chances[c] = none_yet * (1.0 - missing) * holding[c] / held
        none_yet *= missing
        start = end + 1
    return _normalised(chances)


def _share(hand: Sequence[float], kinds: Sequence[int]) -> Mix:
    """A random card of ``hand``: each kind in proportion to how many are held."""
    return _normalised([hand[k] for k in kinds])


def _blend(planned: Sequence[float], random: Sequence[float], careless: float) -> Mix:
    return tuple((1.0 - careless) * p + careless * r for p, r in zip(planned, random))


def _normalised(weights: Sequence[float]) -> Mix:
    total = sum(weights)
    if total <= 0:
        return tuple(1.0 / len(weights) for _ in weights)
    return tuple(w / total for w in weights)
