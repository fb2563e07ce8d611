"""RMF Postprocessor reports in XML (DD XPRPTS, XPXSRPTS; the Distributed Data Server's
``/gpm/rmfpp.xml``) into the tables the listings fill.

Every ``postprocessor`` element (one report of one interval) is a record of
the tally: a CPU Activity report (metric CPU) fills ``cpu`` and ``cpu_lpar``
(:mod:`~zperf.formats.rmf.xml_cpu`), a Workload Activity report (metric
WLMGL) ``workload`` and ``distribution``
(:mod:`~zperf.formats.rmf.xml_wlmgl`), every other report is counted as
other.  The document is read in pieces of whole reports as it comes
(:mod:`~zperf.formats.rmf.xml_pieces`; a small one is one piece), each
piece by the same code: checked (:mod:`~zperf.formats.rmf.xml_expat`, one
parser for the whole document: entity declarations and external entities
refused) and cut into its reports by :mod:`~zperf.formats.rmf.xml_scan` (one
report's tree in memory at a time); the printed values of its tables are
gathered as texts and converted column-wise at the end of the piece
(:mod:`~zperf.formats.rmf.xml_cells`), where a value that does not convert
makes its report a problem, and the piece's rows are handed on; the CPU
Activity rows (one per system and interval, few) at the end of the document,
where a report of an interval already read is settled (a repeat, or a
conflict when it says otherwise: :func:`zperf.formats.repeats.settle_frame`).
Elements and headings zperf does not know are warnings, each once with the
number of reports that had it.
``source_format`` is 'rmf-xml'.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from zperf.errors import ParseError
from zperf.formats.fits import misfit
from zperf.formats.kinds import TextKind
from zperf.formats.repeats import said_within, settle_frame
from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.xml_cells import RECORD, convert
from zperf.formats.rmf.xml_cpu import LPAR_KINDS, read_cpu
from zperf.formats.rmf.xml_expat import Incremental
from zperf.formats.rmf.xml_fast import FastCpu, FastWlmgl, other_metric, read_fast, well_formed
from zperf.formats.rmf.xml_parts import (
    BadReportError,
    Columns,
    Unknown,
    header,
    message_text,
)
from zperf.formats.rmf.xml_pieces import Piece, markup_after, pieces
from zperf.formats.rmf.xml_scan import (
    Damage,
    Document,
    Report,
    check,
    encoding_of,
    reports,
    spans,
)
from zperf.formats.rmf.xml_wlmgl import DISTRIBUTION_KINDS, WORKLOAD_KINDS, read_wlmgl
from zperf.formats.tally import OnError, Problem, Tally
from zperf.tables import DISTRIBUTION, WORKLOAD
from zperf.tables.cpu import CPU, CPU_LPAR

KIND = "rmf-xml"
#: Bytes of a document in memory handed to its pieces at a time (as a file is read).
CHUNK_BYTES = 16 << 20
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
    others: Counter[str] = field(default_factory=Counter)

    def add(self, table: str, rows: list[dict[str, Any]], record: int) -> None:
        self.rows[table] += [{**row, RECORD: record} for row in rows]

    def next_piece(self) -> None:
        """The rows and reports of a piece are done with (its tables are made)."""
        self.rows = {name: [] for name in self.rows}
        self.lpars = Columns()
        self.pending = {}


def read_rmf_xml(data: bytes, file: str, on_error: OnError = "raise", *,
                 careful: bool = False, piece_bytes: int | None = None,
                 ) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read an RMF XML document into the cpu, cpu_lpar, workload and distribution tables.

    ``careful``: every report through its tree, none through the fast path (the
    reference the fast path is tested against: the same tables, tally and messages).
    The document is read as the stream of its bytes (:func:`xml_parts`, in chunks as
    a file is read, so that no second copy of it is held): one code reads both;
    ``piece_bytes`` sets the size of its pieces.
    """
    tally = Tally(file, on_error)
    chunks = (data[at:at + CHUNK_BYTES] for at in range(0, len(data), CHUNK_BYTES))
    parts = list(xml_parts(chunks, tally, careful=careful, piece_bytes=piece_bytes))
    if len(parts) == 1:
        return parts[0], tally
    return {name: pl.concat([part[name] for part in parts]) for name in _TABLES}, tally


def xml_parts(chunks: Iterable[bytes], tally: Tally, *, careful: bool = False,
              piece_bytes: int | None = None) -> Iterator[dict[str, pl.DataFrame]]:
    """The tables of a document given as UTF-8 chunks, piece by piece
    (:func:`~zperf.formats.rmf.xml_pieces.pieces`) in file order, counted into
    ``tally``: a document larger than memory is read holding a piece at a time."""
    reader = _Reader(tally, careful)
    for piece in pieces(chunks, piece_bytes):
        yield reader.read(piece)


class _Reader:
    """Reads a document's pieces in turn, into one tally; what spans pieces (the
    check, the record numbers, the repeated CPU intervals, the warnings counted
    over all reports) is kept here.

    With on_error "raise", a piece is read as with "skip" and its first problem in
    file order (or the document's first damage, after the problems of the reports
    before it) is raised at its end: the error a whole read raises too, wherever
    the pieces are cut."""

    def __init__(self, tally: Tally, careful: bool) -> None:
        self.tally, self.file, self.careful = tally, tally.file, careful
        self.unknown = Unknown()
        self.found = _Read()
        self.records = 0  # reports in the pieces before
        self.encoding: tuple[str | None, str | None] = (None, None)
        self.incremental: Incremental | None = None  # the check across pieces
        self.held = False  # a report holds the document's first damage
        #: The CPU Activity rows (cpu, cpu_lpar, with their report's number) read so far,
        #: and where each report is (line, offset): settled at the document's end.
        self.cpu: dict[str, list[pl.DataFrame]] = {"cpu": [], "cpu_lpar": []}
        self.places: dict[int, tuple[int | None, int | None]] = {}

    def read(self, piece: Piece) -> dict[str, pl.DataFrame]:
        """One piece's tables (values converted); at the last, the warnings."""
        data, tally = piece.data, self.tally
        if piece.first:
            self.encoding = encoding_of(data, self.file)
            if not piece.final:  # a fresh parser for a whole document (see check)
                self.incremental = Incremental(self.encoding[0])
        cut = list(spans(data))
        document, fast = self._checked(piece, cut)
        damage = document.damage
        raising = tally.on_error == "raise"
        mark = len(tally.problems)
        tally.on_error = "skip" if raising else tally.on_error
        try:
            for report in reports(data, document, cut, fast, record=self.records + 1,
                                  offset=piece.offset, line=piece.line):
                holds = damage is not None and (report.offset <= damage.offset < report.end or (
                    piece.final and report.end == piece.offset + len(data)
                    and damage.offset >= report.end))
                self.held = self.held or holds
                if raising and damage is not None and (holds or report.end > damage.offset):
                    break  # what raises is before
                self.unknown.next_report()
                _report(report, data, piece.offset, tally, self.unknown, self.found)
            tables = _tables(self.found, data, piece.offset, tally)
        finally:
            tally.on_error = "raise" if raising else tally.on_error
        tally.problems[mark:] = sorted(tally.problems[mark:],
                                       key=lambda p: -1 if p.offset is None else p.offset)
        if raising:
            _raise_first(self.file, tally.problems[mark:], damage)
        self.records += len(cut)
        for name in self.cpu:
            frame = tables.pop(name)
            if frame.height:
                self.cpu[name].append(frame)
            if name == "cpu" and frame.height:
                pending = self.found.pending
                self.places.update({record: (pending[record][0].line, pending[record][0].offset)
                                    for record in frame[RECORD].to_list()})
        self.found.next_piece()
        if piece.final:
            tables.update(self._cpu_settled())
            self._finish(damage)
        else:
            tables.update(cpu=CPU.empty(), cpu_lpar=CPU_LPAR.empty())
        return tables

    def _cpu_settled(self) -> dict[str, pl.DataFrame]:
        """The document's CPU Activity rows, one per system and interval: a report of
        an interval read before is a repeat or a conflict (``tally.on_conflict``)."""
        cpu = pl.concat(self.cpu["cpu"]) if self.cpu["cpu"] else CPU.empty().with_columns(
            pl.lit(None, pl.Int64).alias(RECORD))
        lpar = pl.concat(self.cpu["cpu_lpar"]) if self.cpu["cpu_lpar"] else None
        kept, decided = settle_frame(cpu, "cpu", self.tally, self._where)
        if decided.repeats:
            self.tally.warnings.append(f"{decided.repeats} repeated CPU Activity reports (same "
                                       "system and interval) dropped")
        said_within("cpu", decided.conflicts, self.tally)
        if lpar is not None and kept.height < cpu.height:
            lpar = lpar.filter(pl.col(RECORD).is_in(kept[RECORD].implode()))
        return {"cpu": kept.drop(RECORD),
                "cpu_lpar": CPU_LPAR.empty() if lpar is None else lpar.drop(RECORD)}

    def _where(self, row: Mapping[str, Any]) -> tuple[str, dict[str, int | None]]:
        """A CPU Activity report's place in the document (in messages, and an error's)."""
        record = row[RECORD]
        line, offset = self.places.get(record, (None, None))
        return f"report {record}", {"record": record, "line": line, "offset": offset}

    def _checked(self, piece: Piece, cut: list[tuple[int, int]]
                 ) -> tuple[Document, dict[int, Any]]:
        """The check's document (so far) and what the fast path read of the piece's
        reports (by record number in the file)."""
        data, file, careful = piece.data, self.file, self.careful
        hidden = markup_after(data, cut[0][0] if piece.first else 0) if cut else False
        fast = {} if careful else fast_reads(data, cut, file, hidden)
        # expat reads only what the fast path has not found well-formed, unless markup
        # (a comment, CDATA) could hide a report: then it checks all
        passed = [] if hidden else [cut[record - 1] for record, read in sorted(
            fast.items()) if not isinstance(read, str) and read.checked]
        document = check(data, file, passed, incremental=self.incremental,
                         offset=piece.offset, final=piece.final, encoding=self.encoding)
        if document.encoding is not None or document.default_namespace:
            fast = {}  # texts decoded otherwise, or every tag renamed: the trees read them
        return document, {self.records + record: read for record, read in fast.items()}

    def _finish(self, damage: Damage | None) -> None:
        """The warnings, once the last piece is read."""
        warnings, found = self.tally.warnings, self.found
        if damage is not None and not self.held:
            warnings.append(f"line {damage.line} at offset 0x{damage.offset:X}: {damage.what}, "
                            "outside the reports (no report was lost)")
        if not self.tally.read:
            warnings.append("no postprocessor element: not an RMF Postprocessor XML document "
                            "(a Monitor III one?)")
        if found.others:
            warnings.append("other reports counted and not read: " + ", ".join(
                f"{metric} ({n})" for metric, n in sorted(found.others.items())))
        warnings += self.unknown.warnings()


def _raise_first(file: str, problems: list[Problem], damage: Damage | None) -> None:
    """On error "raise": the first problem of a piece (its reports are before the
    damage), or the damage."""
    if problems:
        first = problems[0]
        raise ParseError(file, first.reason, record=first.record, offset=first.offset,
                         line=first.line)
    if damage is not None:
        raise ParseError(file, damage.what, line=damage.line, offset=damage.offset)


def fast_reads(data: bytes, cut: list[tuple[int, int]], file: str,
               hidden: bool | None = None) -> dict[int, FastCpu | FastWlmgl | str]:
    """What the fast path reads of the reports (record -> a CPU
    or Workload Activity report's rows, or another report's metric id); the others are left to
    their trees.  ``hidden``: whether markup could hide a report's start tag
    (:func:`~zperf.formats.rmf.xml_pieces.markup_after`; found here when not given)."""
    out: dict[int, FastCpu | FastWlmgl | str] = {}
    if not cut:
        return out
    if hidden is None:
        hidden = markup_after(data, cut[0][0])
    for record, (start, end) in enumerate(cut, start=1):
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


def _report(report: Report, data: bytes, base: int, tally: Tally, unknown: Unknown,
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
                      raw=_raw(data, base, report), handed_on=True)
        return
    label = f"report {report.record}"
    metric = element.find("metric")
    if metric is not None and metric.get("id") not in (fields.CPU_METRIC, fields.WLMGL_METRIC,
                                                       None, ""):
        found.others[str(metric.get("id"))] += 1  # passed over, header and all
        tally.settle(other=1)
        return
    try:
        if metric is None and (message := element.find("message")) is not None:
            raise BadReportError("no report, only a message of RMF or its Distributed Data "
                                 f"Server: {message_text(message)}")
        unknown.children(element, "a report")
        head = header(element, unknown)
        label = f"report {report.record} ({head.label()})"
        unknown.messages(element, f"{head.metric} reports")
        if head.metric == fields.CPU_METRIC:
            _cpu_rows(found, report.record, *read_cpu(element, head, tally.file, unknown))
        else:
            work, buckets = read_wlmgl(element, head, tally.file, unknown)
            found.add("workload", work, report.record)
            found.add("distribution", buckets, report.record)
    except BadReportError as bad:
        tally.problem(f"{label}: {bad}", record=report.record, line=report.line,
                      offset=report.offset, raw=_raw(data, base, report), handed_on=True)
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
    """A CPU Activity report's rows (a report of an interval read before is settled at
    the document's end: :meth:`_Reader._cpu_settled`)."""
    found.add("cpu", [row], record)
    found.lpars.extend({**lpars.data, RECORD: [record] * lpars.height}, lpars.height)


def _raw(data: bytes, base: int, report: Report) -> bytes:
    """A report's bytes (``data`` is the piece at byte ``base`` of the file)."""
    return data[report.offset - base:report.end - base]


def _tables(found: _Read, data: bytes, base: int, tally: Tally) -> dict[str, pl.DataFrame]:
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
        if frame.height == 0:  # (a piece of one kind of report: no query for the others)
            converted[name] = frame
            continue
        dtypes = schema.polars_schema()
        frame, wrong = convert(frame, kinds, dtypes)
        converted[name] = frame
        for record, column, text in wrong.iter_rows():
            bad.setdefault(record, f"{text!r} under {fields.PRINTED.get(column, column)!r} "
                                   + _wrong(text, kinds[column], dtypes[column]))
    for record in sorted(bad):
        report, label = found.pending[record]
        tally.problem(f"{label}: {bad[record]}", record=record, line=report.line,
                      offset=report.offset, raw=_raw(data, base, report), handed_on=True)
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
        if name in ("cpu", "cpu_lpar"):  # (settled at the document's end, by report)
            out[name] = out[name].with_columns(frame[RECORD])
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


def _stream(chunks: Iterable[bytes], tally: Tally) -> Iterator[dict[str, pl.DataFrame]]:
    yield from xml_parts(chunks, tally)


RMF_XML = TextKind(
    KIND, "RMF Postprocessor reports as XML (XPRPTS, XPXSRPTS, or the Distributed Data "
          "Server's /gpm/rmfpp.xml): CPU Activity with its Partition Data Report, Workload "
          "Activity (WLMGL); other reports counted",
    ("cpu", "cpu_lpar", "workload", "distribution"), sniff, read_rmf_xml, stream=_stream)
