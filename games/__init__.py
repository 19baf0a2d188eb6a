"""Pure rule engines, one package per game, and the protocol they share.

Nothing here reads a clock, touches hardware or does I/O; see :mod:`games.protocol`.
"""
