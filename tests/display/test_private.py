"""Private OLED layouts live in display and are found through its registry: the cabinet
hands over a PrivateScreen (what), the game's layout draws it (how), and every image
says which lines were drawn on it (what HIL checks and recordings read)."""

from __future__ import annotations

import pytest

from display.games import registry
from display.models import PrivateScreen
from display.private import draw_private, image_text
from firmware_py.games import registry as controls_registry
from firmware_py.games.punch.controls import PunchControls
from games import registry as games_registry
from games.karate_fight import KarateFight, KarateOptions, PlayTop
from games.punch import Card, Punch, PunchOptions, Redeal, Rules
from hal.events import Button


def punch_screen(engine: Punch, seat: int, held: tuple[Card, ...] = ()) -> PrivateScreen:
    return PrivateScreen(game="punch", seat=seat, view=engine.view(seat), to_act=seat in engine.to_act(), held=held)


def test_every_game_offered_has_its_engine_and_both_screens_registered() -> None:
    for controls in controls_registry.offered():
        name = controls.spec.name
        assert games_registry.engine_type(name) is controls.engine_type
        assert registry.screens(name).play is not None and registry.screens(name).private is not None
    assert set(registry.games()) == set(controls_registry.names())


def test_a_game_without_screens_is_named_with_the_fix() -> None:
    with pytest.raises(registry.NoScreens) as e:
        registry.screens("a_game_with_no_screens")
    assert "a_game_with_no_screens" in str(e.value) and "display/games/a_game_with_no_screens/" in str(e.value)


def test_punch_private_shows_that_boxers_hand_and_the_redeal_choice_only_while_theirs() -> None:
    engine = Punch(PunchOptions(), 2, seed=3)  # seed 3: Red is offered a re-deal, Blue is not
    red = image_text(draw_private(punch_screen(engine, 0)))
    assert red is not None and red[-1] == "A=redeal START=keep"
    hand = engine.view(0).hand
    assert red[:6] == tuple(
        f"{b} {s} x{n}"
        for b, s, n in zip("ABCDEF", ("Punch 1", "Punch 2", "Punch 3", "Do Nothing", "Block", "Dodge"), hand)
    )
    assert image_text(draw_private(punch_screen(engine, 1)))[-1] == "START = keep hand"
    engine.apply(Redeal(0, False))
    assert image_text(draw_private(punch_screen(engine, 0)))[-1] == "Kept: wait"


def test_punch_private_calls_each_card_what_the_main_screen_calls_it() -> None:
    """Issue 23: the private display said "Rest" where the main screen says "Do Nothing"."""
    from display.games.punch.screen import LEGEND

    engine = Punch(PunchOptions(), 2, seed=3)
    rows = image_text(draw_private(punch_screen(engine, 0)))[:6]
    assert [row.split(" x")[0] for row in rows] == [f"{b} {LEGEND[c]}" for b, c in zip("ABCDEF", Card)]
    assert not any("Rest" in row for row in rows)


def test_punch_private_shows_draft_picks_the_controls_hold_before_start() -> None:
    engine = Punch(PunchOptions(rules=Rules.ADVANCED), 2, seed=1)
    controls = PunchControls()
    for button in (Button.A, Button.A, Button.E):
        assert controls.on_button(engine, 0, button, 0) is None  # held, not yet an action
    screen = controls.private_screen(engine, 0)
    assert screen.held == (Card.PUNCH_1, Card.PUNCH_1, Card.BLOCK)
    text = image_text(draw_private(screen))
    assert text[0] == "A Punch 1 2/5" and text[4] == "E Block 1/5" and text[-1] == "Picked 3/10 START=undo"
    assert image_text(draw_private(controls.private_screen(engine, 1)))[-1] == "Picked 0/10 START=undo"


def test_karate_private_tells_only_the_fighter_whose_turn_it_is() -> None:
    engine = KarateFight(KarateOptions(), 2, seed=2)

    def shown(seat: int) -> tuple[str, ...]:
        return image_text(
            draw_private(PrivateScreen(game="karate_fight", seat=seat, view=engine.view(seat), to_act=False))
        )

    turn = engine.public_view().turn
    assert "A = play top card" in shown(turn) and "Watch for Hits" in shown(1 - turn)
    engine.apply(PlayTop(turn, 1_000))  # no Hit yet: the turn passes
    assert "A = play top card" in shown(1 - turn) and "Watch for Hits" in shown(turn)
    assert shown(turn)[0] == f"You: {engine.public_view().fighters[turn].pile_size} cards"


def test_private_images_are_1_bit_at_the_size_asked() -> None:
    engine = Punch(PunchOptions(), 2, seed=3)
    img = draw_private(punch_screen(engine, 0), (128, 32))
    assert img.mode == "1" and img.size == (128, 32)


@pytest.mark.parametrize("game", games_registry.names())
@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_a_refusal_shows_over_the_foot_of_every_games_private_display(game: str, size: tuple[int, int]) -> None:
    """Why a press was refused is written on the player's own display, over the layout's
    foot ("Choose a card A-F" and the like): the lines it covers are no longer read."""
    from dataclasses import replace

    controls = controls_registry.controls_type(game)()
    engine = controls.engine_type(controls.make_options({}), controls.spec.min_players, 3)
    plain = controls.private_screen(engine, 0)
    words = "You have no Punch 2 left – Round Energy 0: F, then a card"
    before = image_text(draw_private(plain, size)) or ()
    after = image_text(refused := draw_private(replace(plain, refusal=words), size)) or ()
    said = " ".join(after[len(after) - sum(1 for line in after if line not in before) :])
    assert said.startswith("You have no Punch 2 left - Round") and before[-1] not in after[-3:]
    assert refused.getpixel((size[0] - 1, size[1] - 1)) == 1  # the band is lit to the corner
