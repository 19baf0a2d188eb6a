"""Scoring a round on the 10-point must system and deciding a fight that goes the distance."""

from __future__ import annotations

from enum import Enum

WIN, LOSE, ROUT_LOSE = 10, 9, 8
ROUT_MARGIN = 12
"""Losing a round by this much (or more) without a knockdown scores 8, not 9."""


class Finish(Enum):
    """How a fight ended: ``Outcome.how``."""

    KO = "ko"
    TKO_HEALTH = "tko_health"
    """Hit for 2 or more (or a Big Hit) after his last Health die reached 0."""
    TKO_CUT_OVER_EYE = "tko_cut_over_eye"
    TKO_NOSE_BLEED = "tko_nose_bleed"
    TKO_INJURIES = "tko_injuries"
    TKO_KNOCKDOWNS = "tko_knockdowns"
    """Knocked down three times (optional rule)."""
    TKO_EXHAUSTION = "tko_exhaustion"
    """Fight Energy reached 0."""
    DECISION = "decision"
    SKETCHY_DECISION = "sketchy_decision"
    """Tied scorecards, decided by knockdowns then injuries caused ("Sketchy" Judges)."""
    DRAW = "draw"
    TECHNICAL_DECISION = "technical_decision"
    """Both boxers' Fight Energy reached 0 together: the scorecards so far decide."""
    TECHNICAL_DRAW = "technical_draw"


def round_scores(totals: tuple[int, int], knockdowns: tuple[int, int], fouls: tuple[int, int]) -> tuple[int, int]:
    """Round-scores from each boxer's total (his Judge Points + Damage caused), the
    knockdowns each suffered and the fouls each committed this round.

    The winner gets 10 and the loser 9 (8 if he lost by 12 or more without being knocked
    down); even totals score 10-10.  Each knockdown then costs its boxer a point, and the
    must system lifts both scores until the higher is 10 again (the rulebook's 9-9 that
    becomes 10-10).  Fouls come off last and are not lifted ("before deductions for
    fouls": a 9-9 can stand)."""
    a, b = totals
    if a == b:
        scores = [WIN, WIN]
    else:
        winner = 0 if a > b else 1
        loser = 1 - winner
        scores = [0, 0]
        scores[winner] = WIN
        scores[loser] = ROUT_LOSE if abs(a - b) >= ROUT_MARGIN and knockdowns[loser] == 0 else LOSE
    scores = [scores[i] - knockdowns[i] for i in (0, 1)]
    lift = WIN - max(scores)
    scores = [s + lift - fouls[i] for i, s in enumerate(scores)]
    return scores[0], scores[1]


def decision(
    cards: tuple[int, int], sketchy: bool, knockdowns_caused: tuple[int, int], injuries_caused: tuple[int, int]
) -> tuple[int | None, Finish]:
    """The winner of a fight that went the distance (``None``: a draw) and how.

    ``cards``: each boxer's total round-score.  With "Sketchy" Judges a tie goes to the
    boxer who caused more knockdowns, then more injuries."""
    if cards[0] != cards[1]:
        return (0 if cards[0] > cards[1] else 1), Finish.DECISION
    if sketchy:
        for caused in (knockdowns_caused, injuries_caused):
            if caused[0] != caused[1]:
                return (0 if caused[0] > caused[1] else 1), Finish.SKETCHY_DECISION
    return None, Finish.DRAW
