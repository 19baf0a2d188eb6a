"""The one save-and-retry of Punch Cards (a duel's result, a trade): a write the ledger
cannot take now is sent again after RETRY_US and said on screen meanwhile; a refusal is
final; a recorded write makes the leaderboard read afresh."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from firmware_py.games.punch_cards.ledger import LedgerError, LedgerUnreachable
from firmware_py.games.punch_cards.ledger_link import (
    RETRY_US,
    LedgerLink,
    LedgerWrite,
    Refused,
    Retrying,
    Saved,
)

UNTIL = "the result shows once it has recorded the duel"


class NoLedger:
    """What the link opens: the work here never reads it."""

    def close(self) -> None:
        pass


@pytest.fixture
def link() -> Iterator[LedgerLink]:
    link = LedgerLink("ledger", NoLedger)
    yield link
    link.close()


def answered(write: LedgerWrite[int], now_us: int, work: Callable[[object], int]) -> object:
    """Send ``work``, wait (real time, on the worker) until it answered, read the answer."""
    assert write.step(now_us, work) is None  # sent: nothing to read yet
    assert write.link.worker.wait_settled(30.0)
    return write.step(now_us, work)


def unreachable(_ledger: object) -> int:
    raise LedgerUnreachable("connection refused (127.0.0.1:5432)")


def test_a_write_the_ledger_cannot_take_goes_again_after_the_retry_time(link: LedgerLink) -> None:
    write: LedgerWrite[int] = LedgerWrite(link, "record a duel", "Saving the duel...", UNTIL)
    assert write.step(0, unreachable) is None and write.waiting == "Saving the duel..."
    assert write.shown(0) == "" and write.shown(300_000) == "Saving the duel..."  # said only once it lasts
    link.worker.wait_settled(30.0)
    first = write.step(10, unreachable)
    assert isinstance(first, Retrying) and first.first and isinstance(first.error, LedgerUnreachable)
    assert write.waiting == f"The ledger is not answering: {UNTIL}" and "127.0.0.1" not in write.waiting
    assert not write.due(10 + RETRY_US - 1) and write.due(10 + RETRY_US)
    again = answered(write, 10 + RETRY_US, unreachable)
    assert isinstance(again, Retrying) and not again.first


def test_a_recorded_write_gives_its_answer_and_the_board_is_read_afresh(link: LedgerLink) -> None:
    changed: list[bool] = []
    link.changed = lambda: changed.append(True)
    write: LedgerWrite[int] = LedgerWrite(link, "record a trade", "Recording the trade...", UNTIL)
    assert isinstance(answered(write, 0, unreachable), Retrying) and not changed
    saved = answered(write, RETRY_US, lambda _ledger: 41)
    assert saved == Saved(41) and write.waiting == "" and changed == [True]


def test_a_refused_write_is_final(link: LedgerLink) -> None:
    def refuse(_ledger: object) -> int:
        raise LedgerError("card #12 was taken at another cabinet")

    write: LedgerWrite[int] = LedgerWrite(link, "record a duel", "Saving the duel...", UNTIL)
    refused = answered(write, 0, refuse)
    assert isinstance(refused, Refused) and str(refused.error) == "card #12 was taken at another cabinet"
    assert write.waiting == "" and write.retry_us == 0
