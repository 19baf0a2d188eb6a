"""Random fights under every option: they end, keep every card in one place and every
gauge in range, replay from their journal, open every window whatever the hands hold,
and show nobody another boxer's cards."""

from __future__ import annotations

import random

import pytest

from games.big_time_boxing import (
    AttributeDraw,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    Combo,
    FightEnded,
    MovedAway,
    Pass,
    Phase,
    PunchThrown,
    Trapped,
    Window,
    WindowClosed,
    WindowOpened,
)
from games.bots import RandomBot
from games.protocol import CABINET, Event
from tests.games.playout import random_playout

OPTIONS = [
    BigTimeBoxingOptions(),
    BigTimeBoxingOptions(rounds=12),
    BigTimeBoxingOptions(rounds=6, thinky=True, saving_for_later=True, shuffle_every_round=True),
    BigTimeBoxingOptions(rounds=8, attributes=AttributeDraw.CHOSEN, saving_for_later=True, sketchy_judges=True),
    BigTimeBoxingOptions(rounds=10, attributes=AttributeDraw.RANDOM, three_knockdown_tko=False),
    BigTimeBoxingOptions(attributes=AttributeDraw.MIXED, thinky=True),
]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.rounds}r-{o.attributes.value}-thinky{int(o.thinky)}")
def test_random_fights_end_keep_their_invariants_and_replay(options: BigTimeBoxingOptions) -> None:
    for seed in range(4):
        e = BigTimeBoxing(options, 2, seed)
        random_playout(e, bot_seed=seed, max_actions=5_000, replay_every=None)
        outcome = e.outcome()
        assert outcome is not None and outcome.score == tuple(sum(b.round_scores) for b in e.boxers)


def _fight_events(seed: int, options: BigTimeBoxingOptions) -> tuple[BigTimeBoxing, list[list[Event]]]:
    """A random fight (windows answered by the boxer or timed out by the cabinet); the
    events of every action."""
    e = BigTimeBoxing(options, 2, seed)
    rng = random.Random(seed)
    bots = {p: RandomBot(seed * 7 + p) for p in (0, 1, CABINET)}
    log = []
    while not e.over:
        if e.phase.window is not None:
            assert e.to_act() == {e.window_player, CABINET}
            assert Pass(e.window_player) in e.legal_actions(e.window_player)  # type: ignore[arg-type]
            assert e.legal_actions(CABINET) == (WindowClosed(),)
        actor = rng.choice(sorted(e.to_act()))
        log.append(list(e.apply(bots[actor].choose(e, actor))))
    return e, log


def test_every_window_opens_whatever_the_answering_boxer_holds() -> None:
    """A window that closed early for a boxer with no card for it would tell the other
    boxer so: every thrown punch opens a response window, every combo card a combo window,
    every trap an escape window, every trapped punch a response window."""
    seen = {w: 0 for w in Window}
    for seed in range(30):
        _, log = _fight_events(seed, BigTimeBoxingOptions())
        for events in log:
            for i, ev in enumerate(events):
                if isinstance(ev, PunchThrown) and not ev.combo:
                    rest = events[i + 1 :]
                    opened = WindowOpened(Window.RESPONSE, 1 - ev.player, ev.punch) in rest
                    assert opened or any(isinstance(x, FightEnded) for x in rest), rest  # or an exhaustion TKO
                if isinstance(ev, Trapped):
                    assert WindowOpened(Window.ESCAPE, ev.player, None) in events[i:]
                if isinstance(ev, WindowOpened):
                    seen[ev.window] += 1
    assert all(seen.values()), seen


@pytest.mark.slow
def test_windows_open_for_boxers_with_nothing_to_answer() -> None:
    """Counting the windows that offered only a pass: they exist, so opening never depends
    on the hand."""
    empty = dict.fromkeys(Window, 0)
    for seed in range(30):
        e = BigTimeBoxing(BigTimeBoxingOptions(), 2, seed)
        rng = random.Random(seed)
        while not e.over:
            window = e.phase.window
            if window is not None and e.window_player is not None and len(e.legal_actions(e.window_player)) == 1:
                empty[window] += 1
            actor = rng.choice(sorted(e.seats_to_act()))
            actions = e.legal_actions(actor)
            e.apply(rng.choice(list(actions)))
    assert all(empty.values()), empty


def test_views_show_a_boxer_his_own_hand_and_saved_card_and_never_the_others() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(saving_for_later=True), 2, seed=3)
    rng = random.Random(3)
    while not e.over:
        for seat in (0, 1):
            view = e.view(seat)
            assert view.hand == tuple(e.boxers[seat].hand) and view.saved == e.boxers[seat].saved
            other = e.boxers[1 - seat]
            shown = repr(view.public)
            assert "hand=" not in shown and "deck=(" not in shown
            assert view.public.boxers[1 - seat].hand_size == len(other.hand)
        actor = rng.choice(sorted(e.to_act()))
        events = e.apply(rng.choice(list(e.legal_actions(actor))))
        for ev in events:
            if isinstance(ev, MovedAway) and ev.saved:
                assert ev.card is None


@pytest.mark.slow
def test_a_combo_second_punch_always_follows_a_combo_window() -> None:
    for seed in range(20):
        e, log = _fight_events(seed, BigTimeBoxingOptions())
        for events, action in zip(log, e.journal):
            if isinstance(action, Combo):
                assert any(isinstance(ev, PunchThrown) and ev.combo for ev in events)
        assert e.phase is Phase.OVER
