"""Punch Cards: the convention-wide collecting game.  Every player gets a packet of five
cards bearing their name, duels anyone, and the winner keeps the loser's card; the score
is how many different names you hold.  This package is the pure part: cards and their
numbers, names, the challenge rule, the duel engine, trades and scoring.  The ledger (who
holds which card) is runtime I/O in ``firmware_py/games/punch_cards/ledger``.  Rule choices:
``docs/rules/punch_cards.md``."""

from games.punch_cards.actions import Answer, CallIt, PickCorner, Stake
from games.punch_cards.cards import (
    CORNERS,
    MAX_SERIAL,
    NUMBER_MAX,
    NUMBER_MIN,
    PACKET_SIZE,
    SET_SIZES,
    Card,
    Corner,
    Numbers,
    cards_problem,
    corner_numbers,
    make_card,
    packet,
)
from games.punch_cards.challenge import may_refuse
from games.punch_cards.engine import EXHIBITION_NAMES, SPEC, DuelAction, PunchCardsDuel
from games.punch_cards.events import ChallengeAnswered, DuelWon, Locked, Revealed, StakesShown
from games.punch_cards.names import MAX_LENGTH, NameProblem, NameRefused, name_key, normalise_name, validate_name
from games.punch_cards.options import DuelOptions
from games.punch_cards.reveal import Call, DuelEnd, PlayAgain, Verdict, high_winner, judge, low_winner
from games.punch_cards.scoring import Standing, levels, levels_of_copies, points, standings, standings_of_copies
from games.punch_cards.trade import TradeOffer, TradeRefused, TradeTable
from games.punch_cards.views import DuelPlayerView, DuelPublicView, Phase

__all__ = [
    "CORNERS",
    "EXHIBITION_NAMES",
    "MAX_LENGTH",
    "MAX_SERIAL",
    "NUMBER_MAX",
    "NUMBER_MIN",
    "PACKET_SIZE",
    "SET_SIZES",
    "SPEC",
    "Answer",
    "Call",
    "CallIt",
    "Card",
    "ChallengeAnswered",
    "Corner",
    "DuelAction",
    "DuelEnd",
    "DuelOptions",
    "DuelPlayerView",
    "DuelPublicView",
    "DuelWon",
    "Locked",
    "NameProblem",
    "NameRefused",
    "Numbers",
    "Phase",
    "PickCorner",
    "PlayAgain",
    "PunchCardsDuel",
    "Revealed",
    "Stake",
    "StakesShown",
    "Standing",
    "TradeOffer",
    "TradeRefused",
    "TradeTable",
    "Verdict",
    "cards_problem",
    "corner_numbers",
    "high_winner",
    "judge",
    "levels",
    "levels_of_copies",
    "low_winner",
    "make_card",
    "may_refuse",
    "name_key",
    "normalise_name",
    "packet",
    "points",
    "standings",
    "standings_of_copies",
    "validate_name",
]

ENGINE = PunchCardsDuel
"""Found by name: ``games.registry`` reads it."""
