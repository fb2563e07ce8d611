"""WebSphere Studio Workload Simulator (IWL engine) output into the driver table.

At the end of a run the engine prints its totals as messages
``IWLnnnnI label = value``: ``Run time = 00:05:04``, ``Transactions =
328969``, ``Transaction throughput = 1079.830 /s``, ``HTTP data read =
3305.795 MB``, ``HTTP avg. page element response time = 0.022`` (seconds)...
The message number does not say what a line is (IWL0059I is used for counts
and for a response time), so lines are keyed on their label; a trailing
``(...)`` on the value qualifies it (``= 0 (with all clients concurrently
running)``).  While the run goes, status lines ``# clients 25/25 | rd 13.7
MB/s | ... | pg 1009415 | web err 0`` (sometimes wrapped, the rest on a line
starting with ``|``) give the clients running; they carry no time, so the
engine log fills no interval table.

Every non-blank line is a record: known messages and status lines are
parsed, other lines (startup messages, echoed settings) are "other", and a
known label with a value that does not read is a problem.  A label seen a
second time starts a new run (several runs appended to one log).

Read whole, not in pieces (:mod:`zperf.formats.pieces`): a run's engine log
is small, and a label seen again anywhere starts a new run.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import polars as pl

from zperf.calc.cpu import etr_per_sec
from zperf.formats.kinds import TextKind
from zperf.formats.listing import Line, listing_lines
from zperf.formats.tally import OnError, Tally
from zperf.tables.driver import DRIVER

SOURCE_FORMAT = "driver-iwl"
MESSAGE = re.compile(r"^\s*(IWL\d{4}[A-Z]?)\s+(.*?)\s*$")
PAIR = re.compile(r"^(.+?)\s+=\s+(.+)$")
STATUS = re.compile(r"^\s*#\s*clients\s+(\d+)\s*/\s*(\d+)\s*(?:\||$)")
CONTINUED = re.compile(r"^\s*\|")
TIME_LIMIT = re.compile(r"Time limit of (\d+(?:\.\d+)?) seconds", re.I)
QUALIFIER = re.compile(r"^(.*?)\s*\((.+)\)\s*$")
NUMBER = r"[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)"
#: The largest count read (far above any run's; sums of a few still fit 64 bits) and
#: the longest run time.
MAX_COUNT = 10**15
MAX_RUN_SECONDS = 100 * 366 * 86400.0
_HMS = re.compile(r"^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$")
_RATIO = re.compile(r"^(\d+)\s*/\s*(\d+)$")
_VALUE = re.compile(rf"^({NUMBER})(?:\s+(\S+))?$")

#: Label (lower case; a qualifier in parentheses) -> (driver column, kind of value).
LABELS: dict[str, tuple[str, str]] = {
    "run time": ("run_seconds", "hms"),
    "clients completed": ("clients_completed", "ratio"),
    "page elements": ("page_elements", "count"),
    "page element throughput": ("page_elements_per_sec", "rate"),
    "transactions": ("transactions", "count"),
    "transaction throughput": ("transactions_per_sec", "rate"),
    "network i/o errors": ("network_errors", "count"),
    "web server errors": ("server_errors", "count"),
    "num of pages retrieved": ("pages", "count"),
    "page throughput": ("pages_per_sec", "rate"),
    "http data read": ("read_mb", "mb"),
    "http data written": ("written_mb", "mb"),
    "http avg. page element response time": ("resp_avg_ms", "seconds"),
    "http avg. page element response time (with all clients concurrently running)":
        ("resp_avg_all_running_ms", "seconds"),
}
#: Units a value may carry, per kind of value, and the factor to the column's unit.
UNITS: dict[str, dict[str, float]] = {
    "count": {"": 1.0},
    "rate": {"": 1.0, "/s": 1.0, "/sec": 1.0},
    "mb": {"": 1.0, "mb": 1.0, "kb": 1e-3, "gb": 1e3},
    "seconds": {"": 1000.0, "s": 1000.0, "sec": 1000.0, "seconds": 1000.0, "ms": 1.0},
}


class _BadValueError(Exception):
    """A known label with a value that does not read."""


def _sniff(head: str) -> bool:
    return any(MESSAGE.match(line) or STATUS.match(line) for line in head.splitlines()[:400])


def _key(label: str, value: str) -> tuple[str, str]:
    """(label key, value without its qualifier)."""
    key = " ".join(label.lower().split())
    m = QUALIFIER.match(value)
    if m:
        return f"{key} ({' '.join(m.group(2).lower().split())})", m.group(1)
    return key, value


def value_of(kind: str, text: str) -> Any:
    """A printed value in the unit of its column (see LABELS)."""
    if kind == "hms":
        m = _HMS.match(text)
        if not m:
            raise _BadValueError(f"{text!r} is not a run time hh:mm:ss")
        seconds = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
        if seconds > MAX_RUN_SECONDS:
            raise _BadValueError(f"{text!r} is not a run time hh:mm:ss (over a century)")
        return seconds
    if kind == "ratio":
        m = _RATIO.match(text)
        if not m:
            raise _BadValueError(f"{text!r} is not a count of the form done/total")
        return _count(text, m.group(1)), _count(text, m.group(2))
    m = _VALUE.match(text)
    if not m:
        raise _BadValueError(f"{text!r} is not a number")
    number, unit = m.group(1).replace(",", ""), (m.group(2) or "").lower()
    factors = UNITS[kind]
    if unit not in factors:
        raise _BadValueError(f"{text!r}: unit {m.group(2)!r} is not one of "
                             f"{', '.join(u for u in factors if u) or 'none'}")
    if kind == "count":
        if not number.lstrip("+-").isdigit():
            raise _BadValueError(f"{text!r} is not a whole number")
        return _count(text, number)
    value = float(number) * factors[unit]
    if not math.isfinite(value):
        raise _BadValueError(f"{text!r} is too large a number")
    return value


def _count(text: str, digits: str) -> int:
    """A count, at most MAX_COUNT (the sums of counts must still fit a 64-bit integer)."""
    value = int(digits)
    if abs(value) > MAX_COUNT:
        raise _BadValueError(f"{text!r} is too large a count")
    return value


def _status(text: str) -> dict[str, float]:
    """The 'name value' and 'name = value' items of a status line."""
    out: dict[str, float] = {}
    for item in text.split("|"):
        m = re.match(rf"^\s*(.*?)\s*(?:=\s*)?({NUMBER})(?:\s*/\s*(\d+))?\s*(?:MB/s)?\s*$", item)
        if m and m.group(1):
            name = " ".join(m.group(1).lstrip("#").lower().split())
            out[name] = float(m.group(2).replace(",", ""))
            if m.group(3):
                out[name + " total"] = float(m.group(3))
    return out


class _Runs:
    """The runs of one engine log, filled line by line."""

    def __init__(self, file: str, tally: Tally, start: dt.datetime | None) -> None:
        self.file, self.tally, self.start = file, tally, start
        self.rows: list[dict[str, Any]] = []
        self.current: dict[str, Any] = {}
        self.status_clients: int | None = None
        self.unknown: set[str] = set()

    def flush(self) -> None:
        if not self.current and self.status_clients is None:
            return
        row = dict(self.current)
        if row.get("clients") is None:
            row["clients"] = self.status_clients
        self.rows.append(row)
        self.current, self.status_clients = {}, None

    def line(self, line: Line) -> None:
        text = line.text
        if not text.strip():
            return
        try:
            used = self._line(text)
        except _BadValueError as bad:
            self.tally.problem(f"IWL engine output: {bad}", line=line.number,
                               offset=line.offset, raw=text.encode())
            return
        self.tally.count(parsed=int(used), other=int(not used),
                         what="line with no IWL total or client status")

    def _line(self, text: str) -> bool:
        status = STATUS.match(text)
        if status:
            if self.current:  # a new run is under way
                self.flush()
            self.status_clients = _count(text, status.group(2))
            _status(text[status.end():])  # checked for shape only
            return True
        if CONTINUED.match(text):
            return True
        m = MESSAGE.match(text)
        if not m:
            return False
        limit = TIME_LIMIT.search(m.group(2))
        if limit:
            self._set("time_limit_seconds", float(limit.group(1)))
            return True
        pair = PAIR.match(m.group(2))
        if not pair:
            return False
        key, value = _key(pair.group(1), pair.group(2).strip())
        if key not in LABELS:
            if key not in self.unknown:
                self.unknown.add(key)
                self.tally.warnings.append(f"IWL label not recognised: {pair.group(1)!r} "
                                           f"({m.group(1)})")
            return False
        column, kind = LABELS[key]
        parsed = value_of(kind, value)
        if kind == "ratio":
            self._set(column, parsed[0])
            self.current["clients"] = parsed[1]
        else:
            self._set(column, parsed)
        return True

    def _set(self, column: str, value: Any) -> None:
        if column in self.current:
            self.flush()
        self.current[column] = value

    def frame(self) -> pl.DataFrame:
        rows = []
        for number, run in enumerate(self.rows, start=1):
            row = {**run, "source": self.file, "source_format": SOURCE_FORMAT, "run": number,
                   "resp_basis": "page element"}
            errors = [run[c] for c in ("network_errors", "server_errors") if c in run]
            row["errors"] = sum(errors) if errors else None
            seconds = run.get("run_seconds")
            count = run.get("transactions")
            if row.get("transactions_per_sec") is None and count is not None and count >= 0 \
                    and seconds and seconds > 0:
                row["transactions_per_sec"] = etr_per_sec(count, seconds)
            if number == 1 and self.start is not None:
                row["run_start"] = self.start
                if seconds is not None:
                    row["run_end"] = self.start + dt.timedelta(seconds=seconds)
            rows.append(row)
        if not rows:
            return DRIVER.empty()
        return DRIVER.from_columns({c: [r.get(c) for r in rows] for c in DRIVER.names})


def read_iwl(data: bytes, file: str, on_error: OnError = "raise", *,
             start: dt.datetime | None = None) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read IWL engine output into the ``driver`` table (one row per run).

    The engine does not print when the run started; ``start`` (local time)
    fills ``run_start`` and ``run_end`` of the first run.
    """
    tally = Tally(file, on_error)
    runs = _Runs(file, tally, start)
    for line in listing_lines(data):
        runs.line(line)
    runs.flush()
    return {"driver": runs.frame()}, tally


DRIVER_IWL = TextKind(
    "driver-iwl", "WebSphere Studio Workload Simulator engine output: IWLnnnnI label = value "
    "totals (run time, transactions, throughput, MB, response time) and '# clients' status",
    ("driver",), _sniff, read_iwl, listing=True)
