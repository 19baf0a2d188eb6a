"""Karate Fight's story told from the engine's events: the photo finish of the last Hit
(while the fight goes on) and, at the end, every Hit's reaction times, each fighter's
best and the fastest-slap records.  Stamps are game data: nothing here reads a clock."""

from __future__ import annotations

from collections.abc import Sequence

from display.games.karate_fight.photo_finish import PhotoFinish, SlapMark, SlapVerdict
from display.games.karate_fight.result import FastSlap, HitLine, KarateStory
from firmware_py.runtime.controls import ResultRecords
from games.karate_fight import CardPlayed, CowardsBlow, DeadHeat, HitWon, IgnoreReason, SlapIgnored
from games.protocol import Event

REACTION = "reaction"
"""The store's record kind of a slap's reaction time (µs), written by the controls."""
RECORDS_SHOWN = 3


def _judged(ev: Event) -> bool:
    """A Hit decided by slaps (a Hit won by Jan Ken after a dead heat was judged at the heat)."""
    return isinstance(ev, DeadHeat) or (isinstance(ev, HitWon) and not ev.by_jan_ken)


def photo_finish(events: Sequence[Event], grace_us: int) -> PhotoFinish | None:
    """The photo finish of the latest Hit judged in ``events`` (oldest first), or None.

    Slaps before its judging: Coward's Blows struck while its card was played but not yet
    shown.  After it: late slaps inside the grace (the runner-up's reaction), Coward's
    Blows after the grace until the next card is played (later ones belong to that
    card); and a Jan Ken that settled a dead heat."""
    at = next((i for i in range(len(events) - 1, -1, -1) if _judged(events[i])), None)
    if at is None:
        return None
    judged = events[at]
    assert isinstance(judged, (HitWon, DeadHeat))
    revealed = judged.revealed_us if isinstance(judged, HitWon) else judged.won_us - judged.reaction_us
    first = judged.fighters if isinstance(judged, DeadHeat) else (judged.winner,)
    verdict = SlapVerdict.DEAD_HEAT if isinstance(judged, DeadHeat) else SlapVerdict.WON
    slaps = [SlapMark(f, judged.reaction_us, verdict) for f in first]
    played = None
    for ev in reversed(events[:at]):
        if isinstance(ev, CardPlayed):
            played = ev.t_us - revealed
            break
        if isinstance(ev, CowardsBlow) and ev.hit_pending is not None:
            slaps.insert(0, SlapMark(ev.fighter, ev.t_us - revealed, SlapVerdict.TOO_SOON, ev.cards_paid))
    jan_ken_winner = None
    next_card = False
    for ev in events[at + 1 :]:
        next_card = next_card or isinstance(ev, CardPlayed)
        if isinstance(ev, SlapIgnored) and ev.reason is IgnoreReason.GRACE:
            slaps.append(SlapMark(ev.fighter, ev.t_us - revealed, SlapVerdict.LATE))
        elif isinstance(ev, CowardsBlow) and not next_card:
            slaps.append(SlapMark(ev.fighter, ev.t_us - revealed, SlapVerdict.COWARD, ev.cards_paid))
        elif isinstance(ev, HitWon) and ev.by_jan_ken:
            jan_ken_winner = ev.winner
    return PhotoFinish(
        hit=judged.kind,
        revealed_us=revealed,
        played_at_us=played,
        won_at_us=judged.reaction_us,
        grace_us=grace_us,
        slaps=tuple(slaps),
        winner=None if isinstance(judged, DeadHeat) else judged.winner,
        margin_us=_margin(slaps, judged.reaction_us, first),
        jan_ken_winner=jan_ken_winner,
    )


def _margin(slaps: list[SlapMark], won_at_us: int, winners: tuple[int, ...]) -> int | None:
    """The runner-up's first slap on the Hit less the winning one (0: a dead heat)."""
    if len(winners) > 1:
        return 0
    late = [m.at_us for m in slaps if m.verdict is SlapVerdict.LATE and m.fighter not in winners]
    return min(late) - won_at_us if late else None


def hit_lines(events: Sequence[Event]) -> tuple[HitLine, ...]:
    """Every Hit of a fight in order: its kind, winner and each fighter's first reaction
    (the winning slap, then late slaps inside the grace), fastest first."""
    found: list[tuple[HitWon | DeadHeat, dict[int, int], list[int]]] = []
    for ev in events:
        if isinstance(ev, (HitWon, DeadHeat)) and _judged(ev):
            fighters = ev.fighters if isinstance(ev, DeadHeat) else (ev.winner,)
            found.append((ev, dict.fromkeys(fighters, ev.reaction_us), []))
        elif found and isinstance(ev, SlapIgnored) and ev.reason is IgnoreReason.GRACE and ev.reaction_us is not None:
            found[-1][1].setdefault(ev.fighter, ev.reaction_us)
        elif found and isinstance(ev, HitWon) and ev.by_jan_ken:
            found[-1][2].append(ev.winner)
    return tuple(
        HitLine(
            number=n,
            hit=ev.kind,
            winner=ev.winner if isinstance(ev, HitWon) else None,
            reactions=tuple(sorted(reactions.items(), key=lambda fr: (fr[1], fr[0]))),
            jan_ken_winner=jan_ken[0] if jan_ken else None,
        )
        for n, (ev, reactions, jan_ken) in enumerate(found, 1)
    )


def fastest_slaps(records: ResultRecords, since: str | None) -> tuple[FastSlap, ...]:
    """The fastest slaps among people only (ever, or since ``since``), by station name."""
    names = records.stations
    return tuple(
        FastSlap(
            names[r.station] if r.station is not None and r.station < len(names) else "?",
            r.value,
            r.game_id == records.game_id,
        )
        for r in records.store.fastest_records(REACTION, RECORDS_SHOWN, since)
    )


def karate_story(events: Sequence[Event], players: int, records: ResultRecords) -> KarateStory:
    """The fight told for its result screen: Hits, bests, Coward's Blows and records."""
    hits = hit_lines(events)
    best = tuple(
        min((r for line in hits for f, r in line.reactions if f == fighter), default=None) for fighter in range(players)
    )
    blows = [0] * players
    for ev in events:
        if isinstance(ev, CowardsBlow):
            blows[ev.fighter] += 1
    return KarateStory(
        hits=hits,
        best=best,
        cowards_blows=tuple(blows),
        fastest_ever=fastest_slaps(records, None),
        fastest_today=fastest_slaps(records, records.today_since),
        counted=records.people_only,
    )
