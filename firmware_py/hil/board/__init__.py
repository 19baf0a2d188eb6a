"""The padboard's own firmware on an emulated RP2040 (rp2040js under Node, MicroPython's
Pico image, the board's files in a littlefs image): what the ``padboard-emulated`` HIL
backend and ``tests/board/`` run.  A development tool: it needs Node, npm and
``../shared/tools/rp2040/`` (docs/board-testing.md)."""
