"""A game against the computer resumed after a power cut goes on exactly as if it had
never stopped (issue 15): the computers are the same players (seeded by the game) and
are shown again, from the journal, the views they saw, so a Punch! EXPERT remembers the
style it had read and every computer's chance is where it was."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from display.models import StationLook
from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls
from firmware_py.games.punch.controls import PunchControls
from firmware_py.runtime.computer_players import ComputerPlayers, QueuedHands, bot_seed
from firmware_py.runtime.controls import GameControls
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store
from games.levels import Level
from games.punch.levels import PROFILES, ComputerBoxer

STEP_US = 100_000
LOOKS = (StationLook("Red", (255, 0, 0)), StationLook("Blue", (0, 0, 255)))
LEVELS = {0: Level.EXPERT, 1: Level.HARD}
GAME_SEED = 11


def _players(session: GameSession, rng_seed: int, recall: bool = True) -> tuple[ComputerPlayers, QueuedHands]:
    hands = QueuedHands()
    players = ComputerPlayers(session.controls, LEVELS, hands, random.Random(rng_seed), session.engine.seed)
    if recall:
        players.recall(session.engine)
    return players, hands


def _run(
    session: GameSession, players: ComputerPlayers, hands: QueuedHands, now: int, stop_after: int | None = None
) -> int:
    """Step the cabinet's loop until the game is over, or (``stop_after``) until its
    journal holds that many actions and no computer is pressing: the power goes off there.
    (A cut while a computer is pressing loses presses its player decided on: the resumed
    game asks it again then, at a later time than the uninterrupted game pressed, and
    who of two players comes first may change, which changes a game.)"""
    while not session.over:
        for ev in hands.due(now):
            session.handle(ev, now)
        session.tick(now)
        if stop_after is not None and len(session.engine.journal) >= stop_after and not players.pressing(now):
            return now
        players.act(session, now)
        now += STEP_US
    return now


def _play(
    controls: type[GameControls], store: Store, cut: int | None, recall: bool = True
) -> tuple[GameSession, ComputerPlayers]:
    """A game between two computers, uninterrupted (``cut`` None) or cut short after
    ``cut`` actions and resumed from the store by a new session, as the cabinet does."""
    options = controls().make_options({})
    session = GameSession.start(controls(), options, (0, 1), LOOKS, GAME_SEED, store, 0, 1_000_000, dict(LEVELS))
    players, hands = _players(session, 1)
    now = _run(session, players, hands, 1_000_000, cut)
    if cut is None:
        return session, players
    saved = store.unfinished()
    assert saved is not None and len(saved.actions) >= cut
    later = now + 30_000_000  # the power comes back; the new process's think times differ
    session = GameSession.resume(controls(), saved, LOOKS, store, 0, later)
    players, hands = _players(session, 2, recall)
    _run(session, players, hands, later)
    return session, players


def _choices(session: GameSession) -> dict[int, list[object]]:
    return {seat: [a for a in session.engine.journal if a.player == seat] for seat in LEVELS}


Games = tuple[tuple[GameSession, ComputerPlayers], tuple[GameSession, ComputerPlayers]]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Callable[[type[GameControls]], Games]:
    """Each game's uninterrupted game, and the same game cut short halfway and resumed
    (played once for the module: a whole game takes seconds)."""
    played: dict[type[GameControls], Games] = {}

    def of(controls: type[GameControls]) -> Games:
        if controls not in played:
            folder = tmp_path_factory.mktemp(controls.spec.name)
            whole = _play(controls, Store(folder / "whole.sqlite3"), None)
            resumed = _play(controls, Store(folder / "cut.sqlite3"), len(whole[0].engine.journal) // 2)
            played[controls] = whole, resumed
        return played[controls]

    return of


@pytest.mark.slow  # whole games at the cabinet, cut and resumed
@pytest.mark.parametrize("controls", [PunchControls, BigTimeBoxingControls])
def test_a_resumed_game_makes_the_choices_of_the_uninterrupted_one(games, controls: type[GameControls]) -> None:
    (whole, whole_players), (resumed, resumed_players) = games(controls)
    assert _choices(resumed) == _choices(whole)
    assert resumed.engine.outcome() == whole.engine.outcome()
    for seat in LEVELS:
        assert resumed_players.bots[seat].rng.getstate() == whole_players.bots[seat].rng.getstate()


@pytest.mark.slow
def test_a_resumed_expert_remembers_the_style_it_read(games) -> None:
    (_whole, whole_players), (_resumed, resumed_players) = games(PunchControls)
    expert, again = whole_players.bots[0], resumed_players.bots[0]
    assert isinstance(expert, ComputerBoxer) and isinstance(again, ComputerBoxer)
    assert again.weights == expert.weights != dict(PROFILES[Level.EXPERT].thinking.expects)


@pytest.mark.slow
def test_without_being_shown_the_journal_a_resumed_computer_plays_otherwise(games, tmp_path) -> None:
    """The control: the same players, not shown what they saw, choose differently (what
    the tests above would catch if :meth:`ComputerPlayers.recall` did nothing)."""
    (whole, _), _ = games(PunchControls)
    cut = len(whole.engine.journal) // 2
    forgetful, _players = _play(PunchControls, Store(tmp_path / "cut.sqlite3"), cut, recall=False)
    assert _choices(forgetful) != _choices(whole)


def test_a_computers_seed_comes_from_the_games_seed_not_its_draws() -> None:
    seeds = {bot_seed(game, seat) for game in range(50) for seat in range(4)}
    assert len(seeds) == 200  # every seat of every game its own player
    assert bot_seed(GAME_SEED, 0) != random.Random(GAME_SEED).randrange(2**31)  # not the engine's own stream
