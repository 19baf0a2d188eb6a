"""What the main display and each boxer's private display may see.

Plain frozen dataclasses of tuples so replays can compare them with ``==``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.punch.cards import Card
from games.punch.options import PunchOptions


class Phase(Enum):
    """What the game waits for.  REDEAL (standard rules, rounds 1 and 2): every boxer whose
    hand was just dealt keeps it or, if it holds 4+ of one kind, re-deals; both are asked
    whatever their hands hold.  DRAFT and EXCHANGE: both boxers choose secretly and
    simultaneously."""

    REDEAL = "redeal"
    DRAFT = "draft"
    EXCHANGE = "exchange"
    OVER = "over"


@dataclass(frozen=True)
class PunchPublicView:
    """Everything on the table.  ``locked``: who has chosen (a card or a draft) and is
    waiting; ``played``: per seat, how many of each kind (Card order) were revealed this
    match, which any attentive opponent knows."""

    options: PunchOptions
    phase: Phase
    match: int
    round: int
    exchange: int
    stamina: tuple[int, int]
    match_wins: tuple[int, int]
    locked: tuple[bool, bool]
    last_reveal: tuple[Card, Card] | None
    hand_sizes: tuple[int, int]
    deck_sizes: tuple[int, int]
    played: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None


@dataclass(frozen=True)
class PunchPlayerView:
    """One boxer's private display.  ``hand`` and ``deck`` are counts in Card order;
    ``deck`` is what is left to deal or draft (the owner can work it out anyway);
    ``draft_pool`` equals it while this boxer still has to draft, else None;
    ``redeal_offered``: this boxer must still answer in the REDEAL phase and their hand
    holds 4+ of one kind, so they may re-deal (keeping is always possible)."""

    public: PunchPublicView
    player: int
    hand: tuple[int, ...]
    locked_card: Card | None
    redeal_offered: bool
    deck: tuple[int, ...]
    draft_pool: tuple[int, ...] | None
