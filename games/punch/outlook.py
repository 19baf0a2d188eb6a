"""How a match is likely to end from here: the continuation values behind every choice.

An exchange is a matrix game whose payoffs are the chances of winning the match after
each pair of cards.  Those chances come from a projection, not a search: the rest of
each round is projected as if the remaining cards met in random pairs (the expected
stamina change of every pairing, weighted by how many of each kind each boxer holds),
stamina is capped at 10 and topped up in the breaks as the rules say, and the projected
lead becomes a winning chance through a normal curve whose spread grows with the
exchanges still to play.  It is cheap (the whole 6×6 matrix in well under a
millisecond), it knows every card each side still has, and it is exact where it
matters most: a knockout or the last exchange of round 3 is scored as won or lost.

The spread is the model's one free number; :data:`SPREAD_PER_EXCHANGE` says where it
comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import erf, sqrt
from operator import mul

from games.punch.cards import CARDS, HAND_SIZE, ROUNDS
from games.punch.clash import STANDARD_CLASHES, clash
from games.punch.engine import BREAK_REST, MAX_STAMINA
from games.punch.knowledge import KINDS

SPREAD_PER_EXCHANGE = 1.6
"""Variance of the stamina lead added by one exchange of random pairings: the variance of
the lead change over all 36 pairings of a full deck is 4.2, but play between reasoning
boxers and the stamina cap keep it far smaller; 1.6 played best against every level in
the tuning duels (1.0–3.0 tried, 600 matches each)."""
SPREAD_FLOOR = 0.25
"""Variance left when nothing is left to play but a rounding of the projection."""


def _changes(mine: int, theirs: int) -> tuple[int, int]:
    effects = STANDARD_CLASHES[(CARDS[mine], CARDS[theirs])]
    return (sum(e.amount for e in effects if e.seat == 0), sum(e.amount for e in effects if e.seat == 1))


MY_CHANGE = tuple(tuple(_changes(i, j)[0] for j in range(KINDS)) for i in range(KINDS))
"""``MY_CHANGE[i][j]``: my stamina change (before the cap) when I play kind i against j."""
THEIR_CHANGE = tuple(tuple(_changes(i, j)[1] for j in range(KINDS)) for i in range(KINDS))


@cache
def staminas_after(stamina: int, their_stamina: int, mine: int, theirs: int, no_mercy: bool) -> tuple[int, int]:
    """Both staminas after I play kind ``mine`` and they play kind ``theirs`` (a few
    thousand cases in all, remembered: bots ask for them in every cell of every matrix)."""
    if no_mercy:
        a, b = CARDS[mine], CARDS[theirs]
        effects = clash((a, b), (min(a.punch, stamina), min(b.punch, their_stamina)))
        change = [0, 0]
        for effect in effects:
            change[effect.seat] += effect.amount
        mine_change, their_change = change
    else:
        mine_change, their_change = MY_CHANGE[mine][theirs], THEIR_CHANGE[mine][theirs]
    return (
        min(MAX_STAMINA, max(0, stamina + mine_change)),
        min(MAX_STAMINA, max(0, their_stamina + their_change)),
    )


def final_score(stamina: int, their_stamina: int) -> float:
    """1 won, 0 lost, ½ a tie (a tie is replayed from scratch: an even match again)."""
    return 1.0 if stamina > their_stamina else 0.0 if stamina < their_stamina else 0.5


@dataclass(frozen=True)
class Played:
    """Expected counts per kind once one card of kind ``k`` has been played: the vector
    ``scale * base`` less ``drop`` of kind ``k``.  Being linear in the played kind is what
    lets :class:`Outlook` fill a whole matrix from a few sums."""

    base: tuple[float, ...]
    scale: float
    drop: float

    def after(self, kind: int) -> tuple[float, ...]:
        return tuple(self.scale * n - (self.drop if k == kind else 0.0) for k, n in enumerate(self.base))


@dataclass(frozen=True)
class Cards:
    """One boxer's cards for the rest of the match as the reasoner knows them: the exact
    hand and later cards (the boxer's own, or any hand in round 3), or the average make-up
    of a random hand drawn from the unseen cards.  ``hand``: counts now; ``hand_after`` and
    ``later_after``: this round's rest and the later rounds' cards once a kind is played
    (for a hand known only on average, the rest of it is a random draw from the other
    unseen cards)."""

    hand: tuple[float, ...]
    hand_after: Played
    later_after: Played

    @staticmethod
    def own(hand: tuple[int, ...], later: tuple[int, ...]) -> Cards:
        return Cards(
            tuple(float(n) for n in hand),
            Played(tuple(float(n) for n in hand), 1.0, 1.0),
            Played(tuple(float(n) for n in later), 1.0, 0.0),
        )

    @staticmethod
    def unseen(unseen: tuple[int, ...], hand_size: int) -> Cards:
        """A hand of ``hand_size`` drawn from ``unseen``, the rest kept for later rounds."""
        total = sum(unseen)
        if hand_size >= total:
            return Cards.own(unseen, (0,) * KINDS)
        base = tuple(float(n) for n in unseen)
        rest = (hand_size - 1) / (total - 1)
        return Cards(
            tuple(n * hand_size / total for n in base),
            Played(base, rest, rest),
            Played(base, 1.0 - rest, 1.0 - rest),
        )

    def playable(self) -> tuple[int, ...]:
        """Kinds this boxer may hold now."""
        return tuple(k for k in range(KINDS) if self.hand[k] > 0)


def _expected_changes(mine: tuple[float, ...], theirs: tuple[float, ...], pairs: float) -> tuple[float, float]:
    """Expected stamina changes (mine, theirs) when the cards ``mine`` and ``theirs``
    (equal totals, ``pairs``) meet in random pairs."""
    if pairs <= 0:
        return 0.0, 0.0
    me = them = 0.0
    for i in range(KINDS):
        a = mine[i]
        if a:
            my_row, their_row = MY_CHANGE[i], THEIR_CHANGE[i]
            for j in range(KINDS):
                b = theirs[j]
                if b:
                    me += a * b * my_row[j]
                    them += a * b * their_row[j]
    return me / pairs, them / pairs


def _cap(x: float) -> float:
    return MAX_STAMINA if x > MAX_STAMINA else 0.0 if x < 0 else x


class Outlook:
    """Winning chances after each pair of cards this exchange, for one reasoner's view of
    both boxers' cards.

    An expected change is bilinear in the two boxers' cards, and the cards left after a
    play are linear in the kind played (:class:`Played`), so for each table of changes
    one scalar, one row and one column of products give every cell in four terms."""

    def __init__(self, round_: int, cards_left: int, no_mercy: bool, me: Cards, them: Cards) -> None:
        self.round = round_
        self.no_mercy = no_mercy
        self.rows = me.playable()
        self.columns = them.playable()
        rounds_left = ROUNDS - round_
        self._rests = tuple(BREAK_REST[ended] for ended in range(round_, ROUNDS))
        pairs = cards_left - 1
        self._last = pairs == 0 and rounds_left == 0
        self._spread = sqrt(2.0 * (SPREAD_PER_EXCHANGE * (pairs + HAND_SIZE * rounds_left) + SPREAD_FLOOR))
        now = 1.0 / pairs if pairs else 0.0
        later = 1.0 / (rounds_left * rounds_left * HAND_SIZE) if rounds_left else 0.0
        self._now = (
            _bilinear(me.hand_after, them.hand_after, MY_CHANGE, now),
            _bilinear(me.hand_after, them.hand_after, THEIR_CHANGE, now),
        )
        self._later = (
            _bilinear(me.later_after, them.later_after, MY_CHANGE, later),
            _bilinear(me.later_after, them.later_after, THEIR_CHANGE, later),
        )

    def matrix(self, stamina: int, their_stamina: int) -> list[list[float]]:
        """My chance of winning the match after each pair: rows my playable kinds
        (:attr:`rows`), columns theirs (:attr:`columns`)."""
        no_mercy, last, rests, spread = self.no_mercy, self._last, self._rests, self._spread
        my_now, their_now = self._now
        my_later, their_later = self._later
        top = float(MAX_STAMINA)
        matrix = []
        for i in self.rows:
            row = []
            for j in self.columns:
                s0, t0 = staminas_after(stamina, their_stamina, i, j, no_mercy)
                if s0 == 0 or t0 == 0 or last:
                    row.append(final_score(s0, t0))
                    continue
                s = min(top, max(0.0, s0 + my_now[i][j]))
                t = min(top, max(0.0, t0 + their_now[i][j]))
                if rests:
                    me, them = my_later[i][j], their_later[i][j]
                    for rest in rests:
                        s = min(top, max(0.0, min(top, s + rest) + me))
                        t = min(top, max(0.0, min(top, t + rest) + them))
                row.append(0.5 * (1.0 + erf((s - t) / spread)))
            matrix.append(row)
        return matrix


_COLUMNS = {table: tuple(zip(*table)) for table in (MY_CHANGE, THEIR_CHANGE)}
_ZEROS = [[0.0] * KINDS for _ in range(KINDS)]


def _bilinear(mine: Played, theirs: Played, table: tuple[tuple[int, ...], ...], factor: float) -> list[list[float]]:
    """``factor * mine.after(i) · table · theirs.after(j)`` for every pair (i, j)."""
    if not factor:
        return _ZEROS
    row = [sum(map(mul, mine.base, line)) for line in _COLUMNS[table]]
    column = [sum(map(mul, line, theirs.base)) for line in table]
    whole = sum(map(mul, row, theirs.base))
    constant = factor * mine.scale * theirs.scale * whole
    by_theirs = [factor * mine.scale * theirs.drop * r for r in row]
    by_mine = [factor * mine.drop * theirs.scale * c for c in column]
    pair = factor * mine.drop * theirs.drop
    return [[constant - by_theirs[j] - by_mine[i] + pair * table[i][j] for j in range(KINDS)] for i in range(KINDS)]


def projected_chance(
    round_: int,
    cards_left: int,
    stamina: float,
    their_stamina: float,
    hand: tuple[float, ...],
    later: tuple[float, ...],
    their_hand: tuple[float, ...],
    their_later: tuple[float, ...],
) -> float:
    """My chance of winning the match with ``cards_left`` cards each still to play this
    round (0: the round is over) and the given cards, by the projection described above."""
    s, t = stamina, their_stamina
    if cards_left:
        me, them = _expected_changes(hand, their_hand, cards_left)
        s, t = _cap(s + me), _cap(t + them)
    rounds_left = ROUNDS - round_
    if rounds_left:
        share = 1.0 / rounds_left
        each = tuple(n * share for n in later)
        their_each = tuple(n * share for n in their_later)
        me, them = _expected_changes(each, their_each, HAND_SIZE)
        for ended in range(round_, ROUNDS):
            rest = BREAK_REST[ended]
            s, t = _cap(_cap(s + rest) + me), _cap(_cap(t + rest) + them)
    exchanges = cards_left + HAND_SIZE * rounds_left
    spread = sqrt(SPREAD_PER_EXCHANGE * exchanges + SPREAD_FLOOR)
    return 0.5 * (1.0 + erf((s - t) / (spread * sqrt(2.0))))
