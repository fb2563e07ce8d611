"""Build SMF 72.3 records from the parser's own field tables.

This is the build direction of :mod:`zperf.formats.smf.type72_fields`.  One
builder, :func:`assemble`, makes every record: records of one :class:`Shape`
(how many periods, distribution entries, a resource group, a reassembly area)
have the same length and triplets, so each section is filled column-wise into
its layout's numpy dtype for all of them at once and the records are cut from
one byte matrix.  The simulator's month of a sysplex
(:func:`build_many_type72_3`, millions of class periods, with or without a
response time distribution) and one class
interval of a test or a paper run
(:func:`~zperf.sim.writers.smf72_class.build_type72_3`, each record a matrix
of one row) go the same way, with the same section values
(:func:`clock_values`, :func:`product_values`, :func:`wms_values`).  The
R723SCS values of a period come from RMF-level figures by
:func:`~zperf.sim.writers.smf72_periods.period_columns`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from zperf.formats import encodings as dec
from zperf.formats.layout import Layout
from zperf.formats.smf import header as hdr
from zperf.formats.smf import type72_fields as f72
from zperf.sim.writers.smf_framing import SYSTEM_FLAGS, rmf_subsystem, smf_clock

Ints = npt.NDArray[np.int64]
Rows = npt.NDArray[np.void]


@dataclass(frozen=True)
class Coded:
    """A column given as distinct values and, per record, the index of its value
    (text for text fields, bytes for packed ones): each value is encoded once."""

    values: Sequence[str] | Sequence[bytes]
    codes: Ints


#: A field's value: the same for every record, or a column (Coded or an array).
Value = object


def _is_column(value: Value) -> bool:
    return (isinstance(value, Coded) and len(value.values) > 1) or (
        isinstance(value, np.ndarray) and value.ndim > 0)


def section_rows(layout: Layout, values: Mapping[str, Value], count: int,
                 encoding: str = dec.DEFAULT_ENCODING) -> Rows:
    """``count`` sections of ``layout``: constants (and columns of one distinct
    value) encoded once and repeated, columns filled."""
    constants = {k: v.values[0] if isinstance(v, Coded) else v
                 for k, v in values.items() if not _is_column(v)}
    hfp = [name for name in constants if layout.by_name[name].kind == "hfp"]
    template = layout.encode_many({k: v for k, v in constants.items() if k not in hfp}, 1,
                                  encoding)
    if hfp:  # one conversion for all of them (a period section has dozens)
        converted = dec.float_to_hfp(np.array([constants[k] for k in hfp], dtype=np.float64))
        for name, raw in zip(hfp, converted.tolist(), strict=True):
            template[name] = raw
    rows = np.repeat(template, count)
    for name, value in values.items():
        if not _is_column(value):
            continue
        item = layout.by_name[name]
        if isinstance(value, Coded):
            if item.kind == "text":
                table = np.array([dec.encode_text(str(v), item.length, encoding)
                                  for v in value.values], dtype=f"S{item.length}")
            else:  # packed: the values are the encoded bytes
                packed = b"".join(cast(Sequence[bytes], value.values))
                table = np.frombuffer(packed, dtype=np.uint8).reshape(-1, item.length)
            rows[name] = table[value.codes]
        elif item.kind == "hfp":
            rows[name] = dec.float_to_hfp(np.asarray(value, dtype=np.float64))
        else:
            rows[name] = value
    return rows


#: Bytes of the reassembly area after a broken record's product section: the area
#: and one information block per section kind (SMF72RAL).
REASSEMBLY_AREA = hdr.REASSEMBLY.size + hdr.REASSEMBLY_BLOCK.size * len(f72.REASSEMBLY_SECTIONS)


@dataclass(frozen=True)
class Shape:
    """What a 72.3 record carries besides its one product and WLM control section."""

    periods: int = 1
    period_length: int = f72.SCS.size
    resource_group: bool = False
    distribution_entries: int = 0
    broken: bool = False  # a piece of a broken record: reassembly area after the product

    def sections(self) -> dict[str, tuple[int, int]]:
        """Length of one section and number of sections, per triplet (SMF72xxL, SMF72xxN)."""
        product = hdr.PRODUCT.size + (REASSEMBLY_AREA if self.broken else 0)
        sizes = {"PR": (product, 1), "WM": (f72.WMS.size, 1),
                 "RG": (f72.RGS.size, 1) if self.resource_group else (0, 0),
                 "SC": (self.period_length, self.periods),
                 "RT": (f72.RTS.size, self.distribution_entries)}
        return {name: sizes.get(name, (0, 0)) for name in f72.SECTIONS}

    def triplets(self) -> tuple[dict[str, int], int]:
        """The triplet fields, and the record length (RDW included)."""
        offset = f72.RECORD_HEAD.size
        values = {"SMF72TRN": len(f72.SECTIONS)}
        for name, (length, count) in self.sections().items():
            values.update({f"SMF72{name}S": offset if count else 0, f"SMF72{name}L": length,
                           f"SMF72{name}N": count})
            offset += length * count
        return values, offset


@dataclass
class Sections:
    """The sections of ``n`` records of one shape, as rows of their layouts, in
    record order (``scs`` holds n * periods rows, ``rts`` n * entries, ``blocks``
    n * len(REASSEMBLY_SECTIONS)); None where the shape has none."""

    product: Rows
    wms: Rows
    scs: Rows
    rgs: Rows | None = None
    rts: Rows | None = None
    reassembly: Rows | None = None
    blocks: Rows | None = None


def _place(matrix: npt.NDArray[np.uint8], at: int, rows: Rows, length: int) -> int:
    """Write each record's run of sections (``length`` bytes each: cut or zero-padded)."""
    n = len(matrix)
    size = rows.dtype.itemsize
    count = len(rows) // n if n else 0
    if count == 0:
        return at
    region = matrix[:, at : at + count * length].reshape(n, count, length)
    source = rows.view(np.uint8).reshape(n, count, size)
    keep = min(size, length)
    region[:, :, :keep] = source[:, :, :keep]
    if length > keep:
        region[:, :, keep:] = 0
    return at + count * length


def assemble(shape: Shape, head: Mapping[str, Value], sections: Sections,
             encoding: str = dec.DEFAULT_ENCODING) -> npt.NDArray[np.uint8]:
    """The records, one per matrix row: header and triplets, then the sections in
    triplet order.  ``head`` holds the SMF header fields that vary (SMFTME,
    SMFDTE, SMFSID)."""
    n = len(sections.product)
    triplets, length = shape.triplets()
    head_rows = section_rows(f72.RECORD_HEAD, {
        "SMFLEN": length, "SMFFLG": SYSTEM_FLAGS | hdr.FLAG_SUBTYPES, "SMFRTY": 72,
        "SMFSSI": rmf_subsystem(72), "SMFSTY": 3, **triplets, **head}, n, encoding)
    matrix = np.empty((n, length), dtype=np.uint8)
    at = 0
    for rows, size in ((head_rows, f72.RECORD_HEAD.size), (sections.product, hdr.PRODUCT.size),
                       (sections.reassembly, hdr.REASSEMBLY.size),
                       (sections.blocks, hdr.REASSEMBLY_BLOCK.size),
                       (sections.wms, f72.WMS.size), (sections.rgs, f72.RGS.size),
                       (sections.scs, shape.period_length), (sections.rts, f72.RTS.size)):
        if rows is not None:
            at = _place(matrix, at, rows, size)
    if at != length:
        raise ValueError(f"the sections make {at} bytes, the shape {length}")
    return matrix


# ------------------------------------------------------------ section values


def clock_values(starts: Sequence[dt.datetime], start_codes: Ints,
                 interval_seconds: float) -> tuple[dict[str, Value], dict[str, Value]]:
    """Header (interval end, as SMF stamps the record) and product (interval start) times."""
    ends = [smf_clock(s + dt.timedelta(seconds=interval_seconds)) for s in starts]
    head: dict[str, Value] = {
        "SMFTME": np.array([tme for tme, _ in ends], dtype=np.int64)[start_codes],
        "SMFDTE": Coded([dte for _, dte in ends], start_codes)}
    product: dict[str, Value] = {
        "SMF72IST": Coded([dec.encode_time_of_day(s.hour * 3600 + s.minute * 60 + s.second)
                           for s in starts], start_codes),
        "SMF72DAT": Coded([dec.encode_smf_date(s.year, s.timetuple().tm_yday) for s in starts],
                          start_codes),
    }
    return head, product


def product_values(*, interval_seconds: float, zos_level: str, sysplex: Value,
                   system: Value) -> dict[str, Value]:
    """The RMF product section's fields, but the interval start (see :func:`clock_values`)."""
    return {
        "SMF72MFV": bytes.fromhex("240F"), "SMF72PRD": "RMF",
        "SMF72INT": dec.encode_rmf_duration(interval_seconds),
        "SMF72CYC": bytes.fromhex("0001000F"), "SMF72MVS": zos_level, "SMF72PRF": 0x04,
        "SMF72OIL": round(interval_seconds), "SMF72XNM": sysplex, "SMF72SNM": system,
    }


def wms_values(*, report_class: bool | npt.NDArray[np.bool_], policy: Value, workload: Value,
               class_name: Value, description: str = "", periods: int = 1,
               cpu_coefficient: int = 10000, srb_coefficient: int = 10000,
               ioc_coefficient: int = 0, mso_coefficient: int = 0, adj: int = 4000,
               nffs: int = 256, nffi: int = 256) -> dict[str, Value]:
    """The R723WMS fields of a class (normalization and MT capacity factors at 1)."""
    return {
        "R723MSCF": np.where(report_class, 0x80, 0), "R723MNSP": policy,
        "R723MWNM": workload, "R723MCNM": class_name, "R723MCDE": description,
        "R723MCPG": periods, "R723MCPU": cpu_coefficient, "R723MSRB": srb_coefficient,
        "R723MIOC": ioc_coefficient, "R723MMSO": mso_coefficient, "R723MADJ": adj,
        "R723NFFS": nffs, "R723NFFI": nffi, "R723MCF": 1024, "R723MCFS": 1024,
        "R723MCFI": 1024,
    }


# ------------------------------------------------------------ many records


def build_many_type72_3(
    *,
    system: Coded,
    sysplex: Coded,
    class_name: Coded,
    policy: Coded,
    workload: Coded,
    starts: Sequence[dt.datetime],
    start_codes: Ints,
    interval_seconds: float,
    report_class: npt.NDArray[np.bool_],
    periods: Mapping[str, npt.ArrayLike],
    zos_level: str = "ZV020400",
    adj: int = 4000,
    distribution: npt.ArrayLike | None = None,
    encoding: str = dec.DEFAULT_ENCODING,
) -> tuple[bytes, Ints]:
    """Records of one period each (no resource group), with their RDWs back to back,
    and their lengths.

    ``starts[start_codes[i]]`` is record i's interval start; ``periods`` holds
    R723SCS fields by IBM name, one value per record (or a scalar).  With
    ``distribution`` (one row of 14 bucket counts per record) every record also
    carries the response time distribution: the bucket map (entry 0,
    :data:`~zperf.formats.smf.type72_fields.RTD_MAP`) and the period's entry,
    which R723CRTX points at (R723RTDM, the midpoint, is the caller's:
    RMF writes the goal there); without it, none, as before.
    """
    n = len(start_codes)
    head, clock = clock_values(starts, start_codes, interval_seconds)
    scs: dict[str, object] = {"R723CPER": 1, **periods}
    shape = Shape()
    rts = None
    if distribution is not None:
        counts = np.asarray(distribution, dtype=np.int64).reshape(n, f72.RTD_BUCKETS)
        pairs = np.empty((n, 2, f72.RTD_BUCKETS), dtype=np.int64)
        pairs[:, 0] = f72.RTD_MAP
        pairs[:, 1] = counts
        entries = pairs.reshape(2 * n, f72.RTD_BUCKETS)
        rts = f72.RTS.encode_many({f"R723RB{b + 1:02d}": entries[:, b]
                                   for b in range(f72.RTD_BUCKETS)}, 2 * n, encoding)
        scs.setdefault("R723CRTX", 1)
        shape = Shape(distribution_entries=2)
    sections = Sections(
        product=section_rows(hdr.PRODUCT, {**product_values(
            interval_seconds=interval_seconds, zos_level=zos_level, sysplex=sysplex,
            system=system), **clock}, n, encoding),
        wms=section_rows(f72.WMS, wms_values(
            report_class=report_class, policy=policy, workload=workload,
            class_name=class_name, adj=adj), n, encoding),
        scs=section_rows(f72.SCS, scs, n, encoding), rts=rts)
    matrix = assemble(shape, {**head, "SMFSID": system}, sections, encoding)
    return matrix.tobytes(), np.full(n, matrix.shape[1], dtype=np.int64)
