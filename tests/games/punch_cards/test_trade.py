"""Trades: both players confirm exactly what changes hands."""

from __future__ import annotations

import pytest

from games.punch_cards import TradeOffer, TradeRefused, TradeTable, packet


def table() -> TradeTable:
    return TradeTable((packet(1, 0, "Ann"), packet(1, 5, "Bo")))


def test_both_confirm_the_same_offer_and_then_it_is_agreed() -> None:
    t = table()
    t.propose(0, (1, 0))
    offer = t.propose(1, (7,))
    assert offer == TradeOffer(((0, 1), (7,)))
    t.confirm(0, offer)
    assert t.agreed is None
    t.confirm(1, offer)
    assert t.agreed == offer


def test_changing_the_offer_clears_both_confirmations() -> None:
    t = table()
    t.propose(0, (0,))
    first = t.propose(1, (5,))
    t.confirm(0, first)
    second = t.propose(1, (5, 6))
    t.confirm(1, second)
    assert t.agreed is None  # seat 0 agreed to the first offer, not this one
    with pytest.raises(TradeRefused, match="changed"):
        t.confirm(0, first)


def test_only_own_cards_may_be_offered_and_each_side_gives_one_at_least() -> None:
    t = table()
    with pytest.raises(TradeRefused, match="do not hold card 5"):
        t.propose(0, (5,))
    with pytest.raises(TradeRefused, match="twice"):
        t.propose(0, (1, 1))
    offer = t.propose(0, (1,))
    with pytest.raises(TradeRefused, match="at least one card"):
        t.confirm(1, offer)
