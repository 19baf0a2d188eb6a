"""The challenge rule: "you must accept the first challenge from any rival, but you may
refuse subsequent challenges until both players have fought someone else."

Its state is the event's history of duels, which the ledger keeps; this pure function is
the rule, so the ledger, the cabinet and the tests all read it the same way.  Players are
any hashable handles (the ledger passes player ids).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def may_refuse(duels: Sequence[tuple[Hashable, Hashable]], challenger: Hashable, challenged: Hashable) -> bool:
    """Whether ``challenged`` may refuse ``challenger`` now, given every duel fought so far
    (pairs in the order fought; voided duels left out: they did not happen).

    Never before the two have fought each other.  After a duel between them, refusal is
    allowed until each has fought a third player; then the next challenge is again one
    that must be accepted.  The pair is unordered: who challenged whom before does not
    matter.  A refused challenge is not a duel and changes nothing."""
    if challenger == challenged:
        raise ValueError("a player cannot challenge themselves")
    pair = {challenger, challenged}
    last = None
    for i in range(len(duels) - 1, -1, -1):
        if set(duels[i]) == pair:
            last = i
            break
    if last is None:
        return False
    fought_other = {challenger: False, challenged: False}
    for a, b in duels[last + 1 :]:
        for player, rival in ((a, b), (b, a)):
            if player in fought_other and rival not in pair:
                fought_other[player] = True
    return not all(fought_other.values())
