"""What the SMF 70.1 and 72.3 record checks share: the reasons collected per
record, and the check that every section a triplet describes lies in the record.

RMF records (types 70 to 79) locate their sections with triplets after the
standard header: SMFxxTRN at +0x18 counts them, and from +0x1C each is 8
bytes, the offset of the first section (4), the length of one (2) and their
number (2).  A damaged triplet must become one clear reason on its record
before any decoder reads through it, not an index error or a silently wrong
value later on.  Checks run vectorized over a batch of records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf.record_decoder import Batch
from zperf.formats.tally import Tally

Ints = npt.NDArray[Any]

#: Where the first triplet starts (after the 24-byte header, SMFxxTRN and 2 reserved bytes).
TRIPLETS_START = 28
#: Bytes per triplet: offset (4), length of one section (2), number of sections (2).
TRIPLET_SIZE = 8


class Checks:
    """Collects per-record reasons; the earliest bad record is reported first.

    The first reason found for a record is the one kept, so the order of the
    checks decides which of several faults a damaged record is reported for,
    and ``raise`` names the same record whatever the batch boundaries.
    """

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.ok = np.ones(len(batch.starts), dtype=bool)
        self.reasons: dict[int, str] = {}

    def fail(self, bad: npt.NDArray[np.bool_], message: object) -> None:
        """Mark records as bad; ``message(i)`` builds the reason of record ``i``."""
        for i in np.flatnonzero(bad & self.ok).tolist():
            self.reasons[i] = message(i)  # type: ignore[operator]
        self.ok &= ~bad

    def header(self, layout: Layout, what: str,
               part: str = "header") -> npt.NDArray[np.void]:
        """Each record's ``layout`` (its header) as gathered rows, failing the records
        shorter than it: "``what``: N bytes, shorter than its S-byte ``part``"."""
        b, size = self.batch, layout.size
        length = b.lengths
        self.fail(length < size,
                  lambda i: f"{what}: {length[i]} bytes, shorter than its {size}-byte {part}")
        return layout.gather(b.data, b.starts, available=np.minimum(length, size))

    def report(self, tally: Tally) -> None:
        b = self.batch
        for i in sorted(self.reasons):
            start, length = int(b.starts[i]), int(b.lengths[i])
            tally.problem(self.reasons[i], record=int(b.numbers[i]), offset=int(b.offsets[i]),
                          raw=bytes(b.data[start : start + length]), handed_on=True)


def subset(batch: Batch, keep: npt.NDArray[np.bool_]) -> Batch:
    """The records of ``batch`` where ``keep`` is true."""
    return Batch(batch.data, batch.starts[keep], batch.lengths[keep], batch.numbers[keep],
                 batch.offsets[keep])


def check_triplets(head: npt.NDArray[np.void], prefix: str, sections: Sequence[str],
                   checks: Checks, describe: Callable[[str], str] = str) -> dict[str, Ints]:
    """Read every section triplet of the batch and fail the records where one
    points outside the record.

    ``head`` holds each record's header and triplets as gathered rows with the
    fields ``{prefix}TRN`` and ``{prefix}{code}S``/``L``/``N`` for each code
    of ``sections``, in triplet order.  Sections of a record must start after
    its triplets and end within its length; a triplet the record does not have
    (older releases write fewer) is an absent section, offset, length and
    count 0, and a count of 0 is never checked.  ``describe(code)`` names the
    section in the reason, e.g. "the SC section triplet at +0x3C (offset 1400,
    length 792, count 1) points outside the record (1300 bytes)".

    Returns ``{code + 'S'|'L'|'N': values per record}`` as int64, so that
    offset + length x count cannot wrap.
    """
    length = checks.batch.lengths
    trn = head[f"{prefix}TRN"].astype(np.int64)
    area_end = TRIPLETS_START + TRIPLET_SIZE * trn
    trip: dict[str, Ints] = {}
    words = _triplet_words(head, prefix, sections)
    for k, code in enumerate(sections):
        present = trn > k
        s, ln, n = (np.where(present, part, 0) for part in (
            words[2 * k], words[2 * k + 1] >> 16, words[2 * k + 1] & 0xFFFF))
        trip[code + "S"], trip[code + "L"], trip[code + "N"] = s, ln, n
        where, label = TRIPLETS_START + TRIPLET_SIZE * k, describe(code)
        checks.fail((n > 0) & ((s < area_end) | (s + ln * n > length)),
                    lambda i, s=s, ln=ln, n=n, label=label, where=where:
                    f"the {label} section triplet at +0x{where:X} (offset {s[i]}, length "
                    f"{ln[i]}, count {n[i]}) points outside the record ({length[i]} bytes)")
    return trip


def _triplet_words(head: npt.NDArray[np.void], prefix: str, sections: Sequence[str]) -> Ints:
    """The triplets of every record as 4-byte words, one row per word: offset, then
    length and count (a word each triplet).

    The triplet area is copied out of the header rows once and turned on its side,
    so that each part is read from a row of its own rather than from every
    header row again (a cache line per record and part).
    """
    first = head.dtype.fields[f"{prefix}{sections[0]}S"][1]  # type: ignore[index]
    for k, code in enumerate(sections):  # the layout is the one the docstring above gives
        assert head.dtype.fields[f"{prefix}{code}S"][1] == first + TRIPLET_SIZE * k  # type: ignore[index]
    rows = np.ascontiguousarray(head).view(np.uint8).reshape(head.size, head.dtype.itemsize)
    area = np.ascontiguousarray(rows[:, first:first + TRIPLET_SIZE * len(sections)])
    return np.ascontiguousarray(area.view(">u4").astype(np.int64).T)


def interval_of(prod: npt.NDArray[np.void], prefix: str,
                checks: Checks) -> tuple[Ints, Ints, Ints]:
    """The RMF interval of each record from its product section (SMFxxDAT, SMFxxIST,
    SMFxxINT, packed decimal): start date, time of day and length; records where
    they are not valid fail with the printed bytes in the reason."""
    date, date_ok = dec.smf_date(prod[f"{prefix}DAT"])
    tod, tod_ok = dec.smf_time_of_day(prod[f"{prefix}IST"])
    interval, int_ok = dec.rmf_duration(prod[f"{prefix}INT"])
    checks.fail(~(date_ok & tod_ok), lambda i: f"interval start date or time ({prefix}DAT "
                f"{prod[f'{prefix}DAT'][i].tobytes().hex().upper()}, {prefix}IST "
                f"{prod[f'{prefix}IST'][i].tobytes().hex().upper()}) is not valid packed decimal")
    checks.fail(~int_ok | (interval <= 0), lambda i: f"interval length {prefix}INT "
                f"{prod[f'{prefix}INT'][i].tobytes().hex().upper()} is not a valid non-zero "
                "mmsstttF value")
    return date, tod, interval
