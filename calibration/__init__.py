"""Slap-pad calibration: capture, analysis, fit, verify, profiles, report, diagnosis and a
UI-agnostic wizard that drives them.

Layering: this package imports ``hal`` only.  The cabinet (``firmware_py``) wires it to
the terminal (``calibrate_cli``), the screen (``scene_calibration``) and to the board's
detector and signal model for simulated pads.
"""
