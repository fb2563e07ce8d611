"""Scenario files: one TOML per modeled benchmark run (read by zperf.sim.catalogue)."""
