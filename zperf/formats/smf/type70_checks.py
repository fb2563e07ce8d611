"""Validation of SMF 70.1 records before decoding: every offset and count must fit.

A damaged record can get many things wrong: a length too short for the
header, a triplet pointing past the end, sections too short for the fields
the decoder reads, a partition claiming logical processor sections the
record does not have, a processor naming a CPU type that is not there, two
partitions with the same number.  Each is one clear reason on the record
(collected by :class:`~zperf.formats.smf.record_checks.Checks`, which reports
the earliest bad record first), never an index error later on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.record_checks import Checks, Ints, check_triplets
from zperf.formats.smf.record_decoder import Batch

#: Sections the decoder needs, with the bytes each must have at least.
_MINIMUM = (("PR", f70.PRODUCT70.end_of("SMF70SNM")), ("CC", f70.CTL_MIN_LENGTH),
            ("CP", f70.CPU_MIN_LENGTH), ("BC", f70.BCT_MIN_LENGTH), ("BV", f70.BPD_MIN_LENGTH),
            ("CN", f70.CIS_MIN_LENGTH), ("CO", f70.LCS.size))
#: Fewer triplets than this cannot hold the CPU data sections.
MIN_TRIPLETS = 3


def check_layout(batch: Batch, checks: Checks) -> tuple[npt.NDArray[np.void], dict[str, Ints]]:
    """Read header and triplets; fail records whose triplets do not fit them.

    Triplets a record does not have (older releases write fewer) count as
    absent sections.  The returned counts are zero for failed records.
    """
    length = batch.lengths
    size = f70.RECORD_HEAD.size
    checks.fail(length < 28 + 8 * MIN_TRIPLETS,
                lambda i: f"record is {length[i]} bytes, too short for the 70.1 header and "
                          f"triplets ({28 + 8 * MIN_TRIPLETS} bytes at least)")
    head = f70.RECORD_HEAD.gather(batch.data, batch.starts, available=np.minimum(length, size))
    trn = head["SMF70TRN"].astype(np.int64)
    checks.fail(trn < MIN_TRIPLETS, lambda i: f"SMF70TRN is {trn[i]}: a 70.1 record has at "
                                              f"least {MIN_TRIPLETS} triplets")
    trip = check_triplets(head, "SMF70", f70.SECTIONS, checks, describe=f70.section_name)
    for code, minimum in _MINIMUM:
        needed = trip[code + "N"] > 0
        if code in ("PR", "CC"):
            needed = np.ones(len(length), dtype=bool)
            checks.fail(trip[code + "N"] != 1,
                        lambda i, code=code: f"the record has {trip[code + 'N'][i]} "
                        f"{f70.section_name(code)} sections, 1 expected")
        checks.fail(needed & (trip[code + "L"] < minimum),
                    lambda i, code=code, minimum=minimum:
                    f"{f70.section_name(code)} sections are {trip[code + 'L'][i]} bytes, at "
                    f"least {minimum} needed")
    for key in trip:
        if key.endswith("N"):
            trip[key] = np.where(checks.ok, trip[key], 0)
    return head, trip


def flatten(batch: Batch, trip: dict[str, Ints], code: str,
            layout: Any) -> tuple[npt.NDArray[np.void], Ints, Ints]:
    """Every section of one kind in the batch: (rows, record index, position in record)."""
    counts = trip[code + "N"]
    rec = np.repeat(np.arange(len(counts)), counts)
    within = np.arange(rec.size) - np.repeat(np.cumsum(counts) - counts, counts)
    starts = batch.starts[rec] + trip[code + "S"][rec] + within * trip[code + "L"][rec]
    rows = layout.gather(batch.data, starts, available=trip[code + "L"][rec])
    return rows, rec, within


def first_of(rec: Ints, records: int) -> npt.NDArray[np.bool_]:
    """Records with at least one True in a per-section mask given as record indices."""
    bad = np.zeros(records, dtype=bool)
    bad[rec] = True
    return bad


def check_partitions(parts: npt.NDArray[np.void], p_rec: Ints, p_pos: Ints,
                     names: npt.NDArray[Any], ptn: Ints, trip: dict[str, Ints],
                     checks: Checks) -> None:
    """Partitions must own logical processor sections the record has, in order."""
    bdn = parts["SMF70BDN"].astype(np.int64)
    bds = parts["SMF70BDS"].astype(np.int64)
    bvn = trip["BVN"][p_rec]
    outside = bds + bdn > bvn
    if outside.any():
        first = _first_per_record(outside, p_rec)
        checks.fail(first_of(p_rec[outside], len(checks.ok)),
                    lambda i: f"partition {p_pos[first[i]] + 1} ({names[first[i]]}) claims "
                    f"logical processor sections {bds[first[i]] + 1} to "
                    f"{bds[first[i]] + bdn[first[i]]} but the record has {bvn[first[i]]}")
    # The end of the sections claimed so far in the record (a running maximum
    # within each record: the record index in the high bits keeps them apart).
    base = p_rec.astype(np.int64) << 32
    claimed = np.maximum.accumulate(base + np.where(bdn > 0, bds + bdn, 0)) - base
    prev_end = np.where(p_pos > 0, np.roll(claimed, 1), 0)
    overlap = (p_pos > 0) & (bdn > 0) & (bds < prev_end)
    if overlap.any():
        first = _first_per_record(overlap, p_rec)
        checks.fail(first_of(p_rec[overlap], len(checks.ok)),
                    lambda i: f"partition {p_pos[first[i]] + 1} ({names[first[i]]}) starts at "
                    f"logical processor section {bds[first[i]] + 1}, inside the previous "
                    "partition's")
    own = (parts["SMF70LPN"].astype(np.int64) == ptn[p_rec]) & (names != "PHYSICAL")
    twice = np.bincount(p_rec[own], minlength=len(checks.ok)) > 1
    checks.fail(twice, lambda i: f"two partitions have the number of this system's partition "
                                 f"(SMF70PTN {ptn[i]})")


def check_processors(lps: npt.NDArray[np.void], v_rec: Ints, v_pos: Ints,
                     trip: dict[str, Ints], checks: Checks) -> None:
    """Each logical processor's type index must name a CPU-identification section."""
    cix = lps["SMF70CIX"].astype(np.int64)
    cnn = trip["CNN"][v_rec]
    bad = cix > cnn
    if bad.any():
        first = _first_per_record(bad, v_rec)
        checks.fail(first_of(v_rec[bad], len(checks.ok)),
                    lambda i: f"logical processor section {v_pos[first[i]] + 1} names "
                    f"CPU-identification section {cix[first[i]]} but the record has "
                    f"{cnn[first[i]]}")


def check_cores(cores: npt.NDArray[np.void], o_rec: Ints, o_pos: Ints,
                trip: dict[str, Ints], checks: Checks) -> None:
    """Each logical core's threads must be CPU data sections the record has."""
    skip = cores["SMF70_CPU_SKIP"].astype(np.int64)
    num = cores["SMF70_CPU_NUM"].astype(np.int64)
    cpn = trip["CPN"][o_rec]
    bad = (skip + num > cpn) | (num == 0)
    if bad.any():
        first = _first_per_record(bad, o_rec)
        checks.fail(first_of(o_rec[bad], len(checks.ok)),
                    lambda i: f"logical core section {o_pos[first[i]] + 1} claims CPU data "
                    f"sections {skip[first[i]] + 1} to {skip[first[i]] + num[first[i]]} but "
                    f"the record has {cpn[first[i]]}")


def _first_per_record(mask: npt.NDArray[np.bool_], rec: Ints) -> dict[int, int]:
    """record index -> index of its first flagged section."""
    first: dict[int, int] = {}
    for j in np.flatnonzero(mask).tolist():
        first.setdefault(int(rec[j]), j)
    return first
