"""Every default time of the cabinet's inputs, defined once, in µs.

The config (``hal.config``), the sources (``hal.gpio``, ``hal.gpio_edge``,
``hal.padboard.driver``), calibration and the main loop import them from here; the
table "Default times" in the README is checked against them by a test.  The padboard's
own detector defaults live in ``hal/padboard/wire.py`` (the board shares that file);
Karate Fight's grace after a Hit is a rule option, ``games.karate_fight.options``.
"""

from __future__ import annotations

import sys

GIL_SWITCH_US = round(sys.getswitchinterval() * 1_000_000)
"""A thread that queues a stamped input may wait a whole GIL switch interval (5 ms by
default) behind a busy main thread (rendering) before the main loop can see it."""

BUTTON_DEBOUNCE_US = 8_000
"""Button lockout after a reported edge: arcade microswitches bounce for 1–5 ms; 8 ms
covers worn ones and still allows about 60 presses a second."""

GPIO_EDGE_MASK_US = 40_000
"""A comparator line's mask after a slap (``[[station]] slap.mask_us``): one slap's ring
keeps a comparator chattering for a few ms, real slaps come ≥ 100 ms apart.
Calibration fits one per pad."""

GPIO_EDGE_SETTLE_US = 1_000 + GIL_SWITCH_US
"""A gpio-edge slap's worst skew (``slap.settle_us``): the kernel stamps the edge in its
IRQ handler; ~1 ms for the kernel and the thread's wake-up, then the GIL."""

PADBOARD_CONTACT_LEAD_US = 1_000
"""The board stamps the palm's contact, which comes before the threshold crossing that
starts its hold: up to ~1 ms for a barely-reaching slap (docs/slap-timing.md)."""

PADBOARD_REPORT_US = 4_000
"""How long the padboard holds a hit before sending it, at its default settings: the
longer of scan time and crosstalk window (2 ms each), plus another pad's scan (2 ms).
Calibration flags a pad whose fitted settings hold it longer."""

PADBOARD_TRANSPORT_US = 2_000 + GIL_SWITCH_US + 1_000
"""After the board sends a hit: USB (≤ 2 ms), the reader thread's wait for the GIL, and
~1 ms for a board loop hiccup (the clock-sync error is tens of µs)."""

PADBOARD_SETTLE_US = PADBOARD_CONTACT_LEAD_US + PADBOARD_REPORT_US + PADBOARD_TRANSPORT_US
"""A padboard slap's worst skew (``[padboard] settle_us``)."""
