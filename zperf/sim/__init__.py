"""The simulator: the reference papers' benchmark runs as real-layout input files.

A scenario (one TOML file per modeled benchmark run, in ``scenarios/``, or a
user's own) is read and validated once into a ``model.Scenario``, which every
other module takes:

* ``model``: the typed scenario and its vocabulary; ``parsing``: TOML data to
  a Scenario, strict about keys and types; ``locate``: a key's line in the
  file; ``catalogue``: loading and validation (structure rules, errors with
  their line); ``figures``: the published figures recomputed with
  ``zperf.calc``'s formulas, and the listed inconsistencies accounted for;
* ``machines``: the CEC a run ran on (``machines.toml``: model ratings and the
  papers' machines); ``targets``: what each LPAR must show; ``spaces``: where
  its CPU goes beyond the run's groups (service classes, capture ratio);
  ``noise``: its run-to-run and interval variation; ``engine``: writes the run folder
  (SMF dumps, RMF listings, run.toml, manifest), with ``extract`` (a printed
  RMF extract as raw counters), ``zcee`` (paper 000's cost model),
  ``payload`` and ``sidefiles`` (CICS statistics, driver logs); ``series``:
  paper 004's modeled scaling series; ``observations``: paper 002's messages;
* ``check``: simulate, parse, analyze and compare every published figure;
  ``command``: what ``zperf simulate`` does, as one call returning tables and
  a verdict; ``month``: a month of a sysplex, no paper's run (``zperf simulate
  sysplex-month``, and the benchmarks' data).
"""
