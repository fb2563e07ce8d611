"""Validation of SMF 72.3 records before decoding: every offset must fit.

Checks run vectorized over a batch and collect one reason per bad record
(:class:`~zperf.formats.smf.record_checks.Checks`, shared with the 70.1
checks); the earliest bad record in the file is reported first, so ``raise``
names the same record whatever the batch boundaries.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.record_checks import Checks, Ints, check_triplets
from zperf.formats.smf.record_decoder import Batch


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
    trip = check_triplets(head, "SMF72", f72.SECTIONS, checks)
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
