"""The columns of a JMeter results file that has no header line.

JMeter writes a header only with ``jmeter.save.saveservice.print_field_names=
true`` (the default since 2.x; older releases and many test plans set it
false).  Without one, the columns are those the ``jmeter.save.saveservice.*``
properties switched on, in the fixed order of JMeter's CSVSaveService (a
property switched off leaves its column out).  So a headerless file's columns
come, in this order of preference, from:

1. the names the user gives (``--jtl-columns timeStamp,elapsed,...``);
2. the ``jmeter.properties`` / ``user.properties`` the run used
   (``--jmeter-properties FILE``): :func:`settings_from_properties`;
3. the default sets of JMeter 2.x to 5.x, recognised by their number of
   fields and by what the first records hold (a time stamp, an elapsed time,
   ``true``/``false`` where ``success`` stands, numbers where the counts
   stand): :func:`recognise`.

Sources: the order and the property names are JMeter's (``jmeter.properties``
shipped with 5.x, "Results file configuration"; the CSVSaveService column
order).  The default sets: 17 columns of JMeter 3.1 to 5.x (``sentBytes`` came
in 3.1), 16 of 3.0, and the reduced 12-, 10- and 9-column sets of 2.x seen in
public result files (jenkinsci/performance-plugin's ``JMeterCsvResults.csv``,
the headerless ``JENKINS-16627_CSV_instead_of_XML.jtl`` with latency and no
thread counts, copied to tests/data/public/, and a 2.x file with thread counts
and latency); tests/data/driver/README.md lists them.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

#: Every column JMeter's CSVSaveService writes, in its order, with the property that
#: switches it on and the property's default (JMeter 5.x).  ``grpThreads`` and
#: ``allThreads`` share ``thread_counts``; ``SampleCount`` and ``ErrorCount``
#: share ``sample_count``; ``timeStamp`` is left out by ``timestamp_format=none``.
SAVE_ORDER: tuple[tuple[str, str, bool], ...] = (
    ("timeStamp", "timestamp_format", True),
    ("elapsed", "time", True),
    ("label", "label", True),
    ("responseCode", "response_code", True),
    ("responseMessage", "response_message", True),
    ("threadName", "thread_name", True),
    ("dataType", "data_type", True),
    ("success", "successful", True),
    ("failureMessage", "assertion_results_failure_message", True),
    ("bytes", "bytes", True),
    ("sentBytes", "sent_bytes", True),
    ("grpThreads", "thread_counts", True),
    ("allThreads", "thread_counts", True),
    ("URL", "url", True),
    ("Filename", "filename", False),
    ("Latency", "latency", True),
    ("Encoding", "encoding", False),
    ("SampleCount", "sample_count", False),
    ("ErrorCount", "sample_count", False),
    ("Hostname", "hostname", False),
    ("IdleTime", "idle_time", True),
    ("Connect", "connect_time", True),
)
PREFIX = "jmeter.save.saveservice."

#: JMeter's default column sets, newest first: (releases, columns).
DEFAULT_SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("JMeter 3.1 to 5.x", ("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
                           "threadName", "dataType", "success", "failureMessage", "bytes",
                           "sentBytes", "grpThreads", "allThreads", "URL", "Latency",
                           "IdleTime", "Connect")),
    ("JMeter 3.0", ("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
                    "threadName", "dataType", "success", "failureMessage", "bytes",
                    "grpThreads", "allThreads", "URL", "Latency", "IdleTime", "Connect")),
    ("JMeter 2.x", ("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
                    "threadName", "dataType", "success", "bytes", "grpThreads", "allThreads",
                    "Latency")),
    ("JMeter 2.x", ("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
                    "threadName", "dataType", "success", "bytes", "Latency")),
    ("JMeter 2.x", ("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
                    "threadName", "dataType", "success", "bytes")),
)
#: Columns whose values must be whole numbers, and the booleans: what recognition checks.
_WHOLE = frozenset({"elapsed", "bytes", "sentBytes", "grpThreads", "allThreads", "Latency",
                    "IdleTime", "Connect", "SampleCount", "ErrorCount"})
_TIME = re.compile(r"^(?:\d{10,13}|\d{4}[/-]\d\d[/-]\d\d[ T]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?.*)$")
_BOOLEAN = frozenset({"true", "false"})
#: Records looked at to recognise a column set.
SAMPLE_RECORDS = 20


#: The property saying whether a sample's time stamp is its start (true) or its end.
#: JMeter's code defaults to false (the end: what JMeter 2.1 and older wrote, before
#: 2006); the jmeter.properties it ships sets it true (the start).
TIMESTAMP_START = "sampleresult.timestamp.start"


@dataclass(frozen=True)
class JtlSettings:
    """How a run wrote its results: columns (None: the file has a header), delimiter,
    time stamp format (None: epoch milliseconds), and whether a time stamp is a sample's
    "start" or "end" (None: not said)."""

    columns: tuple[str, ...] | None = None
    delimiter: str | None = None
    timestamp_format: str | None = None
    timestamp: str | None = None


def parse_properties(text: str) -> dict[str, str]:
    """A Java .properties file's keys and values (comments, ``key=value``, ``key:
    value``, ``key value``, continuation lines ending in a backslash, and the
    escapes ``\\t``, ``\\n``, ``\\\\``)."""
    out: dict[str, str] = {}
    logical: list[str] = []
    for raw in text.splitlines():
        line = raw.lstrip()
        if not logical and (not line or line[0] in "#!"):
            continue
        if line.endswith("\\") and not line.endswith("\\\\"):
            logical.append(line[:-1])
            continue
        logical.append(line)
        entry, logical = "".join(logical), []
        m = re.match(r"((?:\\.|[^=:\s\\])+)\s*[=:\s]?\s*(.*)$", entry)
        if m:
            out[_unescape(m.group(1))] = _unescape(m.group(2))
    return out


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m.group(1),
                                                                          m.group(1)), text)


def settings_from_properties(text: str) -> JtlSettings:
    """The columns, delimiter and time stamp format the ``jmeter.save.saveservice.*``
    settings of a jmeter.properties or user.properties give (JMeter's defaults for
    those not set), and what a time stamp is when ``sampleresult.timestamp.start`` is
    set.  With ``print_field_names`` true (the default) the file has a header, and only
    the delimiter and time format are taken from here."""
    every = parse_properties(text)
    props = {k[len(PREFIX):]: v if k.endswith("default_delimiter") else v.strip()
             for k, v in every.items() if k.startswith(PREFIX)}  # \t stays
    fmt = props.get("timestamp_format", "ms")
    columns = []
    for name, prop, default in SAVE_ORDER:
        if name == "timeStamp":
            on = fmt.lower() != "none"
        else:
            on = props.get(prop, str(default)).lower() == "true"
        if on:
            columns.append(name)
    header = props.get("print_field_names", "true").lower() == "true"
    delimiter = props.get("default_delimiter") or None
    if delimiter is not None and delimiter.lower() == "\\t":
        delimiter = "\t"
    start = every.get(TIMESTAMP_START)
    return JtlSettings(columns=None if header else tuple(columns), delimiter=delimiter,
                       timestamp_format=None if fmt.lower() in ("ms", "none") else fmt,
                       timestamp=None if start is None else (
                           "start" if start.strip().lower() == "true" else "end"))


def _fields(record: str, delimiter: str) -> list[str] | None:
    try:
        return next(csv.reader(io.StringIO(record, newline=""), delimiter=delimiter), [])
    except csv.Error:
        return None


def _fits(columns: Sequence[str], fields: list[str]) -> bool:
    """Do a record's values look like what JMeter writes under ``columns``?"""
    for name, value in zip(columns, fields, strict=True):
        value = value.strip()
        if name == "timeStamp" and not _TIME.match(value):
            return False
        if name in _WHOLE and value and not value.lstrip("-").isdigit():
            return False
        if name == "success" and value.lower() not in _BOOLEAN:
            return False
    return True


def recognise(records: Sequence[str], delimiter: str) -> tuple[str, tuple[str, ...]] | None:
    """The default set (releases, columns) whose number of fields the first records have
    and whose value kinds they hold, or None."""
    sample = [f for f in (_fields(r, delimiter) for r in records[:SAMPLE_RECORDS] if r.strip())
              if f is not None]
    if not sample:
        return None
    for releases, columns in DEFAULT_SETS:
        if all(len(f) == len(columns) and _fits(columns, f) for f in sample):
            return releases, columns
    return None


def known_counts() -> str:
    """'17 (JMeter 3.1 to 5.x), 16 (JMeter 3.0), 12, 10 or 9 (JMeter 2.x)' for messages."""
    by: dict[str, list[str]] = {}
    for releases, columns in DEFAULT_SETS:
        by.setdefault(releases, []).append(str(len(columns)))
    return ", ".join(", ".join(n[:-1]) + " or " * (len(n) > 1) + f"{n[-1]} ({r})"
                     for r, n in by.items())
