"""Shared helpers for the Punch! tests (this module holds no tests itself).

Advanced rules let a test choose every card of both hands, so most rule tests draft
exactly the hands they need and then play scripted exchanges through the public API.
Cards are written one character each: 1 2 3 (punches), N (Do Nothing), B (Block), D (Dodge).
"""

from __future__ import annotations

from games.protocol import Event
from games.punch import Card, Draft, Phase, PlayCard, Punch, PunchOptions, Rules
from games.punch.cards import CARDS, COPIES_PER_KIND, HAND_SIZE

CODES = {
    "1": Card.PUNCH_1,
    "2": Card.PUNCH_2,
    "3": Card.PUNCH_3,
    "N": Card.DO_NOTHING,
    "B": Card.BLOCK,
    "D": Card.DODGE,
}
RED, BLUE = 0, 1


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(CODES[c] for c in codes if not c.isspace())


def hand_with(codes: str, pool: tuple[int, ...] = (COPIES_PER_KIND,) * len(CARDS)) -> tuple[Card, ...]:
    """``codes`` topped up to 10 cards from ``pool``, fillers taken from the Block end
    (Blocks and Dodges are the quietest fillers)."""
    chosen = list(cards(codes))
    left = list(pool)
    for card in chosen:
        left[card.index] -= 1
    assert min(left) >= 0, f"{codes!r} does not fit in {pool}"
    for card in reversed(CARDS):
        while len(chosen) < HAND_SIZE and left[card.index]:
            chosen.append(card)
            left[card.index] -= 1
    return tuple(chosen)


def drafted_game(red: str, blue: str, no_mercy: bool = False, matches_to_win: int = 3) -> Punch:
    """An advanced-rules game whose round 1 hands are ``red`` and ``blue`` (topped up)."""
    game = Punch(PunchOptions(rules=Rules.ADVANCED, no_mercy=no_mercy, matches_to_win=matches_to_win), 2, seed=1)
    draft(game, red, blue)
    return game


def draft(game: Punch, red: str, blue: str) -> list[Event]:
    assert game.public_view().phase is Phase.DRAFT
    events = list(game.apply(Draft(RED, hand_with(red, game.view(RED).deck))))
    events += game.apply(Draft(BLUE, hand_with(blue, game.view(BLUE).deck)))
    return events


def exchange(game: Punch, red: str, blue: str) -> list[Event]:
    """Both boxers play one card each (Red first); the events of both plays."""
    events = list(game.apply(PlayCard(RED, CODES[red])))
    events += game.apply(PlayCard(BLUE, CODES[blue]))
    return events


def play(game: Punch, red: str, blue: str) -> list[Event]:
    """Several exchanges, ``red[i]`` against ``blue[i]``."""
    red_cards, blue_cards = red.replace(" ", ""), blue.replace(" ", "")
    assert len(red_cards) == len(blue_cards)
    events: list[Event] = []
    for r, b in zip(red_cards, blue_cards):
        events += exchange(game, r, b)
    return events


def hand_codes(game: Punch, player: int) -> str:
    """The player's hand, in Card order, as codes."""
    code_of = {card: code for code, card in CODES.items()}
    return "".join(code_of[card] * n for card, n in zip(CARDS, game.view(player).hand))


def of_type(events: list[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]
