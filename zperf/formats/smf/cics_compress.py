"""CICS monitoring record compression: z/OS CSRCESRV run-length encoding, both ways.

CICS (TS 3.2 on, ``COMPRESS=YES``, the default) compresses the data section of
its SMF 110.1 monitoring records with the z/OS service CSRCESRV; the SMF
header and the product section stay as they are, and SMFMNCRL in the product
section gives the compressed length (0: not compressed).  IBM documents the
service but not its format ("not an interface"); the format used here is the
one IBM's module prolog describes and users decoding CICS records on other
platforms confirm (IBM-MAIN, June 2013: Peter Relson, Massimo Biancucci,
Charles Mills; see docs/sources.md): a marker byte X'80', then runs, each
headed by a control byte.  Control byte high bit 0: the next ``n`` = 1..127
bytes are copied as they are; high bit 1: the next byte is repeated ``n`` =
its low 7 bits times.  A control byte with ``n`` = 0 is not described and is
taken as damage.

Two expanders give the same bytes and the same verdicts:

* :func:`expand`: one section, a loop per run in Python, each run one slice
  copy (the default, and what the tests compare the other with); a numpy
  walk of all sections in lockstep was tried and was slower, because a run's
  next control byte depends on the one before;
* :func:`expand_sections` with numba (the optional extra ``zperf[fast]``): one
  compiled loop over the runs of all sections; used when numba is importable,
  unless ``ZPERF_NUMBA=0``.

:func:`compress` is our encoder (tests and the simulator): runs of 3 or more
equal bytes become repeat runs; like CICS it says when the result would not
be smaller, so that the record is written uncompressed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats.layout import take_rows

Ints = npt.NDArray[np.int64]

#: First byte of a CSRCESRV-compressed stream.
MARKER = 0x80
#: Longest run one control byte describes.
MAX_RUN = 127
#: Shortest stretch of equal bytes our encoder writes as a repeat run (the
#: break-even of a repeat run, 2 bytes, against a literal stretch).
MIN_REPEAT = 3

#: Verdicts of an expansion, by code (0: good).
OK, NO_MARKER, ZERO_RUN, CUT_RUN, WRONG_LENGTH = range(5)


def verdict(code: int, at: int, produced: int, expected: int) -> str:
    """What is wrong with a compressed section, in words (``at``: the byte of the
    section where it was found)."""
    if code == NO_MARKER:
        return "does not start with X'80': not CSRCESRV-compressed data"
    if code == ZERO_RUN:
        return f"control byte at +{at} says a run of 0 bytes"
    if code == CUT_RUN:
        return f"the run at +{at} is cut by the end of the compressed data"
    return f"expands to {produced} bytes, not the {expected} its triplets describe"


class ExpandError(ValueError):
    """A compressed section that cannot be expanded: ``code`` (see :func:`verdict`),
    ``at`` the byte of the section where the damage was found."""

    def __init__(self, code: int, at: int, produced: int, expected: int) -> None:
        super().__init__(verdict(code, at, produced, expected))
        self.code, self.at = code, at


def expand(data: bytes | memoryview, expected: int | None = None,
           stop_at: int | None = None) -> bytes:
    """The bytes a CSRCESRV-compressed section stands for (raises :class:`ExpandError`).

    ``expected``: the length the output must have (the data section's length as
    the record's triplets describe it).  ``stop_at``: stop once that many bytes are
    out (what follows is not read, nor checked)."""
    data = bytes(data)
    if not data or data[0] != MARKER:
        raise ExpandError(NO_MARKER, 0, 0, expected or 0)
    out = bytearray()
    i, end = 1, len(data)
    while i < end and (stop_at is None or len(out) < stop_at):
        control = data[i]
        n = control & 0x7F
        if n == 0:
            raise ExpandError(ZERO_RUN, i, len(out), expected or 0)
        if control & 0x80:
            if i + 1 >= end:
                raise ExpandError(CUT_RUN, i, len(out), expected or 0)
            out += data[i + 1:i + 2] * n
            i += 2
        else:
            if i + 1 + n > end:
                raise ExpandError(CUT_RUN, i, len(out), expected or 0)
            out += data[i + 1:i + 1 + n]
            i += 1 + n
    if expected is not None and len(out) != expected:
        raise ExpandError(WRONG_LENGTH, end, len(out), expected)
    return bytes(out)


def compress(data: bytes | memoryview) -> bytes:
    """``data`` CSRCESRV-compressed (marker, then runs): stretches of at least
    :data:`MIN_REPEAT` equal bytes as repeat runs, the rest as literal runs."""
    data = bytes(data)
    out, _ = compress_sections(data, np.array([0]), np.array([len(data)]))
    return out.tobytes()


def compress_sections(data: bytes | bytearray | memoryview | npt.NDArray[np.uint8],
                      starts: npt.ArrayLike, lengths: npt.ArrayLike
                      ) -> tuple[npt.NDArray[np.uint8], Ints]:
    """Compress many sections of ``data`` at once (numpy over all their bytes, as
    :func:`compress` does one): the compressed sections one after the other, and
    where each starts (plus the end, so ``np.diff`` gives their lengths)."""
    buf = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    sections = starts.size
    # Every byte of the sections, in order, with the section it belongs to.
    section_of = np.repeat(np.arange(sections, dtype=np.int64), lengths)
    first_out = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    where = (np.arange(section_of.size, dtype=np.int64) - first_out[section_of]
             + starts[section_of])
    values = buf[where]
    # Runs of equal bytes (a run never crosses into the next section).
    begins = np.ones(values.size, dtype=bool)
    if values.size:
        begins[1:] = (values[1:] != values[:-1]) | (section_of[1:] != section_of[:-1])
    run_at = np.flatnonzero(begins)
    run_len = np.diff(np.append(run_at, values.size))
    run_section = section_of[run_at]
    is_long = run_len >= MIN_REPEAT
    # Short runs side by side (in one section) make one literal stretch.
    short = np.flatnonzero(~is_long)
    new_stretch = np.ones(short.size, dtype=bool)
    if short.size:
        new_stretch[1:] = (short[1:] != short[:-1] + 1) | \
            (run_section[short[1:]] != run_section[short[:-1]])
    stretch_first = short[new_stretch]
    stretch_len = np.add.reduceat(run_len[short], np.flatnonzero(new_stretch)) \
        if short.size else np.zeros(0, dtype=np.int64)
    # Tokens: (position in ``values``, bytes it covers, repeat?), split at MAX_RUN.
    tok_at, tok_len, tok_repeat = [], [], []
    for from_at, covers, kind in ((run_at[is_long], run_len[is_long], True),
                                  (run_at[stretch_first], stretch_len, False)):
        pieces = -(-covers // MAX_RUN)
        piece_of = np.repeat(np.arange(from_at.size), pieces)
        k = np.arange(piece_of.size) - np.repeat(np.cumsum(pieces) - pieces, pieces)
        tok_at.append(from_at[piece_of] + k * MAX_RUN)
        tok_len.append(np.minimum(MAX_RUN, covers[piece_of] - k * MAX_RUN))
        tok_repeat.append(np.full(piece_of.size, kind))
    at, length, repeat = (np.concatenate(x) for x in (tok_at, tok_len, tok_repeat))
    order = np.argsort(at, kind="stable")
    at, length, repeat = at[order], length[order], repeat[order]
    # The marker of each section goes before its first token.
    token_section = section_of[at] if at.size else np.zeros(0, dtype=np.int64)
    payload = np.where(repeat, 1, length)
    size = 1 + payload
    per_section = np.bincount(token_section, weights=size, minlength=sections).astype(np.int64) + 1
    out_starts = np.concatenate(([0], np.cumsum(per_section))).astype(np.int64)
    # Output position of each token's control byte: after its section's marker and
    # the tokens before it.
    before = np.cumsum(size) - size
    section_token_base = np.concatenate(([0], np.cumsum(np.bincount(
        token_section, weights=size, minlength=sections))[:-1])).astype(np.int64)
    head = out_starts[token_section] + 1 + before - section_token_base[token_section]
    out = np.empty(int(out_starts[-1]), dtype=np.uint8)
    out[out_starts[:-1]] = MARKER
    out[head] = np.where(repeat, 0x80 | length, length).astype(np.uint8)
    token_of = np.repeat(np.arange(at.size), payload)
    offset = np.arange(token_of.size) - np.repeat(np.cumsum(payload) - payload, payload)
    out[head[token_of] + 1 + offset] = values[at[token_of] + offset]
    return out, out_starts


# ---------------------------------------------------------------- many at once


def expand_sections(data: memoryview | bytes | bytearray, starts: Ints, lengths: Ints,
                    expected: Ints) -> tuple[npt.NDArray[np.uint8], Ints, Ints, Ints]:
    """Expand many compressed sections of ``data`` at once.

    ``starts``/``lengths`` locate each section, ``expected`` is the length each must
    expand to.  Returns (out, out_starts, codes, at): the good sections expanded one
    after the other in ``out`` (a bad one takes no room), where each starts, and
    per section the verdict code (:data:`OK`...) and the byte it names.
    """
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    expected = np.asarray(expected, dtype=np.int64)
    kernel = _numba_kernel()
    if kernel is not None:
        return _expand_numba(kernel, np.frombuffer(data, dtype=np.uint8), starts, lengths,
                             expected)
    return _expand_python(data, starts, lengths, expected)


def produced_lengths(data: memoryview | bytes | bytearray, starts: Ints,
                     lengths: Ints) -> Ints:
    """How long each section would expand to, or -1 where it cannot (for a message)."""
    out = np.full(starts.size, -1, dtype=np.int64)
    for k, (start, length) in enumerate(zip(starts.tolist(), lengths.tolist(), strict=True)):
        with contextlib.suppress(ExpandError):
            out[k] = len(expand(bytes(data[start:start + length])))
    return out


def _expand_python(data: memoryview | bytes | bytearray, starts: Ints, lengths: Ints,
                   expected: Ints, stop_at: Ints | None = None
                   ) -> tuple[npt.NDArray[np.uint8], Ints, Ints, Ints]:
    """Each section with :func:`expand` (a loop per run: CICS's records hold a few
    hundred runs, and a slice copies each run at C speed); a negative ``expected`` is
    not checked, and the section is expanded up to ``stop_at`` then."""
    out = bytearray()
    count = starts.size
    codes = np.zeros(count, dtype=np.int64)
    at = np.zeros(count, dtype=np.int64)
    out_starts = np.zeros(count, dtype=np.int64)
    view = memoryview(data)
    stops = [None] * count if stop_at is None else stop_at.tolist()
    for k, (start, length, size) in enumerate(zip(starts.tolist(), lengths.tolist(),
                                                  expected.tolist(), strict=True)):
        out_starts[k] = len(out)
        try:
            unchecked = size < 0 and stops[k] is not None
            out += expand(view[start:start + length], None if unchecked else size,
                          stops[k] if unchecked else None)
        except ExpandError as error:
            codes[k], at[k] = error.code, error.at
    return np.frombuffer(bytes(out), dtype=np.uint8), out_starts, codes, at


def _expand_numba(kernel: Callable[..., Any], buf: npt.NDArray[np.uint8], starts: Ints,
                  lengths: Ints, expected: Ints) -> tuple[npt.NDArray[np.uint8], Ints, Ints,
                                                          Ints]:
    sizes = np.maximum(expected, 0)
    out_starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    out = np.empty(int(sizes.sum()), dtype=np.uint8)
    codes = np.zeros(starts.size, dtype=np.int64)
    at = np.zeros(starts.size, dtype=np.int64)
    kernel(buf, starts, lengths, expected, out, out_starts, codes, at)
    if (codes != OK).any():  # squeeze out the room of bad sections
        good = codes == OK
        keep = np.repeat(good, sizes)
        out = out[keep]
        sizes = np.where(good, sizes, 0)
        out_starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    return out, out_starts, codes, at


def gather_sections(data: memoryview | bytes | bytearray, starts: Ints, lengths: Ints,
                    expected: Ints, first: Ints, step: Ints, count: Ints,
                    offsets: Ints, sizes: Ints, blocks: Ints | None = None
                    ) -> tuple[npt.NDArray[np.uint8], Ints, Ints]:
    """Some bytes of what many compressed sections expand to, without expanding them
    whole: of section ``k``, the records ``j < count[k]`` starting at ``first[k] +
    j * step[k]`` of the expanded section, of each the fields at ``offsets`` (sorted,
    apart) of ``sizes`` bytes.  Returns (rows, codes, at): one row per record, the
    fields side by side (a record of a bad section is zeros), and each section's
    verdict as :func:`expand_sections` gives it (``expected``: its whole length; a
    negative one is not checked, and the walk stops after the last field).

    ``blocks``, when given, lays the fields out field by field instead (what a column
    reader wants: each field of all records one run of memory): ``rows`` is then one
    buffer of records x sum(sizes) bytes, field ``f`` of record ``r`` at ``blocks[f] *
    records + r * sizes[f]`` (``blocks[f]``: the field's place, in bytes per record).

    With numba one compiled walk writes only the bytes asked for (the expanded
    records are 5-10 times the compressed ones, and most of their bytes are not
    read); without it each section is expanded and the fields taken from it.
    """
    starts, lengths, expected, first, step, count, offsets, sizes = (
        np.asarray(x, dtype=np.int64) for x in (starts, lengths, expected, first, step, count,
                                                offsets, sizes))
    width = int(sizes.sum())
    row_at = np.concatenate(([0], np.cumsum(count))).astype(np.int64)
    records = int(row_at[-1])
    if blocks is None:  # side by side: field f of record r at r * width + its column
        base = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        stride = np.full(sizes.size, width, dtype=np.int64)
    else:
        base, stride = np.asarray(blocks, dtype=np.int64) * records, sizes
    out = np.empty(records * width, dtype=np.uint8)
    codes = np.zeros(starts.size, dtype=np.int64)
    at = np.zeros(starts.size, dtype=np.int64)
    kernel = _numba_gather() if numba_wanted() else None
    if kernel is not None:
        kernel(np.frombuffer(data, dtype=np.uint8), starts, lengths, expected, first, step,
               count, offsets, sizes, base, stride, out, row_at, codes, at)
        bad = codes != OK  # what a bad section began to give, and its records' rest
        if bad.any():
            for field in _rows_of(out, base, stride, sizes):
                field[np.repeat(bad, count)] = 0
    else:
        # Without numba: the sections expanded (as far as the fields need when their
        # length is not checked), then every field of every record taken at once.
        need = np.where(count > 0, first + (count - 1) * step + offsets[-1] + sizes[-1], 0)
        got, out_starts, codes, at = _expand_python(data, starts, lengths, expected,
                                                    stop_at=need)
        good = codes == OK
        made = np.diff(np.append(out_starts, got.size))
        short = good & (made < need)
        codes[short], at[short] = WRONG_LENGTH, lengths[short]
        good &= ~short
        owner = np.repeat(np.arange(starts.size), np.where(good, count, 0))
        index = np.arange(owner.size) - (np.cumsum(np.where(good, count, 0))
                                         - np.where(good, count, 0))[owner]
        source = out_starts[owner] + first[owner] + index * step[owner]
        target = row_at[owner] + index
        fields = _rows_of(out, base, stride, sizes)
        for field, off, size in zip(fields, offsets.tolist(), sizes.tolist(), strict=True):
            field[np.repeat(~good, count)] = 0
            field[target] = take_rows(got.data, source + off, size).view(
                np.uint8).reshape(-1, size)
    return (out.reshape(records, width) if blocks is None else out), codes, at


def _rows_of(out: npt.NDArray[np.uint8], base: Ints, stride: Ints,
             sizes: Ints) -> list[npt.NDArray[np.uint8]]:
    """Each field of ``out`` (laid out as :func:`gather_sections` says) as a
    (records x size) view."""
    records = out.size // max(int(sizes.sum()), 1)
    return [np.lib.stride_tricks.as_strided(out[b:], (records, int(n)), (int(s), 1))
            for b, s, n in zip(base.tolist(), stride.tolist(), sizes.tolist(), strict=True)]


def numba_wanted() -> bool:
    """Whether the compiled expander may be used (``ZPERF_NUMBA=0`` says no)."""
    return os.environ.get("ZPERF_NUMBA", "1") != "0"


@cache
def _compiled() -> Callable[..., Any] | None:
    try:
        import numba  # the optional extra
    except ImportError:
        return None

    @numba.njit(cache=True, nogil=True)  # type: ignore[untyped-decorator,unused-ignore]
    def kernel(buf: Any, starts: Any, lengths: Any, expected: Any, out: Any,
               out_starts: Any, codes: Any, at: Any) -> None:  # pragma: no cover - compiled
        for k in range(starts.size):
            start, end = starts[k], starts[k] + lengths[k]
            limit = expected[k]
            o, base = 0, out_starts[k]
            if lengths[k] == 0 or buf[start] != MARKER:
                codes[k] = NO_MARKER
                continue
            i = start + 1
            bad = OK
            while i < end:
                control = buf[i]
                n = control & 0x7F
                if n == 0:
                    bad = ZERO_RUN
                    break
                if control & 0x80:
                    if i + 2 > end:
                        bad = CUT_RUN
                        break
                    value = buf[i + 1]
                    stop = min(o + n, limit)
                    for j in range(o, stop):
                        out[base + j] = value
                    o += n
                    i += 2
                else:
                    if i + 1 + n > end:
                        bad = CUT_RUN
                        break
                    stop = min(o + n, limit)
                    for j in range(o, stop):
                        out[base + j] = buf[i + 1 + j - o]
                    o += n
                    i += 1 + n
            if bad != OK:
                codes[k] = bad
                at[k] = i - start
            elif o != limit:
                codes[k] = WRONG_LENGTH
                at[k] = lengths[k]

    return kernel  # type: ignore[no-any-return,unused-ignore]


@cache
def _compiled_gather() -> Callable[..., Any] | None:
    try:
        import numba  # the optional extra
    except ImportError:
        return None

    @numba.njit(cache=True, nogil=True)  # type: ignore[untyped-decorator,unused-ignore]
    def kernel(buf: Any, starts: Any, lengths: Any, expected: Any, first: Any, step: Any,
               count: Any, offsets: Any, sizes: Any, base: Any, stride: Any, out: Any,
               row_at: Any, codes: Any, at: Any) -> None:  # pragma: no cover - compiled
        fields = offsets.size
        for k in range(starts.size):
            start, end = starts[k], starts[k] + lengths[k]
            if lengths[k] == 0 or buf[start] != MARKER:
                codes[k] = NO_MARKER
                continue
            n_rec = count[k]
            # the wanted range now: record j, field f, [lo, hi) of the expanded section
            j, f = 0, 0
            lo = first[k] + offsets[0]
            hi = lo + sizes[0]
            done = n_rec == 0 or fields == 0
            o = 0
            i = start + 1
            bad = OK
            while i < end:
                if done and expected[k] < 0:
                    break
                control = buf[i]
                n = control & 0x7F
                if n == 0:
                    bad = ZERO_RUN
                    break
                repeat = control & 0x80
                if repeat:
                    if i + 2 > end:
                        bad = CUT_RUN
                        break
                elif i + 1 + n > end:
                    bad = CUT_RUN
                    break
                run_end = o + n
                while not done and lo < run_end:
                    a = lo if lo > o else o
                    b = hi if hi < run_end else run_end
                    to = base[f] + (row_at[k] + j) * stride[f] + (a - lo)
                    if repeat:
                        value = buf[i + 1]
                        for x in range(b - a):
                            out[to + x] = value
                    else:
                        src = i + 1 + (a - o)
                        for x in range(b - a):
                            out[to + x] = buf[src + x]
                    if b < hi:
                        break  # the field goes on in the next run
                    f += 1
                    if f == fields:
                        f = 0
                        j += 1
                        if j == n_rec:
                            done = True
                            break
                    lo = first[k] + j * step[k] + offsets[f]
                    hi = lo + sizes[f]
                o = run_end
                i += 2 if repeat else 1 + n
            if bad != OK:
                codes[k] = bad
                at[k] = i - start
            elif not done or (expected[k] >= 0 and o != expected[k]):
                codes[k] = WRONG_LENGTH
                at[k] = lengths[k]

    return kernel  # type: ignore[no-any-return,unused-ignore]


def _numba_gather() -> Callable[..., Any] | None:
    return _compiled_gather() if numba_wanted() else None


def _numba_kernel() -> Callable[..., Any] | None:
    return _compiled() if numba_wanted() else None


def backend() -> str:
    """Which expander :func:`expand_sections` uses: 'numba' or 'python'."""
    return "numba" if _numba_kernel() is not None else "python"
