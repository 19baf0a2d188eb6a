"""Tap Race, a game that exists only in the tests: the first to press A three times
wins.  It is a whole game bundle — engine (``engine.py``), screens (``screens.py``) and
cabinet controls (``controls.py``) — kept here to prove that a game is added with its
own files and one registration per layer (tests/firmware_py/test_third_game.py)."""
