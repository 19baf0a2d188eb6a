"""A play screen that tells its story behind the game when the players are quicker than it
(issue 30, the story in order).

A moment that decides something (a reveal and what it decided: a knockout, a round's end,
the game's end) is told whole: its cards readable, then its consequences said.  Quick
players act again before that is told; the cabinet takes and applies every press as it
comes (the game is never held), and the *screen* keeps telling the oldest moment not told
yet, then shows the present again.  A later deciding moment that comes during the lag
waits its turn: its time is moved to when the screen is free.  Each game says what opens a
moment, whether it decides anything, and when the screen is free of it; this module does
the rest, the same for every game (Punch!, Big Time Boxing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from display.models import PlayScreen
from games.protocol import Event

S = TypeVar("S", bound="PlayScreen[Any, Any]")

Timed = Sequence[tuple[int, Event]]


@dataclass(frozen=True)
class Moment(Generic[S]):
    """One deciding moment as the screen tells it."""

    cut: int
    """The index after the moment's events (they all share its time)."""
    free_at: int
    """When the screen is free of it (game time): its story told."""
    screen: S
    """The play screen cut after the moment, its events moved to when the screen was free
    of the moments before."""


def deciding_moments(
    s: S,
    opens: Callable[[Event], bool],
    decides: Callable[[Timed], bool],
    free_at: Callable[[S], int | None],
) -> list[Moment[S]]:
    """Every deciding moment of ``s``'s events, oldest first.  A moment opens at an event
    ``opens`` picks and takes the events of its time after it; it is told if ``decides``
    says so of those (a cheap look, before any screen is cut) and ``free_at`` of its cut
    screen is not None."""
    out: list[Moment[S]] = []
    free = -(10**18)
    cut = 0
    events = s.events
    for i, (t, ev) in enumerate(events):
        if i < cut or not opens(ev):
            continue
        cut = next((j for j in range(i + 1, len(events)) if events[j][0] != t), len(events))
        if not decides(events[i:cut]):
            continue
        at = max(t, free)
        moment = (
            s
            if at == t and cut == len(events)
            else replace(s, events=(*events[:i], *((at, e) for _t, e in events[i:cut])))
        )
        end = free_at(moment)
        if end is not None:
            free = end
            out.append(Moment(cut, end, moment))
    return out


def telling(s: S, moments: Sequence[Moment[S]]) -> Moment[S] | None:
    """The moment the screen tells now: the oldest whose story is not told yet, or the
    newest moment when it is the newest thing that happened; None: the present."""
    for m in moments:
        if m.cut == len(s.events) or s.now_us < m.free_at:
            return m
    return None


def told_by(moments: Sequence[Moment[S]]) -> int | None:
    """When the screen has told all (the last moment's end; None: nothing to tell): the
    cabinet keeps a finished game's screen up until then."""
    return max((m.free_at for m in moments), default=None)


def told_times(s: S, moments: Sequence[Moment[S]], said_at: Callable[[S], Sequence[tuple[int, object]]]) -> list[int]:
    """When the screen tells each of ``s``'s events (game time, in their order): as the
    screen of the moment that holds it, or of the next one, says it (``said_at``), a moment
    that waited its turn at its moved time; after the last moment, as ``s`` says it.  What
    the cabinet's sound keeps to, so a knockdown's thud comes with its banner, not while its
    card is still face down.  What quick players did during the lag is never told one by one
    (the screen catches up to the present at once): it is heard as it happens, not in one
    pile when the screen is free."""
    out: list[int] = []
    ahead = iter(moments)
    moment = next(ahead, None)
    said = said_at(s if moment is None else moment.screen)
    for i in range(len(s.events)):
        while moment is not None and i >= moment.cut:
            moment = next(ahead, None)
            said = said_at(s if moment is None else moment.screen)
        out.append(said[i][0])
    return out
