"""Per-pad detector settings kept in the board's flash as JSON.

Runs on the board and on the host (tests, simulator): ``json`` and ``os`` only.  A
missing, unreadable or partial file falls back to defaults field by field, so a board
always boots into a working detector; saving writes a temporary file and renames it
over the old one, so a power cut mid-save leaves the previous settings intact.
"""

import json
import os

try:  # on the board wire.py sits beside this file
    from hal.padboard import wire
except ImportError:
    import wire

FILENAME = "padboard_settings.json"


def load(path, pads):
    """One clamped settings dict per pad."""
    stored = []
    try:
        with open(path) as f:
            stored = json.load(f)
    except (OSError, ValueError):
        pass
    if not isinstance(stored, list):
        stored = []
    out = []
    for i in range(pads):
        d = stored[i] if i < len(stored) and isinstance(stored[i], dict) else {}
        try:
            out.append(wire.clamp_settings(d))
        except (TypeError, ValueError):
            out.append(wire.default_settings())
    return out


def save(path, settings):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(settings, f)
    os.rename(tmp, path)
