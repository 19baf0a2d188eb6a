"""Each game at the cabinet, one folder a game named as in ``games.registry``:
``firmware_py.games.<name>`` defines ``CONTROLS`` and holds whatever else that game
needs at the cabinet.  Cabinet-wide modules never import a game's folder; they find it
by name through :mod:`firmware_py.games.registry`."""
