"""The padboard firmware: MicroPython on the RP2040 slap-pad board.

Every other file here is flashed to the board (with ``hal/padboard/wire.py``), where
they sit side by side as top-level modules; see flash.md.  This package marker is not
flashed: it only lets the host import the same files (the simulator in
``firmware_py/sim/`` and the tests run the very code the board runs).  Nothing host-only
belongs here; ``tests/firmware_py/padboard/test_board.py`` fences it.
"""
