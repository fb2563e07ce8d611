"""IMS Performance Analyzer CSV extracts (form-based LIST/SUMMARY reports) into ims_transit.

IMS PA writes a form-based report's rows to a CSV extract with the form's
column headings (or its field names, such as TRANCODE and TRANCNT) in the
first line.  The columns are found by their headings (see
:mod:`zperf.formats.ims.pa_fields`), so any selection and order of fields
works; lines before the heading line (titles) are counted as other, headings
that mean nothing to ``ims_transit`` are reported as a warning, and a row
whose transaction code reads "Total" is kept as the total line.

Times are converted to ms from the unit the heading states; when a heading
states none, ``time_unit`` is assumed and the tally says so.  CPU and DL/I
columns headed as totals ("Total CPU Time") are divided by the count.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): an extract is a
summary per transaction code and interval, and its heading is found first.
"""

from __future__ import annotations

import polars as pl

from zperf.calc.cpu import etr_per_sec
from zperf.errors import ParseError, UsageError
from zperf.formats import delimited as text
from zperf.formats.ims import pa_fields as fields
from zperf.formats.ims.pa_fields import Heading
from zperf.formats.kinds import TextKind
from zperf.formats.tally import OnError, Tally
from zperf.formats.timestamps import parse as parse_times
from zperf.tables.ims import IMS_TRANSIT

SOURCE_FORMAT = "ims-pa-csv"
#: How IMS PA prints dates and times (hh.mm.ss with dots), then ISO-like shapes.
TIME_FORMATS = ("%Y/%m/%d %H.%M.%S%.f", "%Y-%m-%d %H.%M.%S%.f", "%Y/%m/%d %H:%M:%S%.f",
                "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f", "%m/%d/%Y %H:%M:%S%.f",
                "%m/%d/%Y %H.%M.%S%.f", "%Y/%m/%d %H.%M", "%Y-%m-%d %H:%M")
HEAD_LINES = 50  # lines searched for the heading line
_INTS = frozenset({"tran_count", "abend_count"})
_TEXTS = frozenset({"tran_code", "program", "ims_id", "interval_start", "interval_end", "date",
                    "time"})


def _header_line(data: bytes) -> tuple[int, int, str, list[str]] | None:
    """(line index, byte offset, separator, names) of the heading line, if any."""
    offset = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    for index in range(HEAD_LINES):
        end = data.find(b"\n", offset)
        raw = data[offset:end if end >= 0 else len(data)]
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        sep = text.sniff_separator(line)
        if line.count(sep) >= 2:
            columns = {fields.classify(n).column for n in text.split_header(line, sep)}
            if "tran_code" in columns and columns & (fields.TIMES | {"tran_count"}):
                return index, offset, sep, text.split_header(line, sep)
        if end < 0:
            return None
        offset = end + 1
    return None


def _sniff(head: str) -> bool:
    return _header_line(head.encode("utf-8", errors="replace")) is not None


def read_ims_pa_csv(data: bytes, file: str, on_error: OnError = "raise", *,
                    time_unit: str = "ms",
                    timestamp_format: str | None = None) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read an IMS PA CSV extract into the ``ims_transit`` table.

    ``time_unit`` ('ms', 's' or 'us') is the unit of time columns whose
    headings state none; ``timestamp_format`` (strftime or Java pattern)
    reads interval times that are in none of the known shapes.
    """
    if time_unit not in fields.UNITS:
        raise UsageError(f"time_unit must be one of ms, s, us, not {time_unit!r}")
    tally = Tally(file, on_error)
    found = _header_line(data)
    if found is None:
        raise ParseError(file, "no heading line naming a transaction code and transit times "
                               f"in the first {HEAD_LINES} lines: not an IMS PA extract",
                         line=1, offset=0)
    skipped_lines, offset, sep, names = found
    unique = [f"{n}#{i}" for i, n in enumerate(names)]
    headings = [fields.classify(n) for n in names]
    chosen = _choose(headings, unique, tally, time_unit)
    rows = text.read_rows(data, unique, sep, header=True, start=offset)
    kinds = {col: (text.INT if name in _INTS else text.TEXT if name in _TEXTS else text.FLOAT)
             for name, (col, _) in chosen.items()}
    values, reasons = text.converted(rows.frame, kinds, thousands=True,
                                     printed=dict(zip(unique, names, strict=True)))
    frame, times_reason = _table(values, chosen, timestamp_format, file)
    reason = pl.select(pl.coalesce(times_reason, reasons)).to_series()
    code = chosen["tran_code"][0]
    repeated = (values.get_column(code).str.strip_chars() == names[unique.index(code)]).fill_null(
        False)
    bad = [(int(rows.index[i]), r) for i, r in enumerate(reason.to_list()) if r is not None]
    text.report(tally, data, rows, rows.problems + bad, "IMS PA row")
    frame = frame.filter(reason.is_null() & ~repeated)
    tally.count(parsed=frame.height, other=rows.blank + skipped_lines + int(repeated.sum()),
                what="blank, heading or repeated header line")
    return {"ims_transit": frame}, tally


def _choose(headings: list[Heading], unique: list[str], tally: Tally,
            time_unit: str) -> dict[str, tuple[str, Heading]]:
    """ims_transit column (or date/time part) -> (file column, heading); warn about the rest."""
    chosen: dict[str, tuple[str, Heading]] = {}
    unknown, unused, assumed = [], [], []
    for col, heading in zip(unique, headings, strict=True):
        name = heading.name
        if heading.column is None:
            unknown.append(heading.text)
        elif name is None or name in chosen:
            unused.append(heading.text)
        else:
            chosen[name] = (col, heading)
            if heading.column in fields.TIMES and heading.factor is None:
                assumed.append(heading.text)
    if unknown:
        tally.warnings.append(f"columns not recognised (left out): {', '.join(unknown)}")
    if unused:
        tally.warnings.append(f"columns recognised but not kept: {', '.join(unused)}")
    if assumed:
        tally.warnings.append(f"no time unit in the headings {', '.join(assumed)}: taken as "
                              f"{time_unit}")
    for name, (col, heading) in list(chosen.items()):
        if heading.column in fields.TIMES and heading.factor is None:
            chosen[name] = (col, Heading(heading.column, heading.stat,
                                         fields.UNITS[time_unit], heading.text))
    return chosen


def _table(values: pl.DataFrame, chosen: dict[str, tuple[str, Heading]],
           timestamp_format: str | None, file: str) -> tuple[pl.DataFrame, pl.Series]:
    """The ims_transit rows of the converted columns, and each row's time problem."""
    def col(name: str, dtype: pl.DataType | None = None) -> pl.Expr:
        if name in chosen:
            return pl.col(chosen[name][0])
        return pl.lit(None, dtype=dtype or pl.String())

    problems: list[pl.Series] = []
    start = _when(values, chosen, "interval_start", timestamp_format, problems)
    out = values.select(
        pl.lit(file).alias("source"), pl.lit(SOURCE_FORMAT).alias("source_format"),
        col("ims_id").str.strip_chars().alias("ims_id"),
        col("tran_code").str.strip_chars().alias("tran_code"),
        col("program").str.strip_chars().alias("program"),
        col("tran_count", pl.Int64()).alias("tran_count"),
        col("abend_count", pl.Int64()).alias("abend_count"),
        col("tran_per_sec", pl.Float64()).alias("tran_per_sec"),
        *(_scaled(chosen, name).alias(name) for name in
          ("input_queue_ms", "program_exec_ms", "output_queue_ms", "total_transit_ms",
           "total_transit_max_ms", "cpu_ms", "dli_calls_per_tran")),
    )
    end_values = _when(values, chosen, "interval_end", timestamp_format, problems)
    total = (out.get_column("tran_code").str.contains("(?i)" + fields.TOTAL_LABEL.pattern)
             .fill_null(False))
    out = out.with_columns(
        start.alias("interval_start"),
        ((end_values - start).dt.total_microseconds() / 1e6).alias("interval_seconds"),
        total.alias("is_total"),
        pl.when(total).then(None).otherwise(pl.col("tran_code")).alias("tran_code"))
    out = out.with_columns(pl.coalesce(
        pl.col("tran_per_sec"), etr_per_sec(pl.col("tran_count"), pl.col("interval_seconds"))
    ).alias("tran_per_sec"))
    reason = (pl.select(pl.coalesce(problems)).to_series() if problems
              else pl.Series([None] * values.height, dtype=pl.String))
    return IMS_TRANSIT.conform(out), reason


def _scaled(chosen: dict[str, tuple[str, Heading]], name: str) -> pl.Expr:
    if name not in chosen:
        return pl.lit(None, dtype=pl.Float64)
    column, heading = chosen[name]
    value = pl.col(column).cast(pl.Float64) * (heading.factor or 1.0)
    if heading.stat == "sum" and "tran_count" in chosen:
        count = pl.col(chosen["tran_count"][0])
        value = pl.when(count > 0).then(value / count).otherwise(None)
    elif heading.stat == "sum":
        value = pl.lit(None, dtype=pl.Float64)
    return value


def _when(values: pl.DataFrame, chosen: dict[str, tuple[str, Heading]], name: str,
          pattern: str | None, problems: list[pl.Series]) -> pl.Series:
    """Interval start or end: one date-time column, or a date and a time-of-day column.

    An empty value is null (a total line may print no time); a value that
    does not read adds a problem for its row.
    """
    date = values.get_column(chosen["date"][0]) if "date" in chosen else None
    if name in chosen:
        raw = values.get_column(chosen[name][0])
        label = chosen[name][1].text
    elif name == "interval_start" and "time" in chosen:
        raw = values.get_column(chosen["time"][0])
        label = chosen["time"][1].text
    else:
        return pl.Series([None] * values.height, dtype=pl.Datetime("us"))
    raw = raw.str.strip_chars()
    if date is not None and bool(raw.drop_nulls().str.contains(r"^\d{1,2}[.:]\d").all()):
        raw = date.str.strip_chars() + " " + raw  # a time of day on the row's date
    times = parse_times(raw, label, pattern=pattern, formats=TIME_FORMATS)
    empty = raw.is_null() | (raw == "")
    problems.append(pl.select(pl.when(empty).then(None).otherwise(times.problems)).to_series())
    return times.values


IMS_PA_CSV = TextKind(
    "ims-pa-csv", "IMS Performance Analyzer form-based LIST/SUMMARY report CSV extract, read "
    "by its headings (Trancode, Tran Count, InputQ, Process, OutputQ, Total, CPU, DL/I, "
    "Abend Count)", ("ims_transit",), _sniff, read_ims_pa_csv)

