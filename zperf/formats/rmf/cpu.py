"""RMF Postprocessor CPU Activity reports (listings) into the cpu table.

A SYSOUT is cut into report sections at each RMF title (``C P U  A C T I V I T Y``,
``P A R T I T I O N  D A T A  R E P O R T``, any other) or new page; each
section is one record of the tally.  CPU Activity sections give one row per
system and interval (pages of the same report are merged); the Partition
Data Report adds the partition name and image capacity; every other report
is counted as other.  The processor table of a page is read by
:mod:`~zperf.formats.rmf.cpu_table`.  A report of an interval already read
(a SYSOUT holding a listing twice) is a repeat when it says the same, and a
conflict when it does not (:func:`zperf.formats.repeats.settle_frame`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.fits import misfit
from zperf.formats.kinds import TextKind
from zperf.formats.listing import (
    Line,
    Listing,
    ebcdic_as_utf8,
    has_asa_column,
    listing_encoding,
    listing_lines,
    listing_table,
)
from zperf.formats.pieces import PIECE_BYTES, TextPieces, whole
from zperf.formats.repeats import said_within, settle_frame
from zperf.formats.rmf import cpu_fields as fields
from zperf.formats.rmf.cpu_table import BadLineError, Processor, per_type, read_table
from zperf.formats.rmf.values import interval_seconds
from zperf.formats.tally import OnError, Tally
from zperf.tables.cpu import CPU, PROCESSOR_TYPES

SOURCE_FORMAT = "rmf-cpu"
#: Bytes of the start of a listing that say whether it has ASA control characters
#: (:func:`has_asa_column` looks at its first 2,000 lines of up to 200 bytes).
ASA_SAMPLE = 2000 * 200


@dataclass
class _Report:
    """What the pages of one CPU Activity report (a system and interval) said."""

    header: dict[str, str]
    processors: list[Processor] = field(default_factory=list)
    totals: dict[str, dict[str, float | None]] = field(default_factory=dict)
    first: Line | None = None


class _Reader:
    """Follows a listing section by section (see the module docstring)."""

    def __init__(self, file: str, tally: Tally) -> None:
        self.file, self.tally = file, tally
        self.reports: dict[tuple[str, str, str], _Report] = {}
        self.partitions: dict[tuple[str, str, str], dict[str, str]] = {}
        self.bad: set[tuple[str, str, str]] = set()
        self.last: tuple[str, str, str] | None = None  # key of the CPU section just read
        #: Later reports of an interval already read, and the report being read now.
        self.copies: list[tuple[tuple[str, str, str], _Report]] = []
        self.reading: _Report | None = None

    def read(self, data: bytes, *, careful: bool = False) -> None:
        """Cut the listing into report sections (:func:`section_starts`) and read
        each; sections of other reports are only counted, so a large SYSOUT of
        other reports costs little.  ``careful`` takes even a printable listing
        line by line (see :func:`titled_lines`)."""
        if listing_encoding(data) == "cp037":  # the pieces are UTF-8
            data = ebcdic_as_utf8(data)
        self.read_pieces(whole(data), careful=careful)

    def read_pieces(self, chunks: Iterable[bytes], *, careful: bool = False,
                    piece_bytes: int | None = None) -> None:
        """Read a listing given as UTF-8 chunks in pieces of about ``piece_bytes``
        (default :data:`PIECE_BYTES`), each but the last cut before its last section
        that starts a page or a report (the next piece starts there)."""
        text = TextPieces(chunks)
        asa = has_asa_column(text.head(ASA_SAMPLE))
        size = PIECE_BYTES if piece_bytes is None else piece_bytes
        while True:
            data, final = text.piece(size)
            listing, titled = titled_lines(data, careful=careful, asa=asa,
                                           first_number=text.number, first_offset=text.offset)
            starts, blank_page = section_starts(listing, titled)
            cut = len(listing)
            if not final:
                cuts = starts[1:][titled[starts[1:]] | listing.new_page[starts[1:]]]
                if not len(cuts):  # one section so far: a larger piece
                    size *= 2
                    continue
                cut = int(cuts[-1])
            self._sections(listing, starts[starts < cut], np.append(starts[starts < cut][1:], cut),
                           blank_page)
            if final:
                return
            text.advance(int(listing.offsets[cut]), int(listing.numbers[cut]))
            size = PIECE_BYTES if piece_bytes is None else piece_bytes

    def _sections(self, listing: Listing, starts: npt.NDArray[np.int64],
                  ends: npt.NDArray[np.int64], blank_page: npt.NDArray[np.bool_]) -> None:
        """Read the sections from ``starts`` to ``ends`` of a piece."""
        if not len(starts):
            return
        titles = listing.text.gather(starts).to_list()
        for start, end, title in zip(starts.tolist(), ends.tolist(), titles, strict=True):
            if fields.TITLE.search(title) or fields.PARTITION_TITLE.search(title):
                kept = np.arange(start, end, dtype=np.int64)
                kept = kept[(kept == start) | ~blank_page[start:end]]
                self._section(listing.lines(kept))
            else:
                self._other_section()

    def _other_section(self) -> None:
        """A section of another report: counted, and the CPU report just read ends."""
        self.tally.count(other=1, what="section of another RMF report")
        self.last = None

    def _section(self, lines: list[Line]) -> None:
        if not lines:
            return
        title = lines[0].text
        last, self.last = self.last, None
        try:
            if fields.TITLE.search(title):
                used = self._cpu(lines, last)
            elif fields.PARTITION_TITLE.search(title):
                used = self._partition(lines)
            else:
                used = False
        except BadLineError as bad:
            self.tally.problem(f"CPU ACTIVITY report: {bad.what}", line=bad.line.number,
                               offset=bad.line.offset)
            return
        self.tally.count(parsed=int(used), other=int(not used),
                         what="CPU Activity page without processor lines")

    @staticmethod
    def _header(lines: list[Line], patterns: dict[str, re.Pattern[str]]) -> dict[str, str]:
        found: dict[str, str] = {}
        for line in lines:
            for name, pattern in patterns.items():
                if name not in found and (m := pattern.search(line.text)):
                    found[name] = m.group(1)
        return found

    def _key(self, lines: list[Line], header: dict[str, str]) -> tuple[str, str, str]:
        missing = [label for label, name in (("SYSTEM ID", "system"), ("DATE", "date"),
                                             ("TIME", "time"), ("INTERVAL", "interval"))
                   if name not in header]
        if missing:
            raise BadLineError(lines[0], f"no {', '.join(missing)} in the page heading")
        try:
            dt.datetime.strptime(f"{header['date']} {header['time']}", "%m/%d/%Y %H.%M.%S")
        except ValueError:
            raise BadLineError(lines[0], f"DATE {header['date']} TIME {header['time']} in the "
                                         "page heading is not a date and time") from None
        try:
            interval_seconds(header["interval"])
        except ValueError as bad:
            raise BadLineError(lines[0], f"INTERVAL in the page heading: {bad}") from None
        for name in ("cpc_capacity_msu", "image_capacity_msu"):
            if name in header and misfit(CPU.polars_schema()[name], int(header[name])):
                raise BadLineError(lines[0], f"{name.upper().replace('_MSU', '')} "
                                             f"{header[name]} is too large a capacity")
        return header["system"], header["date"], header["time"]

    def _cpu(self, lines: list[Line], last: tuple[str, str, str] | None) -> bool:
        """A page of a CPU Activity report; True if it gave processor lines."""
        heading = next((i for i, ln in enumerate(lines) if fields.COLUMNS["mvs"].search(ln.text)),
                       len(lines))
        header = self._header(lines[:heading], fields.HEADER)
        key = self._key(lines, header)
        try:
            processors, totals = read_table(lines, heading)
        except BadLineError:
            self.bad.add(key)
            raise
        report = self.reports.get(key)
        self.last = key
        if not processors and not totals:
            if report is None:
                raise BadLineError(lines[0], f"no processor lines for system {key[0]} at {key[1]} "
                                     f"{key[2]}")
            return False  # a later page of the report (address space analysis...)
        if report is not None and last != key:  # the same interval reported again
            report = _Report(header, first=lines[0])
            self.copies.append((key, report))
        elif report is None:
            report = self.reports[key] = _Report(header, first=lines[0])
        elif self.reading is not None:  # a later page of the report being read
            report = self.reading
        self.reading = report
        report.processors += processors
        for prefix, values in totals.items():
            report.totals.setdefault(prefix, values)
        return True

    def _partition(self, lines: list[Line]) -> bool:
        header = self._header(lines, {**fields.HEADER, **fields.PARTITION_HEADER})
        found = {k: header[k] for k in fields.PARTITION_HEADER if k in header}
        if not found:
            return False
        self.partitions[self._key(lines, header)] = found
        return True

    # ------------------------------------------------------------ rows

    def frame(self, source: str) -> pl.DataFrame:
        """One row per system and interval: a report given again is a repeat or a
        conflict (``tally.on_conflict``)."""
        reports = [*self.reports.items(), *self.copies]
        rows = [{**self._row(key, report, source), "_line": report.first.number,
                 "_offset": report.first.offset}
                for key, report in reports if key not in self.bad and report.first is not None]
        if not rows:
            return CPU.empty()
        frame = pl.from_dicts(rows, infer_schema_length=None).sort("_line", maintain_order=True)
        frame = CPU.conform(frame).with_columns(frame.select("_line", "_offset"))
        kept, decided = settle_frame(frame, "cpu", self.tally, _where)
        if decided.repeats:
            self.tally.warnings.append(f"{decided.repeats} repeated CPU Activity reports (same "
                                       "system and interval) dropped")
        said_within("cpu", decided.conflicts, self.tally)
        return CPU.conform(kept)

    def _row(self, key: tuple[str, str, str], report: _Report, source: str) -> dict[str, Any]:
        h = report.header
        start = dt.datetime.strptime(f"{key[1]} {key[2]}", "%m/%d/%Y %H.%M.%S")
        row: dict[str, Any] = {
            "source": source, "source_format": SOURCE_FORMAT, "system": key[0],
            "zos_release": h.get("zos_release"), "interval_start": start,
            "interval_seconds": interval_seconds(h["interval"]),
            "cycle_seconds": float(h["cycle"]) if "cycle" in h else None,
            **{k: h.get(k) for k in ("machine_type", "model_capacity_id", "hardware_model",
                                     "cpc_sequence_code", "hiperdispatch")},
            "cpc_capacity_msu": int(h["cpc_capacity_msu"]) if "cpc_capacity_msu" in h else None,
        }
        part = self.partitions.get(key, {})
        row["lpar_name"] = part.get("lpar_name")
        capacity = part.get("image_capacity_msu")
        row["image_capacity_msu"] = int(capacity) if capacity is not None else None
        for prefix, _ in PROCESSOR_TYPES:
            row.update(per_type(prefix, [p for p in report.processors if p.prefix == prefix],
                                 report.totals.get(prefix)))
        return row


def _where(row: Mapping[str, Any]) -> tuple[str, dict[str, int | None]]:
    """A report's place in the listing: its first line (in messages, and an error's)."""
    return f"the report at line {row['_line']}", {"line": row["_line"],
                                                   "offset": row["_offset"]}


def titled_lines(data: bytes, *, careful: bool = False, asa: bool | None = None,
                 first_number: int = 1,
                 first_offset: int = 0) -> tuple[Listing, npt.NDArray[np.bool_]]:
    """The listing's lines, and which of them are report titles.

    The lines are taken column-wise (``listing_table``): on a 21 MB SYSOUT of
    Workload Activity pages with a CPU report this made the reader go from
    0.45 s (line by line) to 0.07 s.  A listing with odd characters is taken
    as ``listing_lines`` gives it (``careful`` does so for any listing):
    Python strips X'1C' to X'1F' from line ends, polars does not.  The title
    pattern means the same to polars and to ``re``, so one test serves both.
    For a piece of a listing: ``asa`` (the whole listing's) and where the piece
    starts, as :func:`listing_table` takes them.
    """
    listing = listing_table(data, asa=asa, first_number=first_number, first_offset=first_offset)
    if careful or not listing.printable:
        listing = Listing.of_lines(listing_lines(data, asa=asa))
        listing.numbers += first_number - 1
        listing.offsets += first_offset
    return listing, listing.text.str.contains(fields.ANY_TITLE.pattern).to_numpy()


def section_starts(listing: Listing, titled: npt.NDArray[np.bool_]) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Where the report sections start, and which lines are blank page starts.

    A section starts at a report title, or at the first non-blank line of a new
    page (a blank first line of a page hands the page start on to the next
    non-blank line).  Blank page starts belong to no section, nor do the lines
    before the first section.
    """
    nonblank = (listing.text.str.len_bytes() > 0).to_numpy()
    blank_page = listing.new_page & ~nonblank
    index = np.arange(len(listing), dtype=np.int64)
    last_blank_page = np.maximum.accumulate(np.where(blank_page, index, -1))
    last_nonblank = np.maximum.accumulate(np.where(nonblank, index, -1))
    pending = np.concatenate(([False], last_blank_page[:-1] > last_nonblank[:-1]))
    return np.flatnonzero(titled | (nonblank & (listing.new_page | pending))), blank_page


def read_cpu_activity(data: bytes, file: str,
                      on_error: OnError = "raise") -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read the CPU Activity reports of a listing into {'cpu': rows}, and a tally.

    Every report section of the listing is a record: CPU Activity and
    Partition Data pages are parsed, other reports counted as other.
    """
    tally = Tally(file, on_error)
    reader = _Reader(file, tally)
    reader.read(data)
    return {"cpu": reader.frame(file)}, tally


def _stream(chunks: Iterable[bytes], tally: Tally) -> Iterator[dict[str, pl.DataFrame]]:
    """The listing read in pieces; its rows at the end (one per system and interval,
    few: a report's pages, and the Partition Data Report that names its partition,
    may come anywhere in the listing)."""
    reader = _Reader(tally.file, tally)
    reader.read_pieces(chunks)
    yield {"cpu": reader.frame(tally.file)}


_WORKLOAD_TITLE = re.compile(r"W O R K L O A D\s+A C T I V I T Y")


def sniff(text: str) -> bool:
    """A CPU Activity report title in the first part of the file, before any
    Workload Activity title (a SYSOUT that starts with WLMGL is a WLMGL listing
    whose CPU Activity pages that reader counts as other)."""
    cpu = fields.TITLE.search(text)
    if cpu is None:
        return False
    workload = _WORKLOAD_TITLE.search(text, 0, cpu.start())
    return workload is None


CPU_ACTIVITY = TextKind("rmf-cpu", "RMF Postprocessor CPU Activity report (listing)", ("cpu",),
                        sniff, read_cpu_activity, stream=_stream, listing=True)
