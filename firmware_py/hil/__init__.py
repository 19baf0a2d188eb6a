"""Hardware-in-the-loop scenarios: scenario files (format in ``docs/hil.md``), the runner
with its ``sim`` and ``rig`` backends, checks, reports, and recording a real session as a
scenario.  Entry point: ``ringside hil run FILE...``."""
