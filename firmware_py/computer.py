"""Computer players at the cabinet: a lone player's opponent, picked on the join screen
with a level (issue 15; offered by games whose controls list ``computer_levels``).

A computer seat decides from its own view and legal actions, as a person at the station
would, and answers after a think time drawn without looking at its hand or its choices:
how long it takes tells the other player nothing (a window it lets pass takes as long as
one it answers).  Its action goes through the session like a press's: checked, recorded,
then shown.  Which stations the computer plays is kept with the game's records (kind
``computer``), so a game resumed after a power cut goes on against the same computer.
"""

from __future__ import annotations

import logging
import random
import sqlite3

from firmware_py.controls import Bot, GameControls
from firmware_py.session import GameSession
from firmware_py.store import Store
from games.levels import Level

THINK_US = (700_000, 2_200_000)
"""A computer player's time to answer, uniform in this range whatever it decides."""
RECORD = "computer"

log = logging.getLogger("ringside.computer")


class ComputerPlayers:
    """The computer's seats in one game, each with its bot; :meth:`act` every step."""

    def __init__(self, controls: GameControls, levels: dict[int, Level], seed: int) -> None:
        self.levels = levels
        self.bots: dict[int, Bot] = {seat: controls.make_computer(seed + seat, lvl) for seat, lvl in levels.items()}
        self.rng = random.Random(seed)
        self.due: dict[int, tuple[int, int]] = {}
        """Seat -> (journal length it was asked at, µs it answers at)."""

    def act(self, session: GameSession, now_us: int) -> None:
        """Answer for each computer seat the game waits on, once its think time is up."""
        engine = session.engine
        if engine.over or session.paused is not None:
            return
        asked = len(engine.journal)
        for seat in sorted(engine.seats_to_act()):
            if seat not in self.bots:
                continue
            due = self.due.get(seat)
            if due is None or due[0] != asked:
                self.due[seat] = (asked, now_us + self.rng.randrange(*THINK_US))
            elif now_us >= due[1]:
                session.submit(self.bots[seat].choose(engine, seat), now_us)
                return  # the game moved on: ask again at the next step


def remember(store: Store, game_id: int, stations: dict[int, Level]) -> bool:
    """Keep which stations the computer plays, with the game.  False if the store could
    not take it: the game goes on (after a power cut it would resume without the computer)."""
    try:
        for station, level in sorted(stations.items()):
            store.add_record(game_id, RECORD, station, None, level.value)
    except sqlite3.Error as e:
        log.error("game %s: the computer's stations not recorded (%s)", game_id, e)
        return False
    return True


def remembered(store: Store, game_id: int) -> dict[int, Level]:
    """The stations the computer plays in game ``game_id`` (empty: people only, or a
    store that cannot say)."""
    try:
        rows = store.db.execute("SELECT station, detail FROM records WHERE game_id=? AND kind=?", (game_id, RECORD))
        return {station: Level(detail) for station, detail in rows}
    except (sqlite3.Error, ValueError) as e:
        log.error("game %s: the computer's stations not read back (%s)", game_id, e)
        return {}
