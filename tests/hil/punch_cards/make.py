"""Writes the shipped Punch Cards scenarios: registering, a duel with a replay, a trade,
the PIN lockout and the closing time, each walked from the attract screen with the
stations' buttons (names typed on the on-screen keyboard).

    .venv/bin/python -m tests.hil.punch_cards.make     # rewrites tests/hil/punch_cards/*.toml

The cabinet config beside them fixes the event seed, so every card's numbers are known:
the duel's reveals and winner are worked out here from the pure game
(:func:`games.punch_cards.judge` on the cards the ledger will issue) and the scenario asks
the whole cabinet — mock pins, debounce, lobby, ledger, session, engine, displays — to
show exactly that.  Regenerate only when the flow changes, and read the diff.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from firmware_py.games import registry as controls_registry
from firmware_py.games.punch_cards.keyboard import pin_presses, presses_for
from firmware_py.hil.writer import ScenarioWriter, comment_block
from firmware_py.runtime.service_menu import cabinet_pages
from games.punch_cards import PACKET_SIZE, Call, Corner, judge, make_card
from hal.events import Button

HERE = Path(__file__).resolve().parent
CONFIG = "configs/cabinet.toml"
SEED = tomllib.loads((HERE / CONFIG).read_text())["game"]["punch_cards"]["event_seed"]
GAP_US = 150_000
"""Between two presses: quick, well clear of the debounce."""
GAME_INDEX = controls_registry.names().index("punch_cards")
"""Punch Cards' place on the select screen (the controls registry's order)."""


class Script:
    def __init__(self, name: str, description: str, story: list[str]) -> None:
        self.w = ScenarioWriter(
            f"punch-cards-{name}", "punch_cards", 1, description, config=CONFIG, start="menus", fps=20, backends=["sim"]
        )
        self.w.preamble = comment_block(story) + "\n"
        self.name = name
        self.t = 300_000
        self.players = 0

    def press(self, station: int, button: Button, note: str = "") -> None:
        self.w.input(self.t, note, station=station, press=button.value)
        self.t += GAP_US

    def presses(self, station: int, buttons: list[Button], note: str) -> None:
        for i, b in enumerate(buttons):
            self.press(station, b, note if i == 0 else "")

    def expect(self, name: str, **kw: object) -> None:
        self.w.expect(self.t, name=name, **kw)
        self.t += 50_000

    def open_lobby(self) -> None:
        self.press(0, Button.START, "station 1 leaves the attract screen")
        self.presses(0, [Button.B] * GAME_INDEX + [Button.START], "and picks Punch Cards: its lobby, typing a name")

    def register(self, station: int, name: str, pin: str, starts: bool = True) -> tuple[int, ...]:
        """A new player at ``station``; returns the serials of their packet."""
        if starts:
            self.press(station, Button.START, f"station {station + 1} wants to sign in")
        self.presses(station, presses_for(name), f"types {name!r} on the on-screen keyboard")
        self.expect(f"{name} is new: choose a PIN", private={"station": station, "contains": f"NEW PIN for {name}"})
        self.presses(station, pin_presses(pin) * 2, f"chooses the PIN {pin} and repeats it")
        first = self.players * PACKET_SIZE + 1
        self.players += 1
        self.expect(
            f"{name} is registered with a packet of five", private={"station": station, "contains": f"Welcome {name}!"}
        )
        return tuple(range(first, first + PACKET_SIZE))

    def register_refused(self, station: int, name: str) -> None:
        self.press(station, Button.START, f"station {station + 1}: a new player after the closing time")
        self.expect(
            "the desk says the event has closed before anyone types",
            private={"station": station, "contains": ["The event has closed", "no new players"]},
        )
        self.presses(station, presses_for(name), f"types {name!r}")
        self.expect(
            "a new name is refused at once: no PIN asked",
            private={"station": station, "contains": "no new players", "lacks": "NEW PIN"},
        )

    def sign_in(self, station: int, name: str, pin: str) -> None:
        self.press(station, Button.START, f"station {station + 1} signs in")
        self.presses(station, presses_for(name), f"types {name!r}")
        self.presses(station, pin_presses(pin), f"and the PIN {pin}")

    def save(self) -> None:
        self.w.save(HERE / f"{self.name}.toml")


def register() -> None:
    s = Script(
        "register",
        "Two new players register at the cabinet with names typed on the station buttons and a PIN.",
        [
            "Registering: station 1 picks Punch Cards and types a name on the on-screen keyboard",
            "(a key, then its letter: two presses a letter; START done); a new name asks for a PIN twice, and the",
            "player gets a packet of five cards with their name.  A name the rules refuse is",
            "refused saying why; the same name cannot be registered twice.",
        ],
    )
    s.open_lobby()
    s.register(0, "Ann", "ABCD", starts=False)
    s.expect("Ann is signed in", private={"station": 0, "contains": ["Ann", "A duel", "E sign out"]})
    s.press(0, Button.E, "Ann signs out (a name signed in at one station cannot sign in at another)")
    s.press(1, Button.START, "station 2 starts typing")
    s.presses(
        1,
        [Button.F, Button.F, Button.C, Button.D, Button.START],
        'types a lone "_" (F, F: "123", C, D: "_") and sends it',
    )
    s.expect("a name must start with a letter or digit", private={"station": 1, "contains": "Not a name"})
    s.presses(1, [Button.E, *presses_for("ANN")], "deletes it and types 'ANN'")
    s.expect(
        "ANN is Ann (names ignore case): asks for her PIN, not a new one",
        private={"station": 1, "contains": "PIN for ANN", "lacks": "NEW PIN"},
    )
    s.press(1, Button.START, "backs out to the keyboard")
    s.presses(1, [Button.E] * 3, "clears the name")
    s.register(1, "Bob", "FEED", starts=False)
    s.sign_in(0, "Ann", "ABCD")
    s.expect("Ann signs in again with her PIN", private={"station": 0, "contains": "Signed in: Ann"})
    s.expect("both are signed in", private={"station": 1, "contains": "A duel Ann"})
    s.save()


def duel() -> None:
    s = Script(
        "duel-with-replay",
        "Two players duel: High against Low is played again, then both call High; the winner takes the card.",
        [
            "A duel at two stations: Ann challenges Bob (a first challenge: it must be accepted),",
            "both stake their first card, pick the top-left corner and call: High against Low is",
            "played again with new corners and calls; then both call High and the higher numbers",
            "win.  The ledger records the duel before the result shows; the loser's card moves.",
        ],
    )
    s.open_lobby()
    ann = s.register(0, "Ann", "ABCD", starts=False)
    bob = s.register(1, "Bob", "FEED")
    s.press(0, Button.A, "Ann challenges Bob")
    s.expect(
        "no refusing a first challenge: straight to the stakes",
        private={"station": 1, "contains": f"1/5 #{bob[0]} Bob"},
    )
    s.press(0, Button.START, "Ann stakes her first card")
    s.press(1, Button.START, "Bob stakes his first card")
    s.w.expect(s.t, name="stakes shown", event={"type": "StakesShown", "serials": [ann[0], bob[0]]})
    s.press(0, Button.A, "Ann picks the top left corner")
    s.press(1, Button.A, "Bob too")
    s.press(0, Button.A, "Ann calls High")
    s.press(1, Button.B, "Bob calls Low")
    s.expect(
        "High against Low: play again",
        event={"type": "Revealed", "play": 1, "calls": ["high", "low"], "again": "high_against_low"},
        private={"station": 0, "contains": "PICK A CORNER"},
    )
    a, b = make_card(SEED, ann[0], "Ann"), make_card(SEED, bob[0], "Bob")
    numbers = (a.numbers(Corner.BOTTOM_RIGHT), b.numbers(Corner.TOP_RIGHT))
    verdict = judge((Call.HIGH, Call.HIGH), numbers)
    assert verdict.winner is not None, "this seed must decide the second play"
    s.press(0, Button.D, "Ann: bottom right")
    s.press(1, Button.B, "Bob: top right")
    s.press(0, Button.A, "Ann calls High")
    s.press(1, Button.A, "Bob calls High")
    winner, loser = verdict.winner, 1 - verdict.winner
    taken = (ann, bob)[loser][0]
    s.t += 200_000
    s.expect(
        "the second play decides it, recorded before it shows",
        event={"type": "DuelWon", "winner": winner, "how": "high", "taken": taken},
        private={"station": winner, "contains": f"You won card #{taken}"},
    )
    s.expect("and the loser is told", private={"station": loser, "contains": f"You lost card #{taken}"})
    s.t += 1_500_000  # the result read first: START is taken once its banner has been up for 1 s
    s.press(0, Button.START, "back to the lobby, the result read")
    s.t += 400_000
    s.expect("the winner holds 6 cards", private={"station": winner, "contains": "(6 cards)"})
    s.expect("the loser 4", private={"station": loser, "contains": "(4 cards)"})
    s.save()


def trade() -> None:
    s = Script(
        "trade",
        "Two signed-in players trade: each offers a card, both confirm, the ledger moves both.",
        [
            "A trade: Ann picks B (trade) and offers her first card; Bob offers his first, then",
            "adds his second, which clears Ann's confirmation: she confirms the new offer, Bob",
            "confirms, and the ledger records both sides at once.",
        ],
    )
    s.open_lobby()
    ann = s.register(0, "Ann", "ABCD", starts=False)
    bob = s.register(1, "Bob", "FEED")
    s.press(0, Button.B, "Ann opens a trade with Bob")
    s.press(0, Button.C, f"Ann gives card #{ann[0]}")
    s.press(1, Button.C, f"Bob gives card #{bob[0]}")
    s.press(0, Button.START, "Ann confirms")
    s.expect("Ann has confirmed", private={"station": 0, "contains": "Confirmed: waiting"})
    s.presses(1, [Button.B, Button.C], f"Bob adds card #{bob[1]}")
    s.expect("a changed offer clears her confirmation", private={"station": 0, "contains": "START: confirm"})
    s.press(0, Button.START, "Ann confirms the new offer")
    s.press(1, Button.START, "Bob confirms")
    s.expect("recorded: both see it", private={"station": 0, "contains": "Traded: recorded"})
    s.expect("and Bob too", private={"station": 1, "contains": "Traded: recorded"})
    s.t += 600_000
    s.press(1, Button.START, "back to the lobby")
    s.t += 200_000
    s.expect("Ann holds 6 cards", private={"station": 0, "contains": "(6 cards)"})
    s.expect("Bob 4", private={"station": 1, "contains": "(4 cards)"})
    s.save()


def lockout() -> None:
    s = Script(
        "lockout",
        "Five wrong PINs lock a name: even the right PIN is refused then, and it says so.",
        [
            "The lockout: Ann registers and signs out; someone types her name and guesses",
            "PINs.  Each wrong PIN says how many tries are left; the fifth locks the name for",
            "15 minutes, and then even Ann's own PIN is refused with the lockout shown.",
        ],
    )
    s.open_lobby()
    s.register(0, "Ann", "ABCD", starts=False)
    s.press(0, Button.E, "Ann signs out")
    s.press(1, Button.START, "someone at station 2")
    s.presses(1, presses_for("Ann"), "types Ann's name")
    s.presses(1, pin_presses("FFFF"), "and guesses FFFF")
    s.expect("four tries left", private={"station": 1, "contains": "Wrong PIN: 4 tries"})
    for guess in ("EEEE", "DDDD", "CCCC"):
        s.presses(1, pin_presses(guess), f"guesses {guess}")
    s.expect("one try left", private={"station": 1, "contains": "Wrong PIN: 1 try left"})
    s.presses(1, pin_presses("BBBB"), "guesses BBBB: the fifth wrong PIN")
    s.expect("locked for 15 minutes", private={"station": 1, "contains": ["LOCKED", "try in 15"]})
    s.press(0, Button.START, "Ann herself comes back at station 1")
    s.presses(0, presses_for("Ann") + pin_presses("ABCD"), "with her right PIN")
    s.expect("still locked: no sign-in", private={"station": 0, "contains": "LOCKED", "lacks": "Signed in"})
    s.save()


def closing() -> None:
    s = Script(
        "closing-time",
        "The operator sets the closing time to now: then no duel and no registration is recorded.",
        [
            "The closing time: with two players signed in, the operator turns the SERVICE key,",
            "opens Closing time, C (now) and START (set), turns the key off: the lobby says the",
            "event has closed, a challenge starts no duel and a new name is not registered.",
        ],
    )
    s.open_lobby()
    s.register(0, "Ann", "ABCD", starts=False)
    s.register(1, "Bob", "FEED")
    s.w.input(s.t, "the operator turns the SERVICE key", service="on")
    s.t += GAP_US
    s.expect("the operator menu is up", scene="ServiceMenu")
    own = len(cabinet_pages(None))
    s.presses(0, [Button.B] * own + [Button.START], f"Closing time (the first item after the cabinet's own {own})")
    s.presses(0, [Button.C, Button.START], "C: now, START: set it")
    s.w.input(s.t, "the key goes off: back to the lobby", service="off")
    s.t += GAP_US
    s.press(0, Button.A, "Ann challenges Bob")
    s.expect("no duel after the closing time", private={"station": 0, "contains": "The event has"})
    s.expect("no duel started", event={"type": "StakesShown"}, count=0)
    s.press(1, Button.E, "Bob signs out")
    s.register_refused(1, "Cid")
    s.save()


def main() -> None:
    register()
    duel()
    trade()
    lockout()
    closing()


if __name__ == "__main__":
    main()
