"""A stateful property test on both stores: random registrations (hostile names among
them), duels, trades, re-entries, voids and retried commits, checked after every step
against a plain model of who holds what.  Invariants: every card has exactly one holder
and it is the model's; the ledger's own integrity check passes; standings are the
rulebook's scoring of the model; the challenge rule reads the model's unvoided duels."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from firmware_py.games.punch_cards.ledger import Ledger, LedgerRefused, Receipt, StaleCards
from games.punch_cards import PACKET_SIZE, NameRefused, TradeOffer, may_refuse, name_key, standings, validate_name
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, Clock, StoreFactory
from tests.firmware_py.ledger.support import decided_duel

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""

NAMES = [
    "Ann",
    "ann ",
    "Bo",
    "Zoë",
    "Zoe\u0308",
    "李小龍",
    "O'Brien",
    "Robert'); DROP TABLE cards;--",
    "Ann\u202e",
    "Bo 🥊",
    "x" * 10_000,
    "Cy\x00",
    "Dee",
    "ÉLAN",
]


def machine(new_url: StoreFactory) -> type[RuleBasedStateMachine]:
    class LedgerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.ledger = Ledger(new_url(), event_seed=SEED, clock=Clock(), pin_hasher=FAST_PINS)
            self.holder: dict[int, str] = {}
            self.name_of: dict[int, str] = {}
            self.players: list[str] = []
            self.duels: list[tuple[int, str, str]] = []  # (entry, challenger, challenged)
            self.moves_of: dict[int, list[tuple[int, str, str]]] = {}  # entry -> (card, giver, taker)
            self.voided: set[int] = set()
            self.sent: list[tuple[Callable[[], Receipt], Receipt]] = []
            self.keys = 0

        def key(self) -> str:
            self.keys += 1
            return f"k{self.keys}"

        def held(self, name: str) -> list[int]:
            return sorted(s for s, h in self.holder.items() if h == name)

        def with_cards(self) -> list[str]:
            return [p for p in self.players if self.held(p)]

        def issue(self, name: str) -> None:
            first = max(self.holder, default=0) + 1
            for serial in range(first, first + PACKET_SIZE):
                self.holder[serial] = self.name_of[serial] = name

        def sent_once(self, call: Callable[[], Receipt]) -> Receipt:
            receipt = call()
            assert not receipt.repeated
            self.sent.append((call, receipt))
            return receipt

        @rule(raw=st.sampled_from(NAMES))
        def register(self, raw: str) -> None:
            try:
                expected = validate_name(raw, {name_key(p) for p in self.players})
            except NameRefused as refusal:
                with pytest.raises(NameRefused) as info:
                    self.ledger.register(self.key(), raw, "ABCD")
                assert info.value.problem is refusal.problem
                return
            key = self.key()
            receipt = self.sent_once(lambda: self.ledger.register(key, raw, "ABCD"))
            assert {m.taker for m in receipt.moves} == {expected}
            self.players.append(expected)
            self.issue(expected)

        @precondition(lambda self: len(self.with_cards()) >= 2)
        @rule(data=st.data(), winner=st.integers(0, 1))
        def duel(self, data: st.DataObject, winner: int) -> None:
            a, b = data.draw(st.permutations(self.with_cards()))[:2]
            options = self.ledger.duel_options(a, b)
            pairs = [(x, y) for x in self.held(a) for y in self.held(b)]
            stakes = data.draw(st.sampled_from(pairs))
            duel = decided_duel(options, winner, stakes)
            if duel is None:
                return
            history = [(x, y) for e, x, y in self.duels if e not in self.voided]
            assert options.may_refuse == may_refuse(history, a, b)
            key = self.key()
            receipt = self.sent_once(lambda: self.ledger.record_duel(key, a, b, duel))
            taken = stakes[1 - winner]
            names = (a, b)
            self.holder[taken] = names[winner]
            self.duels.append((receipt.entry, a, b))
            self.moves_of[receipt.entry] = [(taken, names[1 - winner], names[winner])]

        @precondition(lambda self: len(self.with_cards()) >= 2)
        @rule(data=st.data(), stale=st.booleans())
        def trade(self, data: st.DataObject, stale: bool) -> None:
            a, b = data.draw(st.permutations(self.with_cards()))[:2]
            give_a = data.draw(st.lists(st.sampled_from(self.held(a)), min_size=1, unique=True))
            give_b = data.draw(st.lists(st.sampled_from(self.held(b)), min_size=1, unique=True))
            if stale:  # each offers a card the other holds: refused, nothing moves
                with pytest.raises(StaleCards):
                    self.ledger.record_trade(self.key(), a, b, TradeOffer(((give_b[0],), (give_a[0],))))
                return
            key = self.key()
            receipt = self.sent_once(
                lambda: self.ledger.record_trade(key, a, b, TradeOffer((tuple(give_a), tuple(give_b))))
            )
            self.moves_of[receipt.entry] = [(s, a, b) for s in give_a] + [(s, b, a) for s in give_b]
            for card, _giver, taker in self.moves_of[receipt.entry]:
                self.holder[card] = taker

        @precondition(lambda self: bool(self.players))
        @rule(data=st.data())
        def reenter(self, data: st.DataObject) -> None:
            name = data.draw(st.sampled_from(self.players))
            if self.held(name):
                with pytest.raises(LedgerRefused, match="still holds"):
                    self.ledger.reenter(self.key(), name)
                return
            key = self.key()
            self.sent_once(lambda: self.ledger.reenter(key, name))
            self.issue(name)

        @precondition(lambda self: bool(self.moves_of))
        @rule(data=st.data())
        def void(self, data: st.DataObject) -> None:
            entry = data.draw(st.sampled_from(sorted(self.moves_of)))
            moves = self.moves_of[entry]
            possible = entry not in self.voided and all(self.holder[c] == taker for c, _g, taker in moves)
            if not possible:
                with pytest.raises(LedgerRefused):
                    self.ledger.void(self.key(), entry, "test")
                return
            key = self.key()
            self.sent_once(lambda: self.ledger.void(key, entry, "test"))
            self.voided.add(entry)
            for card, giver, _taker in moves:
                self.holder[card] = giver

        @precondition(lambda self: bool(self.sent))
        @rule(data=st.data())
        def retry(self, data: st.DataObject) -> None:
            """A commit sent again (its answer was lost): the same receipt, nothing new."""
            call, first = data.draw(st.sampled_from(self.sent))
            again = call()
            assert again.repeated and (again.entry, again.kind, again.moves) == (first.entry, first.kind, first.moves)

        @invariant()
        def holders_are_the_models(self) -> None:
            assert self.ledger.holders() == self.holder

        @invariant()
        def the_ledger_checks_sound(self) -> None:
            assert self.ledger.check() == []

        @invariant()
        def standings_are_the_rulebooks_scoring(self) -> None:
            model = {p: [self.name_of[s] for s in self.held(p)] for p in self.players}
            assert self.ledger.standings() == standings(model)

        def teardown(self) -> None:
            self.ledger.close()

    return LedgerMachine


def test_random_histories_keep_the_ledger_exact(new_url: StoreFactory) -> None:
    run_state_machine_as_test(
        machine(new_url), settings=settings(max_examples=25, stateful_step_count=20, deadline=None)
    )


@pytest.mark.soak
def test_many_more_random_histories_keep_the_ledger_exact(new_url: StoreFactory) -> None:
    """``make test``: 40 more histories per store; ``make soak`` (RINGSIDE_SOAK=1): 1,000."""
    examples = 1_000 if os.environ.get("RINGSIDE_SOAK") else 40
    run_state_machine_as_test(
        machine(new_url), settings=settings(max_examples=examples, stateful_step_count=40, deadline=None)
    )
