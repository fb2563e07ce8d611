"""Checks for CI: rules on a run's metrics and on its data, evaluated to pass, fail or
not measurable (the data cannot tell).

A rules file (TOML, :mod:`zperf.checks.rules`; every key in
:mod:`zperf.checks.keys`) names the runs to check, an optional baseline, and
rules: limits on any column of ``zperf analyze`` (the window or every
interval, of the run or of each of its systems), on its change from the
baseline (``zperf compare``'s Delta and Delta %, paper 004's ±1 % ITR
equivalence), and data-quality checks (records
skipped, intervals complete, classes present, window covered, capture ratio,
a simulator scenario reproduced).  :func:`zperf.checks.engine.check` reads
and analyzes each run once and returns an
:class:`~zperf.checks.results.Outcome`: one result per rule and run.
Rendering the results (text, JUnit XML, markdown, GitHub annotations) is
:mod:`zperf.report`'s; ``zperf check`` is the command.

The package sits above :mod:`zperf.sim` (a rule can run a scenario's check)
and below :mod:`zperf.report`.  ``keys`` imports nothing heavy: the man page
generator reads it.
"""
