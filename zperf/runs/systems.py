"""A run's table for each of its systems, and why a column has no value per system.

The run table of a run on several systems makes one value of theirs as paper
004 Table 16 does: busy averaged, CPs and transactions added, ITR and CPU per
transaction computed from those.  That is the workload's figure, and it can
hide one LPAR: two LPARs at 79.4 % and 77.15 % busy are a sysplex mean of
78.28 %.  Each system's own table is :func:`~zperf.runs.analysis.analyze`
with the run's systems narrowed to that one (what ``zperf analyze --system
SYSTEM`` prints), so every per-system figure comes from the run table's own
formulas, none is derived again here.

A column has a per-system value only where the data says which system each
part of it belongs to (:func:`why_not_per_system`): busy needs the CPU
activity data (SMF 70.1 or the CPU Activity report; an estimate from APPL%
divides by the run's CPs), CPs and zIIPs not given for the whole run,
transactions counted from class rows that carry a system id (a rate given
for the run, a driver log, an RMF Workload Activity listing, which names
only the sysplex, do not say which system ran them), a group's CPU from its
classes' rows with a system id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import polars as pl

from zperf.errors import UsageError
from zperf.runs.analysis import Analysis, analyze, matches
from zperf.runs.spec import ClassRef, RunSpec

#: How the run table makes one value of several systems' (paper 004 Table 16): the
#: busy and the response time are means, CPs, zIIPs, transactions, rates and a group's
#: seconds totals; the other columns (ITR, CPU per transaction) are computed from those.
SYSPLEX_MEANS = ("cp_busy_pct", "ziip_busy_pct", "resp_ms")
SYSPLEX_TOTALS = ("cps", "ziips", "transactions", "etr_per_sec")
#: Columns that are the same for every system (not a combination of theirs).
NOT_COMBINED = ("interval_start", "interval_seconds", "systems")

#: What each column of the run table rests on (group columns by their suffix).
_BUSY, _CPS, _ZIIPS, _TRANSACTIONS, _RESPONSE, _GROUP = ("busy", "cps", "ziips",
                                                         "transactions", "response", "group")
_INPUTS: dict[str, tuple[str, ...]] = {
    "cps": (_CPS,), "cp_busy_pct": (_BUSY,), "ziips": (_ZIIPS,), "ziip_busy_pct": (_BUSY,),
    "transactions": (_TRANSACTIONS,), "etr_per_sec": (_TRANSACTIONS,),
    "itr_per_sec": (_TRANSACTIONS, _BUSY), "resp_ms": (_RESPONSE,),
    "general_cpu_us_per_tran": (_CPS, _BUSY, _TRANSACTIONS),
    "ziip_us_per_tran": (_ZIIPS, _BUSY, _TRANSACTIONS),
}
_GROUP_INPUTS = {"_cpu_seconds": (_GROUP,), "_ziip_seconds": (_GROUP,),
                 "_cpu_us_per_tran": (_GROUP, _TRANSACTIONS),
                 "_ziip_us_per_tran": (_GROUP, _TRANSACTIONS)}
_NO_SYSTEM_ID = "carry no system id (an RMF Workload Activity listing names only the sysplex)"


def sysplex_value(column: str) -> str:
    """How the run table combines the systems' values of ``column``: 'mean', 'total',
    'combined' (computed from means and totals), or '' (the same for every system)."""
    if column in NOT_COMBINED:
        return ""
    if column in SYSPLEX_MEANS:
        return "mean"
    if column in SYSPLEX_TOTALS or column.endswith(("_cpu_seconds", "_ziip_seconds")):
        return "total"
    return "combined"


def by_system(tables: Mapping[str, pl.DataFrame], spec: RunSpec,
              systems: Sequence[str]) -> dict[str, Analysis | str]:
    """Each system's run table (the run's analysis with its systems narrowed to that
    one), or, for a system the tables cannot analyze alone, why (the message
    ``analyze`` gives: no CPU activity data for it, no row of a class...)."""
    out: dict[str, Analysis | str] = {}
    for system in systems:
        try:
            out[system] = analyze(tables, dataclasses.replace(spec, systems=(system,)))
        except UsageError as exc:
            out[system] = str(exc)
    return out


def why_not_per_system(column: str, tables: Mapping[str, pl.DataFrame], spec: RunSpec,
                       groups: Mapping[str, str]) -> str:
    """Why ``column`` of the run table has no value per system on these tables, or ''
    when it has one (see the module docstring); ``groups`` are the analysis's (group
    name -> column prefix)."""
    inputs = _INPUTS.get(column, ())
    group = next((name for name, prefix in groups.items() for suffix in _GROUP_INPUTS
                  if column == prefix + suffix), None)
    if group is not None:
        inputs = _GROUP_INPUTS[column.removeprefix(groups[group])]
    for needed in inputs:
        why = _why_not(needed, tables, spec, group)
        if why:
            return why
    return ""


def _why_not(needed: str, tables: Mapping[str, pl.DataFrame], spec: RunSpec,
             group: str | None) -> str:
    cpu = tables.get("cpu")
    if needed in (_BUSY, _CPS, _ZIIPS) and (cpu is None or cpu.height == 0):
        return ("CPU % busy is estimated from the service classes' APPL% over the run's CPs "
                "(there is no CPU activity data: SMF 70.1 or the CPU Activity report)")
    if needed == _CPS and spec.cps is not None:
        return f"the run description gives cps = {spec.cps} for the whole run"
    if needed == _ZIIPS and spec.ziips is not None:
        return f"the run description gives ziips = {spec.ziips} for the whole run"
    if needed == _RESPONSE and spec.response_from == "ims":
        return _unnamed_ims(tables)
    if needed in (_TRANSACTIONS, _RESPONSE):
        if spec.etr_per_sec is not None:
            return (f"the transaction rate is given for the whole run (etr_per_sec = "
                    f"{spec.etr_per_sec:g})")
        if spec.rate_from == "driver":
            return "the transactions are the driver log's, which does not say which system ran them"
        return _unplaced("the transaction classes", spec.transactions, tables)
    if needed == _GROUP and group is not None:
        return _unplaced(f'the classes of group "{group}"', spec.groups[group], tables)
    return ""


def _unnamed_ims(tables: Mapping[str, pl.DataFrame]) -> str:
    """Why IMS PA's response times cannot be told apart by system, or '': the run table
    takes an IMS id for the system's name (paper 004's IMS1 runs on the LPAR IMS1)."""
    transit = tables.get("ims_transit")
    if transit is None or transit.height == 0:
        return ""
    if transit["ims_id"].is_null().any():
        return "the IMS PA report's response times do not name their IMS (no IMS id)"
    systems = {s for name in ("cpu", "workload") if (frame := tables.get(name)) is not None
               for s in frame["system"].drop_nulls().unique().to_list()}
    other = sorted(set(transit["ims_id"].unique().to_list()) - systems)
    if other:
        return (f"the IMS PA report's IMS ids ({', '.join(other)}) are not the run's system "
                f"names ({', '.join(sorted(systems)) or 'none'})")
    return ""


def _unplaced(what: str, refs: Sequence[ClassRef], tables: Mapping[str, pl.DataFrame]) -> str:
    """Why the rows of these classes cannot be told apart by system, or ''."""
    work = tables.get("workload")
    if work is None or work.height == 0:
        return ""
    rows = work.filter(matches(tuple(refs)))
    if rows.height and rows["system"].is_null().any():
        return f"the rows of {what} {_NO_SYSTEM_ID}"
    return ""
