"""Benchmark runs: what a run is, its table, and runs side by side.

``spec`` (run descriptions: which classes count transactions, which make up
each address-space group, which systems and window), ``analysis`` (a run's
table from parsed tables, by the formulas of :mod:`zperf.calc`), ``compare``
(the papers' results tables with Delta, Delta % and the ±1 % ITR verdict),
``run`` (a run from its description: sources read file by file, analyzed,
compared; what ``zperf analyze``, ``zperf compare``, ``zperf.analyze`` and
``zperf.compare`` are) and ``measurements`` (hand-made CSV tables for
``zperf calc fit`` and ``zperf calc delta``).
"""
