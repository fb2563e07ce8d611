"""Intervals read from more than one file (overlapping dumps), kept once.

Daily SMF dumps often overlap (both hold the hour around midnight), and a
capacity planner gives zperf a week of them at once.  Within a file the
decoders keep a repeated class period or CPU interval once
(:mod:`zperf.formats.smf.in_order`); across files :class:`AcrossFiles` does
the same, file after file in input order: a row whose key an earlier file
gave is dropped, with the rows that belong to it (the distribution of a
class period, the partitions of a CPU interval), and counted in a warning on
the file where it was dropped.  Without it the MSU/h of an overlapping hour,
its R4HA, the ETR and the CPU per transaction of a run counted it twice.

It works on the tables as read and on the tables ``zperf analyze`` keeps of
each file (:func:`zperf.runs.analysis.reduce_tables`), whose rows keep the
same keys; a table without its key columns is left as it is, and so are rows
without a system id (see :meth:`AcrossFiles.once`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import numpy as np
import polars as pl

from zperf.formats.tally import Tally

#: The tables whose rows are a measurement of one interval, and the columns that name it.
KEYS: dict[str, tuple[str, ...]] = {
    "workload": ("sysplex", "system", "interval_start", "class_kind", "class_name", "period"),
    "cpu": ("system", "interval_start"),
}
#: Tables whose rows belong to a row of another: (that table, the columns they share).
BELONGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "distribution": ("workload", KEYS["workload"]),
    # (analyze's per-file sums: every class of an interval a repeated class period is of)
    "performance": ("workload", ("sysplex", "system", "interval_start")),
    "captured": ("workload", ("system", "interval_start")),
    "cpu_lpar": ("cpu", KEYS["cpu"]),
    "limits": ("cpu", KEYS["cpu"]),
}
_WHAT = {"workload": "class period", "cpu": "CPU activity interval"}


class AcrossFiles:
    """What the files so far gave, file by file; :meth:`once` drops the repeats of a
    file's tables (or of a part of one), :meth:`end_file` closes the file and puts the
    count on its tally.

    A file is compared with the files before it only, not with itself (its decoders
    keep its own repeats once), and only with those whose intervals overlap its rows':
    a month of daily dumps compares each day with the day before.  Each key is kept
    as a 64-bit hash of its columns with the interval's start, so that a month of
    class periods (2.9 million) holds about 46 MB rather than the keys' 220.
    """

    def __init__(self, belongs: Mapping[str, tuple[str, tuple[str, ...]]] = BELONGS) -> None:
        #: The tables whose rows go with a dropped row (:data:`BELONGS`, or a caller's
        #: reduced tables, such as the activity report's).
        self.belongs = belongs
        self.done: dict[str, list[tuple[dt.datetime, dt.datetime, pl.Series]]] = {}
        self.current: dict[str, list[pl.DataFrame]] = {}
        self.dropped: dict[str, int] = {}

    def once(self, tables: Mapping[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        """``tables`` (one file's, or a part of one) without the rows an earlier file
        gave, and without the rows that belong to those."""
        out = dict(tables)
        for name, keys in KEYS.items():
            frame = out.get(name)
            if frame is None or frame.height == 0 or not set(keys) <= set(frame.columns):
                continue
            # Rows without a system id (a Workload Activity listing names the sysplex) are
            # not compared: the reports of two systems' SMF data for one sysplex and
            # interval hold different numbers under the same names.
            hashed = frame.select(pl.struct(keys).hash().alias("key"),
                                  pl.col("interval_start"),
                                  pl.col("system").is_not_null().alias("named"))
            named = hashed.filter("named")
            if named.height == 0:
                continue
            self.current.setdefault(name, []).append(named.select("key", "interval_start"))
            lo, hi = named["interval_start"].min(), named["interval_start"].max()
            earlier = [keys_of for first, last, keys_of in self.done.get(name, ())
                       if first <= hi and last >= lo]  # type: ignore[operator]
            if not earlier:
                continue
            seen = np.isin(hashed["key"].to_numpy(), pl.concat(earlier).to_numpy())
            repeated = hashed["named"] & pl.Series(seen)
            if not repeated.any():
                continue
            gone = frame.filter(repeated)
            out[name] = frame.filter(~repeated)
            self.dropped[name] = self.dropped.get(name, 0) + gone.height
            for other, (main, shared) in self.belongs.items():
                rows = out.get(other)
                if main == name and rows is not None and set(shared) <= set(rows.columns):
                    out[other] = rows.join(gone.select(shared).unique(), on=list(shared),
                                           how="anti", nulls_equal=True, maintain_order="left")
        return out

    def end_file(self, tally: Tally | None) -> None:
        """The file read so far is done: its keys are compared with the next files', and
        the repeats it lost are said on its ``tally``."""
        for name, parts in self.current.items():
            keys_of = pl.concat(parts)
            self.done.setdefault(name, []).append(
                (keys_of["interval_start"].min(), keys_of["interval_start"].max(),  # type: ignore[arg-type]
                 keys_of["key"]))
        self.current = {}
        if not self.dropped or tally is None:
            self.dropped = {}
            return
        counted = " and ".join(f"{n} {_WHAT[name]}{'s' if n != 1 else ''}"
                               for name, n in self.dropped.items())
        tally.warnings.append(f"{counted} already read from an earlier file (overlapping "
                              "dumps) dropped: each is counted once")
        self.dropped = {}
