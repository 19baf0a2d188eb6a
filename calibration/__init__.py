"""Slap-pad calibration: capture, analysis, fit, verify, profiles, report, diagnosis and a
UI-agnostic wizard that drives them.

Layering: this package imports ``hal`` only (never ``display`` nor the runtime; an
import-layer test holds it to that).  The cabinet (``firmware_py``) wires it to the
terminal (``calibrate_cli``), the screen (``scene_calibration``, with the report pages
drawn by ``calibration_pages``) and, for simulated pads, to the board's detector and the
signal model (``firmware_py.sim``).
"""
