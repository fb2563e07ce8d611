"""Write RMF Postprocessor reports as XML ("ddsml"), from cpu and workload rows.

The build direction of :mod:`zperf.formats.rmf.xml`, for tests and ``zperf
simulate --rmf-format xml``.  The elements are those of IBM's XML reports as
the Distributed Data Server serves them (the public samples of
tests/data/rmf/xml): one ``postprocessor`` element per report and interval,
its header (``metric``, ``version``, ``resource``, ``time-data``), then
``segment`` / ``part`` / ``var-list`` and ``table`` elements.  Every value is
printed exactly as the listing writers print it (:mod:`.rmf_cpu`,
:mod:`.wlmgl`: two decimals, K suffixes, HHH.MM.SS.TTT times), so that the
XML and the listing of the same interval read back to the same rows.

The CPU Activity report copies the sample's headings; the Workload Activity
report (no public sample) follows zperf's reading of IBM's description
(:mod:`zperf.formats.rmf.xml_fields`): one part per class period, its key
values and its values as vars named ``GROUP: LABEL``, its response time
distribution as a table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.wlmgl_fields import GROUPS, HEADING
from zperf.sim.writers.rmf_cpu import processor_lines
from zperf.sim.writers.wlmgl import BAND, full_time, goal_text

Row = Mapping[str, Any]
_SERVER = ("<server><name>RMF-DDS-Server</name><version>ZOSV2R5</version>"
           "<functionality>3500</functionality><platform>z/OS</platform></server>")


def _text(value: Any) -> str:
    return "" if value is None else escape(str(value))


def _vars(pairs: Iterable[tuple[str, Any]]) -> str:
    return "<var-list>" + "".join(f"<var><name>{escape(name)}</name><value>{_text(value)}"
                                  "</value></var>" for name, value in pairs) + "</var-list>"


def _table(headings: Sequence[tuple[str, str]], rows: Iterable[tuple[bool, Sequence[Any]]]
           ) -> str:
    """A table: headings (text, 'T' or 'N'), then rows (summary row?, cells)."""
    out = ["<table><column-headers>"]
    out += [f"<col type={quoteattr(kind)}>{escape(text)}</col>" for text, kind in headings]
    out.append("</column-headers>")
    for refno, (summary, cells) in enumerate(rows, start=1):
        out.append(f'<row refno="{refno}"' + (' type="SUM">' if summary else ">"))
        out += ["<col/>" if c is None else f"<col>{_text(c)}</col>" for c in cells]
        out.append("</row>")
    return "".join(out) + "</table>"


def _head(metric: str, description: str, row: Row, resource: tuple[str, str]) -> str:
    """The report's header elements, as IBM writes them."""
    start: dt.datetime = row["interval_start"]
    seconds = float(row["interval_seconds"])
    millis = round(seconds * 1000)
    minutes, rest = divmod(millis, 60_000)
    end = start + dt.timedelta(seconds=seconds)
    release = row.get("zos_release") or "V2R4"
    cycle = row.get("cycle_seconds")
    return (f'<metric id={quoteattr(metric)}><description>{description}</description>'
            f"<type>Interval</type></metric>"
            f"<version><smf-data>z/OS {release}</smf-data><rmf-report>z/OS {release}"
            f"</rmf-report></version>"
            f"<resource><resname>{escape(resource[0])}</resname><restype>{resource[1]}"
            f"</restype></resource><time-data>"
            f'<display-start locale="en-us">{start:%m/%d/%Y-%H.%M.%S}</display-start>'
            f'<display-end locale="en-us">{end:%m/%d/%Y-%H.%M.%S}</display-end>'
            f'<report-interval unit="minutes">{minutes:02d}:{rest // 1000:02d}:'
            f"{rest % 1000:03d}</report-interval>"
            + (f'<cycle unit="milliseconds">{round(cycle * 1000)}</cycle>'
               if cycle is not None else "") + "</time-data>")


def _document(reports: Iterable[str]) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<ddsml>' + _SERVER + "\n"
            + "".join(f"<postprocessor>{r}</postprocessor>\n" for r in reports) + "</ddsml>\n")


# ------------------------------------------------------------ CPU Activity

_PROCESSOR_HEADINGS = (("CPU Number", "T"), ("CPU Type", "T"), ("Time% Online", "N"),
                       ("Time% LPAR Busy", "N"), ("Time% MVS Busy", "N"),
                       ("Time% Parked", "N"))
_PARTITION_HEADINGS = tuple((heading, "T" if kind == fields.TEXT else "N")
                            for heading, (_, kind) in (
                                (h, fields.PARTITION_COLUMNS[fields.key(h)])
                                for h in ("Partition Name", "Partition Status",
                                          "Partition Weight", "MSU Defined", "MSU Actual",
                                          "Capping Defined", "Capping WLM%",
                                          "Num of LOG PROCs", "PROC Type",
                                          "Effective Dispatch Time", "Total Dispatch Time",
                                          "Avg Util%: LOG PROC Effective",
                                          "Avg Util%: LOG PROC Total",
                                          "Avg Util%: PHYS PROC LPAR MGMT",
                                          "Avg Util%: PHYS PROC Effective",
                                          "Avg Util%: PHYS PROC Total")))
_PHYSICAL_NAMES = {"CP": "General purpose processor (CP)", "AAP": "Application Assist "
                   "Processor (zAAP)", "IIP": "Integrated Information Processor (zIIP)"}


def _processor_rows(row: Row) -> list[tuple[bool, list[Any]]]:
    """The processor rows as the listing writer prints them: the online processors of a
    type share the row's figures; a TOTAL/AVERAGE row per type."""
    return [(False, [f"{p.number:X}", p.printed, f"{p.online_pct:.2f}", p.lpar, p.mvs,
                     p.parked]) if p.number is not None else
            (True, ["TOTAL/AVERAGE", p.printed, None, p.lpar, p.mvs, None])
            for p in processor_lines(row)]


def _seconds_text(seconds: Any) -> str | None:
    """Dispatch time as printed: HH.MM.SS.TTT."""
    return None if seconds is None else full_time(float(seconds) * 1000)[1:]


def _partition_cells(lpar: Row) -> list[Any]:
    dedicated = lpar.get("dedicated")
    weight = "DED" if dedicated else lpar.get("weight")
    name = lpar.get("partition_name")
    return [
        "*PHYSICAL*" if name == "PHYSICAL" else name, lpar.get("partition_status") or "Active",
        weight, lpar.get("msu_defined"), lpar.get("msu_actual"), lpar.get("capping_defined"),
        None if lpar.get("capping_wlm_pct") is None else f"{lpar['capping_wlm_pct']:.1f}",
        lpar.get("logical_processors"), lpar.get("processor_type"),
        _seconds_text(lpar.get("effective_dispatch_seconds")),
        _seconds_text(lpar.get("total_dispatch_seconds")),
        *(None if lpar.get(c) is None else f"{lpar[c]:.2f}" for c in (
            "logical_effective_pct", "logical_total_pct", "physical_lpar_mgmt_pct",
            "physical_effective_pct", "physical_total_pct"))]


def _partition_segment(row: Row, lpars: Sequence[Row]) -> str:
    head = [("MVS Partition Name", row["lpar_name"])]
    if row.get("image_capacity_msu") is not None:
        head.append(("Image Capacity", row["image_capacity_msu"]))
    out = f"<segment><name>Partition Data Report</name><part>{_vars(head)}</part>"
    if lpars:
        physical: dict[str, Any] = {}
        for lpar in lpars:
            physical.setdefault(str(lpar.get("processor_type")), lpar.get("physical_processors"))
        out += ("<part><name>Number of Physical Processors</name>"
                + _table((("Type", "T"), ("Number", "N")),
                         [(False, [_PHYSICAL_NAMES.get(t, f"Processor ({t})"), n])
                          for t, n in physical.items() if t != "None"]) + "</part>")
        out += "<part>" + _table(_PARTITION_HEADINGS,
                                 [(False, _partition_cells(lpar)) for lpar in lpars]) + "</part>"
    return out + "</segment>"


def _cpu_report(row: Row, lpars: Sequence[Row]) -> str:
    machine = [("CPU", row.get("machine_type")), ("Model", row.get("model_capacity_id")),
               ("H/W Model", row.get("hardware_model")),
               ("Sequence Code", row.get("cpc_sequence_code")),
               ("HiperDispatch", row.get("hiperdispatch") or "NO"),
               ("CPC Capacity", row.get("cpc_capacity_msu"))]
    out = (_head("CPU", "CPU Activity Report", row, (row["system"], "SYSTEM"))
           + "<segment><name>CPU Activity</name><part>"
           + _vars((name, value) for name, value in machine if value is not None)
           + _table(_PROCESSOR_HEADINGS, _processor_rows(row)) + "</part></segment>")
    if row.get("lpar_name"):
        out += _partition_segment(row, lpars)
    return out


def write_cpu_xml(rows: Iterable[Row], lpars: Iterable[Row] = ()) -> str:
    """A document with one CPU Activity report per cpu row; the cpu_lpar rows of the
    same system and interval make its Partition Data table (when the row names its
    partition)."""
    by_interval: dict[tuple[Any, Any], list[Row]] = {}
    for lpar in lpars:
        by_interval.setdefault((lpar["system"], lpar["interval_start"]), []).append(lpar)
    return _document(_cpu_report(row, by_interval.get((row["system"], row["interval_start"]),
                                                      [])) for row in rows)


# ------------------------------------------------------------ Workload Activity

def _group_name(heading: str) -> str:
    """The field table's group of a listing heading ('---APPL %---' -> 'APPL %')."""
    found = HEADING.search(heading)
    assert found is not None and found.lastgroup is not None, heading
    return GROUPS[int(found.lastgroup[1:])].name


def _period(row: Row, goals: bool, buckets: Sequence[tuple[float | None, int]]) -> str:
    kind = "Report Class" if row["class_kind"] == "report" else "Service Class"
    keys: list[tuple[str, Any]] = [("Workload", row.get("workload") or ""),
                                   (kind, row["class_name"])]
    keys += [(name, row.get(column)) for name, column in (
        ("Period", "period"), ("Importance", "importance"), ("Description", "description"),
        ("Resource Group", "resource_group")) if row.get(column) is not None]
    if goals and row["class_kind"] == "service" and row.get("goal_type"):
        keys.append(("Goal", goal_text(row).removeprefix("GOAL:").strip()))
    values = [(fields.wlmgl_var(_group_name(heading), label), fmt(row.get(column)))
              for heading, labels in BAND for label, column, fmt in labels]
    out = "<part>" + _vars([*keys, *values])
    if buckets:
        out += _table((("Time: HH.MM.SS.TTT", "T"), ("Number of Transactions: IN BUCKET", "N")),
                      _bucket_rows(buckets))
    return out + "</part>"


def _bucket_rows(buckets: Sequence[tuple[float | None, int]]) -> list[tuple[bool, list[Any]]]:
    """'<' the first limit, '<=' the next, '>' the last limit again (as printed)."""
    out: list[tuple[bool, list[Any]]] = []
    previous = 0.0
    for number, (limit, count) in enumerate(buckets):
        op = ">" if limit is None else "<" if number == 0 else "<="
        shown = previous if limit is None else limit
        previous = shown
        out.append((False, [f"{op} {full_time(shown)[1:]}", count]))
    return out


def _wlmgl_report(rows: Sequence[tuple[Row, Sequence[tuple[float | None, int]]]],
                  goals: bool) -> str:
    first = rows[0][0]
    out = (_head("WLMGL", "Workload Activity Report", first,
                 (first.get("sysplex") or "", "SYSPLEX"))
           + "<segment><name>Workload Activity</name><part>"
           + _vars([("Policy", first.get("policy") or "")]) + "</part></segment>")
    for kind, title in (("service", "Service Class Periods"), ("report", "Report Class Periods")):
        parts = [_period(row, goals, buckets) for row, buckets in rows
                 if row["class_kind"] == kind]
        if parts:
            out += f"<segment><name>{title}</name>" + "".join(parts) + "</segment>"
    return out


def write_wlmgl_xml(rows: Iterable[Row], *, goals: bool = False,
                    distributions: Sequence[Sequence[tuple[float | None, int]]] | None = None
                    ) -> str:
    """A document with one Workload Activity report per sysplex and interval, its class
    periods in the rows' order (service classes first); ``goals`` and
    ``distributions`` as :func:`~zperf.sim.writers.wlmgl.write_listing` takes them."""
    reports: dict[tuple[Any, Any], list[tuple[Row, Sequence[tuple[float | None, int]]]]] = {}
    for number, row in enumerate(rows):
        buckets = distributions[number] if distributions is not None else ()
        reports.setdefault((row.get("sysplex"), row["interval_start"]), []).append(
            (row, buckets))
    return _document(_wlmgl_report(found, goals) for found in reports.values())
