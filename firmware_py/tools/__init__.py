"""The operator's tools: the ``ringside`` command line, the self-test, the calibration
wizard in a terminal and the headless exhibition."""
