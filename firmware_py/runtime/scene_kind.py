"""What a scene is, as the cabinet's sound and its SERVICE key need to know it: each
scene class declares its kind (``Scene.kind``) instead of being probed by its type or
known by a string.  It lives apart from :mod:`firmware_py.runtime.scene` so the sound,
which imports no scene, may name it."""

from __future__ import annotations

from enum import Enum


class SceneKind(Enum):
    ATTRACT = "attract"
    SELECT = "select"
    JOIN = "join"
    OPTIONS = "options"
    PLAY = "play"
    RESULT = "result"
    SERVICE = "service"
    """The operator's: the SERVICE key off leaves it (``ServiceScene.underneath``)."""
    OTHER = "other"
    """A game's own scene (Punch Cards' lobby, duel and trade): the sound hears its cues only."""

    @property
    def is_menu(self) -> bool:
        """A menu of the way into a game: a press there sounds a menu move."""
        return self in (SceneKind.SELECT, SceneKind.JOIN, SceneKind.OPTIONS)
