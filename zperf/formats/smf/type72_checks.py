"""Validation of SMF 72.3 records before decoding: every offset must fit.

Checks run vectorized over a batch and collect one reason per bad record;
the earliest bad record in the file is reported first, so ``raise`` names
the same record whatever the batch boundaries.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats._tally import Tally
from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.physical import Batch

Ints = npt.NDArray[Any]


class Checks:
    """Collects per-record reasons; the earliest bad record is reported first."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.ok = np.ones(len(batch.starts), dtype=bool)
        self.reasons: dict[int, str] = {}

    def fail(self, bad: npt.NDArray[np.bool_], message: object) -> None:
        """Mark records as bad; ``message(i)`` builds the reason of record ``i``."""
        for i in np.flatnonzero(bad & self.ok).tolist():
            self.reasons[i] = message(i)  # type: ignore[operator]
        self.ok &= ~bad

    def report(self, tally: Tally) -> None:
        b = self.batch
        for i in sorted(self.reasons):
            start, length = int(b.starts[i]), int(b.lengths[i])
            tally.problem(self.reasons[i], record=int(b.numbers[i]), offset=int(b.offsets[i]),
                          raw=bytes(b.data[start : start + length]))


def subset(batch: Batch, keep: npt.NDArray[np.bool_]) -> Batch:
    return Batch(batch.data, batch.starts[keep], batch.lengths[keep], batch.numbers[keep],
                 batch.offsets[keep])


def check_layout(batch: Batch, checks: Checks) -> tuple[npt.NDArray[np.void], dict[str, Ints]]:
    """Read header and triplets; fail records whose triplets do not fit them."""
    length = batch.lengths
    checks.fail(length < f72.RECORD_HEAD.size,
                lambda i: f"record is {length[i]} bytes, too short for the 72.3 header and "
                          f"triplets ({f72.RECORD_HEAD.size} bytes)")
    head = f72.RECORD_HEAD.gather(batch.data, batch.starts, available=length)
    trn = head["SMF72TRN"].astype(np.int64)
    checks.fail(trn < 5, lambda i: f"SMF72TRN is {trn[i]}: a 72.3 record has at least 5 "
                                   "triplets")
    trip: dict[str, Ints] = {}
    area_end = 28 + 8 * trn
    for k, name in enumerate(f72.SECTIONS):
        present = trn > k
        s = np.where(present, head[f"SMF72{name}S"].astype(np.int64), 0)
        ln = np.where(present, head[f"SMF72{name}L"].astype(np.int64), 0)
        n = np.where(present, head[f"SMF72{name}N"].astype(np.int64), 0)
        trip[name + "S"], trip[name + "L"], trip[name + "N"] = s, ln, n
        where = 28 + 8 * k
        checks.fail((n > 0) & ((s < area_end) | (s + ln * n > length)),
                    lambda i, s=s, ln=ln, n=n, name=name, where=where:
                    f"the {name} section triplet at +0x{where:X} (offset {s[i]}, length "
                    f"{ln[i]}, count {n[i]}) points outside the record ({length[i]} bytes)")
    need = (("PR", PRODUCT.end_of("SMF72SNM"), "product"),
            ("WM", f72.WMS_MIN_LENGTH, "workload manager control"))
    for name, minimum, text in need:
        checks.fail((trip[name + "N"] < 1) | (trip[name + "L"] < minimum),
                    lambda i, name=name, minimum=minimum, text=text:
                    f"the {text} section is missing or too short ({trip[name + 'L'][i]} "
                    f"bytes, count {trip[name + 'N'][i]}; {minimum} bytes needed)")
    checks.fail((trip["SCN"] > 0) & (trip["SCL"] < f72.SCS_MIN_LENGTH),
                lambda i: f"period sections are {trip['SCL'][i]} bytes, at least "
                          f"{f72.SCS_MIN_LENGTH} needed")
    checks.fail((trip["RTN"] > 0) & (trip["RTL"] < f72.RTS.size),
                lambda i: f"response time entries are {trip['RTL'][i]} bytes, "
                          f"{f72.RTS.size} needed")
    return head, trip


def check_periods(batch: Batch, trip: dict[str, Ints], checks: Checks) -> npt.NDArray[np.bool_]:
    """Every period must point at a response time entry the record has."""
    ok = checks.ok.copy()
    if not ok.any():
        return ok
    counts = np.where(ok, trip["SCN"], 0)
    rec = np.repeat(np.arange(len(counts)), counts)
    if rec.size == 0:
        return ok
    within = np.arange(rec.size) - np.repeat(np.cumsum(counts) - counts, counts)
    pstart = batch.starts[rec] + trip["SCS"][rec] + within * trip["SCL"][rec]
    raw = np.frombuffer(batch.data, dtype=np.uint8)
    crtx = raw[pstart].astype(np.int64) << 8 | raw[pstart + 1]
    bad_p = (crtx > 0) & (crtx >= trip["RTN"][rec])
    if bad_p.any():
        first: dict[int, int] = {}
        for p in np.flatnonzero(bad_p).tolist():
            first.setdefault(int(rec[p]), p)
        bad = np.zeros(len(counts), dtype=bool)
        bad[list(first)] = True
        checks.fail(bad, lambda i: f"period {within[first[i]] + 1} points to response time "
                    f"entry {crtx[first[i]]} but the record has {trip['RTN'][i]}")
    return checks.ok.copy()
