"""The cabinet's sound as rendered: every cue levelled and never clipping, cues of one kind
alike in loudness, headroom for everything at once, channels by kind (slaps never cut the
announcer), an operator's recording replacing a cue, a missing device one log line."""

from __future__ import annotations

import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from display.audio.cues import Kind
from display.audio.mixer import CEILING, CHANNELS, ChannelPlan, loudness_db, peak, worst_case_peak
from display.audio.output import Silent, Tape, open_device, read_wav, write_wav
from display.audio.synth import RATE, sine
from display.sound import Speaker
from games import registry

REPO = Path(__file__).resolve().parents[2]
SAME_KIND_DB = 3.0
"""Cues of one kind are within this many dB of each other (short-term loudness)."""


@pytest.fixture(scope="module")
def speaker() -> Speaker:
    return Speaker(registry.names(), 4)


HEARD_IN_PLAY = {
    "punch": {"bell", "card_chosen", "reveal", "punch_light", "punch_medium", "punch_heavy", "bell_end"},
    "karate_fight": {"karate_card", "karate_defence", "karate_hit", "hit_won", "bout_won", "call_chop"},
    "big_time_boxing": {"bell", "punch_thrown", "punch_light", "punch_medium", "punch_heavy", "block"},
    "punch_cards": {"cards_locked", "cards_stakes", "cards_reveal", "duel_won", "card_changes_hands"},
}
"""Cues three random playouts of each shipped game must play: the events a player notices
most.  A game not named here must play at least one of its cues, if it has any."""


@pytest.mark.parametrize("game", registry.names())
def test_every_event_a_game_sounds_names_one_of_its_cues(game: str) -> None:
    from display.sound import game_sounds
    from firmware_py.games.registry import controls_type
    from tests.games.playout import random_playout

    sounds = game_sounds(game)
    heard: set[str] = set()
    for seed in range(3):
        controls = controls_type(game)()
        engine = registry.engine_type(game)(controls.make_options({}), controls.spec.min_players, seed)
        events = list(engine.opening_events)
        apply = engine.apply

        def applied(action: object, apply=apply, events=events) -> tuple[object, ...]:
            caused = apply(action)
            events.extend(caused)
            return caused

        engine.apply = applied  # type: ignore[method-assign]
        random_playout(engine, bot_seed=seed, replay_every=0)
        for event in events:
            for call in sounds.calls(event):
                assert call.cue in sounds.cues, (type(event).__name__, call.cue)
                assert (call.seat is not None) == sounds.cues[call.cue].per_station, call
                heard.add(call.cue)
    expected = HEARD_IN_PLAY.get(game)
    if expected is None:
        assert heard or not sounds.cues, f"{game} has cues but none of its events plays one"
    else:
        assert expected <= heard, expected - heard


def test_every_cue_peaks_under_its_kinds_ceiling_so_nothing_clips(speaker: Speaker) -> None:
    for name, w in speaker.waves.items():
        kind = speaker.kind(name)
        assert peak(w) <= CEILING[kind] + 1e-6, name
        assert np.all(np.isfinite(w)), name


def test_cues_of_one_kind_are_within_a_few_db_of_each_other(speaker: Speaker) -> None:
    for kind in Kind:
        levels = {n: loudness_db(w) for n, w in speaker.waves.items() if speaker.kind(n) is kind}
        assert levels, kind
        spread = max(levels.values()) - min(levels.values())
        assert spread <= SAME_KIND_DB, (kind, sorted(levels.items(), key=lambda kv: kv[1]))


def test_everything_at_once_at_full_volume_still_fits_under_full_scale(speaker: Speaker) -> None:
    assert worst_case_peak() < 1.0
    # the loudest cue of each kind on every channel of that kind, peaks aligned
    loudest = {k: max((w for n, w in speaker.waves.items() if speaker.kind(n) is k), key=peak) for k in Kind}
    total = sum(CHANNELS[k] * peak(loudest[k]) for k in Kind)
    assert total < 1.0


def test_a_burst_of_slaps_never_takes_the_announcers_or_the_musics_channel() -> None:
    plan = ChannelPlan()
    voice = plan.assign(Kind.VOICE, "karate_hit", 0, 400_000)
    music = plan.assign(Kind.MUSIC, "attract_loop", 0, 7_000_000)
    slaps = [plan.assign(Kind.EFFECT, "karate_card", 1_000 * i, 90_000) for i in range(12)]
    assert voice not in slaps and music not in slaps
    assert set(slaps) == set(plan.range(Kind.EFFECT))
    assert plan.slots[voice].name == "karate_hit" and plan.slots[music].name == "attract_loop"
    # the oldest slap gives way to a new one
    assert slaps[CHANNELS[Kind.EFFECT]] == slaps[0]


def test_the_tape_keeps_the_announcer_whole_under_a_burst_of_slaps(speaker: Speaker) -> None:
    tape = Tape()
    speaker_tape = Speaker(registry.names(), 4, tape)
    speaker_tape.play("karate_hit", 0)
    for i in range(20):
        speaker_tape.play("karate_card", 5_000 + 10_000 * i)
    mixed = tape.mix(0, 600_000)
    alone = speaker.waves["karate_hit"]
    # subtract every slap: what is left is the shout, untouched
    slaps = Tape()
    slaps.load(speaker.waves, speaker.plan)
    slaps.events = [e for e in tape.events if e.name != "karate_hit"]
    rest = mixed - slaps.mix(0, 600_000)
    assert np.allclose(rest[: len(alone)], alone, atol=1e-4)


def test_an_operators_recording_replaces_a_cue_levelled_like_the_rest(tmp_path: Path) -> None:
    loud = (0.9 * sine(300, 0.5)).astype(np.float32)
    write_wav(tmp_path / "bell.wav", loud)
    write_wav(tmp_path / "hit_won.2.wav", loud)
    (tmp_path / "fanfare.wav").write_bytes(b"not a wav")
    write_wav(tmp_path / "no_such_cue.wav", loud)
    lines: list[str] = []
    s = Speaker(registry.names(), 4, folder=tmp_path, log=lines.append)
    bell = s.waves["bell"]
    assert len(bell) == len(loud) and peak(bell) <= CEILING[Kind.VOICE] + 1e-6
    assert np.corrcoef(bell, loud)[0, 1] > 0.99  # the recording, only quieter
    assert len(s.waves["hit_won.2"]) == len(loud) and len(s.waves["hit_won.1"]) != len(loud)
    assert any("fanfare.wav not used" in line for line in lines)
    assert any("no_such_cue.wav" in line and "no cue" in line for line in lines)


def test_the_announcers_card_names_play_only_where_an_operator_recorded_them(tmp_path: Path) -> None:
    write_wav(tmp_path / "call_chop.wav", (0.5 * sine(200, 0.3)).astype(np.float32))
    s = Speaker(registry.names(), 2, folder=tmp_path)
    assert "call_chop" in s.waves and "call_kick" not in s.waves
    assert s.play("call_chop", 0) and not s.play("call_kick", 1)
    assert [n for _t, n in s.recent] == ["call_chop"]


def test_cues_rendered_once_are_kept_for_the_next_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import display.sound

    monkeypatch.setattr(display.sound, "_rendered", {})  # a fresh process: nothing in memory
    first = Speaker(registry.names(), 2, cache=tmp_path)
    (kept,) = tmp_path.glob("cues-*.npz")
    monkeypatch.setattr(display.sound, "_rendered", {})  # the next start
    again = Speaker(registry.names(), 2, cache=tmp_path)
    assert display.sound._rendered == {}  # nothing rendered: all from the cache
    assert again.waves.keys() == first.waves.keys()
    assert all(np.array_equal(again.waves[n], first.waves[n]) for n in first.waves)
    kept.write_bytes(b"damaged")
    third = Speaker(registry.names(), 2, cache=tmp_path)  # renders afresh, keeps them again
    assert display.sound._rendered and np.array_equal(third.waves["bell"], first.waves["bell"])


def test_a_recording_at_another_rate_is_resampled(tmp_path: Path) -> None:
    path = tmp_path / "x.wav"
    with wave.open(str(path), "wb") as f:
        f.setnchannels(2)
        f.setsampwidth(2)
        f.setframerate(22_050)
        f.writeframes(np.zeros(22_050 * 2, dtype="<i2").tobytes())
    assert len(read_wav(path)) == RATE


def test_a_sound_driver_that_fails_is_one_log_line_and_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no_such_driver")
    lines: list[str] = []
    out = open_device(lines.append)
    assert isinstance(out, Silent)
    assert len(lines) == 1 and lines[0].startswith("sound: no sound device") and "silent" in lines[0]
    s = Speaker(registry.names(), 4, out, log=lines.append)
    assert s.play("bell", 0)  # decided and recorded, never heard
    assert len(lines) == 1


@pytest.mark.slow
def test_nothing_clips_at_the_device_with_every_channel_playing_at_once(tmp_path: Path) -> None:
    """Through SDL's disk driver: the loudest cue of each kind on every channel, started
    together at full volume; the file SDL wrote holds no sample at full scale."""
    raw = tmp_path / "mix.raw"
    script = """
import sys, time
from display.audio.cues import Kind
from display.audio.mixer import peak
from display.audio.output import open_device
from display.sound import Speaker
from games import registry
s = Speaker(registry.names(), 4, open_device(print))
for k in Kind:
    name = max((n for n in s.waves if s.kind(n) is k), key=lambda n: peak(s.waves[n]))
    for _ in range(8):
        s.play(name, 0)
time.sleep(1.5)
s.close()
"""
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(raw))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    samples = np.fromfile(raw, dtype="<i2")
    loud = np.max(np.abs(samples.astype(np.int32)))
    assert loud > 32767 * 0.3  # it did play, loudly
    assert loud < 32767  # and never reached full scale
