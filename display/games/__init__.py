"""Each game's screens, one folder a game named as in ``games.registry``:
``display.games.<name>`` defines ``SCREENS`` (play screen, private display, result).
Cabinet-wide display modules never import a game's folder; they find it by name through
:mod:`display.games.registry`."""
