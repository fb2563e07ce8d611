"""What the SMF record decoders share when they turn fields into table columns.

EBCDIC names repeat across millions of rows (system, class, workload), so a
text field is decoded once per distinct value and spread back; the z/OS
release of the RMF product section is printed as RMF prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

Ints = npt.NDArray[Any]


def text_column(raw: npt.NDArray[Any], index: Ints | None, encoding: str,
                convert: Any = None) -> pl.Series:
    """Decode an EBCDIC column once per distinct value, then spread it by ``index``
    (None: a row per field, in order)."""
    rows = raw.size if index is None else len(index)
    if raw.size == 0:
        return pl.Series([], dtype=pl.String).gather(
            np.asarray(np.arange(0) if index is None else index, dtype=np.int64))
    first, inverse = distinct_values(raw)
    texts = _decoded(raw[first], encoding, convert)
    if first.size == 1:  # one value (a blank field): no index to follow
        return texts.new_from_index(0, rows)
    # (indexing, not ``gather``: the same values without a query plan per column)
    return texts[inverse if index is None else inverse[index]]


def decoded_texts(values: npt.NDArray[Any], encoding: str) -> list[str | None]:
    """Each of a few fields decoded as the text columns hold it (a blank field is
    null, as in a listing)."""
    return [u.decode(encoding, errors="replace").strip(" \x00") or None
            for u in values.tolist()]


def _decoded(values: npt.NDArray[Any], encoding: str, convert: Any) -> pl.Series:
    """Each of a few fields decoded (see :func:`decoded_texts`), as a series."""
    texts = decoded_texts(values, encoding)
    if convert is not None:
        texts = [convert(t) for t in texts]
    return pl.Series(texts, dtype=pl.String)


#: A text field numbered by its distinct values: (the values as the column holds them,
#: the number of each record's).
Numbered = tuple[list[str | None], Ints]


def text_columns(fields: Mapping[str, npt.NDArray[Any]], index: Ints, encoding: str,
                 convert: Mapping[str, Callable[[str | None], str | None]] | None = None,
                 numbered: dict[str, Numbered] | None = None) -> dict[str, pl.Series]:
    """Decode several EBCDIC columns of the same rows (the names of a record: system,
    workload, class...), spread by ``index``, as :func:`text_column` does each.

    The fields are put side by side and the distinct rows of all of them are found
    at once: one pass over the rows instead of one per field (the names of a
    record come in few combinations: a class belongs to one workload on one
    system).  Each field is then decoded once per distinct value of the combinations.
    ``numbered``, when given, receives each field (not converted) as :data:`Numbered`,
    for a caller that needs the records' values again (the rows' keys).
    """
    raws = {name: np.asarray(raw) for name, raw in fields.items()}
    rows = next(iter(raws.values())).size
    if rows == 0:
        return {name: text_column(raw, index, encoding, (convert or {}).get(name))
                for name, raw in raws.items()}
    side_by_side = np.empty(rows, dtype=[(name, raw.dtype) for name, raw in raws.items()])
    for name, raw in raws.items():
        side_by_side[name] = raw
    first, inverse = distinct_rows(side_by_side)
    combination = inverse[index]
    out = {}
    for name, raw in raws.items():
        values, back = np.unique(raw[first], return_inverse=True)
        texts = decoded_texts(values, encoding)
        if numbered is not None:
            numbered[name] = texts, back.reshape(-1)[inverse]
        if (change := (convert or {}).get(name)) is not None:
            texts = [change(t) for t in texts]
        out[name] = pl.Series(texts, dtype=pl.String).gather(back.reshape(-1)[combination])
    return out


#: Fields of these widths are told apart as one unsigned integer each.
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def text_columns_apart(fields: Mapping[str, npt.NDArray[Any]], index: Ints,
                       encoding: str) -> dict[str, pl.Series]:
    """Several EBCDIC columns of the same rows, each decoded once per distinct value of
    its own, spread by ``index``.

    Where :func:`text_columns` finds the distinct combinations of the fields at once,
    which pays when a record's names come in few combinations (a class, its workload,
    its system), this takes each field apart: the names of SMF 30 are an address
    space's (job, job id, program, step), as many combinations as address spaces,
    and a field of 4 or 8 bytes is told apart as one integer (measured: a third of
    the time of the combined way on 2,000 address spaces)."""
    out = {}
    for name, raw in fields.items():
        raw = np.ascontiguousarray(raw)
        word = _WORDS.get(raw.dtype.itemsize)
        keys = raw.view(word) if word is not None and raw.size else raw
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        texts = decoded_texts(raw[first], encoding)
        out[name] = pl.Series(texts, dtype=pl.String).gather(inverse.reshape(-1)[index])
    return out


#: Odd multipliers that mix the 8-byte words of a long field into one key.
_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                 0xD6E8FEB86659FD93], dtype=np.uint64)


def distinct_rows(raw: npt.NDArray[Any]) -> tuple[Ints, Ints]:
    """(a row holding each distinct value, in the order of the values' keys; the
    distinct value of every row).

    The bytes of a field are read as 8-byte words; a longer field's words are
    mixed into one key, and the grouping is checked against the words
    themselves (a collision falls back to comparing whole fields).  Distinct
    keys are found by sorting the keys (numpy: at the few thousand rows of a batch,
    faster than a hash table that a thread pool fills).
    """
    width, n = raw.dtype.itemsize, raw.size
    words = -(-width // 8)
    padded = np.zeros((n, words * 8), dtype=np.uint8)
    padded[:, :width] = np.ascontiguousarray(raw).view(np.uint8).reshape(n, width)
    columns = padded.view(np.uint64)
    key = columns[:, 0].copy()
    for w in range(1, words):
        key = key * _MIX[(w - 1) % len(_MIX)] + columns[:, w]
    inverse = np.unique(key, return_inverse=True)[1].reshape(-1)
    first = _a_row_of_each(inverse)
    if words > 1 and not bool((columns == columns[first[inverse]]).all()):
        inverse = np.unique(padded.view(np.dtype((np.void, words * 8))).reshape(-1),
                            return_inverse=True)[1].reshape(-1)
        first = _a_row_of_each(inverse)
    return first, inverse


#: Values told apart by comparing every row with one value at a time, at most.
FEW = 8


def distinct_values(raw: npt.NDArray[Any]) -> tuple[Ints, Ints]:
    """As :func:`distinct_rows` (a row of each distinct value, the distinct value of
    every row), the distinct values in another order: the order rows first hold them.

    The fields of a CICS task (transaction, program, user, classes) hold a few values
    over millions of rows, most often one: every row is compared with the first row
    not yet numbered, one value after another (a pass over the rows left, no sort),
    up to :data:`FEW` values or while a pass numbers at least 1/16 of the rows left;
    the rest are sorted (:func:`distinct_rows`).  A field of 1 to 8 bytes is compared
    as one integer; a longer one only when all its rows are the same (a blank field)."""
    n, width = raw.size, raw.dtype.itemsize
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    as_bytes = np.ascontiguousarray(raw).view(np.uint8).reshape(n, width)
    word = _WORDS.get(width)
    if word is None:
        if bool((as_bytes == as_bytes[0]).all()):
            return np.zeros(1, dtype=np.int64), np.zeros(n, dtype=np.int64)
        return distinct_rows(raw)
    keys = as_bytes.view(word).reshape(n)
    inverse = np.empty(n, dtype=np.int64)
    firsts: list[int] = []
    left: Ints | None = None  # the rows not numbered yet (None: all of them)
    rest = keys
    while rest.size and len(firsts) < FEW:
        hit = rest == rest[0]
        taken = int(np.count_nonzero(hit))
        if taken == n:  # one value in all rows: a blank field, most often
            return np.zeros(1, dtype=np.int64), np.zeros(n, dtype=np.int64)
        if firsts and 16 * taken < rest.size:
            break
        code = len(firsts)
        if left is None:
            firsts.append(0)
            inverse[hit] = code
            left = np.flatnonzero(~hit)
        else:
            firsts.append(int(left[0]))
            inverse[left[hit]] = code
            left = left[~hit]
        rest = keys[left]
    if rest.size:
        assert left is not None
        first, back = distinct_rows(rest)
        inverse[left] = back + len(firsts)
        return np.concatenate((np.array(firsts, dtype=np.int64), left[first])), inverse
    return np.array(firsts, dtype=np.int64), inverse


def _a_row_of_each(inverse: Ints) -> Ints:
    """A row of each distinct value (the last one: no stable sort needed to find it)."""
    rows = np.empty(int(inverse.max()) + 1 if inverse.size else 0, dtype=np.int64)
    rows[inverse] = np.arange(inverse.size, dtype=np.int64)
    return rows


def zos_release(mvs: str | None) -> str | None:
    """'ZV020400' -> 'V2R4' (as RMF prints the release); anything else as it is."""
    # isascii: a damaged byte can decode to a digit int() refuses ('¹' of cp037 0xDA).
    if mvs and len(mvs) >= 6 and mvs.startswith("ZV") and mvs[2:6].isascii() \
            and mvs[2:6].isdigit():
        return f"V{int(mvs[2:4])}R{int(mvs[4:6])}"
    return mvs or None


def local_times(raw: npt.NDArray[np.uint64], local: Ints) -> npt.NDArray[np.datetime64]:
    """TOD values (STCK, or an STCKE's TOD part) as local time stamps, ``local`` µs from
    UTC (the record's own CVTLDTO); NaT (null) where 0: not set, never 1900."""
    value = (raw >> np.uint64(12)).astype(np.int64)
    return np.where(raw == 0, np.datetime64("NaT", "us"), np.datetime64("1900-01-01", "us")
                    + (value + local).astype("timedelta64[us]"))
