"""What the cabinet plays when: a Karate Hit in the winner's voice (never the loser's),
the scenes' cues, the attract policy, the venue's mute window, the operator's Sound page,
the [sound] config's errors, and a headless exhibition's sound in SDL's disk file."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from display.audio.cues import Kind
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.cabinet_sound import CabinetSound, SceneNow, in_window
from firmware_py.runtime.scene_kind import SceneKind
from firmware_py.runtime.service_menu import ServiceMenu, SoundPage
from firmware_py.runtime.store import Store
from games.karate_fight import HitShowing, HitWon, KarateOptions
from hal.clock import ManualClock
from hal.config import ConfigError, SoundConfig, load_config, parse_config
from hal.events import Button, ButtonEvent
from hal.sim import SimCabinet
from tests.cabinet_driving import press, run_for, start_game, start_session
from tests.firmware_py.test_cabinet_karate import deal_for_clumsy_hit
from tests.firmware_py.test_cabinet_punch_cards import ledger as ledger  # the fixtures
from tests.firmware_py.test_cabinet_punch_cards import pc as pc
from tests.firmware_py.test_cabinet_punch_cards import service_page, tap, taps, two_players
from tests.firmware_py.test_cabinet_punch_cards import wall as wall

REPO = Path(__file__).resolve().parents[2]
MINUTE = 60_000_000


def cabinet_with(tmp_path: Path, **sound: object) -> tuple[Cabinet, SimCabinet]:
    cfg = replace(load_config(), data_dir=tmp_path, sound=SoundConfig(**sound))  # type: ignore[arg-type]
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    return Cabinet(cfg, sim, clock, Store(tmp_path / "s.sqlite3"), log=lambda _l: None, seed=1, audio="none"), sim


def heard(cabinet: Cabinet) -> list[str]:
    assert cabinet.ctx.sound is not None
    return [name for _t, name in cabinet.ctx.sound.speaker.recent]


@pytest.mark.parametrize("stations", [(0, 1), (1, 0)])
def test_a_karate_hit_plays_the_winners_cue_never_the_losers(tmp_path: Path, stations: tuple[int, int]) -> None:
    cabinet, sim = cabinet_with(tmp_path)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), stations).session
    for station in stations:  # each seat plays its card in turn: the second makes the Hit
        press(cabinet, sim, station, Button.A, settle_us=120_000)
    flip = next(e.revealed_us for _t, e in session.recent if isinstance(e, HitShowing))
    winner_station, loser_station = stations[1], stations[0]  # seat 1 slaps first
    sim.slap(winner_station, flip + 180_000, delay_us=1_900)
    sim.slap(loser_station, flip + 180_001, delay_us=0)
    run_for(cabinet, sim, 800_000)
    (won,) = [e for _t, e in session.recent if isinstance(e, HitWon)]
    assert won.winner == 1
    names = heard(cabinet)
    assert f"hit_won.{winner_station}" in names
    assert f"hit_won.{loser_station}" not in names
    assert names.index("karate_hit") < names.index(f"hit_won.{winner_station}")
    sim.close()


def test_the_scenes_are_heard_from_the_select_screen_to_the_first_bell(tmp_path: Path) -> None:
    cabinet, sim = cabinet_with(tmp_path)
    start_game(cabinet, sim, "punch")
    names = heard(cabinet)
    assert names[0] == "menu_pick"  # attract → select
    assert names.index("join.0") < names.index("join.1")  # each station joins in its own pitch
    assert names.index("fight") < names.index("bell")  # the game begins, then round 1's bell
    sim.close()


def fake_sound(tmp_path: Path, wall: float = 0.0, kept: Path | None = None, **config: object) -> CabinetSound:
    from display.sound import Speaker
    from games import registry

    speaker = Speaker(registry.names(), 2)
    return CabinetSound(speaker, SoundConfig(**config), 2, wall=lambda: wall, kept=kept)  # type: ignore[arg-type]


def test_the_operators_changes_are_kept_over_a_restart_until_reset(tmp_path: Path) -> None:
    kept = tmp_path / "sound-settings.json"
    first = fake_sound(tmp_path, kept=kept, music_volume=70)
    first.change(volumes=(100, 90, 20), attract="silent")
    again = fake_sound(tmp_path, kept=kept, music_volume=70)
    assert again.settings.volumes == (100, 90, 20) and again.settings.attract == "silent"
    assert again.speaker.volumes[Kind.MUSIC] == pytest.approx(0.2) and again.changed_here
    again.reset()
    assert not kept.exists() and fake_sound(tmp_path, kept=kept, music_volume=70).settings.volumes == (100, 100, 70)
    kept.write_text('{"volumes": [100, 100, 400], "attract": "every", "every_min": 5}')
    third = fake_sound(tmp_path, kept=kept)
    assert third.settings.volumes == (100, 100, 70)  # a damaged file: the config's


def attract_loops(sound: CabinetSound, minutes: float) -> list[int]:
    scene = SceneNow(scene=object(), kind=SceneKind.ATTRACT)
    for t in range(0, int(minutes * MINUTE), 500_000):
        sound.follow(scene, t)
    return [t for t, n in sound.speaker.recent if n == "attract_loop"]


def test_the_attract_music_plays_every_n_minutes(tmp_path: Path) -> None:
    played = attract_loops(fake_sound(tmp_path, attract="every", attract_every_min=3), 10)
    assert [t // MINUTE for t in played] == [0, 3, 6, 9]  # as attract begins, then every 3 min


def test_a_silent_attract_plays_nothing_and_a_quiet_one_plays_low_all_the_time(tmp_path: Path) -> None:
    assert attract_loops(fake_sound(tmp_path, attract="silent"), 10) == []
    quiet = fake_sound(tmp_path, attract="quiet", music_volume=80)
    played = attract_loops(quiet, 1)
    assert played[0] == 0 and len(played) >= 8  # back to back (a ~7 s loop)
    assert quiet.speaker.volumes[Kind.MUSIC] == pytest.approx(0.8)  # only the loop is quiet


def test_the_venues_mute_window_silences_everything_and_ends(tmp_path: Path) -> None:
    assert in_window(23 * 60, 22 * 60, 9 * 60) and in_window(60, 22 * 60, 9 * 60)
    assert not in_window(12 * 60, 22 * 60, 9 * 60) and not in_window(9 * 60, 22 * 60, 9 * 60)
    late = time.mktime((2026, 12, 4, 23, 30, 0, 0, 0, -1))
    sound = fake_sound(tmp_path, wall=late, mute_from=22 * 60, mute_until=9 * 60)
    sound.follow(SceneNow(scene=object(), kind=SceneKind.OTHER), 0)
    assert sound.speaker.muted and not sound.cue("bell", 1)
    sound.wall = lambda: late + 10 * 3600  # 09:30
    sound.follow(SceneNow(scene=object(), kind=SceneKind.OTHER), 2_000_000)
    assert not sound.speaker.muted and sound.cue("bell", 2_000_001)


def test_the_sound_page_changes_volumes_and_the_attract_policy(tmp_path: Path) -> None:
    cabinet, sim = cabinet_with(tmp_path, music_volume=70, attract="every")
    sound = cabinet.ctx.sound
    assert sound is not None
    menu = ServiceMenu(cabinet.ctx, 0, cabinet.scene)
    menu.cursor = menu.titles.index("Sound")
    page = menu.page
    assert isinstance(page, SoundPage)

    def hit(button: Button) -> None:
        menu.on_input(ButtonEvent(0, button, True, 0), 0)

    hit(Button.C)
    hit(Button.C)  # the music row
    hit(Button.D)
    assert sound.settings.volumes[2] == 80 and sound.speaker.volumes[Kind.MUSIC] == pytest.approx(0.8)
    hit(Button.C)  # the attract row
    hit(Button.D)
    assert (sound.settings.attract, sound.settings.every_min) == ("every", 10)
    body = "\n".join(menu.screen(0).body)
    assert "Music volume: 80 %" in body and "music every 10 min" in body
    menu.on_input(ButtonEvent(0, Button.START, True, 5), 5)
    assert sound.speaker.recent[-1][1] == "attract_loop"
    sim.close()


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('mute_from = "25:00"\nmute_until = "08:00"', "sound.mute_from"),
        ('mute_from = "22:00"', "sound.mute_until"),
        ('attract = "loud"', "sound.attract"),
        ("music_volume = 120", "sound.music_volume"),
        ("buffer = 300", "sound.buffer"),
        ("volume = 3", "sound.volume"),
    ],
)
def test_a_bad_sound_key_is_one_line_naming_it(line: str, key: str) -> None:
    text = (REPO / "hal/data/cabinet.toml").read_text().replace("[sound]\n", f"[sound]\n{line}\n", 1)
    with pytest.raises(ConfigError) as e:
        parse_config(text)
    assert str(e.value).count("\n") == 0 and key in str(e.value)


def test_sound_is_on_by_default_and_the_window_parses() -> None:
    text = (REPO / "hal/data/cabinet.toml").read_text()
    assert load_config().sound.enabled
    cfg = parse_config(text.replace("[sound]\n", '[sound]\nmute_from = "22:30"\nmute_until = "9:00"\n', 1))
    assert (cfg.sound.mute_from, cfg.sound.mute_until) == (22 * 60 + 30, 9 * 60)


@pytest.mark.slow
def test_a_headless_exhibition_leaves_its_sound_in_sdls_disk_file(tmp_path: Path) -> None:
    raw = tmp_path / "exhibition.raw"
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(raw), SDL_VIDEODRIVER="dummy")
    cmd = [sys.executable, "-m", "firmware_py.tools.cli", "run", "--headless", "--game", "punch", "--seed", "2"]
    cmd += ["--screenshots", str(tmp_path / "shots")]
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    samples = np.fromfile(raw, dtype="<i2")
    assert len(samples) > 44_100 * 30  # the whole game, in time
    loud = np.abs(samples.astype(np.int32)) > 300
    assert loud.mean() > 0.05  # cues all along, not one beep
    assert np.abs(samples.astype(np.int32)).max() < 32767
    wav = (tmp_path / "shots" / "sound.wav").read_bytes()
    assert wav[44:] == samples.tobytes()


# -- Punch Cards' lobby: a trade and the closing time -----------------------------------------
@pytest.mark.slow
def test_a_recorded_trade_and_the_closing_time_are_heard(pc: Cabinet, sim, ledger) -> None:
    from firmware_py.games.punch_cards.trade import TradeScene

    two_players(pc, sim)
    tap(pc, sim, 0, Button.B)
    scene = pc.scene
    assert isinstance(scene, TradeScene)
    taps(pc, sim, 0, [Button.C, Button.START])
    tap(pc, sim, 1, Button.C)
    assert "trade" not in heard(pc)  # not before both agree
    taps(pc, sim, 1, [Button.START])
    tap(pc, sim, 0, Button.START)
    assert scene.recorded and heard(pc).count("trade") == 1
    run_for(pc, sim, 600_000)
    tap(pc, sim, 1, Button.START)  # back to the lobby
    assert "closing_time" not in heard(pc)
    service_page(pc, sim, "Closing time")
    taps(pc, sim, 0, [Button.C, Button.START])  # closes now
    sim.service_key(False, sim.clock.now_us())
    run_for(pc, sim, 200_000)
    run_for(pc, sim, 2_000_000)
    assert heard(pc).count("closing_time") == 1  # once, not every frame


def test_cabinets_on_fresh_data_folders_share_the_rendered_cues_of_one_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A HIL rig (or this test run) starts cabinets on fresh data folders: with
    RINGSIDE_SOUND_CACHE they keep one set of rendered cues; without it, each data folder
    keeps its own."""
    import display.sound

    def start(data: Path) -> Cabinet:
        cfg = replace(load_config(), data_dir=data)
        clock = ManualClock(1_000_000)
        store = Store(data / "s.sqlite3")
        return Cabinet(cfg, SimCabinet(cfg, clock), clock, store, log=lambda _l: None, seed=1, audio="tape")

    shared = tmp_path / "shared"
    monkeypatch.setenv("RINGSIDE_SOUND_CACHE", str(shared))
    monkeypatch.setattr(display.sound, "_rendered", {})  # a fresh process: nothing in memory
    first = start(tmp_path / "a")
    assert len(list(shared.glob("cues-*.npz"))) == 1 and not (tmp_path / "a" / "sound-cache").exists()
    monkeypatch.setattr(display.sound, "_rendered", {})  # the next process, on another data folder
    second = start(tmp_path / "b")
    assert display.sound._rendered == {}  # every cue from the shared folder
    assert first.ctx.sound is not None and second.ctx.sound is not None
    assert second.ctx.sound.speaker.waves.keys() == first.ctx.sound.speaker.waves.keys()
    assert not [p for p in shared.iterdir() if p.name.startswith(".")]  # no half-written file left

    monkeypatch.delenv("RINGSIDE_SOUND_CACHE")
    start(tmp_path / "c")
    assert len(list((tmp_path / "c" / "sound-cache").glob("cues-*.npz"))) == 1
