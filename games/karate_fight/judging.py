"""Slap judging by stamps: what one slap stamp means at the moment it is judged.

The cabinet hands the engine every stamped input in stamp order (a reveal before slaps
at the same microsecond, equal-stamp slaps batched), so judging needs no look-ahead:
the first batch of slaps at or after a Hit's reveal wins it; anything at all before the
reveal is a Coward's Blow, however late it arrived.
"""

from __future__ import annotations

from enum import Enum


class Verdict(Enum):
    HIT = "hit"
    """First slap(s) on a showing Hit: the fighter wins it (several: a dead heat)."""
    GRACE = "grace"
    """Within the grace after a Hit was won: a late slap on that Hit, ignored."""
    JAN_KEN = "jan_ken"
    """During Jan Ken hands are busy throwing signs: ignored."""
    COWARDS_BLOW = "cowards_blow"
    """No Hit showing: the slapper pays cards (or goes out with none)."""


def judge(
    t_us: int,
    *,
    revealed_us: int | None,
    won_us: int | None,
    grace_us: int,
    jan_ken: bool,
) -> Verdict:
    """The verdict on slaps stamped ``t_us``.

    ``revealed_us``: reveal stamp of the Hit now showing (``None``: none showing, even if
    the card causing one is played but not yet on screen).  ``won_us``: winning stamp of
    the last Hit won.  A showing Hit comes first, so a new Hit is slappable even inside
    the previous one's grace."""
    if revealed_us is not None and t_us >= revealed_us:
        return Verdict.HIT
    if won_us is not None and t_us - won_us <= grace_us:
        return Verdict.GRACE
    if jan_ken:
        return Verdict.JAN_KEN
    return Verdict.COWARDS_BLOW
