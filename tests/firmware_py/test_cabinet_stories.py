"""The stories at the simulated cabinet, end to end: slaps stamped by the sim go through
the settle window into the engine, and the play screen's photo finish and the result
screen's story say what happened, to the µs."""

from __future__ import annotations

import pytest

from display.games.karate_fight.photo_finish import PhotoFinish
from display.games.karate_fight.result import KarateStory
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.scenes import Result
from games.karate_fight import CardKind, HitShowing, KarateOptions
from hal.events import Button
from tests.cabinet_driving import press, run_for, start_session
from tests.firmware_py.test_cabinet_karate import cards, make_cabinet

STRIKE, KICK, DODGE = cards(CardKind.STRIKE)[0], cards(CardKind.KICK)[0], cards(CardKind.DODGE)[0]


def strike_slapped(tmp_path, deal):
    """Red plays a Strike; Blue slaps first by 7 µs but arrives last, Red slaps too."""
    cabinet, sim = make_cabinet(tmp_path, 2)
    play = start_session(cabinet, KarateControls(), KarateOptions(deal=deal), (0, 1))
    press(cabinet, sim, 0, Button.A, settle_us=120_000)
    (shown,) = [e for _t, e in play.session.recent if isinstance(e, HitShowing)]
    sim.slap(1, shown.revealed_us + 201_000, delay_us=1_500)
    sim.slap(0, shown.revealed_us + 201_007, delay_us=0)
    run_for(cabinet, sim, 300_000)
    return cabinet, sim, shown.revealed_us


def test_the_play_screen_carries_the_photo_finish_to_the_microsecond(tmp_path) -> None:
    cabinet, sim, revealed = strike_slapped(tmp_path, ((STRIKE, KICK), (DODGE,)))
    pf = cabinet.scene.screen(sim.clock.now_us()).story
    assert isinstance(pf, PhotoFinish)
    assert (pf.winner, pf.won_at_us, pf.margin_us, pf.revealed_us) == (1, 201_000, 7, revealed)
    sim.close()


@pytest.mark.slow
def test_the_result_tells_the_fight_and_its_record(tmp_path) -> None:
    """The Strike and Blue's Dodge are every card: Blue is Karate Master after one Hit
    (the fight is over at the winning slap, so Red's slap is never judged)."""
    cabinet, sim, _revealed = strike_slapped(tmp_path, ((STRIKE,), (DODGE,)))
    run_for(cabinet, sim, 3_500_000)  # the game-over hold, then the result
    assert isinstance(cabinet.scene, Result)
    story = cabinet.scene.model.story
    assert isinstance(story, KarateStory) and story.counted
    (hit,) = story.hits
    assert (hit.winner, hit.reactions) == (1, ((1, 201_000),))
    assert story.best == (None, 201_000)
    blue = cabinet.ctx.looks[1].name
    assert [(r.who, r.reaction_us, r.this_game) for r in story.fastest_ever] == [(blue, 201_000, True)]
    assert story.fastest_today == story.fastest_ever
    sim.close()
