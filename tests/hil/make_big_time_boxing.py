"""Writes the shipped Big Time Boxing scenarios from the pure rule engine.

    .venv/bin/python -m tests.hil.make_big_time_boxing   # rewrites tests/hil/big_time_boxing/*.toml

The engine alone plays each fight and says what every action caused; the scenario then
asks the whole cabinet stack — mock pins, debounce, scenes, session, journal, engine,
LED bars, private displays, ring display — to show exactly that when the same buttons
are pressed at the same µs.  Which buttons make an action is the cabinet's own mapping
(``BigTimeBoxingControls.bot_presses``); a window nobody answers is closed by the
cabinet exactly ``answer_us`` after it opened, and the scenario says so to the µs.

Every press is on the 100 ms frame grid of the scenarios' 10 frames a second, so the
cabinet's steps fall on the same µs as the script's.  The files are checked in;
regenerate only when the rules or the timeline change, and read the diff.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from display.games.big_time_boxing.screen import READ_US, STAGGER_US
from display.private import draw_private, image_text
from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls
from firmware_py.hil.writer import ScenarioWriter, comment_block
from games.big_time_boxing import (
    CARDS,
    BigHit,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    Column,
    Combo,
    Defend,
    Escape,
    Feature,
    FightEnded,
    Finish,
    Pass,
    Phase,
    Punch,
    Throw,
    WindowClosed,
)
from games.big_time_boxing.bot import BoxerBot
from games.codec import encode
from games.protocol import Action, Event
from tests.games.big_time_boxing.helpers import boxer, results, stacked

HERE = Path(__file__).resolve().parent / "big_time_boxing"
FPS = 10
GAP_US = 200_000
"""Between two presses of one action (E, then a card)."""
NEXT_US = 400_000
"""From an action's last press to the next action's first."""
CHECK_US = 50_000
GAME_OVER_HOLD_US = 3_000_000
GOLDEN = {"tolerance": 8, "max_mismatch": 0.001}


def plain(obj: Any) -> Any:
    """An event or options in the scenario's JSON form, None left out (TOML has none)."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    return obj


class BoxingScript:
    """Plays a Big Time Boxing fight on the engine, writing presses and checkpoints."""

    def __init__(self, w: ScenarioWriter, game: BigTimeBoxing) -> None:
        self.w = w
        self.game = game
        self.controls = BigTimeBoxingControls()
        self.t = 200_000
        self.opened = 0
        """When the open window opened."""
        w.option(**{k: v for k, v in plain(encode(game.options)).items() if k != "type"})

    def act(self, action: Action, label: str = "", private: bool = False) -> tuple[Event, ...]:
        """The buttons that make ``action``, pressed from now; what the cabinet must show."""
        seat = action.player
        at = self.t
        for button in self.controls.bot_presses(self.game, seat, action):
            self.w.input(at, station=seat, press=button.value)
            at += GAP_US
        last = at - GAP_US
        events = self.game.apply(action)
        self._expect(events, last, self.t, label or f"{type(action).__name__} by station {seat}")
        self.opened = last
        self.t = last + NEXT_US
        if private:
            self.privates(last + CHECK_US)
        return events

    def time_out(self, label: str = "") -> tuple[Event, ...]:
        """Nobody answers the open window: the cabinet closes it when its time is up."""
        closed = self.opened + self.game.options.answer_us
        events = self.game.apply(WindowClosed())
        self._expect(events, closed, closed - 1, label or "the window's time runs out")
        self.opened = closed
        self.t = closed + NEXT_US
        return events

    def _expect(self, events: tuple[Event, ...], at: int, since: int, label: str) -> None:
        enc = [plain(encode(e)) for e in events]
        self.w.expect(at + CHECK_US, label, from_us=since, event=enc[0], t_us=at, events=enc)
        view = self.game.public_view()
        for seat in (0, 1):
            level = min(1.0, view.boxers[seat].round_energy / self.game.options.starting_energy)
            self.w.expect(at + CHECK_US, led={"station": seat, "lit": round(level * 10)})

    def privates(self, at: int) -> None:
        """Both private displays, line for line as the cabinet's layout draws them."""
        for seat in (0, 1):
            lines = image_text(draw_private(self.controls.private_screen(self.game, seat)))
            assert lines is not None
            self.w.expect(at, private={"station": seat, "contains": [line for line in lines if line]})

    def hand(self, seat: int) -> tuple[int, ...]:
        return self.game.view(seat).hand

    def card(self, seat: int, punch: Punch) -> int:
        """A card of ``seat``'s hand with ``punch`` on it."""
        return next(c for c in self.hand(seat) if CARDS.boxers[c].punch is punch)

    def screen(self, at: int, golden: str, label: str) -> None:
        """The ring display at ``at`` against a golden; play waits until it is taken."""
        self.w.expect(at, label, screen={"png": f"goldens/{golden}.png", **GOLDEN})
        self.t = max(self.t, at + 100_000)

    def result(self, label: str = "the score sheet follows the final banner", golden: str | None = None) -> None:
        end = self.opened
        extra = {"screen": {"png": f"goldens/{golden}.png", **GOLDEN}} if golden else {}
        self.w.expect(end + GAME_OVER_HOLD_US + 300_000, label, scene="Result", **extra)
        self.w.head["end_us"] = end + GAME_OVER_HOLD_US + 500_000


def writer(name: str, description: str, seed: int, notes: list[str]) -> ScenarioWriter:
    w = ScenarioWriter(
        f"big-time-boxing-{name}", "big_time_boxing", seed, description=description, stations=[0, 1], fps=FPS
    )
    w.preamble = comment_block(
        [
            "Generated by tests/hil/make_big_time_boxing.py from the pure engine with the same seed:",
            "the cabinet must show what the engine alone says, press for press.",
            *notes,
        ]
    )
    return w


def result_card(where: Callable, taken: list[int]) -> int:
    (card,) = results(where, 1, skip=taken)
    taken.append(card)
    return card


def hook_lands(value: int) -> Callable:
    return lambda r: r.value(Punch.HOOK, Column.OS_IS) == value


def big_hit(kind: BigHit, heart: bool | None = None) -> Callable:
    return lambda r: r.big_hit is kind and (heart is None or r.heart is heart)


def heart(yes: bool) -> Callable:
    return lambda r: r.heart is yes


def anything(_r: object) -> bool:
    """A Result card for a Jab: whatever it says, a Jab never lands a Big Hit."""
    return True


JAB = boxer(Punch.JAB, Feature.JUDGE_POINT)
"""Blue's Jab in the stacked fights."""


# -- a whole fight -------------------------------------------------------------------------------
def whole_fight() -> ScenarioWriter:
    """Computer boxers at both stations fight four rounds to the judges' cards; every fifth
    punch its defender lets through is let through by doing nothing (the window runs out)."""
    for seed in itertools.count(1):
        game = BigTimeBoxing(BigTimeBoxingOptions(rounds=4), 2, seed)
        bots = (BoxerBot(seed), BoxerBot(seed + 1))
        w = writer(
            "whole-fight",
            "A whole 4-round fight between two computer boxers pressing the stations' buttons: every action's "
            "events, both LED bars after each, both private displays at every turn, windows that run out, "
            "round scores, the decision, the score sheet.",
            seed,
            [
                "Both stations are played by the computer boxer (games/big_time_boxing/bot.py); every fifth",
                "window its boxer would let pass is left to run out instead, and the cabinet closes it.",
            ],
        )
        s = BoxingScript(w, game)
        passes = 0
        shot = False
        while not game.over:
            (seat,) = game.seats_to_act()
            action = bots[seat].choose(game, seat)
            if isinstance(action, Pass) and action.player != game.active:
                passes += 1
                if passes % 5 == 0:
                    s.time_out()
                    continue
            turn = game.phase is Phase.TURN
            events = s.act(action, private=turn)
            if not shot and any(type(e).__name__ == "RoundScored" for e in events):
                s.screen(s.opened + 1_000_000, "whole-fight-round-1-scored", "the first round's score, over the ring")
                shot = True
        finish = game.outcome().how
        if finish in (Finish.DECISION, Finish.DRAW) and len(game.scorecard) == 4:
            s.result(golden="whole-fight-score-sheet")
            return w
    raise AssertionError("unreachable")


# -- stacked fights ---------------------------------------------------------------------------------
def knockdowns() -> ScenarioWriter:
    """Red's Hook knocks Blue down and Blue shows heart; Red's next Hook knocks him down
    again and the count card has no heart: a knockout."""
    hooks = [boxer(Punch.HOOK, Feature.HUB_DEFENSE), boxer(Punch.HOOK, Feature.ESCAPE_ROPES)]
    taken: list[int] = []
    draws = [
        result_card(hook_lands(3), taken),
        result_card(big_hit(BigHit.KNOCKDOWN), taken),
        result_card(heart(True), taken),
        result_card(anything, taken),  # Blue's Jab
        result_card(hook_lands(3), taken),
        result_card(big_hit(BigHit.KNOCKDOWN), taken),
        result_card(heart(False), taken),
    ]
    game = stacked(hand0=hooks, hand1=[JAB], draws=draws)
    w = writer(
        "knockdowns",
        "A knockdown with heart (the boxer gets up, both back outside) and one without (a knockout), "
        "each from a Hook's Big Hit, with the ring display, LED bars and private displays.",
        game.seed,
        ["Stacked deal and Result deck: Red throws two Hooks, Blue lets both land."],
    )
    s = BoxingScript(w, game)
    s.act(Throw(0, hooks[0]), "Red throws a Hook: his token moves inside")
    s.privates(s.t - NEXT_US + CHECK_US)
    s.act(Pass(1), "Blue lets it land: 3, a Big Hit: KNOCKDOWN, and the count card shows heart")
    s.screen(s.opened + 1_700_000, "knockdowns-heart", "the count card with its heart, turned over last")
    s.act(Throw(1, s.card(1, Punch.JAB)), "Blue jabs back")
    s.act(Pass(0), "Red lets the Jab land")
    s.act(Throw(0, hooks[1]), "Red's second Hook")
    s.act(Pass(1), "it lands: 3, KNOCKDOWN, and no heart: KNOCKOUT")
    # its three cards (3, Knockdown, No heart) turn, the last is read, then who won is said
    said = s.opened + 2 * STAGGER_US + READ_US
    s.screen(said + 200_000, "knockdowns-knockout", "no heart: the fight is over")
    s.privates(s.opened + CHECK_US)
    s.result()
    return w


def combo() -> ScenarioWriter:
    """The one-two: Red's Jab with the combo icon goes unanswered and Red adds the Cross
    (two Result cards); Blue's Jab is answered by Red's J/C Defense (no combo window);
    Blue's next Jab goes through and Blue adds the Hook with both icons from outside,
    read in the OS/IS column, his token staying outside."""
    red = [boxer(Punch.JAB, Feature.COMBO_A), boxer(Punch.CROSS, Feature.COMBO_A), boxer(Punch.JAB, Feature.JC_DEFENSE)]
    blue = [
        boxer(Punch.JAB, Feature.COMBO_A, skip=red),
        boxer(Punch.JAB, Feature.COMBO_A, skip=[*red, boxer(Punch.JAB, Feature.COMBO_A, skip=red)]),
        boxer(Punch.HOOK, Feature.COMBO_AB),
    ]
    taken: list[int] = []
    draws = [
        result_card(anything, taken),  # Red's Jab
        result_card(lambda r: r.value(Punch.CROSS, Column.OS_OS) < 3, taken),
        result_card(anything, taken),  # Red's second Jab
        result_card(anything, taken),  # Blue's Jab
        result_card(lambda r: r.value(Punch.HOOK, Column.OS_IS) < 3, taken),
    ]
    game = stacked(hand0=red, hand1=blue, draws=draws)
    w = writer(
        "combo",
        "Combinations: a Jab/Cross one-two with a Result card for each punch, a Jab defended (no combo window), "
        "and a Jab/Hook from outside read in the OS/IS column with the token staying outside.",
        game.seed,
        ["Stacked deal: Red holds the one-two and a J/C Defense, Blue two combo Jabs and the Hook with both icons."],
    )
    s = BoxingScript(w, game)
    s.act(Throw(0, red[0]), "Red's Jab with the combo icon")
    s.act(Pass(1), "Blue lets it through: the combo window is Red's")
    s.privates(s.opened + CHECK_US)
    s.act(Combo(0, red[1]), "Red adds the Cross: two Result cards, one per punch")
    s.screen(s.opened + 800_000, "combo-one-two", "the one-two's cards turned over one after another")
    s.act(Throw(1, blue[0]), "Blue's combo Jab")
    s.act(Defend(0, red[2]), "Red's J/C Defense cancels it: no combo window")
    s.act(Throw(0, s.card(0, Punch.JAB)), "Red jabs")
    s.act(Pass(1))
    if s.game.phase is Phase.COMBO:
        s.time_out("Red has no second punch to add and lets the combo window run out")
    s.act(Throw(1, blue[1]), "Blue's second combo Jab")
    s.act(Pass(0), "Red lets it through")
    s.act(Combo(1, blue[2]), "Blue adds the Hook from outside: OS/IS, his token stays outside")
    w.head["end_us"] = s.t + 500_000
    return w


def ropes_escape() -> ScenarioWriter:
    """Red's Cross puts Blue on the ropes and Blue escapes at once with his Escape the
    Ropes card; Blue's Cross puts Red in the corner, Red has no escape and the window
    runs out; of the three punches there Red defends the Cross, lets the Hook land and
    lets the Uppercut's window run out."""
    red = [boxer(Punch.CROSS, Feature.JC_DEFENSE), boxer(Punch.JAB, Feature.JC_DEFENSE)]
    blue = [boxer(Punch.JAB, Feature.ESCAPE_ROPES), boxer(Punch.CROSS, Feature.ESCAPE_CORNER)]
    taken: list[int] = []
    cross3 = lambda r: r.value(Punch.CROSS, Column.OS_OS) == 3  # noqa: E731
    draws = [
        result_card(cross3, taken),
        result_card(big_hit(BigHit.ON_THE_ROPES), taken),
        result_card(cross3, taken),
        result_card(big_hit(BigHit.IN_THE_CORNER), taken),
        result_card(lambda r: r.better(Punch.HOOK) < 3, taken),
        result_card(lambda r: r.better(Punch.UPPERCUT) < 3, taken),
    ]
    game = stacked(hand0=red, hand1=blue, draws=draws)
    w = writer(
        "ropes-escape",
        "On the Ropes with an escape, then In the Corner without one: the escape window runs its full length, "
        "and each of the three punches in the corner has its own window (defended, let land, run out).",
        game.seed,
        ["Stacked deal and Result deck: two Crosses for 3, a Big Hit On the Ropes, then In the Corner."],
    )
    s = BoxingScript(w, game)
    s.act(Throw(0, red[0]), "Red's Cross")
    s.act(Pass(1), "it lands for 3: a Big Hit puts Blue ON THE ROPES; Blue's escape window opens")
    s.privates(s.opened + CHECK_US)
    s.screen(s.opened + 1_600_000, "ropes-on-the-ropes", "Blue on the ropes, the escape window counting down")
    s.act(Escape(1, blue[0]), "Blue plays Escape the Ropes: both boxers back outside")
    s.act(Throw(1, blue[1]), "Blue's Cross")
    s.act(Pass(0), "it lands for 3: a Big Hit puts Red IN THE CORNER")
    s.privates(s.opened + CHECK_US)
    s.time_out("Red holds no Escape the Corner card: the window still runs its full length")
    s.act(Defend(0, red[1]), "the Cross in the corner: Red defends with his J/C card")
    s.act(Pass(0), "the Hook in the corner: Red lets it land (the better of its two results)")
    s.time_out("the Uppercut in the corner: Red's window runs out and it lands; the trap is over")
    w.head["end_us"] = s.t + 500_000
    return w


def tko() -> ScenarioWriter:
    """Two Hooks for Big Hits each cut Blue over the eye: the second stops the fight (TKO)."""
    hooks = [boxer(Punch.HOOK, Feature.HUB_DEFENSE), boxer(Punch.HOOK, Feature.ESCAPE_ROPES)]
    taken: list[int] = []
    draws = [
        result_card(hook_lands(3), taken),
        result_card(big_hit(BigHit.CUT_OVER_EYE), taken),
        result_card(anything, taken),  # Blue's Jab
        result_card(hook_lands(3), taken),
        result_card(big_hit(BigHit.CUT_OVER_EYE), taken),
    ]
    game = stacked(hand0=hooks, hand1=[JAB], draws=draws)
    w = writer(
        "tko",
        "A TKO: a second Cut Over Eye stops the fight; the score sheet shows the round it was stopped in.",
        game.seed,
        ["Stacked deal and Result deck: Red's two Hooks each land for a Big Hit: Cut Over Eye."],
    )
    s = BoxingScript(w, game)
    s.act(Throw(0, hooks[0]), "Red's Hook")
    s.act(Pass(1), "3, a Big Hit: Cut Over Eye")
    s.act(Throw(1, s.card(1, Punch.JAB)), "Blue jabs")
    s.act(Pass(0))
    s.act(Throw(0, hooks[1]), "Red's second Hook")
    events = s.act(Pass(1), "3, Cut Over Eye again: the referee stops the fight")
    assert any(isinstance(e, FightEnded) and e.finish is Finish.TKO_CUT_OVER_EYE for e in events)
    s.result(golden="tko-score-sheet")
    return w


SCENARIOS = {
    "whole_fight.toml": whole_fight,
    "knockdowns.toml": knockdowns,
    "combo.toml": combo,
    "ropes_escape.toml": ropes_escape,
    "tko.toml": tko,
}


def main() -> None:
    for name, make in SCENARIOS.items():
        make().save(HERE / name)
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
