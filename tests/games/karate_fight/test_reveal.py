"""A reveal report names the card count its frame showed: a frame drawn before the
latest card (which reached the engine later through the settle window) reveals nothing."""

from __future__ import annotations

from games.karate_fight import CARD_KINDS, CardKind, HitShowing, KarateFight, KarateOptions, PlayTop, Shown, Slaps
from games.karate_fight.events import CowardsBlow, HitWon


def ids(kind: CardKind) -> list[int]:
    return [i for i, k in enumerate(CARD_KINDS) if k is kind]


def fight() -> KarateFight:
    block, dodge = ids(CardKind.BLOCK), ids(CardKind.DODGE)
    # Red plays Block, Blue plays Block: the second Block is a Clumsy Defense Hit.
    deal = ((block[0], dodge[0], dodge[1]), (block[1], dodge[2], dodge[3]))
    return KarateFight(KarateOptions(deal=deal), 2, seed=1)


def test_stale_reveal_does_not_show_a_newer_card() -> None:
    game = fight()
    game.apply(PlayTop(0, 1_000))
    game.apply(Shown(t_us=1_200, cards_played=1))
    game.apply(PlayTop(1, 1_300))  # the Hit card, pressed at 1.3 ms
    # The frame flipped at 1.25 ms was drawn before the Hit card existed.
    assert game.apply(Shown(t_us=1_350, cards_played=1)) == ()
    assert game.public_view().hit_showing is None
    # A slap now is a Coward's Blow: nothing on screen shows the Hit yet.
    assert any(isinstance(e, CowardsBlow) for e in game.apply(Slaps(t_us=1_400, fighters=(0,))))
    events = game.apply(Shown(t_us=1_500, cards_played=2))
    assert [type(e) for e in events] == [HitShowing]
    won = game.apply(Slaps(t_us=1_700, fighters=(1,)))
    assert any(isinstance(e, HitWon) and e.winner == 1 and e.reaction_us == 200 for e in won)


def test_cabinet_controls_report_the_count_the_frame_showed() -> None:
    from firmware_py.games.karate_fight.controls import KarateControls

    game = fight()
    controls = KarateControls()
    game.apply(PlayTop(0, 1_000))
    shown = controls.on_frame_shown(game, 1_016)
    assert shown == Shown(t_us=1_016, cards_played=1)
    assert controls.on_frame_shown(game, 1_033) is None  # one report per card
