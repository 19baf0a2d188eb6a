"""Karate Fight at the simulated cabinet: scripted presses and slaps with exact stamps
and transport delays → the bout winners, pile sizes and LED levels the rules say."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.store import Store
from games.karate_fight import (
    CARD_KINDS,
    BoutWon,
    CardKind,
    CowardsBlow,
    DeadHeat,
    HitShowing,
    HitWon,
    JanKenStarted,
    KarateOptions,
)
from hal.clock import ManualClock
from hal.config import load_config
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import press, run_for, start_session


def cards(kind: CardKind) -> list[int]:
    return [i for i, k in enumerate(CARD_KINDS) if k is kind]


def make_cabinet(tmp_path, stations: int):
    cfg = load_config("hal/data/cabinet-4.toml" if stations > 2 else None)
    cfg = replace(cfg, data_dir=tmp_path)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    store = Store(tmp_path / "k.sqlite3")
    return Cabinet(cfg, sim, clock, store, log=lambda _l: None, seed=3), sim


def deal_for_clumsy_hit(fighters: int) -> tuple[tuple[int, ...], ...]:
    """Each fighter plays one card in turn; the last two are both Dodge → Clumsy Defense.
    Everyone keeps two more cards."""
    openers = [cards(CardKind.BLOCK)[0], cards(CardKind.JUMP)[0]]  # different kinds: no Hit yet
    first = openers[: fighters - 2] + cards(CardKind.DODGE)[:2]
    spare = iter(cards(CardKind.EVADE) + cards(CardKind.KICK))
    return tuple((first[f], next(spare), next(spare)) for f in range(fighters))


def reveal_hit(cabinet: Cabinet, sim: SimCabinet, fighters: int) -> int:
    """Every fighter plays a card; return the µs the Hit's frame was flipped."""
    for f in range(fighters):
        press(cabinet, sim, f, Button.A, settle_us=120_000)
    shown = [e for _t, e in cabinet.scene.session.recent if isinstance(e, HitShowing)]
    assert len(shown) == 1
    return shown[0].revealed_us


def hit_winner(cabinet: Cabinet) -> int:
    (won,) = [e for _t, e in cabinet.scene.session.recent if isinstance(e, HitWon)]
    return won.winner


@pytest.mark.slow
@pytest.mark.parametrize("fighters", [2, 3, 4])
def test_one_microsecond_apart_same_winner_in_every_arrival_order(tmp_path, fighters: int) -> None:
    """The last fighter slaps first by 1 µs; whatever order the slaps arrive in (delays
    up to the settle window), that fighter wins the Hit and the centre pile."""
    winners = set()
    for order in itertools.permutations(range(fighters)):
        cabinet, sim = make_cabinet(tmp_path / "".join(map(str, order)), fighters)
        session = start_session(
            cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(fighters)), tuple(range(fighters))
        ).session
        flip = reveal_hit(cabinet, sim, fighters)
        settle = session.buffer.settle_us
        stamps = {f: flip + 150_000 + (fighters - 1 - f) for f in range(fighters)}  # last fighter earliest
        base, step = max(stamps.values()), settle // (2 * fighters)
        for rank, f in enumerate(order):  # ``order[0]`` arrives first, all within the window
            sim.slap(f, stamps[f], velocity=90, delay_us=base + rank * step - stamps[f])
        run_for(cabinet, sim, 800_000)
        winners.add(hit_winner(cabinet))
        assert session.buffer.late == 0
        sim.close()
    assert winners == {fighters - 1}


def test_bout_winner_piles_and_led_levels(tmp_path) -> None:
    cabinet, sim = make_cabinet(tmp_path, 2)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    flip = reveal_hit(cabinet, sim, 2)
    sim.slap(1, flip + 180_000, delay_us=1_900)  # Blue first by 1 µs but arrives last
    sim.slap(0, flip + 180_001, delay_us=0)
    run_for(cabinet, sim, 800_000)
    (bout,) = [e for _t, e in session.recent if isinstance(e, BoutWon)]
    assert (bout.winner, bout.cards_taken) == (1, 2)
    view = session.engine.public_view()
    assert [f.pile_size for f in view.fighters] == [2, 4]
    lit = [sum(1 for v in sim.led_levels(s) if v > 0) for s in (0, 1)]
    assert lit == [round(10 * 2 / 6), round(10 * 4 / 6)]
    report = view.last_hit
    assert [r.fighter for r in report.reactions] == [1, 0]
    assert [r.reaction_us for r in report.reactions] == [180_000, 180_001]
    assert report.margin_us == 1


def test_slap_one_microsecond_before_the_reveal_is_a_cowards_blow(tmp_path) -> None:
    cabinet, sim = make_cabinet(tmp_path, 2)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    press(cabinet, sim, 0, Button.A, settle_us=120_000)
    # Blue's press plays the Hit card; its frame will flip within the next 17 ms.
    sim.press(1, Button.A, sim.clock.now_us(), hold_us=50_000)
    run_for(cabinet, sim, 100_000)
    flip = next(e.revealed_us for _t, e in session.recent if isinstance(e, HitShowing))
    # Too late to send it now in real life; the stamp says it was 1 µs early.
    cab2, sim2 = make_cabinet(tmp_path / "again", 2)
    session2 = start_session(cab2, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    press(cab2, sim2, 0, Button.A, settle_us=120_000)
    sim2.press(1, Button.A, sim2.clock.now_us(), hold_us=50_000)
    sim2.slap(0, flip - 1, delay_us=sim2.slaps.settle_us)  # stamped 1 µs before the reveal
    run_for(cab2, sim2, 100_000)
    assert next(e.revealed_us for _t, e in session2.recent if isinstance(e, HitShowing)) == flip
    blows = [e for _t, e in session2.recent if isinstance(e, CowardsBlow)]
    assert [(b.fighter, b.cards_paid) for b in blows] == [(0, 1)]


def test_equal_stamps_are_a_dead_heat_settled_by_jan_ken(tmp_path) -> None:
    cabinet, sim = make_cabinet(tmp_path, 2)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    flip = reveal_hit(cabinet, sim, 2)
    sim.slap(0, flip + 200_000, delay_us=1_500)
    sim.slap(1, flip + 200_000, delay_us=0)
    run_for(cabinet, sim, 300_000)
    assert any(isinstance(e, DeadHeat) and e.fighters == (0, 1) for _t, e in session.recent)
    assert any(isinstance(e, JanKenStarted) and e.fighters == (0, 1) for _t, e in session.recent)
    press(cabinet, sim, 0, Button.B)  # rock
    press(cabinet, sim, 1, Button.D)  # scissors
    assert hit_winner(cabinet) == 0
    assert [f.pile_size for f in session.engine.public_view().fighters] == [4, 2]


def test_slaps_inside_the_grace_change_nothing(tmp_path) -> None:
    cabinet, sim = make_cabinet(tmp_path, 2)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    flip = reveal_hit(cabinet, sim, 2)
    sim.slap(1, flip + 150_000)
    sim.slap(0, flip + 450_000)  # 300 ms after the winning slap: inside the 500 ms grace
    run_for(cabinet, sim, 900_000)
    assert not any(isinstance(e, CowardsBlow) for _t, e in session.recent)
    assert [f.pile_size for f in session.engine.public_view().fighters] == [2, 4]


def test_pulled_slap_cable_pauses_and_recovers(tmp_path) -> None:
    from hal.events import PadLinkEvent

    cabinet, sim = make_cabinet(tmp_path, 2)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    now = sim.clock.now_us()
    sim.slaps.inject(PadLinkEvent("padboard", False, now, "USB unplugged"), now)
    run_for(cabinet, sim, 50_000)
    assert session.paused and "disconnected" in session.paused
    press(cabinet, sim, 0, Button.A)
    assert session.engine.public_view().centre == ()  # inputs wait while paused
    sim.slaps.inject(PadLinkEvent("padboard", True, sim.clock.now_us()), sim.clock.now_us())
    run_for(cabinet, sim, 50_000)
    assert session.paused is None
    press(cabinet, sim, 0, Button.A)
    assert len(session.engine.public_view().centre) == 1


def test_cards_and_the_hit_are_heard_where_sound_is_on(tmp_path) -> None:
    from hal.config import SoundConfig

    cfg = replace(load_config(), data_dir=tmp_path, sound=SoundConfig(True, tmp_path / "voices"))
    (tmp_path / "voices").mkdir()
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    cabinet = Cabinet(cfg, sim, clock, Store(tmp_path / "s.sqlite3"), log=lambda _l: None, seed=1)
    start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1))
    reveal_hit(cabinet, sim, 2)
    assert cabinet.ctx.sound is not None
    played = [name for _t, name in cabinet.ctx.sound.speaker.recent]
    assert played == ["fight", "karate_defence", "karate_defence", "karate_hit"]
    sim.close()


@pytest.mark.slow
def test_time_limit_ends_an_untouched_fight_with_most_cards_winning(tmp_path) -> None:
    """The cabinet tells the engine the time: a fight nobody touches still ends on time,
    and the fighter holding the most cards wins."""
    from games.karate_fight import FightWon, TimeUp

    cabinet, sim = make_cabinet(tmp_path, 2)
    limit = 5_000_000
    session = start_session(
        cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2), time_limit_us=limit), (0, 1)
    ).session
    flip = reveal_hit(cabinet, sim, 2)
    sim.slap(1, flip + 150_000)  # Blue wins the Hit: 4 cards to 2
    run_for(cabinet, sim, 800_000)
    started = session.engine.public_view().started_us
    run_for(cabinet, sim, started + limit - sim.clock.now_us() + 100_000)  # then nobody does anything
    kinds = [type(e) for _t, e in session.recent]
    assert TimeUp in kinds and FightWon in kinds
    assert session.engine.outcome().winner == 1
    screen = cabinet.render()
    assert screen is not None
    headline, _lines = session.controls.result_lines(session.engine, session.names)
    assert headline == "BLUE WINS ON TIME"
