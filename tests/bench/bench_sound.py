"""Sound: from a game's event to its first audible sample at the device, headless.

A child process opens the cabinet's sound exactly as the cabinet does (the mixer buffer
of ``[sound] buffer``, channels by kind) on SDL's ``disk`` driver, whose file is a FIFO
this benchmark reads.  SDL writes each mixed buffer as it "plays" it, through stdio, so a
read returns when a 4 KiB block has filled; a line fitted to the lower envelope of
(bytes, arrival time) gives the time every byte was written.  Each event is a Karate
Fight ``CardPlayed`` handed to the cabinet's sound exactly as a session's listener hands
it (``CabinetSound.game_event``), stamped just before; its latency is the write time of
the mixer buffer holding the cue's first sample above 1 % of full scale, minus the stamp.

On a real device the sound card's own queue (one or two periods of ALSA's buffer) comes
on top; the disk driver has none, so this measures what the software adds.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.harness import Figure, percentile

TITLE = "Sound: event to first audible sample"

EVENTS = int(os.environ.get("RINGSIDE_BENCH_SOUND_EVENTS", "120"))
BUFFERS = (256, 512, 1024)
"""The cabinet's mixer buffer (256, ``[sound] buffer``'s default) and two larger ones."""
THRESHOLD = 328
"""1 % of full scale: the cue's first audible sample."""
GOAL_MS = 17.0


def child(buffer: int, events: int, fifo: str, cache: str) -> None:
    """Runs in the child: the cabinet's sound on the disk driver; prints the stamps."""
    os.environ["SDL_AUDIODRIVER"] = "disk"
    os.environ["SDL_DISKAUDIOFILE"] = fifo
    from firmware_py.runtime.cabinet_sound import open_sound
    from games.karate_fight.cards import CardKind
    from games.karate_fight.events import CardPlayed
    from games.registry import names
    from hal.config import SoundConfig

    t = time.perf_counter()
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    sound = open_sound(SoundConfig(buffer=buffer), names(), 2, say, cache=Path(cache))
    startup_ms = (time.perf_counter() - t) * 1000
    assert sound is not None

    from types import SimpleNamespace

    session = SimpleNamespace(controls=SimpleNamespace(spec=SimpleNamespace(name="karate_fight")), seats=(0, 1))
    rng = random.Random(1)
    card = CardPlayed(fighter=0, card=1, kind=CardKind.CHOP, hit=None, t_us=0)
    time.sleep(0.6)  # the device running, the pipe flowing
    stamps, costs = [], []
    for _ in range(events):
        time.sleep(rng.uniform(0.16, 0.24))  # the 90 ms cue long over: silence before each
        t0 = time.perf_counter_ns()
        sound.game_event(session, t0 // 1000, card)
        t1 = time.perf_counter_ns()
        stamps.append(t0)
        costs.append(t1 - t0)
    time.sleep(0.4)
    print(json.dumps({"stamps": stamps, "costs": costs, "startup_ms": startup_ms}))
    import pygame

    pygame.mixer.quit()


def measure(buffer: int, events: int, cache: Path) -> tuple[list[float], list[float], float]:
    """Latencies (ms) and play-call costs (µs) of ``events`` cues at mixer ``buffer``,
    and the ms the sound took to open (every cue rendered, the device opened)."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = str(Path(tmp) / "sdl.fifo")
        os.mkfifo(fifo)
        arrivals: list[tuple[int, int]] = []
        data = bytearray()

        def read() -> None:
            fd = os.open(fifo, os.O_RDONLY)
            while chunk := os.read(fd, 1 << 16):
                t = time.perf_counter_ns()
                data.extend(chunk)
                arrivals.append((len(data), t))
            os.close(fd)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        root = Path(__file__).resolve().parents[2]
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.bench_sound", str(buffer), str(events), fifo, str(cache)],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=600,
        )
        reader.join(10)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    out = json.loads(done.stdout.strip().splitlines()[-1])
    costs = [c / 1000 for c in out["costs"]]
    return latencies(bytes(data), arrivals, out["stamps"], 2 * buffer), costs, float(out["startup_ms"])


def latencies(data: bytes, arrivals: list[tuple[int, int]], stamps: list[int], block: int) -> list[float]:
    """Each stamp's latency (ms): the write time of the mixer buffer (``block`` bytes,
    written at once; a cue starts on its first frame) holding the first loud sample after
    the stamp.  A buffer is flushed to the pipe with the 4 KiB stdio block it completes;
    the buffers before it in that block were written one buffer period apiece earlier
    (the period measured from the neighbouring blocks' arrivals), and the reader's own
    lateness is taken out by the next blocks' arrivals."""
    import numpy as np

    samples = np.abs(np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(np.int32))
    loud = np.flatnonzero(samples > THRESHOLD) * 2
    ends = np.array([n for n, _ in arrivals], dtype=np.int64)
    times = np.array([t for _, t in arrivals], dtype=np.float64)
    rate = np.diff(times) / np.maximum(np.diff(ends), 1)  # ns per byte, block by block
    out = []
    for stamp in stamps:
        k0 = int(np.searchsorted(times, stamp))  # the first block read after the stamp
        if k0 == 0 or k0 >= len(ends):
            continue
        i = int(np.searchsorted(loud, ends[k0 - 1]))  # what was flushed by the stamp played before it
        if i >= len(loud):
            continue
        end = (int(loud[i]) // block + 1) * block
        k = int(np.searchsorted(ends, end))
        if k >= len(ends):
            continue
        local = float(np.median(rate[max(0, k - 8) : k + 8]))
        # A read can be late (the reader not scheduled yet), never early; a late write by
        # SDL delays every later block too.  So the block's write time is the earliest
        # that it and the next blocks' arrivals allow.
        later = slice(k, min(k + 8, len(ends)))
        written = float(np.min(times[later] - (ends[later] - end) * local))
        out.append(float(written - stamp) / 1e6)
    return out


def run() -> list[Figure]:
    figures = []
    startups = []
    cache = Path(tempfile.mkdtemp(prefix="ringside-bench-cues-"))
    for buffer in BUFFERS:
        ms, costs, startup = measure(buffer, EVENTS, cache)  # the first run renders, the others load
        startups.append(startup)
        mine = buffer == 256
        note = f"{len(ms)} cues; mixer buffer {buffer} frames = {buffer / 44.1:.1f} ms" + (
            " (the cabinet's)" if mine else ""
        )
        figures.append(Figure(f"event → sound p50, buffer {buffer}", percentile(ms, 50), "ms", "", note))
        figures.append(
            Figure(f"event → sound p99, buffer {buffer}", percentile(ms, 99), "ms", f"≤ {GOAL_MS:.0f}" if mine else "")
        )
        if mine:
            figures.append(
                Figure(
                    "play call on the main loop p99",
                    percentile(costs, 99),
                    "µs",
                    "never waits",
                    "game_event → Channel.play",
                )
            )
    figures.append(
        Figure(
            "sound ready, first start",
            startups[0],
            "ms",
            "before play",
            "every cue rendered (2 stations), the device opened",
        )
    )
    figures.append(
        Figure(
            "sound ready, later starts",
            statistics.median(startups[1:]),
            "ms",
            "before play",
            f"cues from the data folder's cache; median of {len(startups) - 1}",
        )
    )
    shutil.rmtree(cache, ignore_errors=True)
    return figures


if __name__ == "__main__":
    child(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4])
