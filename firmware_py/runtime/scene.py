"""A scene of the cabinet: it takes debounced input events and time, and answers with the
next scene (or None to stay) and a screen model for the renderer.

A scene says what it is rather than being probed: :attr:`Scene.kind` what it is for the
sound and the SERVICE key (:attr:`Scene.is_service`: the operator's, the key off leaves
it, the key on opens the menu over anything else), :meth:`Scene.heard` what the sound
hears of it, :meth:`Scene.live_session` the game in play it runs (None for menus),
:meth:`Scene.idle` whether nobody has touched it long enough to fall back to the
attract screen (the cabinet decides what comes then).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, TypeGuard

from PIL import Image

from display.models import PrivateModel, PrivateText, Screen
from display.private import draw_private
from firmware_py.runtime.cabinet_sound import SceneNow
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene_kind import SceneKind
from firmware_py.runtime.session import GameSession
from hal.events import Button, ButtonEvent, InputEvent

IDLE_US = 60_000_000
"""Menus left untouched this long fall back to the attract screen."""


def pressed(ev: InputEvent, button: Button | None = None) -> TypeGuard[ButtonEvent]:
    return isinstance(ev, ButtonEvent) and ev.pressed and (button is None or ev.button is button)


class Scene(ABC):
    kind: ClassVar[SceneKind] = SceneKind.OTHER
    """What this scene is (for the sound and the SERVICE key); a game's own scenes are OTHER."""

    @property
    def is_service(self) -> bool:
        """The operator's (a :class:`ServiceScene`): turning the SERVICE key off leaves it
        for its ``underneath``, turning it on there opens no second menu."""
        return self.kind is SceneKind.SERVICE

    def __init__(self, ctx: CabinetContext, now_us: int) -> None:
        self.ctx = ctx
        self.entered_us = now_us
        self.last_input_us = now_us

    def handle(self, ev: InputEvent, now_us: int) -> Scene | None:
        if isinstance(ev, ButtonEvent):
            self.last_input_us = now_us
        return self.on_input(ev, now_us)

    @abstractmethod
    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None: ...

    def tick(self, now_us: int) -> Scene | None:
        """Time passing: the next scene, or None to stay."""
        return None

    def sound_cues(self, now_us: int) -> tuple[str, ...]:
        """Cues this scene asks for now, beyond its game's events and the cabinet's scene
        cues (Punch Cards' lobby: the closing time passing); most ask none."""
        return ()

    def heard(self, now_us: int) -> SceneNow:
        """This scene as the cabinet's sound hears it now; the menus that know who joined
        or who won add it."""
        return SceneNow(scene=self, kind=self.kind, session=self.live_session(), cues=self.sound_cues(now_us))

    def idle(self, now_us: int) -> bool:
        """Nobody has pressed a button here for :data:`IDLE_US`: the cabinet goes back to
        attracting players.  Scenes that end by themselves say False."""
        return now_us - self.last_input_us > IDLE_US

    @abstractmethod
    def screen(self, now_us: int) -> Screen: ...

    def live_session(self) -> GameSession | None:
        """The game in play this scene runs (its inputs, LED bars and journal), or None."""
        return None

    def frame_shown(self, t_us: int, now_us: int) -> None:  # noqa: B027  (a hook most scenes ignore)
        """The frame this scene drew was flipped at ``t_us``."""

    def private_model(self, station: int) -> PrivateModel:
        """What ``station``'s private display shows now, from this scene's state as it is
        (a background answer landed, a rival signed in, a refusal timed out): the cabinet
        compares it every step and draws the OLED again when it changed."""
        return PrivateText(("RINGSIDE", "", "Press START", "to play"), 0)

    def private_image(self, station: int, size: tuple[int, int]) -> Image.Image:
        """:meth:`private_model` drawn at ``size``."""
        return draw_private(self.private_model(station), size)

    def still_until(self, now_us: int) -> int | None:
        """Until when, without an input, what this scene shows (its screen, LED levels and
        private displays) stays as it is now; None (most scenes): it may change at any
        frame.  An idle cabinet's loop takes no frame before then (``Cabinet.quiet_until``)."""
        return None

    def next_due(self) -> int | None:
        """When this scene next has something to hand over on time (a held input's
        settle window ending, a computer's press or slap arriving); None: nothing."""
        return None

    def led_levels(self, now_us: int) -> dict[int, float]:
        return {}


class ServiceScene(Scene):
    """A scene of the operator's (the menu, a calibration run, a game's operator page):
    it never idles away, and the SERVICE key off resumes :attr:`underneath`."""

    kind = SceneKind.SERVICE

    @property
    @abstractmethod
    def underneath(self) -> Scene:
        """The scene the SERVICE key off resumes."""

    def idle(self, now_us: int) -> bool:
        return False

    def led_levels(self, now_us: int) -> dict[int, float]:
        return {s: 0.0 for s in range(len(self.ctx.looks))}

    def private_model(self, station: int) -> PrivateModel:
        return PrivateText(("SERVICE", "", f"Station {station + 1}", self.ctx.looks[station].name), 0)


class ServicePage(ABC):
    """One item of the operator menu: its title, what it shows while highlighted, and what
    station 1's START does there (often: open a :class:`ServiceScene` of its own)."""

    title: str

    @abstractmethod
    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        """The lines shown under the title while the item is highlighted."""

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        """Station 1 pressed START on this item: a scene to open, or None to stay."""
        return None

    def on_input(self, ctx: CabinetContext, ev: InputEvent) -> None:  # noqa: B027  (a hook most pages ignore)
        """Any input while the item is highlighted (the input test shows them all)."""

    def left(self) -> None:  # noqa: B027  (a hook most pages ignore)
        """The cursor moved away (a confirmation half given is forgotten)."""

    def led_levels(self, ctx: CabinetContext, now_us: int) -> dict[int, float] | None:
        """The LED bars while the item is highlighted; None: dark."""
        return None
