"""zperf: CPU cost per transaction, ITR and zIIP offload from z/OS performance data.

The package is a library first; the ``zperf`` command is a thin client of it.
Data flows one way: ``formats`` (parsers) -> ``tables`` (declared schemas) ->
``calc`` -> ``runs`` (run tables) -> ``report`` (renderers) -> ``cli``.

What a notebook calls is here (README, "As a library")::

    import zperf

    workload = zperf.read(["smf.dump"]).tables["workload"]   # polars DataFrames
    run = zperf.analyze("runs/ims15/")                         # a folder with a run.toml
    print(run.window)
    print(zperf.compare("runs/ims14/", "runs/ims15/").table)

* ``read(paths, kind=, on_error=, encoding=, tables=, on_conflict=)``: files of any kind
  zperf reads into tables, with what was seen in each file (``tallies``);
* ``analyze(run, **options)``: a run's table (per interval and for the
  window) from a run description: a TOML file, a folder holding a run.toml,
  a ``RunSpec``, or the description's keys as options (``sources=``,
  ``transactions=``, ``groups=``, ``cps=``...);
* ``compare(run, run, ..., base=)``: runs side by side with Delta, Delta %
  and paper 004's ±1 % ITR verdict;
* ``simulate(scenario, out, ...)``: write a scenario's input files;
* ``SCHEMAS``: every table's declared columns, by table name.

They are imported on first use (PEP 562), so ``import zperf`` (and
``zperf --version``) does not load polars.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from zperf.formats.reading import ParseResult, read
    from zperf.runs.analysis import Analysis
    from zperf.runs.compare import Comparison
    from zperf.runs.run import analyze_run as analyze
    from zperf.runs.run import compare_runs as compare
    from zperf.runs.spec import RunSpec
    from zperf.sim.engine import simulate
    from zperf.tables import SCHEMAS

__all__ = ["SCHEMAS", "Analysis", "Comparison", "ParseResult", "RunSpec", "__version__",
           "analyze", "compare", "read", "simulate"]


def __getattr__(name: str) -> Any:
    """The exports, imported the first time one is asked for (then plain attributes)."""
    if name not in __all__:
        raise AttributeError(f"module 'zperf' has no attribute {name!r}")
    from zperf import tables
    from zperf.formats import reading
    from zperf.runs import analysis, compare, run, spec
    from zperf.sim import engine

    exports = {"read": reading.read, "ParseResult": reading.ParseResult,
               "analyze": run.analyze_run, "compare": run.compare_runs,
               "Analysis": analysis.Analysis, "Comparison": compare.Comparison,
               "RunSpec": spec.RunSpec, "simulate": engine.simulate,
               "SCHEMAS": tables.SCHEMAS}
    globals().update(exports)
    return exports[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
