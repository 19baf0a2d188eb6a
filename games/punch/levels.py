"""Computer boxers at every level of the shared ladder (:class:`games.levels.Level`).

Every level reads the opponent with the styles of :mod:`games.punch.reading` and answers
with :func:`games.matrix_game.respond`; the levels differ in how carelessly they play,
how deeply they reason about the opponent, whether they learn the opponent's style as
the game goes, how many of round 3's exchanges they solve exactly, and how they draft
and re-deal:

* **EASY** presses a random button with a card three times in four; otherwise plays the
  card that does best against such a careless opponent.  Re-deals on a coin flip,
  drafts at random.
* **NORMAL** plays the card that does best against a careless opponent (a random button
  one time in ten).  Re-deals every hand it may and drafts balanced hands, as
  :class:`~games.punch.bot.PunchBot` does.
* **HARD** expects half careless and half NORMAL-like play, trusts that 70 % and guards
  the rest with the equilibrium (a random button one time in twenty); solves the last
  3 exchanges of round 3 exactly; re-deals and drafts by the projected winning chance.
* **EXPERT** starts by expecting any of the five styles alike and learns, from every
  card the opponent reveals, which style predicts them best (a Bayesian update with a
  little forgetting, so a change of style is noticed).  It trusts its reading 60 % while
  unsure, up to 95 % once one predictable style carries all the weight, and otherwise
  plays the equilibrium: against an opponent it cannot read it stays close to the
  equilibrium and cannot be exploited much.  It solves the last 4 exchanges of round 3
  exactly (5 would cost up to 30 ms for one choice in a match), and re-deals and drafts
  like HARD.

All of it is worked out from the boxer's own view, every match afresh except what the
EXPERT learned about its opponent's style.  docs/computer-opponents.md has the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from games.bots import Bot
from games.levels import Level
from games.matrix_game import respond
from games.punch.actions import Draft, PlayCard, Redeal
from games.punch.bot import PunchAction, balanced_hand
from games.punch.cards import CARDS, HAND_SIZE, Card, counts_of
from games.punch.endgame import Endgame
from games.punch.knowledge import KINDS, Knowledge, expected_hand, knowledge_of
from games.punch.outlook import projected_chance
from games.punch.reading import Exchange, Mix, Style, Thinking
from games.punch.views import Phase, PunchPlayerView


class Drafting(Enum):
    """How a level drafts a hand (advanced rules)."""

    RANDOM = "random"
    BALANCED = "balanced"
    BEST = "best"
    """Best projected winning chance, by hill-climbing from a balanced hand."""


class Redealing(Enum):
    """What a level does with a hand it may re-deal (4+ of one kind)."""

    COIN = "coin"
    ALWAYS = "always"
    BEST = "best"
    """Re-deal when a fresh hand's projected winning chance is higher."""


@dataclass(frozen=True)
class Profile:
    """Everything that makes one level play the way it does (see the module docstring).

    ``learns``: the level learns its opponent's style; its trust then grows from
    ``thinking.trust`` towards ``sure_trust`` as one predictable style (any but the
    equilibrium) comes to carry all the weight."""

    thinking: Thinking
    learns: bool
    exact_from: int
    drafting: Drafting
    redealing: Redealing
    sure_trust: float = 0.0


_CARELESS_ONLY = ((Style.RANDOM_BUTTON, 1.0),)

PROFILES: dict[Level, Profile] = {
    Level.EASY: Profile(
        thinking=Thinking(0.75, _CARELESS_ONLY, 1.0),
        learns=False,
        exact_from=0,
        drafting=Drafting.RANDOM,
        redealing=Redealing.COIN,
    ),
    Level.NORMAL: Profile(
        thinking=Thinking(0.1, _CARELESS_ONLY, 1.0),
        learns=False,
        exact_from=0,
        drafting=Drafting.BALANCED,
        redealing=Redealing.ALWAYS,
    ),
    Level.HARD: Profile(
        thinking=Thinking(0.05, ((Style.RANDOM_BUTTON, 0.5), (Style.BEST_VS_RANDOM, 0.5)), 0.7),
        learns=False,
        exact_from=3,
        drafting=Drafting.BEST,
        redealing=Redealing.BEST,
    ),
    Level.EXPERT: Profile(
        thinking=Thinking(0.0, tuple((style, 1.0 / len(Style)) for style in Style), 0.6),
        learns=True,
        exact_from=4,
        drafting=Drafting.BEST,
        redealing=Redealing.BEST,
        sure_trust=0.95,
    ),
}

READERS: dict[Style, Thinking] = {
    Style.BEST_VS_RANDOM: PROFILES[Level.NORMAL].thinking,
    Style.BEST_VS_READERS: PROFILES[Level.HARD].thinking,
}
"""How the reasoning styles think when a boxer predicts them: like NORMAL and HARD."""

TREMBLE = 0.1
"""In learning, every card is taken to be a slip with this chance (a likelihood floor),
so one surprising card never rules a style out."""
FORGETTING = 0.02
"""After each card the learned weights move this far back towards the prior, so an
opponent who changes style is read anew within a few dozen cards."""


class ComputerBoxer(Bot[PunchPlayerView, PunchAction]):
    """A computer boxer of one ``level``; ``seed`` makes its choices repeatable.  It keeps
    one memory between decisions: which style its opponent seems to play (EXPERT)."""

    def __init__(self, level: Level, seed: int) -> None:
        super().__init__(seed)
        self.level = level
        self.profile = PROFILES[level]
        self.weights: dict[Style, float] = dict(self.profile.thinking.expects)
        self._endgame: tuple[int, Endgame] | None = None
        self._predicted: tuple[tuple[int, int, int], dict[int, dict[Style, float]]] | None = None

    def decide(self, view: PunchPlayerView, legal: Sequence[PunchAction]) -> PunchAction:
        if self.profile.learns:
            self._learn(view)
        player, phase = view.player, view.public.phase
        if phase is Phase.REDEAL:
            return Redeal(player, view.redeal_offered and self._redeals(view))
        if phase is Phase.DRAFT and view.draft_pool is not None:
            return Draft(player, self._draft(view, view.draft_pool))
        if phase is Phase.EXCHANGE and view.locked_card is None:
            return PlayCard(player, self._card(view))
        raise ValueError(f"player {player} has nothing to do now")

    # -- exchanges -------------------------------------------------------------------
    def _card(self, view: PunchPlayerView) -> Card:
        thinking = self.profile.thinking
        if thinking.careless and self.rng.random() < thinking.careless:
            return self._random_button(view.hand)
        knowledge = knowledge_of(view)
        exchange = Exchange(knowledge, self._endgame_for(view), self.profile.exact_from)
        predictions = {style: exchange.predict(style, READERS) for style in self.weights}
        expected = [0.0] * len(exchange.columns)
        for style, weight in self.weights.items():
            expected = [e + weight * p for e, p in zip(expected, predictions[style])]
        if self.profile.learns:
            public = view.public
            by_kind = {j: {style: mix[c] for style, mix in predictions.items()} for c, j in enumerate(exchange.columns)}
            self._predicted = ((public.match, public.round, public.exchange), by_kind)
        play = respond(exchange.matrix, expected, self._trust()).rows
        return CARDS[exchange.rows[self._pick(play)]]

    def _trust(self) -> float:
        """How far to trust the expected play: fixed, or for a learning level growing with
        the weight of the likeliest predictable style."""
        base = self.profile.thinking.trust
        if not self.profile.learns:
            return base
        readable = max(w for style, w in self.weights.items() if style is not Style.EQUILIBRIUM)
        return base + (self.profile.sure_trust - base) * readable

    def _random_button(self, hand: tuple[int, ...]) -> Card:
        """What a careless boxer does: press any button that has a card."""
        return self.rng.choice([card for card, n in zip(CARDS, hand) if n])

    def _pick(self, mix: Mix) -> int:
        x = self.rng.random()
        for index, p in enumerate(mix):
            x -= p
            if x < 0:
                return index
        return max(range(len(mix)), key=mix.__getitem__)

    def _endgame_for(self, view: PunchPlayerView) -> Endgame | None:
        """One exact solver per match (its positions are that match's)."""
        if not self.profile.exact_from:
            return None
        match = view.public.match
        if self._endgame is None or self._endgame[0] != match:
            self._endgame = (match, Endgame(view.public.options.no_mercy))
        return self._endgame[1]

    # -- learning the opponent's style -----------------------------------------------
    def _learn(self, view: PunchPlayerView) -> None:
        """Weigh each style by how well it predicted the card the opponent just revealed.

        Only a reveal that answers this boxer's latest prediction counts: the view must
        be the next exchange of the same match (or the next round after its last one)."""
        predicted, self._predicted = self._predicted, None
        public = view.public
        if predicted is None or public.last_reveal is None:
            return
        (match, round_, exchange), by_kind = predicted
        follows = public.match == match and (
            (public.round == round_ and public.exchange == exchange + 1)
            or (public.round == round_ + 1 and exchange == HAND_SIZE)
        )
        if not follows:
            return
        revealed = public.last_reveal[1 - view.player].index
        chances = by_kind.get(revealed)
        if chances is None:
            return
        prior = dict(self.profile.thinking.expects)
        weights = {style: w * (TREMBLE + (1.0 - TREMBLE) * chances[style]) for style, w in self.weights.items()}
        total = sum(weights.values())
        self.weights = {
            style: (1.0 - FORGETTING) * w / total + FORGETTING * prior[style] for style, w in weights.items()
        }

    # -- re-deals and drafts -----------------------------------------------------------
    def _redeals(self, view: PunchPlayerView) -> bool:
        redealing = self.profile.redealing
        if redealing is Redealing.ALWAYS:
            return True
        if redealing is Redealing.COIN:
            return self.rng.random() < 0.5
        k = knowledge_of(view)
        unseen = k.mine
        fresh = tuple(n * HAND_SIZE / sum(unseen) for n in unseen)
        later = tuple(n - h for n, h in zip(unseen, fresh))
        return round_chance(k, fresh, later) > round_chance(k, k.hand, k.deck)

    def _draft(self, view: PunchPlayerView, pool: tuple[int, ...]) -> tuple[Card, ...]:
        drafting = self.profile.drafting
        if drafting is Drafting.RANDOM:
            cards = [card for card, n in zip(CARDS, pool) for _ in range(n)]
            return tuple(sorted(self.rng.sample(cards, HAND_SIZE), key=CARDS.index))
        hand = balanced_hand(pool, self.rng)
        if drafting is Drafting.BALANCED:
            return hand
        return _best_draft(knowledge_of(view, hand=counts_of(hand)), pool)


def round_chance(k: Knowledge, hand: Sequence[float], later: Sequence[float]) -> float:
    """Projected chance of winning the match when starting this round with ``hand``."""
    their_hand = expected_hand(k.theirs, HAND_SIZE)
    their_later = tuple(n - h for n, h in zip(k.theirs, their_hand))
    return projected_chance(
        k.round, HAND_SIZE, k.stamina, k.their_stamina, tuple(hand), tuple(later), their_hand, their_later
    )


def _best_draft(start: Knowledge, pool: tuple[int, ...]) -> tuple[Card, ...]:
    """Hill-climb from ``start``'s hand: swap one card for another kind while that raises
    the projected winning chance."""
    hand = list(start.hand)
    best = round_chance(start, hand, [p - h for p, h in zip(pool, hand)])
    improved = True
    while improved:
        improved = False
        for out in range(KINDS):
            for into in range(KINDS):
                if out == into or not hand[out] or hand[into] >= pool[into]:
                    continue
                hand[out] -= 1
                hand[into] += 1
                chance = round_chance(start, hand, [p - h for p, h in zip(pool, hand)])
                if chance > best + 1e-9:
                    best, improved = chance, True
                else:
                    hand[out] += 1
                    hand[into] -= 1
    return tuple(card for card, n in zip(CARDS, hand) for _ in range(n))
