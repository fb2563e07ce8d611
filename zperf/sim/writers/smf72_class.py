"""One class interval as the 72.3 record(s) RMF writes for it, for tests and paper runs.

A :class:`ClassInterval` describes a service or report class for one interval
in RMF terms (periods by IBM field name, response time distribution, resource
group).  Each of its records is :func:`~zperf.sim.writers.smf72.assemble`'s
matrix of one row, with the section values the column-wise builder uses.  A
class too big for one record is cut into broken records whose reassembly area
is declared by :data:`~zperf.formats.smf.header.REASSEMBLY`,
:data:`~zperf.formats.smf.header.REASSEMBLY_BLOCK` and
:data:`~zperf.formats.smf.type72_fields.REASSEMBLY_SECTIONS`, the very
declarations :mod:`zperf.formats.smf.broken` reads the pieces back with.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from zperf.formats import encodings as dec
from zperf.formats.smf import header as hdr
from zperf.formats.smf import type72_fields as f72
from zperf.sim.writers.smf72 import (
    REASSEMBLY_AREA,
    Rows,
    Sections,
    Shape,
    Value,
    assemble,
    clock_values,
    product_values,
    section_rows,
    wms_values,
)


@dataclass
class ClassInterval:
    """One service or report class for one RMF interval, as a 72.3 record carries it.

    ``periods`` hold R723SCS field values by IBM name (HFP counters as plain
    numbers); ``rtd`` optionally holds each period's 14 bucket counts.
    """

    system: str
    sysplex: str
    start: dt.datetime
    interval_seconds: float
    class_name: str
    periods: Sequence[Mapping[str, object]]
    report_class: bool = False
    policy: str = "POLICY"
    workload: str = "WORKLOAD"
    description: str = ""
    zos_level: str = "ZV020400"
    adj: int = 4000
    cpu_coefficient: int = 10000
    srb_coefficient: int = 10000
    ioc_coefficient: int = 0
    mso_coefficient: int = 0
    nffs: int = 256
    nffi: int = 256
    resource_group: str | None = None
    rtd: list[Sequence[int]] | None = None
    policy_activated: dt.datetime | None = None
    scs_length: int = f72.SCS.size
    wms_extra: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class _Piece:
    """The periods and distribution entries one record of a class carries."""

    periods: list[int]  # indexes into ClassInterval.periods
    distribution: list[tuple[int, Sequence[int]]]  # (entry index, bucket counts)
    sequence: int
    count: int


def _pieces(ci: ClassInterval, max_periods: int | None) -> list[_Piece]:
    """The class cut into records of at most ``max_periods`` periods (entry 0 of
    the distribution, the bucket map, goes with the first)."""
    n = len(ci.periods)
    per = n if not max_periods or max_periods >= n else max_periods
    groups = [list(range(i, min(n, i + per))) for i in range(0, n, per)] or [[]]
    pieces = []
    for sequence, group in enumerate(groups, start=1):
        entries: list[tuple[int, Sequence[int]]] = []
        if ci.rtd is not None:
            if sequence == 1:
                entries.append((0, f72.RTD_MAP))
            entries += [(i + 1, ci.rtd[i]) for i in group]
        pieces.append(_Piece(group, entries, sequence, len(groups)))
    return pieces


def _reassembly(ci: ClassInterval, piece: _Piece) -> tuple[Rows, Rows]:
    """The reassembly area of a broken record and its information blocks: per
    section kind, how many the whole class has and where this piece's start."""
    n = len(ci.periods)
    rg = 1 if ci.resource_group else 0
    carried = {"WM": (1, 1), "RG": (rg, rg), "SC": (n, piece.periods[0] + 1),
               "RT": (n + 1 if ci.rtd is not None else 0,
                      piece.distribution[0][0] + 1 if piece.distribution else 0)}
    blocks = [carried.get(name, (0, 0)) for name in f72.REASSEMBLY_SECTIONS]
    area = hdr.REASSEMBLY.encode_many({
        "SMF72RBR": piece.count, "SMF72RSQ": piece.sequence, "SMF72RIO": hdr.REASSEMBLY.size,
        "SMF72RIL": hdr.REASSEMBLY_BLOCK.size, "SMF72RIN": len(blocks)}, 1)
    info = hdr.REASSEMBLY_BLOCK.encode_many({
        "SMF72RNN": np.array([total for total, _ in blocks]),
        "SMF72RPP": np.array([first for _, first in blocks])}, len(blocks))
    return area, info


def _periods(ci: ClassInterval, piece: _Piece, encoding: str) -> Rows:
    """The piece's R723SCS sections, each from its own field values (fields a
    period does not name stay zero)."""
    sections = []
    for index in piece.periods:
        values = {"R723CPER": index + 1, **ci.periods[index]}
        if ci.rtd is not None:
            values.setdefault("R723CRTX", index + 1)
        sections.append(section_rows(f72.SCS, values, 1, encoding).tobytes())
    # Joined as bytes: np.concatenate would give the rows native byte order.
    return np.frombuffer(b"".join(sections), dtype=f72.SCS.dtype)


def _sections(ci: ClassInterval, piece: _Piece, clock: Mapping[str, Value],
              encoding: str) -> Sections:
    """One record's sections, from the class interval's values."""
    product = {**product_values(interval_seconds=ci.interval_seconds, zos_level=ci.zos_level,
                                sysplex=ci.sysplex, system=ci.system), **clock}
    if piece.count > 1:
        product.update(SMF72RAO=hdr.PRODUCT.size, SMF72RAL=REASSEMBLY_AREA, SMF72RAN=1)
    wms = wms_values(
        report_class=ci.report_class, policy=ci.policy, workload=ci.workload,
        class_name=ci.class_name, description=ci.description, periods=len(ci.periods),
        cpu_coefficient=ci.cpu_coefficient, srb_coefficient=ci.srb_coefficient,
        ioc_coefficient=ci.ioc_coefficient, mso_coefficient=ci.mso_coefficient, adj=ci.adj,
        nffs=ci.nffs, nffi=ci.nffi)
    if ci.policy_activated is not None:
        wms["R723MTPA"] = dec.datetime_to_stck(np.datetime64(ci.policy_activated))
    sections = Sections(product=section_rows(hdr.PRODUCT, product, 1, encoding),
                        wms=section_rows(f72.WMS, {**wms, **ci.wms_extra}, 1, encoding),
                        scs=_periods(ci, piece, encoding))
    if ci.resource_group:
        sections.rgs = f72.RGS.encode_many({"R723GGNM": ci.resource_group}, 1, encoding)
    if piece.distribution:
        buckets = np.array([counts for _, counts in piece.distribution], dtype=np.int64)
        sections.rts = f72.RTS.encode_many({f"R723RB{b + 1:02d}": buckets[:, b]
                                            for b in range(f72.RTD_BUCKETS)}, len(buckets))
    if piece.count > 1:
        sections.reassembly, sections.blocks = _reassembly(ci, piece)
    return sections


def build_type72_3(ci: ClassInterval, encoding: str = dec.DEFAULT_ENCODING,
                   max_periods: int | None = None) -> list[bytes]:
    """Encode one class interval as 72.3 record(s).

    With ``max_periods`` smaller than the number of periods, the class is
    written as broken records (SMF72RAN = 1) of at most that many periods,
    each with a reassembly area, as RMF does for classes too big for one record.
    """
    records = []
    one = np.zeros(1, dtype=np.int64)
    head, clock = clock_values([ci.start], one, ci.interval_seconds)
    for piece in _pieces(ci, max_periods):
        sections = _sections(ci, piece, clock, encoding)
        shape = Shape(periods=len(piece.periods), period_length=ci.scs_length,
                      resource_group=bool(ci.resource_group),
                      distribution_entries=len(piece.distribution), broken=piece.count > 1)
        records.append(assemble(shape, {**head, "SMFSID": ci.system}, sections,
                                encoding).tobytes())
    return records
