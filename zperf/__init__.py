"""zperf: CPU cost per transaction, ITR and zIIP offload from z/OS performance data.

The package is a library first; the ``zperf`` command is a thin client of it.
Data flows one way: ``formats`` (parsers) -> ``tables`` (declared schemas) ->
``calc`` -> ``runs`` (run tables) -> ``report`` (renderers) -> ``cli``.

What a notebook calls is here (docs/library.md, "As a library")::

    import zperf

    workload = zperf.table("workload", "smf.dump")             # a polars DataFrame
    capacity = zperf.table("capacity", ["smf70-1.dump", "smf70-2.dump"])
    run = zperf.analyze("runs/ims15/")                         # a folder with a run.toml
    print(run.window)
    print(zperf.compare("runs/ims14/", "runs/ims15/").table)

* ``read(sources, tables=, kind=, on_error=, on_conflict=, encoding=, jobs=)``: files of any
  kind zperf reads (a path, a list of them, bytes, a binary file object) into
  tables, the derived ones (``capacity``, ``cec``, ``peaks``,
  ``performance``, ``offload``) when named, with what was seen in each file
  (``tallies``);
* ``table(name, sources, ...)``: one of those tables (``zperf parse --table``);
* ``analyze(run, per=, **options)``: a run's table (per interval and for the
  window) from a run description: a TOML file, a folder holding a run.toml,
  a ``RunSpec``, or the description's keys as options (``sources=``,
  ``transactions=``, ``groups=``, ``cps=``...: ``RunOptions``); with
  ``per="class"`` or ``"system"`` the window per class period or system;
* ``compare(run, run, ..., base=)``: runs side by side with Delta, Delta %
  and paper 004's ±1 % ITR verdict;
* ``simulate(scenario, out, ...)``: write a scenario's run folder;
* ``SCHEMAS``: every table's declared columns, by table name; ``TABLES``: the
  names ``read`` and ``table`` take.

A wrong argument is a ``TypeError`` or a ``ValueError`` (``UsageError``) that
names what is taken; bad input an ``InputError`` naming the file, record and
offset.  They are imported on first use (PEP 562), so ``import zperf`` (and
``zperf --version``) does not load polars.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from zperf.errors import InputError, UsageError, ZperfError
    from zperf.formats.reading import ParseResult
    from zperf.names import ALL_TABLES as TABLES
    from zperf.runs.analysis import Analysis
    from zperf.runs.compare import Comparison
    from zperf.runs.derived import ZperfWarning, read, table
    from zperf.runs.run import View
    from zperf.runs.run import analyze_run as analyze
    from zperf.runs.run import compare_runs as compare
    from zperf.runs.spec import RunOptions, RunSpec
    from zperf.sim.command import write_run as simulate
    from zperf.tables import SCHEMAS

__all__ = ["SCHEMAS", "TABLES", "Analysis", "Comparison", "InputError", "ParseResult",
           "RunOptions", "RunSpec", "UsageError", "View", "ZperfError", "ZperfWarning",
           "__version__", "analyze", "compare", "read", "simulate", "table"]


def __getattr__(name: str) -> Any:
    """The exports, imported the first time one is asked for (then plain attributes)."""
    if name not in __all__:
        raise AttributeError(f"module 'zperf' has no attribute {name!r}")
    from zperf import errors, names, tables
    from zperf.formats import reading
    from zperf.runs import analysis, compare, derived, run, spec
    from zperf.sim import command

    exports = {"read": derived.read, "table": derived.table, "ParseResult": reading.ParseResult,
               "ZperfWarning": derived.ZperfWarning,
               "analyze": run.analyze_run, "compare": run.compare_runs, "View": run.View,
               "Analysis": analysis.Analysis, "Comparison": compare.Comparison,
               "RunSpec": spec.RunSpec, "RunOptions": spec.RunOptions,
               "simulate": command.write_run, "SCHEMAS": tables.SCHEMAS,
               "TABLES": names.ALL_TABLES, "ZperfError": errors.ZperfError,
               "InputError": errors.InputError, "UsageError": errors.UsageError}
    globals().update(exports)
    return exports[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
