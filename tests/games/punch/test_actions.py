"""Action checking and the legal-action lists: complete, and refusals a player can read."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from games.codec import decode, encode
from games.protocol import Action, IllegalAction
from games.punch import (
    CARDS,
    SPEC,
    Card,
    Draft,
    Phase,
    PlayCard,
    Punch,
    PunchOptions,
    Redeal,
    Rules,
)
from games.punch.engine import SEAT_NAMES
from tests.games.punch.support import BLUE, RED, drafted_game, play


def test_spec_and_cards() -> None:
    assert (SPEC.name, SPEC.title, SPEC.min_players, SPEC.max_players, SPEC.options_type) == (
        "punch",
        "Punch!",
        2,
        2,
        PunchOptions,
    )
    assert [c.label for c in CARDS] == ["Punch 1", "Punch 2", "Punch 3", "Do Nothing", "Block", "Dodge & Punch Back"]
    assert [c.punch for c in CARDS] == [1, 2, 3, 0, 0, 0]
    assert [c.value for c in CARDS] == ["punch1", "punch2", "punch3", "nothing", "block", "dodge"]
    assert SEAT_NAMES == ("Red", "Blue")
    with pytest.raises(ValueError, match="takes 2-2 players"):
        Punch(PunchOptions(), 3, 0)
    with pytest.raises(ValueError, match="matches_to_win"):
        Punch(PunchOptions(matches_to_win=0), 2, 0)


def test_playing_a_card_you_do_not_hold_says_which() -> None:
    game = drafted_game("1111122222", "")
    with pytest.raises(IllegalAction, match=r"^You have no Block left$"):
        game.check(PlayCard(RED, Card.BLOCK))
    with pytest.raises(IllegalAction, match=r"^You have no Dodge & Punch Back left$"):
        game.check(PlayCard(RED, Card.DODGE))


def test_one_card_per_exchange() -> None:
    game = drafted_game("11", "")
    game.apply(PlayCard(RED, Card.PUNCH_1))
    with pytest.raises(IllegalAction, match="already chosen your card"):
        game.check(PlayCard(RED, Card.PUNCH_1))
    assert game.legal_actions(RED) == () and game.to_act() == frozenset({BLUE})


def test_refusals_for_bad_seats_types_cards_and_a_finished_game() -> None:
    @dataclass(frozen=True)
    class Slap(Action):
        t_us: int

    game = drafted_game("3333", "NNNN", matches_to_win=1)
    with pytest.raises(IllegalAction, match="no seat 2"):
        game.check(PlayCard(2, Card.PUNCH_1))
    with pytest.raises(IllegalAction, match="no action Slap"):
        game.check(Slap(RED, 5))
    with pytest.raises(IllegalAction, match="is not a Punch! card"):
        game.check(PlayCard(RED, "punch3"))  # type: ignore[arg-type]
    assert game.legal_actions(2) == ()
    play(game, "3333", "NNNN")
    with pytest.raises(IllegalAction, match="The game is over"):
        game.check(PlayCard(RED, Card.PUNCH_1))


def test_a_refused_action_changes_nothing() -> None:
    game = drafted_game("1111122222", "")
    before = (game.public_view(), game.view(RED), game.view(BLUE), list(game.journal))
    with pytest.raises(IllegalAction):
        game.apply(PlayCard(RED, Card.BLOCK))
    assert (game.public_view(), game.view(RED), game.view(BLUE), list(game.journal)) == before


@pytest.mark.parametrize(
    "options",
    [PunchOptions(), PunchOptions(rules=Rules.ADVANCED), PunchOptions(no_mercy=True)],
    ids=["standard", "advanced", "no_mercy"],
)
def test_legal_actions_are_exactly_the_actions_check_accepts(options: PunchOptions) -> None:
    """Walk a game; at every step every conceivable play, re-deal answer and a sample of
    drafts is accepted by ``check`` exactly when ``legal_actions`` lists it."""
    game = Punch(options, 2, 11)
    step = 0
    while not game.over and step < 400:
        for player in (RED, BLUE):
            legal = set(game.legal_actions(player))
            candidates = [PlayCard(player, c) for c in CARDS] + [Redeal(player, True), Redeal(player, False)]
            if game.public_view().phase is Phase.DRAFT:
                candidates += list(legal)[:50] + [Draft(player, (Card.BLOCK,) * 6 + (Card.DODGE,) * 4)]
            for action in candidates:
                try:
                    game.check(action)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (action in legal), action
            assert bool(legal) == (player in game.to_act())
        player = min(game.to_act())
        actions = game.legal_actions(player)
        game.apply(actions[step % len(actions)])
        step += 1


def test_every_action_and_event_type_round_trips_through_the_codec() -> None:
    samples = [
        PlayCard(RED, Card.DODGE),
        Redeal(BLUE, True),
        Draft(RED, (Card.PUNCH_1,) * 5 + (Card.BLOCK,) * 5),
        PunchOptions(rules=Rules.ADVANCED, no_mercy=True, matches_to_win=2),
    ]
    game = Punch(PunchOptions(), 2, 0)
    while not game.over:
        for player in sorted(game.to_act()):
            samples += game.apply(game.legal_actions(player)[0])
    kinds = {type(s) for s in samples}
    for sample in samples:
        assert decode(type(sample), json.loads(json.dumps(encode(sample)))) == sample
    assert len(kinds) >= 12


def test_same_seed_and_actions_give_the_same_game() -> None:
    def run() -> tuple:
        game = Punch(PunchOptions(), 2, 42)
        log = [game.opening_events]
        for n in range(200):
            if game.over:
                break
            player = sorted(game.to_act())[0]
            actions = game.legal_actions(player)
            log.append(game.apply(actions[n % len(actions)]))
        return tuple(log), game.public_view(), game.view(RED), game.view(BLUE)

    assert run() == run()
    again = Punch.from_json(Punch(PunchOptions(), 2, 42).to_json())
    assert again.view(RED) == Punch(PunchOptions(), 2, 42).view(RED)
