"""The CPU Activity report in XML (metric CPU) into a cpu row and cpu_lpar rows.

The processor table gives the cpu row's per-type columns by the listing
reader's own rule (:func:`~zperf.formats.rmf.cpu_table.per_type`): RMF's
TOTAL/AVERAGE row (``row@type="SUM"``) where it has one, else the online
weighted averages of the processor rows; a row without a CPU number is the
second thread of the core above it (MT).  The Partition Data Report segment
adds the partition's name and image capacity to the row, and gives one
cpu_lpar row per partition and processor type as printed: the TOTAL rows are
sums and are left out, ``*PHYSICAL*`` (PR/SM's own time) is named PHYSICAL as
SMF 70.1 names it, a weight ``DED`` is a dedicated partition.  Deactivated
partitions (no processor type) are kept with their status.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import polars as pl

from zperf.formats.fits import misfit
from zperf.formats.rmf import cpu_fields
from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.cpu_table import Processor, per_type
from zperf.formats.rmf.values import interval_seconds
from zperf.formats.rmf.xml_parts import (
    BadReportError,
    Columns,
    Header,
    Table,
    Unknown,
    columns,
    table,
    variables,
)
from zperf.tables.cpu import CPU, CPU_LPAR, PROCESSOR_TYPES

SOURCE_FORMAT = "rmf-xml"
Row = dict[str, Any]
#: The types of the cpu and cpu_lpar columns, which a value read alone must fit.
_CPU_TYPES = CPU.polars_schema()
_LPAR_TYPES = CPU_LPAR.polars_schema()


#: A part as the segment rules read it, whichever parser found it: its name
#: (``findtext("name")``), its var-lists' (name, value) pairs, its tables.
PartView = tuple[str | None, Iterable[tuple[str, str | None]], Iterable[Table]]
#: The parts of a segment, given the segment's label for messages (a callable, so
#: that the ElementTree path notes a part's unknown children as it reaches it).
Parts = Callable[[str], Iterable[PartView]]


def read_cpu(report: ET.Element, head: Header, source: str,
             unknown: Unknown) -> tuple[Row, Columns]:
    """The cpu row and the cpu_lpar rows of one CPU Activity report (ElementTree)."""
    reading = CpuReading(head, source, unknown)
    for segment in report.iterfind("segment"):
        printed = " ".join((segment.findtext("name") or "").split())
        unknown.children(segment, f"segment {printed!r} of the CPU report")
        reading.segment(printed, functools.partial(_parts, segment, unknown))
    return reading.finish()


def _parts(segment: ET.Element, unknown: Unknown, where: str) -> Iterator[PartView]:
    for part in segment.iterfind("part"):
        unknown.children(part, where)
        yield (part.findtext("name"), variables(part),
               (table(element) for element in part.iterfind("table")))


class CpuReading:
    """One CPU Activity report being read: its segments in order (from either parser:
    :func:`read_cpu`, :mod:`~zperf.formats.rmf.xml_fast`), then :meth:`finish`."""

    def __init__(self, head: Header, source: str, unknown: Unknown) -> None:
        self.row: Row = {"source": source, "source_format": SOURCE_FORMAT,
                         "system": head.name, "zos_release": head.release,
                         "interval_start": head.start,
                         "interval_seconds": interval_seconds(head.interval),
                         "cycle_seconds": head.cycle_seconds}
        self.unknown = unknown
        self.processors: list[Processor] = []
        self.totals: dict[str, dict[str, float | None]] = {}
        self.partitions = Columns()
        self.seen = False

    def segment(self, printed: str, parts: Parts) -> None:
        """A segment by its printed name (runs of blanks made one)."""
        name = fields.key(printed)
        if name == fields.CPU_SEGMENT:
            self.seen = True
            self._cpu_segment(parts("the CPU Activity segment"))
        elif name == fields.PARTITION_SEGMENT:
            self.partitions = self._partition_segment(parts("the Partition Data Report"))
        elif name not in fields.CPU_OTHER_SEGMENTS:
            self.unknown.note(f"segment {printed!r} of the CPU report")

    def finish(self) -> tuple[Row, Columns]:
        """The cpu row and the cpu_lpar rows (as columns); BadReportError without
        processor data."""
        if not self.seen:
            raise BadReportError("no CPU Activity segment")
        if not self.processors and not self.totals:
            raise BadReportError("no processor rows in the CPU Activity segment")
        row = self.row
        for prefix, _ in PROCESSOR_TYPES:
            row.update(per_type(prefix, [p for p in self.processors if p.prefix == prefix],
                                self.totals.get(prefix)))
        partitions = self.partitions
        height = partitions.height
        lpars = {k: [row.get(k)] * height for k in (
            "source", "source_format", "system", "interval_start", "interval_seconds",
            "cpc_sequence_code")}
        lpars.update(partitions.data)
        own = row.get("lpar_name")
        lpars["own_partition"] = [None] * height if own is None else [
            name == own for name in partitions.column("partition_name")]
        out = Columns()
        out.data, out.height = lpars, height  # every column as long: no extend needed
        return row, out

    def _cpu_segment(self, parts: Iterable[PartView]) -> None:
        where = "the CPU Activity segment"
        for name, pairs, tables in parts:
            if fields.key(name) in fields.CPU_OTHER_PARTS:
                continue
            read_vars(pairs, fields.CPU_VARS, self.row, where, self.unknown)
            for found in tables:
                if found.first != fields.PROCESSOR_TABLE:
                    self.unknown.note(f"table {', '.join(found.headings)!r} in {where}")
                    continue
                _processor_rows(found, self.processors, self.totals, self.unknown)

    def _partition_segment(self, parts: Iterable[PartView]) -> Columns:
        """The partition's name and capacity (into the row) and the partition rows."""
        where = "the Partition Data Report"
        physical: dict[str, int | None] = {}
        partitions = Columns()
        for name, pairs, tables in parts:
            read_vars(pairs, fields.PARTITION_VARS, self.row, where, self.unknown)
            part_name = fields.key(name)
            for found in tables:
                if part_name == fields.PHYSICAL_PART:
                    physical.update(_physical(found, self.unknown))
                elif found.first == fields.PARTITION_TABLE:
                    partitions.extend(*_partition_rows(found, self.unknown))
                else:
                    self.unknown.note(f"table {', '.join(found.headings)!r} in {where}")
        partitions.data["physical_processors"] = [
            physical.get(str(kind)) for kind in partitions.column("processor_type")]
        return partitions


def _row_values(kept: list[tuple[int, str, str]], cells: list[str | None], where: str,
                dtypes: Mapping[str, pl.DataType] | None = None) -> Row:
    """A table row's kept cells converted (``where`` names the row in a problem; the
    message is only made then: a report has hundreds of cells); ``dtypes``: the
    types of the table columns they go to, which each must fit."""
    try:
        values = {column: fields.value_of(kind, cells[index] if index < len(cells) else None)
                  for index, column, kind in kept}
    except ValueError as bad:
        raise BadReportError(f"{where}: {bad}") from None
    for index, column, _ in kept if dtypes else ():
        if values[column] is not None:  # (then its cell is there)
            _fit(values[column], column, dtypes, cells[index], where)
    return values


def _fit(value: object, column: str, dtypes: Mapping[str, pl.DataType] | None,
         printed: str | None, where: str) -> None:
    """BadReportError when a value read alone (not column-wise) is too large for its
    table column (``printed``: its text, ``where`` it is, for the message)."""
    dtype = (dtypes or {}).get(column)
    if dtype is not None and isinstance(value, int | float):
        why = misfit(dtype, value)
        if why is not None:
            raise BadReportError(f"{where}: {(printed or '').strip()!r} {why}")


def read_vars(pairs: Iterable[tuple[str, str | None]], known: fields.Fields, row: Row,
              where: str, unknown: Unknown) -> None:
    """A part's (name, value) pairs into the row, by the field table ``known``."""
    for name, value in pairs:
        target = known.get(fields.key(name))
        if target is None:
            unknown.note(f"var {name!r} in {where}")
        elif target[0]:
            try:
                row[target[0]] = fields.value_of(target[1], value)
            except ValueError as bad:
                raise BadReportError(f"{name} in {where}: {bad}") from None
            if row[target[0]] is not None:
                _fit(row[target[0]], target[0], _CPU_TYPES, value, f"{name} in {where}")


def _processor_rows(found: Table, processors: list[Processor],
                    totals: dict[str, dict[str, float | None]], unknown: Unknown) -> None:
    """The processor rows and TOTAL/AVERAGE rows (see the module doc)."""
    kept = columns(found, fields.PROCESSOR_COLUMNS, "the processor table", unknown)
    prefix: str | None = None
    for refno, (summary, cells) in enumerate(found.rows, start=1):
        values = _row_values(kept, cells, f"row {refno} of the processor table")
        printed_type = values.pop("type", None)
        number = values.pop("number", None)
        if printed_type is not None:
            prefix = cpu_fields.TYPES.get(printed_type.upper())
        if summary or (number or "").upper() in ("TOTAL/AVERAGE", "TOTAL", "AVERAGE"):
            if prefix is not None:
                totals.setdefault(prefix, {"lpar": values.get("lpar"), "mvs": values.get("mvs")})
            continue
        processors.append(Processor(prefix, number is not None, values))


def _physical(found: Table, unknown: Unknown) -> dict[str, int | None]:
    """Processor type -> physical processors, from 'General purpose processor (CP)' rows."""
    kept = columns(found, fields.PHYSICAL_COLUMNS, "the physical processors table", unknown)
    out: dict[str, int | None] = {}
    for refno, (summary, cells) in enumerate(found.rows, start=1):
        values = _row_values(kept, cells, f"row {refno} of the physical processors table",
                             _LPAR_TYPES)
        name = fields.PHYSICAL_TYPE.search(values.get("processor_type") or "")
        if summary or name is None:
            continue
        printed = name.group(1).upper()
        out[fields.PHYSICAL_NAMES.get(printed, printed)] = values.get("physical_processors")
    return out


def _partition_rows(found: Table, unknown: Unknown) -> tuple[dict[str, list[Any]], int]:
    """The partition rows (as columns, and how many) with their names, types and
    weights read, and the other printed values as texts (converted column-wise later:
    LPAR_KINDS)."""
    kept = columns(found, fields.PARTITION_COLUMNS, "the Partition Data table", unknown)
    width = max((index for index, _, _ in kept), default=-1) + 1
    rows, refnos = [], []
    for refno, (summary, cells) in enumerate(found.rows, start=1):
        if not summary:
            rows.append(cells[:width] if len(cells) >= width
                        else cells + [None] * (width - len(cells)))
            refnos.append(refno)
    cells_of = list(zip(*rows, strict=True)) if rows else [()] * width
    out: dict[str, list[Any]] = {}
    for index, column, kind in kept:  # (a heading printed twice: the last one counts)
        out[column] = (list(map(fields.text_of, cells_of[index]))
                       if kind in (fields.TEXT, fields.WEIGHT) else list(cells_of[index]))
    names = out.get("partition_name", [None] * len(rows))
    if None in names:
        raise BadReportError(f"row {refnos[names.index(None)]} of the Partition Data table "
                             "has no partition name")
    out["partition_name"] = [fields.PHYSICAL_ROW.get(name, name) for name in names]
    weights = out.pop("weight", [None] * len(rows))  # (a text: DED, or a number, later)
    dedicated = [None if weight is None else weight.upper() == "DED" for weight in weights]
    out["dedicated"] = dedicated
    out["weight"] = [None if ded else weight
                     for ded, weight in zip(dedicated, weights, strict=True)]
    return out, len(rows)


#: The cpu_lpar columns converted column-wise, and how.
LPAR_KINDS = {column: fields.INT if kind == fields.WEIGHT else kind
              for column, kind in fields.PARTITION_COLUMNS.values()
              if column and kind != fields.TEXT}
