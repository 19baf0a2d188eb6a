"""Helpers for the Big Time Boxing tests: find cards by what is printed on them, stack the
first deal and the Result deck, play actions and pick events.  (No tests here.)"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from games.big_time_boxing import (
    CARDS,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    BoxerCard,
    Feature,
    Pass,
    Punch,
    ResultCard,
    WindowClosed,
)
from games.protocol import Action, Event

E = TypeVar("E", bound=Event)

_HARMLESS_FIRST = (
    Feature.JUDGE_POINT,
    Feature.COMBO_B,
    Feature.COMBO_A,
    Feature.ESCAPE_CORNER,
    Feature.ESCAPE_ROPES,
    Feature.COMBO_AB,
    Feature.HUB_DEFENSE,
    Feature.JC_DEFENSE,
)
"""Filler for hands the test does not spell out: cards that cannot answer a window first."""


def boxers(
    punch: Punch | None = None,
    feature: Feature | None = None,
    cost: int | None = None,
    n: int = 1,
    skip: Iterable[int] = (),
) -> list[int]:
    """``n`` Boxer card ids printed with ``punch``/``feature``/``cost``, lowest ids first."""
    taken = set(skip)
    found = [
        c.id
        for c in CARDS.boxers
        if (punch is None or c.punch is punch)
        and (feature is None or c.feature is feature)
        and (cost is None or c.cost == cost)
        and c.id not in taken
    ]
    assert len(found) >= n, f"the data holds only {len(found)} {punch} {feature} cost {cost} cards"
    return found[:n]


def boxer(
    punch: Punch | None = None, feature: Feature | None = None, cost: int | None = None, skip: Iterable[int] = ()
) -> int:
    return boxers(punch, feature, cost, 1, skip)[0]


def results(where: Callable[[ResultCard], bool], n: int = 1, skip: Iterable[int] = ()) -> list[int]:
    """``n`` Result card ids for which ``where`` holds."""
    taken = set(skip)
    found = [r.id for r in CARDS.results if where(r) and r.id not in taken]
    assert len(found) >= n, f"the data holds only {len(found)} such Result cards"
    return found[:n]


def result(where: Callable[[ResultCard], bool], skip: Iterable[int] = ()) -> int:
    return results(where, 1, skip)[0]


def card(card_id: int) -> BoxerCard:
    return CARDS.boxers[card_id]


def stacked(
    hand0: Iterable[int] = (),
    hand1: Iterable[int] = (),
    deck0: Iterable[int] = (),
    deck1: Iterable[int] = (),
    draws: Iterable[int] = (),
    seed: int = 0,
    **options: Any,
) -> BigTimeBoxing:
    """A fight whose first deal and Result deck begin as given.

    Each boxer's hand is padded to four (and deck to eight) with cards that answer no
    window; ``draws`` are the first Result cards, top first.  Boxer 0 goes first in odd
    rounds unless ``first_player`` says otherwise."""
    h0, h1, d0, d1 = list(hand0), list(hand1), list(deck0), list(deck1)
    named = h0 + h1 + d0 + d1
    assert len(set(named)) == len(named), "a card is stacked twice"
    free = sorted(
        (c for c in range(len(CARDS.boxers)) if c not in named), key=lambda c: _HARMLESS_FIRST.index(card(c).feature)
    )

    def take(cards: list[int], size: int) -> list[int]:
        while len(cards) < size:
            cards.append(free.pop(0))
        return cards

    twelve0 = take(h0, 4) + take(d0, 8)
    twelve1 = take(h1, 4) + take(d1, 8)
    order = tuple(twelve0 + twelve1 + free)
    draws_ = list(draws)
    result_order = tuple(draws_ + [r for r in range(len(CARDS.results)) if r not in draws_])
    options.setdefault("first_player", 0)
    opts = BigTimeBoxingOptions(boxer_order=order, result_order=result_order, **options)
    return BigTimeBoxing(opts, 2, seed)


def play(engine: BigTimeBoxing, *actions: Action) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events += engine.apply(action)  # type: ignore[arg-type]
    return events


def let_land(engine: BigTimeBoxing) -> list[Event]:
    """The boxer answering the open window passes."""
    assert engine.window_player is not None
    return play(engine, Pass(engine.window_player))


def time_out(engine: BigTimeBoxing) -> list[Event]:
    return play(engine, WindowClosed())


def of_type(events: Iterable[Event], kind: type[E]) -> list[E]:
    return [ev for ev in events if isinstance(ev, kind)]


def one(events: Iterable[Event], kind: type[E]) -> E:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def relocate(engine: BigTimeBoxing, card_id: int, seat: int, where: str = "hand") -> None:
    """Move one Boxer card from wherever it is into ``seat``'s ``hand`` or ``deck`` (top),
    keeping every card in exactly one place: for situations deep in a fight."""
    for place in _places(engine):
        if card_id in place:
            place.remove(card_id)
            break
    else:
        raise AssertionError(f"card {card_id} is nowhere a test can take it from")
    boxer = engine.boxers[seat]
    (boxer.hand if where == "hand" else boxer.deck).append(card_id)


def set_hand(engine: BigTimeBoxing, seat: int, hand: Iterable[int], deck: Iterable[int] | None = None) -> None:
    """Give ``seat`` exactly this hand (and deck, top last, if given); what he held goes
    face down out of play."""
    boxer = engine.boxers[seat]
    engine.unused.extend(boxer.hand)
    boxer.hand.clear()
    if deck is not None:
        engine.unused.extend(boxer.deck)
        boxer.deck.clear()
    for c in hand:
        relocate(engine, c, seat, "hand")
    for c in deck or ():
        relocate(engine, c, seat, "deck")


def stack_results(engine: BigTimeBoxing, *draws: int) -> None:
    """The next Result cards drawn are ``draws``, in this order."""
    for r in draws:
        (engine.results if r in engine.results else engine.result_discard).remove(r)
    engine.results.extend(reversed(draws))


def _places(engine: BigTimeBoxing) -> list[list[int]]:
    places = [engine.unused, engine.discard, *engine.aside]
    for b in engine.boxers:
        places += [b.hand, b.deck]
    return places


def idle(engine: BigTimeBoxing, until: Callable[[BigTimeBoxing], bool]) -> list[Event]:
    """Play on passively until ``until`` holds: every window is let pass, every turn is a
    Move Away with the first card in hand."""
    from games.big_time_boxing import MoveAway, Phase

    events: list[Event] = []
    while not until(engine):
        assert not engine.over, "the fight ended first"
        if engine.window_player is not None:
            events += play(engine, Pass(engine.window_player))
        else:
            assert engine.phase is Phase.TURN
            seat = engine.active
            events += play(engine, MoveAway(seat, engine.playable(seat)[0]))
    return events


def turn_of(seat: int) -> Callable[[BigTimeBoxing], bool]:
    from games.big_time_boxing import Phase

    return lambda e: e.phase is Phase.TURN and e.active == seat


class Boxer:
    """Anything that picks an action for a seat (a computer boxer, a random player)."""

    def choose(self, engine: Any, player: int) -> Any: ...


def duel(
    first: Boxer,
    second: Boxer,
    seed: int,
    options: BigTimeBoxingOptions | None = None,
    clock: Callable[[], float] | None = None,
) -> tuple[float, list[float]]:
    """One fight of ``first`` against ``second``; ``first`` takes seat ``seed % 2`` so a
    series alternates seats.  Every window is answered by the boxer (the cabinet never
    times one out).  Returns ``first``'s score (win 1, draw ½, loss 0) and, with a
    ``clock``, the seconds each of ``first``'s decisions took."""
    e = BigTimeBoxing(options or BigTimeBoxingOptions(), 2, seed)
    seat = seed % 2
    boxers = {seat: first, 1 - seat: second}
    times: list[float] = []
    while not e.over:
        (player,) = e.seats_to_act()
        if clock is not None and player == seat:
            start = clock()
            action = boxers[player].choose(e, player)
            times.append(clock() - start)
        else:
            action = boxers[player].choose(e, player)
        e.apply(action)
    outcome = e.outcome()
    assert outcome is not None
    score = 0.5 if outcome.winner is None else float(outcome.winner == seat)
    return score, times
