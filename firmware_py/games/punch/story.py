"""Punch!'s story told from the engine's events, for its result screen: both boxers'
stamina exchange after exchange, match after match."""

from __future__ import annotations

from collections.abc import Sequence

from display.games.punch.result import MatchStamina, PunchStory, StaminaPoint
from games.protocol import Event
from games.punch.engine import MAX_STAMINA
from games.punch.events import Break, CardsRevealed, MatchEnded, MatchStarted, RoundStarted, StaminaChanged


def punch_story(events: Sequence[Event]) -> PunchStory:
    """Every match of a game from its events (oldest first, the opening ones included):
    a point after each exchange and each break, the rounds' starts, how it ended."""
    matches: list[MatchStamina] = []
    points: list[StaminaPoint] = []
    rounds_at: list[int] = []
    stamina = [MAX_STAMINA, MAX_STAMINA]
    number, wins = 0, (0, 0)
    for ev in events:
        if isinstance(ev, MatchStarted):
            number, rounds_at, stamina = ev.match, [], [MAX_STAMINA, MAX_STAMINA]
            points = [StaminaPoint((MAX_STAMINA, MAX_STAMINA))]
        elif isinstance(ev, (CardsRevealed, Break)):  # a new point; the stamina changes that follow move it
            points.append(StaminaPoint((stamina[0], stamina[1]), isinstance(ev, Break)))
        elif isinstance(ev, StaminaChanged):
            stamina[ev.player] = ev.stamina
            points[-1] = StaminaPoint((stamina[0], stamina[1]), points[-1].break_)
        elif isinstance(ev, RoundStarted) and ev.round > 1:
            rounds_at.append(len(points) - 1)
        elif isinstance(ev, MatchEnded):
            matches.append(
                MatchStamina(
                    match=number, points=tuple(points), rounds_at=tuple(rounds_at), winner=ev.winner, reason=ev.reason
                )
            )
            points, wins = [], ev.match_wins
    if points:  # told before the game's end: the match still on
        matches.append(
            MatchStamina(match=number, points=tuple(points), rounds_at=tuple(rounds_at), winner=None, reason=None)
        )
    return PunchStory(tuple(matches), wins)
