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
    correlator; null where the field holds only padding (:func:`token_lengths`)."""
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    if m.shape[0] == 0:
        return pl.Series([], dtype=pl.String)
    return hex_prefixes(m, token_lengths(m))


def token_lengths(matrix: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """How many bytes of each row's token :func:`token_keys` keeps (0: only padding).

    Most rows are one of two kinds, each told at a glance: a blank field (its 8-byte
    words all X'00' or all X'40') and a z/OS Connect token (its length is in it);
    only the others are searched for their last byte that is not padding."""
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    rows, width = m.shape
    used = np.zeros(rows, dtype=np.int64)
    some = _maybe_used(m)
    held = m if some.size == rows else m[some]
    found = np.zeros(some.size, dtype=np.int64)
    other = np.ones(some.size, dtype=bool)
    if width >= CORRELATOR_AT:
        end = CORRELATOR_AT + (held[:, 4].astype(np.int64) << 8 | held[:, 5])
        baq = ((held[:, 0] == BAQ[0]) & (held[:, 1] == BAQ[1]) & (held[:, 2] == BAQ[2])
               & (end <= width))
        found[baq] = end[baq]
        other = ~baq
    if other.any():
        rest = held[other]
        padding = (rest == 0x00) | (rest == 0x40)
        found[other] = np.where(padding.all(axis=1), 0,
                                width - np.argmax(~padding[:, ::-1], axis=1))
    used[some] = found
    return used


#: An 8-byte word of padding of either kind.
_PAD_WORDS = np.array([0, 0x4040404040404040], dtype=np.uint64)


def _maybe_used(m: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """The rows that may hold more than padding: all but those whose 8-byte words are
    each all X'00' or all X'40' (a field of another width: all rows)."""
    rows, width = m.shape
    if width % 8:
        return np.arange(rows, dtype=np.int64)
    words = m.view(np.uint64)
    pure = (words == _PAD_WORDS[0]) | (words == _PAD_WORDS[1])
    return np.flatnonzero(~pure.all(axis=1))


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
