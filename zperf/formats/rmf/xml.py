"""RMF Postprocessor reports in XML (DD XPRPTS, XPXSRPTS; the Distributed Data Server's
``/gpm/rmfpp.xml``) into the tables the listings fill.

Every ``postprocessor`` element (one report of one interval) is a record of
the tally: a CPU Activity report (metric CPU) fills ``cpu`` and ``cpu_lpar``
(:mod:`~zperf.formats.rmf.xml_cpu`), a Workload Activity report (metric
WLMGL) ``workload`` and ``distribution``
(:mod:`~zperf.formats.rmf.xml_wlmgl`), every other report is counted as
other.  The document is checked and cut into its reports by
:mod:`~zperf.formats.rmf.xml_scan` (entity declarations and external
entities refused, one report's tree in memory at a time); the printed
values of the tables are gathered as texts and converted column-wise at the
end (:mod:`~zperf.formats.rmf.xml_cells`), where a value that does not
convert makes its report a problem.  Elements and headings zperf does not
know are warnings, each once with the number of reports that had it.
``source_format`` is 'rmf-xml'.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.formats.fits import misfit
from zperf.formats.kinds import TextKind
from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.xml_cells import RECORD, convert
from zperf.formats.rmf.xml_cpu import LPAR_KINDS, read_cpu
from zperf.formats.rmf.xml_fast import FastCpu, FastWlmgl, other_metric, read_fast, well_formed
from zperf.formats.rmf.xml_parts import BadReportError, Columns, Unknown, header
from zperf.formats.rmf.xml_scan import Check, Report, reports, spans
from zperf.formats.rmf.xml_wlmgl import DISTRIBUTION_KINDS, WORKLOAD_KINDS, read_wlmgl
from zperf.formats.tally import OnError, Tally
from zperf.tables import DISTRIBUTION, WORKLOAD
from zperf.tables.cpu import CPU, CPU_LPAR

KIND = "rmf-xml"
#: A ddsml document (the DDS's and the Postprocessor's), or a bare report.
_SNIFF = re.compile(r"<ddsml[\s/>]|<postprocessor>\s*<metric\b")
#: Each table, its schema, and the columns converted column-wise.
_TABLES = {"cpu": (CPU, {}), "cpu_lpar": (CPU_LPAR, LPAR_KINDS),
           "workload": (WORKLOAD, WORKLOAD_KINDS),
           "distribution": (DISTRIBUTION, DISTRIBUTION_KINDS)}


@dataclass
class _Read:
    """What the reports gave so far: rows by table, the reports they came from."""

    rows: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {name: [] for name in _TABLES if name != "cpu_lpar"})
    lpars: Columns = field(default_factory=Columns)  # many rows a report: kept as columns
    pending: dict[int, tuple[Report, str]] = field(default_factory=dict)  # record -> label
    intervals: set[tuple[str, Any]] = field(default_factory=set)
    repeats: int = 0
    others: Counter[str] = field(default_factory=Counter)

    def add(self, table: str, rows: list[dict[str, Any]], record: int) -> None:
        self.rows[table] += [{**row, RECORD: record} for row in rows]


def read_rmf_xml(data: bytes, file: str, on_error: OnError = "raise", *,
                 careful: bool = False) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read an RMF XML document into the cpu, cpu_lpar, workload and distribution tables.

    ``careful``: every report through its tree, none through the fast path (the
    reference the fast path is tested against: the same tables, tally and messages).
    """
    tally = Tally(file, on_error)
    unknown = Unknown()
    found = _Read()
    cut = list(spans(data))
    hidden = _hidden(data, cut[0][0]) if cut else False
    # expat reads only what the fast path has not found well-formed, after it, when the
    # first report is the fast path's and no comment could hide a report: then the
    # second process only reads its share; otherwise it checks all, as this one reads
    first = None if careful or hidden or not cut else read_fast(
        data[cut[0][0]:cut[0][1]].decode(errors="replace"), file)
    later = first is not None
    half = _half(cut, CHECK_SHARE if first is None else CHECK_SHARE_LATER)
    with Check(data, file, share=None if careful else lambda: fast_reads(
            data, cut, file, half, hidden), later=later) as checking:
        # read before the check's answer: used only where it allows
        fast = {} if careful else fast_reads(data, cut[:half], file, 0, hidden)
        fast.update(checking.shared() or {})  # type: ignore[call-overload]
        document = checking.document([cut[record - 1] for record, read in sorted(fast.items())
                                      if not isinstance(read, str) and read.checked])
    if document.encoding is not None or document.default_namespace:
        fast = {}  # texts decoded otherwise, or every tag renamed: the trees read them
    for report in reports(data, file, on_error, tally.warnings, document, cut, fast):
        unknown.next_report()
        _report(report, data, file, tally, unknown, found)
    tables = _tables(found, data, tally)
    tally.problems.sort(key=lambda p: -1 if p.offset is None else p.offset)
    if not tally.read:
        tally.warnings.append("no postprocessor element: not an RMF Postprocessor XML document "
                              "(a Monitor III one?)")
    if found.repeats:
        tally.warnings.append(f"{found.repeats} repeated CPU Activity reports (same system and "
                              "interval) dropped")
    if found.others:
        tally.warnings.append("other reports counted and not read: " + ", ".join(
            f"{metric} ({n})" for metric, n in sorted(found.others.items())))
    tally.warnings += unknown.warnings()
    return tables, tally


#: The share of the reports' bytes the check's process reads too, so that both
#: processes end together: the check costs about what this process does besides
#: the fast path (cutting, the trees' reports, converting the columns), so each
#: takes about half of it (benchmarks/rmf_xml_read.py).
CHECK_SHARE = 0.55
#: The same when expat comes after the fast path (and reads little): each process
#: reads half. Measured on two idle CPUs (benchmarks/rmf_xml_read.py, CPU Activity
#: 18.6 MB and Workload Activity 5 MB documents): an even split ends both together,
#: 22 MB/s on both documents; the 0.64 and 0.70 shares for the second process, chosen
#: on a loaded machine, left this one waiting (18.8 and 18.4 MB/s).
CHECK_SHARE_LATER = 0.5


def _half(cut: list[tuple[int, int]], share: float) -> int:
    """The first report the check's process reads (its share of the bytes)."""
    if not cut:
        return 0
    middle = cut[0][0] + (cut[-1][1] - cut[0][0]) * (1 - share)
    return next((i for i, (start, _) in enumerate(cut) if start >= middle), len(cut))


def _hidden(data: bytes, start: int) -> bool:
    """Whether a comment, CDATA section or processing instruction follows ``start``
    (where one is, another report's start tag could be inside it).  Found with
    memchr's one-byte search, not a two-byte one: ``<`` is in every element."""
    for mark in (b"!", b"?"):
        at = data.find(mark, start)
        while at >= 0:
            if data[at - 1:at] == b"<":
                return True
            at = data.find(mark, at + 1)
    return False


def fast_reads(data: bytes, cut: list[tuple[int, int]], file: str, first: int = 0,
               hidden: bool | None = None) -> dict[int, FastCpu | FastWlmgl | str]:
    """What the fast path reads of the reports from ``cut[first]`` on (record -> a CPU
    or Workload Activity report's rows, or another report's metric id); the others are left to
    their trees.  ``hidden``: what :func:`_hidden` says of the reports (found here
    when not given)."""
    out: dict[int, FastCpu | FastWlmgl | str] = {}
    if len(cut) <= first:
        return out
    if hidden is None:
        hidden = _hidden(data, cut[0][0])
    for record, (start, end) in enumerate(cut[first:], start=first + 1):
        raw = data[start:end]
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            continue
        read = read_fast(text, file)
        if read is not None:
            read.checked = well_formed(text, raw)
            out[record] = read
        elif not hidden and (metric := other_metric(text)) is not None:
            out[record] = metric
    return out


def _report(report: Report, data: bytes, file: str, tally: Tally, unknown: Unknown,
            found: _Read) -> None:
    """One report: its rows (values still printed texts), or a problem."""
    tally.hand_on(1)
    if report.fast is not None:
        _fast_report(report, tally, unknown, found)
        return
    element = report.element
    if element is None:
        damage = report.damage
        assert damage is not None
        tally.problem(f"report {report.record}: {damage.what}", record=report.record,
                      line=damage.line, offset=damage.offset,
                      raw=data[report.offset:report.end], handed_on=True)
        return
    label = f"report {report.record}"
    metric = element.find("metric")
    if metric is not None and metric.get("id") not in (fields.CPU_METRIC, fields.WLMGL_METRIC,
                                                       None, ""):
        found.others[str(metric.get("id"))] += 1  # passed over, header and all
        tally.settle(other=1)
        return
    try:
        unknown.children(element, "a report")
        head = header(element, unknown)
        label = f"report {report.record} ({head.label()})"
        unknown.messages(element, f"{head.metric} reports")
        if head.metric == fields.CPU_METRIC:
            _cpu_rows(found, report.record, *read_cpu(element, head, file, unknown))
        else:
            work, buckets = read_wlmgl(element, head, file, unknown)
            found.add("workload", work, report.record)
            found.add("distribution", buckets, report.record)
    except BadReportError as bad:
        tally.problem(f"{label}: {bad}", record=report.record, line=report.line,
                      offset=report.offset, raw=data[report.offset:report.end],
                      handed_on=True)
        return
    report.element = None  # the tree is done with: one report's tree at a time
    found.pending[report.record] = (report, label)


def _fast_report(report: Report, tally: Tally, unknown: Unknown, found: _Read) -> None:
    """A report the fast path read: what the careful path would have done with it."""
    read = report.fast
    report.fast = None  # its rows are kept below: not twice
    if isinstance(read, str):  # another report's metric id
        found.others[read] += 1
        tally.settle(other=1)
        return
    assert isinstance(read, FastCpu | FastWlmgl)
    for what in read.notes:
        unknown.note(what)
    if isinstance(read, FastWlmgl):
        found.add("workload", read.work, report.record)
        found.add("distribution", read.buckets, report.record)
    else:
        _cpu_rows(found, report.record, read.row, read.lpars)
    found.pending[report.record] = (report, f"report {report.record} ({read.head.label()})")


def _cpu_rows(found: _Read, record: int, row: dict[str, Any], lpars: Columns) -> None:
    """A CPU Activity report's rows, unless an earlier report had its system and interval."""
    interval = (row["system"], row["interval_start"])
    if interval in found.intervals:
        found.repeats += 1
    else:
        found.intervals.add(interval)
        found.add("cpu", [row], record)
        found.lpars.extend({**lpars.data, RECORD: [record] * lpars.height}, lpars.height)


def _tables(found: _Read, data: bytes, tally: Tally) -> dict[str, pl.DataFrame]:
    """Every table with its printed values converted; a report with a value that does
    not convert is a problem, and its rows are dropped from every table."""
    converted: dict[str, pl.DataFrame] = {}
    bad: dict[int, str] = {}
    for name, (schema, kinds) in _TABLES.items():
        rows = found.rows.get(name)
        if rows is None:
            frame = pl.DataFrame(found.lpars.data)
        else:
            frame = pl.from_dicts(rows, infer_schema_length=None) if rows else pl.DataFrame()
        dtypes = schema.polars_schema()
        frame, wrong = convert(frame, kinds, dtypes)
        converted[name] = frame
        for record, column, text in wrong.iter_rows():
            bad.setdefault(record, f"{text!r} under {fields.PRINTED.get(column, column)!r} "
                                   + _wrong(text, kinds[column], dtypes[column]))
    for record in sorted(bad):
        report, label = found.pending[record]
        tally.problem(f"{label}: {bad[record]}", record=record, line=report.line,
                      offset=report.offset, raw=data[report.offset:report.end],
                      handed_on=True)
    tally.settle(parsed=len(found.pending) - len(bad))
    out = {}
    for name, (schema, _) in _TABLES.items():
        frame = converted[name]
        if frame.height == 0:
            out[name] = schema.empty()
            continue
        if bad:
            frame = frame.filter(~pl.col(RECORD).is_in(list(bad)))
        out[name] = schema.conform(frame)
    return out


def _wrong(text: str, kind: str, dtype: pl.DataType) -> str:
    """What is wrong with a bad cell's text: not what its column holds, or a number
    too large for it ('is too large (at most 2147483647)')."""
    if kind in (fields.NUMBER, fields.INT):
        try:
            value = fields.value_of(fields.NUMBER, text)
        except ValueError:
            value = None
        why = misfit(dtype, value)
        if why is not None:
            return why
    return f"is not {_WHAT.get(kind, 'a value')}"


_WHAT = {fields.NUMBER: "a number", fields.INT: "a number", fields.SECONDS: "a time",
         fields.TIME_MS: "a time", fields.BUCKET: "a bucket limit ('<', '<=' or '>' and a "
                                                  "time)"}


def sniff(text: str) -> bool:
    """A ``<ddsml`` root (or a bare ``postprocessor`` report) in the first part of the file."""
    return _SNIFF.search(text) is not None


RMF_XML = TextKind(
    KIND, "RMF Postprocessor reports as XML (XPRPTS, XPXSRPTS, or the Distributed Data "
          "Server's /gpm/rmfpp.xml): CPU Activity with its Partition Data Report, Workload "
          "Activity (WLMGL); other reports counted",
    ("cpu", "cpu_lpar", "workload", "distribution"), sniff, read_rmf_xml)
