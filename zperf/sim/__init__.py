"""The simulator: the reference papers' benchmark runs as real-layout input files.

``engine`` writes a scenario's run folder (SMF dumps, RMF listings, run.toml,
manifest), ``check`` reproduces its published figures through parse and
analyze, ``scale`` writes large synthetic sysplexes for benchmarks.
``catalogue`` loads and validates the scenarios: one TOML file per modeled
benchmark run of the reference papers, in ``scenarios/`` (package data).
"""
