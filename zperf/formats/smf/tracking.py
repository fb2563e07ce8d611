"""The tracking token that joins a z/OS Connect request to the CICS tasks it drove.

z/OS Connect makes a 64-byte token per request sent to a system of record and
writes it in SMF 123 (TRACKING_TOKEN) and, from 3.0.99, in SMF 120.11 user data
103/104; CICS stores it as origin data (OADATA1 from z/OS Connect 3.0.30, in
OUSERCOR before).  The token is binary: EBCDIC 'BAQ', a version byte, the
correlator's length (2 bytes) and the correlator (sysplex, system, STCK),
then padding, X'40' since z/OS Connect 3.0.45 and X'00' before (IBM APAR
OA67194's example and field list).  Both sides are compared up to the end of
the correlator, so that the padding never decides a join; a token of another
shape (CICS TG's) is compared without its trailing padding bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa

#: EBCDIC 'BAQ': a z/OS Connect token.
BAQ = bytes.fromhex("C2C1D8")
#: Bytes before the correlator: product id (3), version (1), correlator length (2).
CORRELATOR_AT = 6


def token_keys(matrix: npt.NDArray[np.uint8]) -> pl.Series:
    """Each row's token (rows x width bytes) as upper-case hex up to the end of its
    correlator; null where the field holds only padding."""
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    rows, width = m.shape
    if rows == 0:
        return pl.Series([], dtype=pl.String)
    padding = (m == 0x00) | (m == 0x40)
    used = np.where(padding.all(axis=1), 0,
                    width - np.argmax(~padding[:, ::-1], axis=1))
    baq = (m[:, 0] == BAQ[0]) & (m[:, 1] == BAQ[1]) & (m[:, 2] == BAQ[2]) if width >= 6 \
        else np.zeros(rows, dtype=bool)
    if width >= CORRELATOR_AT:
        correlator = m[:, 4].astype(np.int64) << 8 | m[:, 5]
        end = CORRELATOR_AT + correlator
        baq &= end <= width
        used = np.where(baq, end, used)
    return hex_prefixes(m, used)


#: Each byte's two upper-case hex digits, as ASCII.
_HEX = np.array([list(f"{b:02X}".encode()) for b in range(256)], dtype=np.uint8)
#: The same two digits as one 2-byte value (in memory order): one lookup per byte.
_HEX_PAIRS = np.ascontiguousarray(_HEX).view(np.uint16).reshape(256)


def hex_prefixes(matrix: npt.NDArray[np.uint8], lengths: npt.NDArray[Any]) -> pl.Series:
    """The first ``lengths[i]`` bytes of each row as upper-case hex (null for 0).

    The digits of every byte are looked up at once and the ones kept are handed to
    Arrow as one string buffer: no Python, and no string work, per row."""
    rows, width = matrix.shape
    lengths = np.minimum(np.asarray(lengths, dtype=np.int64), width)
    longest = int(lengths.max()) if rows else 0
    if longest == 0:
        return pl.Series("token", [None] * rows, dtype=pl.String)
    digits = np.ascontiguousarray(_HEX_PAIRS[matrix[:, :longest]]).view(np.uint8).reshape(
        rows, 2 * longest)
    if int(lengths.min()) == longest:  # tokens of one shape: every digit kept
        data = digits.reshape(-1)
    else:
        data = digits[np.arange(2 * longest) < (2 * lengths)[:, None]]
    offsets = np.zeros(rows + 1, dtype=np.int32)
    np.cumsum(2 * lengths, out=offsets[1:])
    valid = lengths > 0
    mask = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    array = pa.StringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data), mask)
    return pl.Series("token", pl.from_arrow(array))
