"""Column headings of IMS Performance Analyzer transit reports and extracts.

IMS PA lets users build their own report forms, and headings differ between
the printed Transaction Transit reports, the form-based LIST/SUMMARY reports,
their CSV extracts (headings or field names such as TRANCNT) and releases.
So a heading is not looked up as a whole: it is normalised to lower-case
words and matched against one pattern per ``ims_transit`` column, in an order
that settles overlaps ("Total CPU" is CPU, "Total" is the total transit
time).  The words also give

- the statistic: average (the default), maximum ("Max", "Peak") or, for CPU
  and DL/I calls, the total over all transactions ("Total CPU", "Sum");
- the time unit: ``(ms)``, ``sec``, ``us`` written in the heading or in a
  group heading above it.  When none is written the unit is an assumption
  that the reader reports.

Only the headings marked [V] in the team's notes were seen in IBM's
documentation (``Abend Count``, the field name ``TRANCNT``); the others are
the variants IMS PA and similar reports are known to print, so an
unrecognised heading is reported, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: (column, pattern over the normalised heading), first match wins.
RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern)) for name, pattern in (
        ("abend_count", r"\babend"),
        ("tran_per_sec", r"\bpersec\b|\brate\b|\btps\b"),
        ("ims_id", r"\bims ?id\b|\bimsid\b|\bsubsys(tem)?\b|\bims system\b"),
        ("tran_code", r"\btran ?(code|cd|cde)\b|\btrancode\b|\btrancd\b|\btrx ?code\b|"
                      r"^(tran|transaction|transaction name|tran name)$"),
        ("input_queue_ms", r"\binput ?q(ueue)?\b|\binq\b|\binputq\w*"),
        ("output_queue_ms", r"\boutput ?q(ueue)?\b|\boutq\b|\boutputq\w*"),
        ("program_exec_ms", r"\bprocess(ing)?\b|\bexec(ution)?\b|\bprog(ram)? exec|\bpgm exec"),
        ("cpu_ms", r"\bcpu\b"),
        ("dli_calls_per_tran", r"\bdli\b|\bdl1\b|\bdb calls?\b|\bdlicalls?\b"),
        ("program", r"^(program|pgm|psb|psb name|program name|pgm name|psb/pgm|psb pgm)$"),
        ("total_transit_ms", r"\btotal\b|\btransit\b|\bresp(onse)?\b|\bims resp"),
        ("tran_count", r"\bcount\b|\bcnt\b|\btrancnt\b|^trans$|^txns?$|^transactions$|"
                       r"\bnumber\b|\bcompleted\b"),
        ("interval_end", r"\b(end|stop|to)\b"),
        ("interval_start", r"\bstart\b|\bfrom\b|\binterval\b"),
        ("date", r"^date$"),
        ("time", r"^time( of day)?$"),
    ))
#: Columns whose values are times (converted to ms).
TIMES = frozenset({"input_queue_ms", "program_exec_ms", "output_queue_ms", "total_transit_ms",
                   "cpu_ms"})
#: Unit words -> factor to milliseconds.
UNITS = {"ms": 1.0, "msec": 1.0, "msecs": 1.0, "millisec": 1.0, "milliseconds": 1.0,
         "s": 1000.0, "sec": 1000.0, "secs": 1000.0, "seconds": 1000.0, "us": 1e-3,
         "usec": 1e-3, "usecs": 1e-3, "microsec": 1e-3, "microseconds": 1e-3, "µs": 1e-3}
_MAX = {"max", "maximum", "peak", "highest"}
_AVG = {"avg", "average", "mean"}
_SUM = {"sum", "tot"}


@dataclass(frozen=True)
class Heading:
    """What a column heading says: the column, the statistic, the unit (ms per unit)."""

    column: str | None  # None: not recognised
    stat: str  # 'avg', 'max' or 'sum'
    factor: float | None  # to ms; None when the heading states no unit
    text: str  # the heading as printed

    @property
    def name(self) -> str | None:
        """The ims_transit column this heading fills, or None."""
        if self.column is None:
            return None
        if self.column == "total_transit_ms" and self.stat == "max":
            return "total_transit_max_ms"
        if self.stat == "max":
            return None  # maxima of the other times are not kept
        return self.column


def normalise(text: str) -> list[str]:
    """Lower-case words of a heading: 'DL/I' is 'dli', a '/Sec' or 'per second' 'persec'."""
    low = text.lower().replace("µs", " us ")
    low = re.sub(r"dl\s*/\s*i", "dli", low)
    low = re.sub(r"/\s*s(ec(ond)?)?\b|\bper\s+sec(ond)?\b", " persec ", low)
    return re.sub(r"[^a-z0-9]+", " ", low).split()


def classify(text: str) -> Heading:
    """Classify one heading (with its group headings, if any, in front)."""
    words = normalise(text)
    unit = next((UNITS[w] for w in words if w in UNITS), None)
    stat = "max" if _MAX & set(words) else "avg"
    core = [w for w in words if w not in UNITS and w not in _MAX and w not in _AVG
            and w not in ("time", "times", "elapsed", "in")]
    joined = " ".join(core) or " ".join(words)
    for column, pattern in RULES:
        if pattern.search(joined):
            if column in ("cpu_ms", "dli_calls_per_tran") and (
                    _SUM & set(words) or re.search(r"\btotal\b", joined)):
                stat = "sum"
            return Heading(column, stat, unit, text)
    return Heading(None, stat, unit, text)


#: The headings the writer prints for each column (and that the reader must know).
CSV_HEADINGS = {
    "ims_id": "IMS ID", "interval_start": "Interval Start", "interval_end": "Interval End",
    "tran_code": "Trancode", "program": "Program", "tran_count": "Tran Count",
    "tran_per_sec": "Tran/Sec", "input_queue_ms": "InputQ Avg (ms)",
    "program_exec_ms": "Process Avg (ms)", "output_queue_ms": "OutputQ Avg (ms)",
    "total_transit_ms": "Total Avg (ms)", "total_transit_max_ms": "Total Max (ms)",
    "cpu_ms": "CPU Avg (ms)", "dli_calls_per_tran": "DL/I Calls Avg",
    "abend_count": "Abend Count",
}
#: The total line's label in the transaction code column.
TOTAL_LABEL = re.compile(r"^\W*(grand\s+)?totals?\W*$|^\W*all\W*$|^\*+$", re.I)
