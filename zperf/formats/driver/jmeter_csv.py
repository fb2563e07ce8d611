"""Apache JMeter results (JTL) in CSV form into the driver tables.

A JTL CSV has one line per sample, its columns chosen by the
``jmeter.save.saveservice.*`` properties, so it is read by its header names
(JMeter 5 writes 17 by default: timeStamp, elapsed, label, responseCode,
responseMessage, threadName, dataType, success, failureMessage, bytes,
sentBytes, grpThreads, allThreads, URL, Latency, IdleTime, Connect).  The
delimiter may be changed (``default_delimiter``), the header left out
(``print_field_names=false``: pass ``columns``), and the time stamp written
as epoch milliseconds (the default) or formatted (``timestamp_format``).
Fields holding the delimiter, quotes or line ends are quoted.

``timeStamp`` is the sample's start with the ``jmeter.properties`` JMeter has
shipped since 2006 (``sampleresult.timestamp.start=true``; JMeter 2.1 and
older wrote the end: apache/jmeter's own 2005 ``bin/testfiles/sample_log1.jtl``
makes sense only so) and its end when that property is false (JMeter's code
default): say which with ``timestamp``.  Transaction-controller samples
("Number of samples in transaction : n, ...") are the transactions when
the log has them and their child samples the page elements, so nothing is
counted twice; ``transactions`` names the labels to count instead.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): its rows are a
summary of every sample (percentiles over the run), whether labels are
transactions depends on whether any sample in the file is a transaction
controller's, and the time stamps are epoch milliseconds only when every
value is digits: decisions on the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import polars as pl

from zperf.errors import ParseError, UsageError
from zperf.formats import delimited as text
from zperf.formats.driver.intervals import summarise
from zperf.formats.driver.jmeter_columns import (
    DEFAULT_SETS,
    SAMPLE_RECORDS,
    SAVE_ORDER,
    known_counts,
    recognise,
)
from zperf.formats.kinds import TextKind
from zperf.formats.tally import OnError, Tally
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS

SOURCE_FORMAT = "jmeter-csv"
#: JMeter 5's default columns, in order (one of the sets a headerless file may have).
DEFAULT_COLUMNS = DEFAULT_SETS[0][1]
#: Columns JMeter may write, and the kind of their values.
KINDS: dict[str, str] = {
    "elapsed": text.INT, "label": text.TEXT, "responseCode": text.TEXT,
    "responseMessage": text.TEXT, "threadName": text.TEXT, "dataType": text.TEXT,
    "success": text.BOOL, "failureMessage": text.TEXT, "bytes": text.INT,
    "sentBytes": text.INT, "grpThreads": text.INT, "allThreads": text.INT, "URL": text.TEXT,
    "Latency": text.INT, "IdleTime": text.INT, "Connect": text.INT, "SampleCount": text.INT,
    "ErrorCount": text.INT, "Hostname": text.TEXT, "Encoding": text.TEXT,
    "Filename": text.TEXT,
}
#: The columns zperf uses (the others are known, not read).
USED = ("elapsed", "label", "responseMessage", "threadName", "success", "bytes", "sentBytes",
        "allThreads")
CONTROLLER_MESSAGE = "Number of samples in transaction"
#: The first line of a headerless file: a time stamp (epoch ms or formatted), the
#: delimiter, an elapsed time.
HEADERLESS = re.compile(r"^(?:\d{13}|\d{4}[/-]\d\d[/-]\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?)"
                        r"([,;\t|])\d+\1")


#: Column names only JMeter's CSVSaveService writes: a header of JMeter's names with one
#: of these is JMeter's even without timeStamp and elapsed (which a run may leave out).
_JMETER_ONLY = frozenset({"responseCode", "responseMessage", "threadName", "dataType",
                          "failureMessage", "sentBytes", "grpThreads", "allThreads", "Latency",
                          "IdleTime", "Connect", "SampleCount", "ErrorCount"})
_NAMES = frozenset(name for name, _, _ in SAVE_ORDER)


def is_header(line: str) -> bool:
    """Does a first line name JMeter's columns: timeStamp and elapsed, or three or more
    of JMeter's names and nothing else, one of them JMeter's own (responseCode...)?"""
    if "timeStamp" in line and "elapsed" in line:
        return True
    names = {n.strip().strip('"') for n in text.split_header(line, text.sniff_separator(line))}
    return len(names) >= 3 and names <= _NAMES and bool(names & _JMETER_ONLY)


def _sniff(head: str) -> bool:
    """A JMeter header line, or a headerless line starting with epoch ms and elapsed."""
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    return (is_header(first) and "<" not in first) or bool(HEADERLESS.match(first))


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def read_jmeter_csv(
    data: bytes, file: str, on_error: OnError = "raise", *,
    columns: Sequence[str] | None = None, delimiter: str | None = None,
    timestamp_format: str | None = None, timestamp: str = "start",
    timezone: str | None = None, transactions: Sequence[str] | None = None,
    interval_seconds: float = 60.0, sync_seconds: float = 0.0,
) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read a JTL CSV into the ``driver`` and ``driver_intervals`` tables.

    ``columns`` names the columns of a file without a header line (else
    JMeter's default sets are recognised: jmeter_columns.recognise);
    ``delimiter`` overrides the one found in the header; ``timestamp_format``
    (Java or strftime pattern) reads formatted time stamps; ``timestamp`` is
    'start' or 'end' (what timeStamp marks); ``timezone`` (IANA name) is the
    local time of epoch stamps; ``transactions`` lists the labels counted as
    transactions; ``interval_seconds`` and ``sync_seconds`` set the intervals.
    """
    tally = Tally(file, on_error)
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    first_line = data[start:data.find(b"\n", start) if b"\n" in data[start:] else len(data)]
    head = first_line.decode("utf-8", errors="replace").rstrip("\r")
    header = columns is None and is_header(head)
    sep = delimiter or text.sniff_separator(head)
    if header:
        names = text.split_header(head, sep)
    elif columns is not None:
        names = list(columns)
    else:
        names = _recognised(data, start, sep, file, tally)
    missing = [n for n in ("timeStamp", "elapsed") if n not in names]
    if missing:
        named = ' or '.join(missing)
        raise ParseError(file, f"the header names no {named}: the run left them out "
                               "(jmeter.save.saveservice.timestamp_format=none, time=false), "
                               "and zperf needs each sample's time stamp and elapsed time"
                         if header else f"the columns name no {named}: not a JMeter results "
                                        "file", line=1, offset=start)
    unused = [n for n in names if n not in KINDS and n != "timeStamp"]
    if unused:
        tally.warnings.append(f"columns not used: {', '.join(unused)}")
    unique = _unique(names)
    rows = text.read_rows(data, unique, sep, header=header, start=start)
    samples, problems, repeats = samples_of(
        rows.frame, timestamp_format=timestamp_format, timestamp=timestamp,
        timezone=timezone, transactions=transactions)
    bad = [(int(rows.index[i]), reason) for i, reason in problems]
    text.report(tally, data, rows, rows.problems + bad, "JMeter sample")
    tally.count(parsed=samples.height, other=rows.blank, what="blank line")
    tally.count(other=repeats, what="header line written again")
    if samples.height == 0:
        return {"driver": DRIVER.empty(), "driver_intervals": DRIVER_INTERVALS.empty()}, tally
    driver, intervals = summarise(samples, source=file, source_format=SOURCE_FORMAT,
                                  interval_seconds=interval_seconds, sync_seconds=sync_seconds,
                                  warnings=tally.warnings)
    return {"driver": driver, "driver_intervals": intervals}, tally


def _recognised(data: bytes, start: int, sep: str, file: str, tally: Tally) -> list[str]:
    """The columns of a headerless file: one of JMeter's default sets, by the number and
    kind of its first records' values (jmeter_columns.recognise)."""
    head = data[:start + (1 << 16)]
    found_records = text.scan(head, sep, start)  # quote-aware: a field may hold line ends
    count = min(len(found_records), SAMPLE_RECORDS)
    if len(head) < len(data) and count == len(found_records):
        count -= 1  # the last record of the head may be cut
    records = [head[found_records.starts[i]:found_records.ends[i]].decode("utf-8", "replace")
               for i in range(max(count, 1) if len(found_records) else 0)]
    found = recognise(records, sep)
    if found is None:
        fields = len(text.split_header(records[0], sep)) if records else 0
        raise ParseError(file, f"no JMeter header line (timeStamp, elapsed, ...), and the "
                               f"{fields} fields of its records are not one of JMeter's default "
                               f"column sets ({known_counts()} columns): name the columns "
                               "with --jtl-columns, or give the run's jmeter.properties with "
                               "--jmeter-properties", line=1, offset=start)
    releases, names = found
    tally.warnings.append(f"no header line: the {len(names)} columns taken as the default "
                          f"set of {releases} (--jtl-columns names others)")
    return list(names)


def samples_of(frame: pl.DataFrame, *, timestamp_format: str | None = None,
               timestamp: str = "start", timezone: str | None = None,
               transactions: Sequence[str] | None = None,
               ) -> tuple[pl.DataFrame, list[tuple[int, str]], int]:
    """JMeter string columns -> (samples, [(row, problem)], repeated header lines).

    Shared by the CSV and XML readers (the XML attributes are renamed to
    the CSV names first).
    """
    if timestamp not in ("start", "end"):
        raise UsageError(f"timestamp must be 'start' or 'end', not {timestamp!r}")
    repeated = frame.get_column("timeStamp").str.strip_chars() == "timeStamp"
    repeats = int(repeated.sum())
    if repeats:  # a header written again (JMeter appending to an existing file)
        frame = frame.with_row_index("__row__").filter(~repeated)
        rows = frame.get_column("__row__").to_list()
        frame = frame.drop("__row__")
    else:
        rows = list(range(frame.height))
    kinds = {n: KINDS[n] for n in USED if n in frame.columns}
    values, problems = text.typed_rows(frame, kinds, required=("elapsed",),
                                       time_column="timeStamp", time_name="__ts__",
                                       pattern=timestamp_format, timezone=timezone,
                                       elapsed="elapsed")
    return (_samples(values, timestamp, transactions), [(rows[i], r) for i, r in problems],
            repeats)


def _col(frame: pl.DataFrame, name: str, dtype: pl.DataType) -> pl.Expr:
    return pl.col(name) if name in frame.columns else pl.lit(None, dtype=dtype)


def _samples(values: pl.DataFrame, timestamp: str,
             transactions: Sequence[str] | None) -> pl.DataFrame:
    elapsed = pl.duration(milliseconds=pl.col("elapsed"))
    if timestamp == "start":
        start, end = pl.col("__ts__"), pl.col("__ts__") + elapsed
    else:
        start, end = pl.col("__ts__") - elapsed, pl.col("__ts__")
    message = _col(values, "responseMessage", pl.String())
    controller = message.fill_null("").str.starts_with(CONTROLLER_MESSAGE)
    label = _col(values, "label", pl.String())
    if transactions is not None:
        is_transaction = label.is_in(list(transactions)).fill_null(False)
    elif "responseMessage" in values.columns and bool(
            values.select(controller.any()).item()):
        is_transaction = controller
    else:
        is_transaction = pl.lit(True)
    return values.select(
        start.alias("start"), end.alias("end"),
        pl.col("elapsed").cast(pl.Float64).alias("elapsed_ms"),
        _col(values, "success", pl.Boolean()).fill_null(True).alias("success"),
        is_transaction.alias("is_transaction"), controller.not_().alias("is_element"),
        _col(values, "bytes", pl.Int64()).alias("bytes_read"),
        _col(values, "sentBytes", pl.Int64()).alias("bytes_written"),
        _col(values, "allThreads", pl.Int64()).alias("clients"),
        _col(values, "threadName", pl.String()).alias("thread"),
    )


JMETER_CSV = TextKind(
    "jmeter-csv", "Apache JMeter results (JTL) as CSV, read by its header (timeStamp, "
    "elapsed, label, success, bytes, ...; any delimiter; epoch or formatted times)",
    ("driver", "driver_intervals"), _sniff, read_jmeter_csv,
    options=("columns", "delimiter", "timestamp_format", "timestamp", "timezone"))
