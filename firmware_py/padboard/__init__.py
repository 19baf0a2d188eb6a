"""The padboard: MicroPython firmware for the RP2040 slap-pad board (detector, settings
store, protocol handling, board main loop) and its host-side simulator.  See flash.md."""
