"""The ledger on both stores: registrations, sign-in, duels, trades, re-entries, voids and
the closing time, each one transaction with an idempotency key; nothing is deleted."""

from __future__ import annotations

import csv

import pytest

from firmware_py.games.punch_cards.ledger import (
    EntryKind,
    IdempotencyConflict,
    Ledger,
    LedgerClosed,
    LedgerCorrupt,
    LedgerRefused,
    Move,
    PinLocked,
    PinRefused,
    StaleCards,
    UnknownPlayer,
    WrongPin,
)
from firmware_py.games.punch_cards.ledger.pins import LOCKOUT_US
from games.punch_cards import NameProblem, NameRefused, TradeOffer, make_card
from tests.firmware_py.ledger.conftest import SEED, Clock
from tests.firmware_py.ledger.support import decided_duel


def two_players(ledger: Ledger) -> None:
    ledger.register("reg-ann", "Ann", "ABCD")
    ledger.register("reg-bo", "Bo", "FEDC")


def serials(ledger: Ledger, name: str) -> list[int]:
    return [c.serial for c in ledger.collection(name)]


def test_registration_issues_a_packet_of_five_named_cards_from_the_event_seed(ledger: Ledger) -> None:
    receipt = ledger.register("k1", "  ann  lee ", "ABCD")
    assert receipt.kind is EntryKind.REGISTER and not receipt.repeated
    assert receipt.moves == tuple(Move(s, None, "ann lee") for s in range(1, 6))
    assert ledger.collection("ANN LEE") == tuple(make_card(SEED, s, "ann lee") for s in range(1, 6))
    ledger.register("k2", "Bo", "ABCD")
    assert serials(ledger, "Bo") == [6, 7, 8, 9, 10]
    assert ledger.check() == []


def test_a_refused_name_says_why_and_records_nothing(ledger: Ledger) -> None:
    ledger.register("k1", "Ann Lee", "ABCD")
    for raw, problem in [
        ("ANN\u00a0 LEE", NameProblem.TAKEN),
        ("Ann\u202e", NameProblem.BIDI),
        ("🥊", NameProblem.SYMBOL),
    ]:
        with pytest.raises(NameRefused) as info:
            ledger.register(f"k-{raw}", raw, "ABCD")
        assert info.value.problem is problem
    with pytest.raises(PinRefused, match="4 letters from A to F"):
        ledger.register("k3", "Cy", "12345")
    assert len(ledger.entries()) == 1 and ledger.players() == ("Ann Lee",)


def test_sign_in_with_the_right_pin_and_the_lockout_after_five_wrong(ledger: Ledger, clock: Clock) -> None:
    ledger.register("k1", "Ann", "ABCD")
    assert ledger.sign_in("ann", "ABCD") == "Ann"
    for left in (4, 3, 2, 1):
        with pytest.raises(WrongPin) as info:
            ledger.sign_in("Ann", "AAAA")
        assert info.value.tries_left == left
    with pytest.raises(PinLocked) as locked:
        ledger.sign_in("Ann", "AAAA")
    assert locked.value.until_us == clock() + LOCKOUT_US
    with pytest.raises(PinLocked):
        ledger.sign_in("Ann", "ABCD")  # even the right PIN waits out the lockout
    clock.advance(15 * 60)
    assert ledger.sign_in("Ann", "ABCD") == "Ann"
    with pytest.raises(UnknownPlayer):
        ledger.sign_in("Nobody", "ABCD")


def test_three_lockouts_in_a_row_need_the_operator(ledger: Ledger, clock: Clock) -> None:
    ledger.register("k1", "Ann", "ABCD")
    for _lockout in range(3):
        for _ in range(5):
            with pytest.raises((WrongPin, PinLocked)):
                ledger.sign_in("Ann", "BBBB")
        clock.advance(16 * 60)
    with pytest.raises(PinLocked) as locked:
        ledger.sign_in("Ann", "ABCD")
    assert locked.value.until_us is None and "operator" in str(locked.value)
    ledger.unlock("Ann")
    assert ledger.sign_in("Ann", "ABCD") == "Ann"


def test_the_pin_is_stored_only_as_a_salted_slow_hash(ledger: Ledger) -> None:
    ledger.register("k1", "Ann", "ABCD")
    ledger.register("k2", "Bo", "ABCD")
    rows = ledger.backend.run(lambda tx: tx.rows("SELECT * FROM players"), write=False)
    hashes = set()
    for row in rows:
        assert "ABCD" not in [str(v) for v in row]
        (pin_hash,) = [v for v in row if isinstance(v, str) and v.startswith("scrypt$")]
        hashes.add(pin_hash)
    assert len(hashes) == 2  # same PIN, different salts
    text = " ".join(
        str(v) for (v,) in ledger.backend.run(lambda tx: tx.rows("SELECT request FROM entries"), write=False)
    )
    assert "ABCD" not in text


def test_a_duel_moves_the_losers_stake_to_the_winner_once_however_often_it_is_sent(ledger: Ledger) -> None:
    two_players(ledger)
    duel = decided_duel(ledger.duel_options("Ann", "Bo"), winner=0)
    taken = duel.taken.serial
    receipt = ledger.record_duel("duel-1", "Ann", "Bo", duel)
    assert receipt.moves == (Move(taken, "Bo", "Ann"),)
    again = ledger.record_duel("duel-1", "Ann", "Bo", duel)
    assert again.repeated and again.entry == receipt.entry and again.moves == receipt.moves
    assert len(serials(ledger, "Ann")) == 6 and len(serials(ledger, "Bo")) == 4
    assert ledger.entries()[-1].last_action == {"type": "CallIt", "player": 1, "call": duel.journal[-1].call.value}
    assert ledger.replay_duel(receipt.entry).to_json() == duel.to_json()
    other = decided_duel(ledger.duel_options("Ann", "Bo"), winner=1)
    with pytest.raises(IdempotencyConflict):
        ledger.record_duel("duel-1", "Ann", "Bo", other)
    assert ledger.check() == []


def test_two_duels_over_the_same_card_only_the_first_is_recorded(ledger: Ledger) -> None:
    two_players(ledger)
    ledger.register("reg-cy", "Cy", "ABCD")
    bo_card = serials(ledger, "Bo")[0]
    at_one = decided_duel(ledger.duel_options("Ann", "Bo"), winner=0, stakes=(1, bo_card))
    at_other = decided_duel(ledger.duel_options("Cy", "Bo"), winner=0, stakes=(11, bo_card))
    if at_one is None or at_other is None:
        pytest.skip("these seeded cards cannot give the wanted winners")
    ledger.record_duel("cab1", "Ann", "Bo", at_one)
    before = ledger.holders()
    with pytest.raises(StaleCards, match=f"card {bo_card} is no longer held by Bo"):
        ledger.record_duel("cab2", "Cy", "Bo", at_other)
    assert ledger.holders() == before and len(ledger.entries()) == 4


def test_a_duel_with_cards_that_are_not_the_ledgers_is_refused(ledger: Ledger) -> None:
    two_players(ledger)
    options = ledger.duel_options("Ann", "Bo")
    forged = options.collections[0][0]
    forged = type(forged)(forged.serial, forged.name, ((1, 2), (3, 4), (5, 6), (7, 8)))
    options = type(options)(((forged, *options.collections[0][1:]), options.collections[1]))
    duel = decided_duel(options, winner=0, stakes=(forged.serial, 6))
    assert duel is not None
    with pytest.raises(LedgerRefused, match="not the ledger's card"):
        ledger.record_duel("forged", "Ann", "Bo", duel)


def test_a_trade_moves_both_sides_or_nothing(ledger: Ledger) -> None:
    two_players(ledger)
    receipt = ledger.record_trade("t1", "Ann", "Bo", TradeOffer(((1, 2), (6,))))
    assert set(receipt.moves) == {Move(1, "Ann", "Bo"), Move(2, "Ann", "Bo"), Move(6, "Bo", "Ann")}
    assert serials(ledger, "Ann") == [3, 4, 5, 6]
    with pytest.raises(StaleCards, match="card 1 is not held by Ann"):
        ledger.record_trade("t2", "Ann", "Bo", TradeOffer(((3, 1), (7,))))
    assert serials(ledger, "Ann") == [3, 4, 5, 6]  # card 3 did not move either
    with pytest.raises(LedgerRefused, match="at least one card"):
        ledger.record_trade("t3", "Ann", "Bo", TradeOffer(((3,), ())))
    assert ledger.check() == []


def test_re_entry_only_with_no_cards_left_and_under_the_same_name(ledger: Ledger) -> None:
    two_players(ledger)
    with pytest.raises(LedgerRefused, match="still holds 5 cards"):
        ledger.reenter("re1", "Bo")
    ledger.record_trade("t1", "Bo", "Ann", TradeOffer(((6, 7, 8, 9, 10), (1,))))
    assert serials(ledger, "Bo") == [1]
    duel = decided_duel(ledger.duel_options("Ann", "Bo"), winner=0)
    assert duel is not None
    ledger.record_duel("d1", "Ann", "Bo", duel)
    assert serials(ledger, "Bo") == []
    receipt = ledger.reenter("re2", "bo")
    assert receipt.kind is EntryKind.REENTER and [m.taker for m in receipt.moves] == ["Bo"] * 5
    assert ledger.collection("Bo") == tuple(make_card(SEED, s, "Bo") for s in range(11, 16))
    assert ledger.check() == []


def test_a_void_is_a_new_entry_that_moves_the_cards_back_and_standings_follow(ledger: Ledger) -> None:
    two_players(ledger)
    before = ledger.standings()
    duel = decided_duel(ledger.duel_options("Ann", "Bo"), winner=0)
    recorded = ledger.record_duel("d1", "Ann", "Bo", duel)
    assert ledger.standings() != before
    assert ledger.may_refuse("Bo", "Ann")
    void = ledger.void("v1", recorded.entry, "wrong player signed in")
    assert void.kind is EntryKind.VOID and void.moves == (Move(duel.taken.serial, "Ann", "Bo"),)
    assert ledger.standings() == before
    assert not ledger.may_refuse("Bo", "Ann")  # a voided duel was never fought
    history = ledger.entries()
    assert [e.kind for e in history] == [EntryKind.REGISTER, EntryKind.REGISTER, EntryKind.DUEL, EntryKind.VOID]
    assert history[2].voided_by == void.entry and history[3].voids == recorded.entry
    assert history[3].last_action == {"type": "Void", "entry": recorded.entry, "reason": "wrong player signed in"}
    with pytest.raises(LedgerRefused, match="voided already"):
        ledger.void("v2", recorded.entry, "again")
    with pytest.raises(LedgerRefused, match="only duels and trades"):
        ledger.void("v3", 1, "registration")
    with pytest.raises(LedgerRefused, match="only duels and trades"):
        ledger.void("v4", void.entry, "void of a void")
    assert ledger.check() == []


def test_a_void_is_refused_when_a_card_has_moved_on_since(ledger: Ledger) -> None:
    two_players(ledger)
    trade = ledger.record_trade("t1", "Ann", "Bo", TradeOffer(((1,), (6,))))
    ledger.record_trade("t2", "Bo", "Ann", TradeOffer(((1,), (2,))))
    with pytest.raises(LedgerRefused, match="card 1 has moved on since entry 3"):
        ledger.void("v1", trade.entry, "mistake")
    assert len(ledger.entries()) == 4 and ledger.check() == []


def test_nothing_is_ever_deleted_or_rewritten(ledger: Ledger) -> None:
    two_players(ledger)
    for sql in (
        "DELETE FROM entries",
        "DELETE FROM cards WHERE serial = 1",
        "DELETE FROM moves",
        "UPDATE moves SET taker = 2",
        "UPDATE entries SET kind = 'trade'",
        "UPDATE cards SET name_of = 2 WHERE serial = 1",
        "UPDATE cards SET holder = NULL WHERE serial = 1",
        "INSERT INTO moves(entry, card, giver, taker) VALUES (1, 1, NULL, 2)",
    ):
        with pytest.raises(LedgerCorrupt):
            ledger.backend.run(lambda tx, sql=sql: tx.execute(sql))
    assert ledger.check() == [] and len(ledger.entries()) == 2


def test_after_the_closing_time_no_duel_trade_or_registration_is_recorded(ledger: Ledger, clock: Clock) -> None:
    two_players(ledger)
    duel = decided_duel(ledger.duel_options("Ann", "Bo"), winner=1)
    ledger.set_closing_time("close-1", clock() + 60_000_000)
    assert ledger.closing_time() == clock() + 60_000_000 and not ledger.closed()
    clock.advance(60)
    assert ledger.closed()
    standings = ledger.standings()
    with pytest.raises(LedgerClosed, match="closed"):
        ledger.record_duel("d1", "Ann", "Bo", duel)
    with pytest.raises(LedgerClosed):
        ledger.record_trade("t1", "Ann", "Bo", TradeOffer(((1,), (6,))))
    with pytest.raises(LedgerClosed):
        ledger.register("r3", "Cy", "ABCD")
    assert ledger.standings() == standings
    ledger.set_closing_time("reopen", None)
    assert ledger.closing_time() is None
    assert ledger.record_duel("d1", "Ann", "Bo", duel).kind is EntryKind.DUEL
    assert [e.kind for e in ledger.entries()][-3:] == [EntryKind.CLOSE, EntryKind.CLOSE, EntryKind.DUEL]


def test_a_void_still_goes_in_after_the_closing_time(ledger: Ledger, clock: Clock) -> None:
    two_players(ledger)
    trade = ledger.record_trade("t1", "Ann", "Bo", TradeOffer(((1,), (6,))))
    ledger.set_closing_time("close", clock())
    assert ledger.void("v1", trade.entry, "mistake").moves
    assert serials(ledger, "Ann") == [1, 2, 3, 4, 5]


def test_final_standings_as_csv_and_a_printable_page(ledger: Ledger, clock: Clock, tmp_path) -> None:
    two_players(ledger)
    ledger.register("r3", "O'Brien", "ABCD")
    ledger.record_trade("t1", "Ann", "Bo", TradeOffer(((1,), (6,))))
    ledger.set_closing_time("close", clock())
    csv_path, html_path = ledger.export(tmp_path)
    with csv_path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == [
        "rank",
        "name",
        "points",
        "names held 2x",
        "names held 3x",
        "names held 4x",
        "names held 5x",
        "cards",
    ]
    assert rows[1:] == [r.split(",") for r in ["1,Ann,2,1,1,1,0,5", "1,Bo,2,1,1,1,0,5", "3,O'Brien,1,1,1,1,1,5"]]
    assert csv_path.read_bytes().startswith(b'"rank","name",') and b'"5"\r\n' in csv_path.read_bytes()
    page = html_path.read_text(encoding="utf-8")
    assert "Final standings" in page and "O&#x27;Brien" in page and "<td>1</td><td>Ann</td><td>2</td>" in page


def test_the_event_seed_is_kept_by_the_ledger(new_url) -> None:
    url = new_url()
    first = Ledger(url, event_seed=77)
    first.close()
    again = Ledger(url, event_seed=1)  # a seed given later changes nothing
    assert again.event_seed == 77
    again.close()
    fresh = Ledger(new_url())
    assert 0 <= fresh.event_seed < 2**63
    fresh.close()


def test_unknown_players_and_self_duels_are_refused(ledger: Ledger) -> None:
    two_players(ledger)
    with pytest.raises(UnknownPlayer, match="nobody is registered as 'Cy'"):
        ledger.duel_options("Ann", "Cy")
    with pytest.raises(LedgerRefused, match="themselves"):
        ledger.duel_options("Ann", "ann")
    with pytest.raises(ValueError, match="idempotency key"):
        ledger.register("", "Cy", "ABCD")
