"""How a game meets the cabinet: which button does what, what the LED bars and private
displays show, what is worth recording.  One subclass per game, in the game's own folder
(``firmware_py/games/<name>/controls.py``), found by the game's name through
:mod:`firmware_py.games.registry`; the session and scenes only speak to this interface and
the registry, so adding a game touches nothing else in the cabinet (its engine is in
``games/<name>/``, its screens in ``display/games/<name>/``; see docs/cabinet.md, "Adding
a game").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, get_args, get_origin

from display.games.registry import GameScreens
from display.models import AnyPlayScreen, AnyPrivateScreen, PrivateScreen
from firmware_py.runtime.store import Store
from games.bots import RandomBot
from games.levels import Level
from games.protocol import Action, Engine, Event, GameSpec
from games.registry import AnyEngine
from hal.config import TableReader
from hal.events import Button

E = TypeVar("E", bound=AnyEngine)
"""The engine a game's controls drive (each game's controls name their own)."""
PlayStory = TypeVar("PlayStory")
"""What :meth:`GameControls.play_story` tells the game's play screen (``PlayScreen.story``)."""
ResultStory = TypeVar("ResultStory")
"""What :meth:`GameControls.result_story` tells the game's result screen (``ResultScreen.story``)."""


class Bot(Protocol):
    """A game's computer player (``games.bots.Bot`` or alike): it decides from the seat's
    view and the legal actions alone, never the engine (it cannot see a hidden hand)."""

    def decide(self, view: Any, legal: Sequence[Any]) -> Action: ...


@dataclass(frozen=True)
class SlapCue:
    """Something shown that a computer player may answer with a slap: ``key`` names it
    (a computer reacts once per key), ``shown_us`` is the game time it was shown."""

    key: Hashable
    shown_us: int


@dataclass(frozen=True)
class Refusal:
    """A press the rules do not allow now, with the words the player sees."""

    seat: int
    text: str


@dataclass(frozen=True)
class OptionItem:
    """One line of the options screen: ``field`` of the options dataclass and its choices."""

    label: str
    field: str
    choices: tuple[tuple[Any, str], ...]


@dataclass(frozen=True)
class Record:
    """Something to keep in the store's records table (a match result, a reaction time)."""

    kind: str
    seat: int | None
    value: int | None
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class ResultRecords:
    """What a game's result story may tell besides its own journal: the store's records
    (``game_id`` this game's, ``stations`` every station's name, ``people_only`` False
    when a computer played, ``today_since`` the start of today as the store writes times)."""

    store: Store
    game_id: int
    stations: tuple[str, ...]
    people_only: bool
    today_since: str


def journal_events(engine: AnyEngine) -> tuple[Event, ...]:
    """Every event of ``engine``'s game, the opening ones first, from its journal replayed
    on a fresh engine: the whole story, also of a game resumed after a power cut."""
    fresh = type(engine)(engine.options, engine.players, engine.seed)
    events = list(fresh.opening_events)
    for action in engine.journal:
        events += fresh.apply(action)
    return tuple(events)


class Inputs(ABC, Generic[E]):
    """What a game's inputs mean: a press, a slap, the clock, a frame shown (the part of
    :class:`GameControls` the session routes every input through)."""

    @abstractmethod
    def on_button(self, engine: E, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        """The action a press makes, a refusal saying why not, or None (ignored)."""

    def on_slap(self, engine: E, seat: int, t_us: int, velocity: int | None) -> Action | Refusal | None:
        return None

    def on_clock(self, engine: E, now_us: int) -> Action | None:
        """Called every step with the cabinet's clock: games with a clock of their own
        (a time limit) answer with the action that tells the engine the time."""
        return None

    def on_frame_shown(self, engine: E, t_us: int) -> Action | None:
        """Called with the flip time of every frame; games that time reveals answer here."""
        return None

    def refusal_words(self, engine: E, seat: int, words: str, names: tuple[str, ...]) -> str:
        """What ``seat``'s display says for the engine's refusal ``words`` (the engine
        numbers seats; a game whose refusals name one says its name, ``names[seat]``)."""
        return words

    def coalesce(self, released: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
        """Merge actions released together from the settle window (stamp order) where
        the game must see them as one: Karate Fight's slaps with identical stamps."""
        return released


class ComputerSeat(ABC, Generic[E]):
    """How a computer plays the game at a station: its bot, the presses that make its
    choice, the cue it slaps at (the part of :class:`GameControls` computer players use)."""

    @abstractmethod
    def bot_presses(self, engine: E, seat: int, action: Action) -> tuple[Button, ...]:
        """The presses a computer player makes at a station to produce ``action``."""

    def make_bot(self, level: Level, seed: int) -> Bot:
        """A computer player of ``level`` for this game.  Games that override it offer a
        computer opponent on the join screen (:meth:`offers_computer`); this default,
        any legal action, only serves the exhibition and attract demos."""
        return RandomBot(seed)

    @classmethod
    def offers_computer(cls) -> bool:
        """Whether a lone player may pick a computer opponent for this game: its controls
        give a computer player of their own (:meth:`make_bot`)."""
        return cls.make_bot is not ComputerSeat.make_bot

    def slap_cue(self, engine: E, now_us: int) -> SlapCue | None:
        """For games with slaps: what a computer player answers now (``now_us`` game
        time), or None.  Its bot's ``reaction(view)`` says how long after ``shown_us``
        it slaps (:mod:`firmware_py.runtime.computer_players`)."""
        return None


class Telling(ABC, Generic[E, PlayStory, ResultStory]):
    """What a game tells of itself while and after it is played: LED bars, the stories its
    screens draw, the result's words, the log's lines and the records kept."""

    @abstractmethod
    def led_level(self, engine: E, seat: int) -> float:
        """0..1 of this seat's LED bar."""

    def records(self, events: tuple[Event, ...], seats: tuple[int, ...]) -> list[Record]:
        return []

    def play_story(self, engine: E, events: Sequence[Event]) -> PlayStory | None:
        """A frozen model of what just happened for the game's play screen, from its recent
        events, oldest first (Karate Fight: the photo finish of the last Hit); None: none.
        Called for every frame drawn: cheap, or remembered."""
        return None

    def told_by(self, screen: AnyPlayScreen) -> int | None:
        """When the play screen ``screen`` has said all it has to (game time): a finished
        game's screen stays up at least until then (Punch!'s runs behind quick players);
        None: it tells things as they happen."""
        return None

    def told_times(self, screen: AnyPlayScreen) -> list[int] | None:
        """When ``screen`` tells each of its events (game time, in their order): the
        cabinet's sound plays an event's cues then; None: as they happen."""
        return None

    def result_story(self, engine: E, records: ResultRecords) -> ResultStory | None:
        """The story of the finished game for its own result screen (``ResultScreen.story``),
        told from every event of its journal (:func:`journal_events`); None: none."""
        return None

    @abstractmethod
    def result_lines(self, engine: E, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """Headline and detail lines for the result screen."""

    @abstractmethod
    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        """One line for the live log, or None for events not worth a line."""


class GameControls(Inputs[E], ComputerSeat[E], Telling[E, PlayStory, ResultStory]):
    """A game's controls, ``GameControls[<Engine>, <play story>, <result story>]``: the
    engine named once (its spec follows), and the stories its screens draw, which
    :func:`drawn_by` checks against them.  Its folder declares it as ``CONTROLS``.  Besides
    its parts (:class:`Inputs`, :class:`ComputerSeat`, :class:`Telling`, each with its
    defaults) it holds how the game is offered: its blurb, options, endings, settings."""

    engine_type: ClassVar[type[AnyEngine]]
    """The engine these controls drive, from the type argument: the one its ``games``
    folder declares as ``ENGINE`` (the registry checks they are the same)."""
    spec: ClassVar[GameSpec]
    """The game's spec, always its engine's."""
    blurb: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The engine is named once, as the first type argument (``GameControls[Punch,
        None, PunchStory]``: no play story, a result story): it becomes
        :attr:`engine_type`, and the spec is the engine's."""
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is GameControls:
                engine = get_args(base)[0]
                if not (isinstance(engine, type) and issubclass(engine, Engine)):
                    raise TypeError(f"{cls.__name__}: GameControls[...] names the game's engine class, not {engine!r}")
                if "engine_type" in cls.__dict__ or "spec" in cls.__dict__:
                    raise TypeError(f"{cls.__name__}: the engine is named once, in GameControls[{engine.__name__}]")
                cls.engine_type = engine
                cls.spec = engine.spec

    options_menu: ClassVar[tuple[OptionItem, ...]] = ()
    result_picture: ClassVar[str | None] = None
    """Games whose result screen is worth keeping (Big Time Boxing's score sheet) name it
    here: the cabinet saves that screen as ``<data folder>/results/game-<id>-<name>.png``,
    beside the game's record in the store."""
    endings: ClassVar[dict[Enum, str]] = {}
    """Words for each way the game can end (``Outcome.how``), for results and attract."""

    resumes: ClassVar[bool] = True
    """False for a game whose scene records its result elsewhere before showing it (Punch
    Cards' ledger): a game of it cut short by a power cut is abandoned, not resumed."""

    @classmethod
    def read_settings(cls, table: Mapping[str, Any], reader: TableReader) -> object:
        """This game's own ``[game.<name>]`` table of the cabinet config, validated with
        the config's one-line errors naming the key.  A game without settings takes none."""
        reader.check_table(dict(table), f"game.{cls.spec.name}", set())
        return None

    @classmethod
    def ending_words(cls, how: str) -> str:
        """Words for a stored ending (``Outcome.how.value``); older records kept text."""
        return next((words for e, words in cls.endings.items() if e.value == how), how)

    def make_options(self, values: dict[str, Any]) -> Any:
        return self.spec.options_type(**values)

    def private_screen(self, engine: E, seat: int) -> AnyPrivateScreen:
        """What this seat's private display shows (only what that player may see); the
        game's private layout in ``display`` draws it.  Games that hold choices of their
        own before the engine hears of them (Punch!'s draft picks) add them as ``held``."""
        return PrivateScreen(game=self.spec.name, seat=seat, view=engine.view(seat), to_act=seat in engine.to_act())


AnyControls = GameControls[Any, Any, Any]
"""Some game's controls, as the cabinet-wide modules hold them."""


def drawn_by(
    controls: type[GameControls[Any, PlayStory, ResultStory]], screens: GameScreens[Any, Any, PlayStory, ResultStory]
) -> type[GameControls[Any, PlayStory, ResultStory]]:
    """``controls``, declared with the screens that draw what they tell: mypy checks that
    the play and result stories they tell are the ones those screens draw (a game's
    folder declares ``CONTROLS = drawn_by(<Name>Controls, SCREENS)``)."""
    return controls
