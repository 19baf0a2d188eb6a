"""Writes the shipped Karate Fight scenarios from the pure rule engine.

    .venv/bin/python -m tests.hil.make_karate     # rewrites tests/hil/karate_fight/*.toml

Each scenario is a prearranged deal (``options.deal``) and a script of presses and slaps.
The expected events come from the engine alone, given the stamps the cabinet must hand
it: a press's own µs for PlayTop, each slap's own µs (equal stamps batched), and for the
reveal the flip time of the first frame at or after the press's settle window ends —
the cabinet applies PlayTop when its window passes and reports the next flip.  The
cabinet run must produce exactly those events at exactly those µs, whatever order the
slaps arrive in (each slap is given an arrival delay, up to the settle window, so the
latest stamp often arrives first).
"""

from __future__ import annotations

from pathlib import Path

from display.games.karate_fight.screen import COLLECT_STAGGER_US
from display.motion import BAR_US, FLASH_US, SLIDE_US
from firmware_py.hil.writer import ScenarioWriter, comment_block
from games.codec import encode
from games.karate_fight import KarateFight, KarateOptions, PlayTop, Shown, Sign, Slaps, Throw
from hal.config import load_config

HERE = Path(__file__).resolve().parent / "karate_fight"
FPS = 60
FRAME_US = 1_000_000 // FPS
CHECK_AFTER_US = 40_000
SIGN_BUTTON = {Sign.ROCK: "A", Sign.PAPER: "B", Sign.SCISSORS: "C"}

# Card ids (games/karate_fight/deck.json order).
CHOP, PUNCH, KICK, THROW = 0, 4, 8, 12
DODGE, BLOCK, JUMP, EVADE = 16, 23, 30, 37
STRIKE, COUNTER, JAN_KEN = 44, 48, 51


def cabinet_settle(config: str | None) -> int:
    cfg = load_config(config)
    settle = max(s.slap.settle_us for s in cfg.stations)
    if cfg.padboard is not None:
        settle = max(settle, cfg.padboard.settle_us)
    return settle


class KarateScript:
    def __init__(
        self, w: ScenarioWriter, deal: list[list[int]], stations: list[int], config: str | None = None, seed: int = 1
    ) -> None:
        self.w = w
        self.stations = stations
        self.settle = cabinet_settle(config)
        self.options = KarateOptions(deal=tuple(tuple(p) for p in deal))
        self.game = KarateFight(self.options, len(stations), seed)
        w.option(deal=deal)
        self.checks = 0

    def _apply(self, action, at_us: int, label: str, exact: str | None = None, **extra) -> tuple:
        events = self.game.apply(action)
        stamp = getattr(action, "t_us", None)
        enc = [{k: v for k, v in encode(e).items() if v is not None} for e in events]
        if events:
            first = {k: v for k, v in enc[0].items()}
            self.w.expect(
                at_us, label, from_us=stamp if stamp is not None else 0, events=enc, event=first, t_us=stamp, **extra
            )
        return events

    def reveal_after(self, press_us: int) -> int:
        """The flip that shows a card whose press was stamped ``press_us``."""
        due = press_us + self.settle
        return -(-due // FRAME_US) * FRAME_US

    def play(self, seat: int, at_us: int, note: str = "") -> int:
        """Fighter ``seat`` presses A; returns the reveal stamp."""
        station = self.stations[seat]
        self.w.input(
            at_us, note or f"fighter {seat + 1} (station {station}) plays the top card", station=station, press="A"
        )
        reveal = self.reveal_after(at_us)
        self._apply(PlayTop(seat, at_us), reveal + CHECK_AFTER_US, f"fighter {seat + 1} plays a card")
        cards = self.game.cards_played
        self._apply(
            Shown(t_us=reveal, cards_played=cards),
            reveal + self.settle + CHECK_AFTER_US,
            "its frame is flipped: the reveal stamp is the flip time",
        )
        return reveal

    def slaps(self, hits: list[tuple[int, int, int]], label: str) -> int:
        """``hits``: (seat, stamp µs, arrival delay µs).  Returns the check time."""
        for seat, t, delay in hits:
            self.w.input(
                t,
                f"fighter {seat + 1} slaps (arrives {delay} µs later)",
                station=self.stations[seat],
                slap=100 - seat * 10,
                delay_us=delay,
            )
        by_stamp: dict[int, list[int]] = {}
        for seat, t, _ in hits:
            by_stamp.setdefault(t, []).append(seat)
        last = max(t for _, t, _ in hits)
        at = last + self.settle + CHECK_AFTER_US
        for t in sorted(by_stamp):
            self._apply(Slaps(t_us=t, fighters=tuple(sorted(by_stamp[t]))), at, label)
        return at

    def throw(self, seat: int, sign: Sign, at_us: int) -> int:
        self.w.input(
            at_us, f"fighter {seat + 1} throws {sign.value}", station=self.stations[seat], press=SIGN_BUTTON[sign]
        )
        at = at_us + self.settle + CHECK_AFTER_US
        self._apply(Throw(seat, sign), at, f"fighter {seat + 1}'s sign")
        return at

    def leds(self, at_us: int) -> None:
        v = self.game.public_view()
        for seat, station in enumerate(self.stations):
            level = v.fighters[seat].pile_size / v.in_play if v.in_play else 0.0
            self.w.expect(at_us, led={"station": station, "level": round(level, 4), "tolerance": 0.051})


def writer(name: str, description: str, stations: list[int], config: str | None, lines: list[str]) -> ScenarioWriter:
    extra = {"stations": stations}
    if config:
        extra["config"] = config
    w = ScenarioWriter(name, "karate_fight", 1, description=description, **extra)
    w.preamble = comment_block(["Generated by tests/hil/make_karate.py (engine-derived expectations).", *lines])
    return w


CONFIG_4 = "../../../hal/data/cabinet-4.toml"
"""The shipped 4-station cabinet, relative to the scenario files."""


def near_tie(n: int) -> ScenarioWriter:
    stations = list(range(n))
    config = CONFIG_4 if n > 2 else None
    w = writer(
        f"karate-near-tie-{n}",
        f"Karate Fight, {n} fighters: a Strike is slapped by all {n} within "
        f"{n - 1} µs, arriving in reverse stamp order; the earliest stamp wins, the rest are late by 1 µs steps.",
        stations,
        config,
        [f"{n} stations; slaps 1 µs apart, the latest stamp arriving first."],
    )
    deal = [[STRIKE, DODGE + 1, BLOCK + 1]] + [[DODGE + 2 + i, BLOCK + 2 + i, JUMP + i] for i in range(n - 1)]
    k = KarateScript(w, deal, stations, config and str(HERE / config))
    k.leds(100_000)
    reveal = k.play(0, 500_000, "fighter 1 plays a Strike: a Hit")
    w.expect(
        reveal + k.settle + CHECK_AFTER_US,
        "the Hit is on every private display",
        private={"station": stations[-1], "contains": "HIT!  SLAP!"},
    )
    react = reveal + 187_000
    # Fighter n slaps first (earliest stamp) but its slap arrives last; fighter 1 the reverse.
    winner = n - 1
    hits = [(seat, react + (winner - seat), min(500 + 1_000 * seat, k.settle)) for seat in range(n)]
    at = k.slaps(hits, f"fighter {winner + 1} wins the Hit by 1 µs")
    w.expect(
        at,
        f"fighter {winner + 1} won, and everyone else is behind by their µs",
        event={"type": "HitWon", "winner": winner, "reaction_us": 187_000, "by_jan_ken": False},
    )
    k.leds(at + 100_000)
    if n == 2:
        w.expect(
            at + SETTLED_US,
            "the after-Hit screen, its motion settled",
            screen={"png": "goldens/near-tie-2-hit-won.png", "tolerance": 8, "max_mismatch": 0.001},
        )
    # The winner starts the next bout: one more card, a defense, passes on.
    reveal2 = k.play(winner, at + SETTLED_US + 200_000, f"fighter {winner + 1} starts the next bout")
    w.head["end_us"] = reveal2 + 200_000
    return w


def cowards_blow() -> ScenarioWriter:
    w = writer(
        "karate-cowards-blow",
        "Karate Fight: slaps with no Hit showing are Coward's Blows (1 card, then 2 for "
        "the next in the same bout), and a slap after a Hit was played but before its frame was shown is one too.",
        [0, 1],
        None,
        ["A Coward's Blow pays cards under the centre pile; 'too soon' carries the pending Hit."],
    )
    deal = [[DODGE, STRIKE, BLOCK], [JUMP, EVADE, BLOCK + 1, KICK, JUMP + 1, EVADE + 1]]
    k = KarateScript(w, deal, [0, 1])
    r1 = k.play(0, 400_000, "fighter 1 plays a defense: no Hit")
    at = k.slaps([(1, r1 + 250_000, 2_000)], "fighter 2 slaps at nothing: a Coward's Blow")
    w.expect(at, event={"type": "CowardsBlow", "fighter": 1, "cards_paid": 1})
    k.leds(at)
    at = k.slaps([(1, at + 200_000, 0)], "again in the same bout: 2 cards")
    w.expect(at, event={"type": "CowardsBlow", "fighter": 1, "cards_paid": 2})
    k.leds(at)
    r2 = k.play(1, at + 200_000, "fighter 2 attacks (Kick): fighter 1 must answer")
    t = r2 + 200_000
    assert k.game.turn == 0 and k.game.piles[0][0] == STRIKE, (k.game.turn, list(k.game.piles[0]))
    press = t
    k.w.input(press, "fighter 1 plays the Strike", station=0, press="A")
    reveal = k.reveal_after(press)
    early = press + 1_000  # stamped after the card was played, before its frame flipped
    w.input(early, "fighter 2 slaps before the Strike is on screen: too soon", station=1, slap=90, delay_us=500)
    k._apply(PlayTop(0, press), reveal + CHECK_AFTER_US, "the Strike is played")
    k._apply(
        Slaps(t_us=early, fighters=(1,)),
        reveal + k.settle + CHECK_AFTER_US,
        "too soon: a Coward's Blow with the Hit pending",
    )
    w.expect(reveal + k.settle + CHECK_AFTER_US, event={"type": "CowardsBlow", "fighter": 1, "hit_pending": "strike"})
    k._apply(
        Shown(t_us=reveal, cards_played=k.game.cards_played),
        reveal + k.settle + CHECK_AFTER_US,
        "the Strike's frame flips; the early slap is reported with its negative reaction",
    )
    at = k.slaps([(0, reveal + 210_000, 1_000)], "fighter 1 slaps its own Strike")
    w.expect(at, event={"type": "HitWon", "winner": 0})
    k.leds(at)
    t = at
    w.head["end_us"] = t + 300_000
    return w


def dead_heat() -> ScenarioWriter:
    w = writer(
        "karate-dead-heat",
        "Karate Fight: two slaps with the identical µs stamp, arriving 3 ms apart, are a "
        "dead heat settled by Jan Ken; a drawn round is thrown again.",
        [0, 1],
        None,
        ["Equal stamps: the engine sees one batch, whatever order the slaps arrived in."],
    )
    deal = [[STRIKE, DODGE, BLOCK], [JUMP, EVADE, DODGE + 1]]
    k = KarateScript(w, deal, [0, 1])
    reveal = k.play(0, 300_000, "fighter 1 plays a Strike")
    t = reveal + 240_000
    at = k.slaps([(0, t, 3_000), (1, t, 0)], "both slap at the same µs: dead heat")
    w.expect(at, event={"type": "DeadHeat", "fighters": [0, 1], "won_us": t, "reaction_us": 240_000}, t_us=t)
    w.expect(at, event={"type": "JanKenStarted", "reason": "dead_heat", "fighters": [0, 1]})
    w.expect(
        at,
        "the Jan Ken prompt on the private display",
        private={"station": 0, "contains": ["JAN KEN POI!", "A rock B paper", "C scissors"]},
    )
    at1 = k.throw(0, Sign.ROCK, at + 200_000)
    at2 = k.throw(1, Sign.ROCK, at1 + 100_000)
    w.expect(at2, "a draw: both throw again", event={"type": "JanKenRound", "round": 1, "eliminated": []})
    at3 = k.throw(1, Sign.PAPER, at2 + 200_000)
    at4 = k.throw(0, Sign.SCISSORS, at3 + 100_000)
    w.expect(
        at4,
        "scissors cut paper: fighter 1 takes the Hit",
        event={"type": "JanKenWon", "winner": 0, "reason": "dead_heat"},
    )
    w.expect(at4, event={"type": "HitWon", "winner": 0, "by_jan_ken": True})
    k.leds(at4 + 50_000)
    w.head["end_us"] = at4 + 300_000
    return w


SETTLED_US = max(FLASH_US, BAR_US, SLIDE_US + 6 * COLLECT_STAGGER_US) + 50_000
"""The after-Hit screenshot waits this long after the Hit: the flash has faded, the
centre's cards have reached the winner and the share bars stand still."""


def main() -> None:
    for w, name in (
        (near_tie(2), "near_tie_2.toml"),
        (near_tie(3), "near_tie_3.toml"),
        (near_tie(4), "near_tie_4.toml"),
        (cowards_blow(), "cowards_blow.toml"),
        (dead_heat(), "dead_heat.toml"),
    ):
        w.save(HERE / name)
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
