"""Delimited text (CSV and its cousins) read in bulk, with every record's position known.

Driver logs (JMeter JTL, request logs) run to gigabytes and IMS PA extracts
are CSV too, so the values are read by polars, column-wise.  What polars
does not say is *where* a bad row is, and it fills a short row with nulls
without a word.  So the file is first scanned with numpy for quotes,
delimiters and line ends (a quote-aware scan: a delimiter or line end inside
a quoted field does not count): that gives each record's byte offset and
field count.  Records with the wrong number of fields are reported and left
out before polars sees the text, and a bad value found later is reported
with its record's line number and byte offset.

Values are converted column-wise too: each column has a kind (integer,
number, boolean, text) and the first value that does not convert on a row
gives that row's problem text, built by polars expressions.  The driver
readers (request CSV, JMeter CSV and XML) also read each row's time stamp,
in one step with the values (:func:`typed_rows`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.fits import finite
from zperf.formats.tally import Tally
from zperf.formats.timestamps import parse as parse_times

CHUNK = 1 << 26  # bytes scanned at a time (bounds the scan's temporary memory)
SEPARATORS = ",;\t|"
TRUE_WORDS = ("true", "t", "yes", "y", "1", "ok")
FALSE_WORDS = ("false", "f", "no", "n", "0", "ko")
_WORDS = {**dict.fromkeys(TRUE_WORDS, True), **dict.fromkeys(FALSE_WORDS, False)}

Ints = npt.NDArray[np.int64]


@dataclass
class Records:
    """Where each record of a delimited file starts and ends, and its number of fields."""

    starts: Ints  # byte offset of the record's first byte
    ends: Ints  # byte offset just past its content (line end and CR excluded)
    fields: Ints  # delimiters outside quotes + 1
    unclosed: bool  # the last record ends inside a quoted field

    def __len__(self) -> int:
        return len(self.starts)

    def blank(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.ends == self.starts, dtype=np.bool_)


def scan(data: bytes, sep: str, first: int = 0, quote: str = '"') -> Records:
    """Find the records of ``data[first:]`` (see the module docstring)."""
    sep_b, quote_b = ord(sep), ord(quote)
    terms: list[Ints] = []
    counts: list[Ints] = []
    inside = 0  # parity: inside a quoted field at the chunk start
    open_seps = 0  # delimiters seen so far in the record still open
    for base in range(first, len(data), CHUNK):
        size = min(CHUNK, len(data) - base)
        arr = np.frombuffer(data, dtype=np.uint8, count=size, offset=base)
        quotes = np.flatnonzero(arr == quote_b)
        ends = np.flatnonzero(arr == 10)
        seps = np.flatnonzero(arr == sep_b)
        if len(quotes) or inside:  # keep only line ends and delimiters outside quotes
            ends = ends[(inside + np.searchsorted(quotes, ends)) % 2 == 0]
            seps = seps[(inside + np.searchsorted(quotes, seps)) % 2 == 0]
        # delimiters per record: those before each record end, less those before the last
        before = np.searchsorted(seps, ends).astype(np.int64)
        per = np.diff(np.concatenate(([0], before, [len(seps)])))
        per[0] += open_seps
        if len(ends):
            terms.append(ends.astype(np.int64) + base)
            counts.append(per[: len(ends)])
            open_seps = int(per[len(ends)])
        else:
            open_seps = int(per[0])
        inside = (inside + len(quotes)) % 2
    term = np.concatenate(terms) if terms else np.zeros(0, dtype=np.int64)
    fields = (np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)) + 1
    starts = np.concatenate(([first], term + 1)).astype(np.int64)
    ends_all = np.concatenate((term, [len(data)])).astype(np.int64)
    fields = np.concatenate((fields, [open_seps + 1])).astype(np.int64)
    if starts[-1] >= len(data):  # the file ends with a line end: no last record
        starts, ends_all, fields = starts[:-1], ends_all[:-1], fields[:-1]
    if len(ends_all):
        arr = np.frombuffer(data, dtype=np.uint8)
        before = np.maximum(ends_all - 1, 0)
        cr = (ends_all > starts) & (arr[before] == 13)
        ends_all = ends_all - cr.astype(np.int64)
    return Records(starts, ends_all, fields, unclosed=bool(inside))


def line_numbers(data: bytes, offsets: Sequence[int]) -> list[int]:
    """1-based line numbers of byte offsets (counted once through the file)."""
    out: dict[int, int] = {}
    line, pos = 1, 0
    for offset in sorted(set(offsets)):
        line += data.count(b"\n", pos, offset)
        pos = offset
        out[offset] = line
    return [out[o] for o in offsets]


def sniff_separator(header: str) -> str:
    """The delimiter of a header line: the most frequent of , ; tab |."""
    best = max(SEPARATORS, key=header.count)
    return best if header.count(best) else ","


def split_header(header: str, sep: str) -> list[str]:
    """The names of a header line (quoted names allowed), stripped."""
    try:
        row = next(csv.reader(io.StringIO(header, newline=""), delimiter=sep), [])
    except csv.Error:  # a stray quote or carriage return: plain split
        row = header.split(sep)
    return [name.strip().strip("\ufeff") for name in row]


def read_strings(data: bytes, records: Records, keep: Ints, names: Sequence[str],
                 sep: str) -> tuple[pl.DataFrame, Ints, list[tuple[int, str]]]:
    """The records at positions ``keep`` (all with len(names) fields) as string columns.

    Returns the frame, the records it holds and the problems of those it
    could not read.  polars reads the text in one go; if it splits the text
    differently from the scan (quotes in the middle of a field, which the
    scan and polars treat differently), each record is read on its own and
    those that do not give len(names) fields are reported.
    """
    schema: dict[str, pl.DataType] = dict.fromkeys(names, pl.String())
    if not len(keep):
        return pl.DataFrame(schema=schema), keep, []
    # Contiguous runs of kept records are passed as they are; gaps are cut out.
    breaks = np.flatnonzero(np.diff(keep) != 1)
    firsts = np.concatenate(([keep[0]], keep[breaks + 1]))
    lasts = np.concatenate((keep[breaks], [keep[-1]]))
    pieces = [data[records.starts[a]:records.ends[b]] for a, b in
              zip(firsts.tolist(), lasts.tolist(), strict=True)]
    text = pieces[0] if len(pieces) == 1 else b"\n".join(pieces)
    try:
        frame = pl.read_csv(io.BytesIO(text), has_header=False, separator=sep, quote_char='"',
                            infer_schema=False, new_columns=list(names), raise_if_empty=False)
        if frame.height == len(keep) and frame.width == len(names):
            return frame.cast(pl.String()), keep, []
    except pl.exceptions.PolarsError:
        pass
    rows: list[list[str]] = []
    good: list[int] = []
    problems: list[tuple[int, str]] = []
    for index in keep.tolist():
        record = data[records.starts[index]:records.ends[index]].decode("utf-8", "replace")
        try:
            fields = next(csv.reader(io.StringIO(record, newline=""), delimiter=sep,
                                     strict=True), [])
        except csv.Error as exc:
            problems.append((index, f"the quotes of this record do not pair up ({exc})"))
            continue
        if len(fields) != len(names):
            problems.append((index, f"{len(fields)} fields where the header has {len(names)} "
                                    "(a quote in the middle of a field?)"))
            continue
        rows.append(fields)
        good.append(index)
    frame = pl.DataFrame(rows, schema=list(schema), orient="row") if rows else pl.DataFrame(
        schema=schema)
    return frame, np.array(good, dtype=np.int64), problems


@dataclass
class Rows:
    """The data records of a delimited file: good ones as string columns, the rest reported."""

    frame: pl.DataFrame  # one row per good record
    index: Ints  # record index (into ``records``) of each frame row
    records: Records
    first: int  # index of the first data record (1 after a header line)
    problems: list[tuple[int, str]]  # (record index, what is wrong), file order
    blank: int  # empty lines among the data records

    @property
    def read(self) -> int:
        return len(self.records) - self.first


def read_rows(data: bytes, names: Sequence[str], sep: str, *, header: bool,
              start: int = 0) -> Rows:
    """Scan ``data[start:]`` and read every record with as many fields as ``names``."""
    records = scan(data, sep, start)
    first = 1 if header else 0
    idx = np.arange(first, len(records), dtype=np.int64)
    blank = records.blank()[first:]
    wrong = (records.fields[first:] != len(names)) & ~blank
    problems = [(int(i), f"{int(n)} fields where the header has {len(names)}")
                for i, n in zip(idx[wrong].tolist(), records.fields[first:][wrong].tolist(),
                                strict=True)]
    keep = idx[~wrong & ~blank]
    if records.unclosed and len(idx) and not blank[-1]:
        last = int(idx[-1])
        problems = [p for p in problems if p[0] != last]
        problems.append((last, "the file ends inside a quoted field (cut short, or a quote "
                               "is missing)"))
        keep = keep[keep != last]
    frame, keep, unread = read_strings(data, records, keep, names, sep)
    return Rows(frame, keep, records, first, problems + unread, int(blank.sum()))


def report(tally: Tally, data: bytes, rows: Rows, problems: Sequence[tuple[int, str]],
           what: str = "row") -> None:
    """Hand problems (record index, text) to the tally in file order, with their positions.

    A reason quotes the bad value, which can hold a line break (a quoted field
    that runs over lines): it is shown as ``\\n`` so that the message stays one line.
    """
    ordered = sorted(problems)
    offsets = [int(rows.records.starts[i]) for i, _ in ordered]
    lines = line_numbers(data, offsets)
    for (index, reason), offset, line in zip(ordered, offsets, lines, strict=True):
        end = int(rows.records.ends[index])
        one_line = reason.replace("\r", "\\r").replace("\n", "\\n")
        tally.problem(f"{what}: {one_line}", record=index - rows.first + 1, offset=offset,
                      line=line, raw=data[offset:end])


#: Value kinds of :func:`converted`.
INT, FLOAT, BOOL, TEXT = "int", "float", "bool", "text"


def _clean(name: str, thousands: bool) -> pl.Expr:
    """The text of a value to convert: blanks around it (and thousands' commas) taken
    off, null when nothing is left.  The column is named once (``replace``, not a
    when/then that names it twice)."""
    expr = pl.col(name).str.strip_chars()
    if thousands:
        expr = expr.str.replace_all(",", "", literal=True)
    return expr.replace("", None)


def _value(raw: pl.Expr, kind: str) -> pl.Expr:
    """A cleaned text converted to its kind (null where it does not convert)."""
    if kind == INT:
        return raw.str.to_integer(strict=False)
    if kind == FLOAT:
        return finite(raw.cast(pl.Float64, strict=False))
    return raw.str.to_lowercase().replace_strict(_WORDS, default=None, return_dtype=pl.Boolean)


#: What a value that does not convert is said not to be, by kind.
_KIND_WORDS = {INT: "a whole number", FLOAT: "a number", BOOL: "true or false"}
#: The prefix of a cleaned text's column beside the converted values (no file's
#: column name starts with a NUL).
_RAW = "\0raw:"


def converted(frame: pl.DataFrame, kinds: Mapping[str, str], *, required: Sequence[str] = (),
              thousands: bool = False,
              printed: Mapping[str, str] | None = None) -> tuple[pl.DataFrame, pl.Series]:
    """Convert string columns to their kinds; return the frame and each row's problem.

    The problem is null on a good row, else the first value (in column order)
    that does not convert, or the first required column left empty.
    ``printed`` gives the column names to use in messages (the file's own).
    Problem texts are built only for the rows that have one.

    Why three selects and not one: an eager select shares no sub-expression,
    so one select naming each cleaned text in its value, its check and its
    required check cleaned every text three or four times, and its fixed cost
    grew with every expression (a small file's read was mostly that); here each
    text is cleaned once, converted once, and the checks compare columns.
    """
    printed = printed or {}
    numeric = [name for name, kind in kinds.items() if kind != TEXT]
    cleaned = frame.select(_clean(name, thousands and kinds[name] in (INT, FLOAT)).alias(name)
                           for name in numeric)
    values = cleaned.select(_value(pl.col(name), kinds[name]).alias(name) for name in numeric)
    both = values.hstack(cleaned.rename({name: _RAW + name for name in numeric}))
    both = both.hstack([frame.get_column(name) for name, kind in kinds.items()
                        if kind == TEXT and name in required])
    flags: list[pl.Expr] = []
    reasons: list[pl.Expr] = []
    for name, kind in kinds.items():
        label = printed.get(name, name)
        raw = pl.col(name) if kind == TEXT else pl.col(_RAW + name)
        if kind != TEXT:
            bad = raw.is_not_null() & pl.col(name).is_null()
            flags.append(bad)
            reasons.append(pl.when(bad).then(pl.concat_str(  # not pl.format: braces in a label
                pl.col("\0text:" + name), pl.lit(f" under '{label}' is not {_KIND_WORDS[kind]}"))))
        if name in required:
            flags.append(raw.is_null())
            reasons.append(pl.when(raw.is_null()).then(pl.lit(f"no value under '{label}'")))
    out = pl.concat([frame.select(name for name, kind in kinds.items() if kind == TEXT),
                     values], how="horizontal").select(list(kinds))
    problems = pl.Series("problem", [None] * frame.height, dtype=pl.String)
    if not flags:
        return out, problems
    bad_rows = both.select(pl.any_horizontal(flags)).to_series()
    if bad_rows.any():
        index = bad_rows.arg_true()
        written = frame[index].select(pl.col(name).str.strip_chars().alias("\0text:" + name)
                                      for name in numeric)
        texts = both[index].hstack(written.get_columns()).select(
            pl.coalesce(reasons)).to_series()
        problems = problems.scatter(index, texts)
    return out, problems


#: The longest response time a driver log may give, ms (about 31 years; a longer one
#: is damage, and its end would not be a time).
MAX_ELAPSED_MS = 1e12


def typed_rows(frame: pl.DataFrame, kinds: Mapping[str, str], *, required: Sequence[str],
               time_column: str, time_name: str, pattern: str | None = None,
               timezone: str | None = None,
               elapsed: str | None = None) -> tuple[pl.DataFrame, list[tuple[int, str]]]:
    """A driver log's string columns as values: (the rows that read, [(row, problem)]).

    The good rows keep the converted ``kinds`` columns plus the time stamp of
    ``time_column`` parsed into ``time_name`` (``pattern`` and ``timezone`` as
    for :func:`zperf.formats.timestamps.parse`).  A bad row is given by its
    position in ``frame`` and one problem: its time stamp's if that does not
    read, else its first value's.  ``elapsed`` names the response time column
    (ms): a row whose response time is over MAX_ELAPSED_MS, or that would end
    after the year 9999, is bad too.
    """
    values, reasons = converted(frame, kinds, required=required)
    times = parse_times(frame.get_column(time_column), time_column, pattern=pattern,
                        timezone=timezone)
    checks = [times.problems, reasons]
    if elapsed is not None:
        checks.append(_elapsed_problems(values.get_column(elapsed), times.values,
                                        frame.get_column(elapsed), elapsed))
    reason = pl.select(pl.coalesce(checks)).to_series()
    problems = [(i, r) for i, r in enumerate(reason.to_list()) if r is not None]
    good = values.with_columns(times.values.alias(time_name)).filter(reason.is_null())
    return good, problems


def _elapsed_problems(ms: pl.Series, start: pl.Series, raw: pl.Series,
                      label: str) -> pl.Series:
    """Per row: why a response time cannot be one (negative, too long, or ending past
    9999); a negative one would end a sample before it began."""
    frame = pl.DataFrame({"ms": ms.cast(pl.Float64), "start": start, "raw": raw})
    too_long = pl.col("ms").abs() > MAX_ELAPSED_MS
    safe = pl.when(too_long | pl.col("ms").is_nan()).then(0.0).otherwise(pl.col("ms"))
    end = pl.col("start") + pl.duration(microseconds=(safe * 1000).round(0).cast(pl.Int64))
    return frame.select(
        pl.when(pl.col("ms") < 0).then(pl.concat_str(
            pl.col("raw").str.strip_chars(),
            pl.lit(f" under '{label}' is negative: not a response time")))
        .when(too_long).then(pl.concat_str(  # not pl.format: a label may hold braces
            pl.col("raw").str.strip_chars(),
            pl.lit(f" under '{label}' is not a response time (over 30 years)")))
        .when(end.dt.year() > 9999).then(pl.concat_str(
            pl.col("raw").str.strip_chars(),
            pl.lit(f" under '{label}' makes the sample end after the year 9999")))
        .otherwise(None)).to_series()
