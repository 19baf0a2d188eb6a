"""Karate Fight options: variants and set-up chosen before a fight."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_GRACE_US = 500_000


@dataclass(frozen=True)
class KarateOptions:
    """``grace_us``: after a Hit is won, slaps stamped up to this long after the winning
    slap are late slaps on that Hit and are ignored, not Coward's Blows.  500 ms covers
    the slowest runner-up slap of a table of fighters reacting to the same Hit (human
    reaction times spread over a few hundred ms) and a hand bouncing on the pad, and is
    shorter than the next card can be drawn, revealed and reacted to.

    ``first_fighter``: who begins the first bout (the fighter left of the dealer).

    ``deal``: a prearranged deal for demos, tutorials and tests: card ids (0..53, top of
    the pile first) per fighter; cards not dealt are set aside.  ``None``: shuffle the
    deck with the game's seed and deal it evenly.

    ``time_limit_us``: a cabinet variant (house rule), off (``None``) by default so the
    rulebook game is unchanged.  The fight's clock starts at the first card played; the
    first input stamped ``started + time_limit_us`` or later ends regulation and the
    fighter holding most cards wins (a tie: Jan Ken among the tied).  See "Time limit" in
    ``docs/rules/karate_fight.md``."""

    grace_us: int = DEFAULT_GRACE_US
    first_fighter: int = 0
    deal: tuple[tuple[int, ...], ...] | None = None
    time_limit_us: int | None = None

    def __post_init__(self) -> None:
        limit = self.time_limit_us
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0):
            raise ValueError(
                f"time_limit_us must be a whole number of microseconds > 0, or None for no limit; got {limit!r}"
            )
