"""Record layouts declared as tables of fields, for both directions.

A :class:`Layout` is a tuple of :class:`Field` rows (IBM name, offset, kind,
length, unit, description) compiled once into a big-endian numpy structured
dtype.  The parser slices sections out of the input and views them through
that dtype, so one numpy operation decodes a field for every row; the
simulator and the test encoder fill the same dtype and write its bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec


def _rows_at_every_byte(buf: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.void]:
    """``buf`` seen as ``size``-byte rows, one starting at every byte (no copy)."""
    return np.ndarray((buf.size - size + 1,), dtype=np.dtype((np.void, size)), buffer=buf,
                      offset=0, strides=(1,))


#: Kinds :meth:`Layout.columns` decodes straight from the taken bytes (as integers,
#: or HFP to float); the others go through :meth:`Layout.column`.
_INTEGER_KINDS = ("u1", "u2", "u4", "i4", "u8", "bits")
_DIRECT = (*_INTEGER_KINDS, "hfp")
#: Bytes of sections :meth:`Layout.columns` takes at a time: they, and the fields
#: converted from them, stay in the CPU's cache (measured: a third faster than
#: taking every section of a 16 MB batch at once).
COLUMNS_BLOCK_BYTES = 1 << 20


def take_rows(
    data: memoryview | bytes | bytearray,
    starts: npt.ArrayLike,
    size: int,
    available: npt.ArrayLike | None = None,
) -> npt.NDArray[np.void]:
    """``size`` bytes from every start offset of ``data``, as rows (``size``-byte voids).

    ``available`` gives how many bytes each section really has: the bytes past
    it are zeros (an older release's shorter section), as are bytes past the
    end of ``data``.

    One fancy-index take over a view of ``data`` that has a row starting
    at every byte (stride 1) copies all the sections at C speed, whatever
    their alignment; no Python runs per section.
    """
    starts = np.asarray(starts, dtype=np.int64)
    if starts.size == 0:
        return np.zeros(0, dtype=np.dtype((np.void, size)))
    buf = np.frombuffer(data, dtype=np.uint8)
    inside = starts <= buf.size - size
    rows: npt.NDArray[np.void]
    if bool(inside.all()):
        rows = _rows_at_every_byte(buf, size)[starts]
    else:  # a section near the end of the data: read it from a zero-padded tail
        rows = np.empty(starts.size, dtype=np.dtype((np.void, size)))
        if inside.any():
            rows[inside] = _rows_at_every_byte(buf, size)[starts[inside]]
        tail_from = max(0, buf.size - size)
        tail = np.concatenate([buf[tail_from:], np.zeros(size, dtype=np.uint8)])
        rows[~inside] = _rows_at_every_byte(tail, size)[starts[~inside] - tail_from]
        short = np.maximum(buf.size - starts, 0)
        available = short if available is None else np.minimum(available, short)
    if available is not None:
        short_rows = np.flatnonzero(np.asarray(available) < size)
        if short_rows.size:
            matrix = rows.view(np.uint8).reshape(-1, size)
            keep = np.arange(size) < np.asarray(available)[short_rows, None]
            matrix[short_rows] *= keep
    return rows


# kind -> (numpy format given a length, fixed length or None)
_KINDS: dict[str, tuple[str, int | None]] = {
    "u1": ("u1", 1),
    "u2": (">u2", 2),
    "u4": (">u4", 4),
    "i4": (">i4", 4),
    "u8": (">u8", 8),
    "bits": ("u1", 1),
    "hfp": (">u8", 8),
    "stck": (">u8", 8),
    "text": ("S{n}", None),
    "packed": ("({n},)u1", None),
}


@dataclass(frozen=True)
class Field:
    """One field of a record section.

    ``offset`` is 0-based from the start of the section, as IBM's mapping
    macros give it.  ``kind`` says how the bytes are encoded: u1/u2/u4/u8
    unsigned binary, i4 signed, bits (a flag byte), hfp (IBM hexadecimal
    floating point long), stck (time-of-day clock), text (EBCDIC), packed
    (packed decimal).
    """

    name: str
    offset: int
    kind: str
    length: int
    unit: str = ""
    description: str = ""

    def numpy_format(self) -> str:
        fmt, fixed = _KINDS[self.kind]
        if fixed is not None and fixed != self.length:
            raise ValueError(f"{self.name}: kind {self.kind} is {fixed} bytes, not {self.length}")
        return fmt.format(n=self.length)


class Layout:
    """A section layout: a name, a size and its fields, compiled to a dtype."""

    def __init__(self, name: str, size: int, fields: Sequence[Field]) -> None:
        self.name = name
        self.size = size
        self.fields = tuple(fields)
        self.by_name = {f.name: f for f in self.fields}
        if len(self.by_name) != len(self.fields):
            raise ValueError(f"{name}: duplicate field names")
        end = 0
        for f in sorted(self.fields, key=lambda f: f.offset):
            if f.offset < end:
                raise ValueError(f"{name}: field {f.name} at {f.offset} overlaps the one before")
            end = f.offset + f.length
        if end > size:
            raise ValueError(f"{name}: fields run to {end}, past the size {size}")
        self.dtype = np.dtype(
            {
                "names": [f.name for f in self.fields],
                "formats": [f.numpy_format() for f in self.fields],
                "offsets": [f.offset for f in self.fields],
                "itemsize": size,
            }
        )

    def offset_of(self, name: str) -> int:
        return self.by_name[name].offset

    def end_of(self, name: str) -> int:
        """First byte after field ``name``: the section length needed to hold it."""
        f = self.by_name[name]
        return f.offset + f.length

    # ------------------------------------------------------------ parsing

    def gather(
        self,
        data: memoryview | bytes | bytearray,
        starts: npt.NDArray[np.int64],
        available: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.void]:
        """Cut one section per start offset out of ``data`` and view them as rows.

        ``available`` gives how many bytes each section really has; a section
        shorter than the layout (an older release) is padded with zeros, one
        longer (a newer release) is cut to the fields this layout knows.
        """
        return take_rows(data, starts, self.size, available).view(self.dtype)

    def columns(
        self,
        data: memoryview | bytes | bytearray,
        starts: npt.NDArray[np.int64],
        names: Sequence[str],
        available: npt.NDArray[np.int64] | None = None,
    ) -> dict[str, npt.NDArray[Any]]:
        """The fields ``names`` of the section at every start, decoded: for each, what
        ``column(gather(data, starts, available), name)`` gives.

        Why not that: it is one numpy call per field and per block of sections,
        and a field read out of the gathered rows is a strided view that every
        later step reads again.  Here the sections are taken once, only up to
        the last byte a requested field needs (one fancy-index take of
        fixed-width rows); then the fields of each kind are written, byte-swapped,
        into one contiguous array of that kind (a row per field), and the HFP
        fields are converted all at once.  Python runs per field and per call,
        never per section.
        """
        fields = [self.by_name[name] for name in dict.fromkeys(names)]
        direct = [f for f in fields if f.kind in _DIRECT]
        out: dict[str, npt.NDArray[Any]] = {}
        if len(direct) < len(fields):  # text, stck, packed: through the rows
            rows = self.gather(data, starts, available)
            out.update({f.name: self.column(rows, f.name) for f in fields if f not in direct})
        if not direct:
            return {f.name: out[f.name] for f in fields}
        span = max(f.offset + f.length for f in direct)
        sub = np.dtype({"names": [f.name for f in direct],
                        "formats": [f.numpy_format() for f in direct],
                        "offsets": [f.offset for f in direct], "itemsize": span})
        starts = np.asarray(starts, dtype=np.int64)
        hfp = [f for f in direct if f.kind == "hfp"]
        ints = [f for f in direct if f.kind != "hfp"]
        floats = np.empty((len(hfp), starts.size), dtype=np.float64)
        integers = np.empty((len(ints), starts.size), dtype=np.int64)
        step = max(1, COLUMNS_BLOCK_BYTES // span)
        bits = np.empty((len(hfp), min(step, starts.size)), dtype=np.uint64)
        for lo in range(0, starts.size, step):
            hi = min(lo + step, starts.size)
            rows = take_rows(data, starts[lo:hi], span,
                             None if available is None else available[lo:hi]).view(sub)
            for k, f in enumerate(ints):
                integers[k, lo:hi] = rows[f.name]
            if hfp:
                part = bits[:, :hi - lo]
                for k, f in enumerate(hfp):
                    part[k] = rows[f.name]
                dec.hfp_to_float_into(part, floats[:, lo:hi])
        out.update(zip((f.name for f in hfp), floats, strict=True))
        out.update(zip((f.name for f in ints), integers, strict=True))
        return {f.name: out[f.name] for f in fields}

    def column(
        self, rows: npt.NDArray[np.void], name: str, encoding: str = dec.DEFAULT_ENCODING
    ) -> npt.NDArray[Any]:
        """Decode one field for every row, by its kind (HFP to float, text to str...)."""
        f = self.by_name[name]
        raw = rows[name]
        if f.kind == "hfp":
            return dec.hfp_to_float(raw)
        if f.kind == "text":
            return dec.decode_text(raw, encoding)
        if f.kind == "stck":
            return dec.stck_to_datetime(raw.astype(np.uint64))
        if f.kind == "packed":
            return np.asarray(raw, dtype=np.uint8)
        return raw.astype(np.int64)

    # ------------------------------------------------------------ building

    def encode_many(
        self, columns: Mapping[str, object], count: int, encoding: str = dec.DEFAULT_ENCODING
    ) -> npt.NDArray[np.void]:
        """Build ``count`` sections from field values (scalars or sequences).

        Unnamed fields and reserved bytes stay zero, as on z/OS.  Text is
        blank-padded EBCDIC, HFP and packed values are encoded here, so a
        caller gives plain numbers and strings.
        """
        rows = np.zeros(count, dtype=self.dtype)
        for name, value in columns.items():
            f = self.by_name.get(name)
            if f is None:
                raise KeyError(f"{self.name} has no field {name}")
            values = value if isinstance(value, (list, tuple, np.ndarray)) else [value] * count
            if f.kind == "hfp":
                rows[name] = dec.float_to_hfp(np.asarray(values, dtype=np.float64))
            elif f.kind == "text":
                rows[name] = [dec.encode_text(str(v), f.length, encoding) for v in values]
            elif f.kind == "packed":
                rows[name] = [np.frombuffer(v, dtype=np.uint8) for v in values]  # type: ignore[arg-type]
            else:
                rows[name] = values
        return rows

    def encode(self, values: Mapping[str, object], encoding: str = dec.DEFAULT_ENCODING) -> bytes:
        """Build one section's bytes."""
        return self.encode_many(values, 1, encoding).tobytes()
