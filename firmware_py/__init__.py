"""The cabinet's software image: the one Python process that runs on the Raspberry Pi.

It holds the ``ringside`` CLI, the config, the main loop, the scenes, the game sessions
and controls, the store, the service menu and calibration scene, and the HIL harness
(``hil/``).  ``sim/`` holds what only a host without the hardware runs: the padboard
simulator, the piezo signal model and the simulated pad sets with their scripted
operator.  ``padboard/`` is different: it is the microcontroller firmware (RP2040,
MicroPython), only the files flashed to the board (see ``padboard/flash.md``); the host
imports them too, to run the very code the board runs, but they import nothing of the
repository except ``hal/padboard/wire.py``.
"""
