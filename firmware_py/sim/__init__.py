"""What stands in for the hardware on a host without it (tests, CI, benchmarks, the
development cabinet): the padboard simulator behind a pty, the piezo signal model, the
simulated pad sets and the scripted operator that calibrates them."""
