"""Decode SMF 72.3 records into the canonical workload and distribution tables.

A batch of records is checked (``type72_checks``, ``record_checks``), its
sections are cut out with one vectorized gather per section kind (the
period sections of every record of the batch at once, each field then
converted once for all of them), and the
columns are derived as RMF derives them (``type72_columns``).  No Python
code runs per record or per period.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa

from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.broken import BrokenRecords
from zperf.formats.smf.columns import (
    Numbered,
    decoded_texts,
    distinct_rows,
    text_column,
    text_columns,
    zos_release,
)
from zperf.formats.smf.header import PRODUCT
from zperf.formats.smf.in_order import KEY, OFFSET, Codes, row_keys
from zperf.formats.smf.record_checks import Checks, interval_of, subset
from zperf.formats.smf.record_decoder import Batch
from zperf.formats.smf.type72_checks import check_layout, check_periods
from zperf.formats.smf.type72_columns import GROUPS, ROW_FIELDS, Columns, Periods, masked
from zperf.formats.tally import Tally
from zperf.tables import DISTRIBUTION, WORKLOAD

# numpy's overloads are too narrow for mixed int/float/object columns under
# strict mypy; arrays here are typed loosely on purpose.
F = npt.NDArray[Any]
Ints = npt.NDArray[Any]
Rows = npt.NDArray[np.void]

SOURCE_FORMAT = "smf72.3"


def decode_batch(batch: Batch, tally: Tally, source: str, encoding: str,
                 broken: BrokenRecords, distribution: bool = True,
                 columns: frozenset[str] | None = None,
                 keys: tuple[Codes, Codes] | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Decode one batch of 72.3 records into (workload rows, distribution rows).

    ``columns``: the workload columns wanted (None: all of them).  The others
    are neither decoded nor derived, and the frame holds only these (in the
    table's order); every record is checked and counted all the same.
    The distribution rows take their keys from the workload rows: with
    ``distribution``, ask for every column.  ``keys``: the codes of the workload
    key's two groups (``InOrder.codes``), to give every row its key (a ``_key``
    column) from the raw fields.
    """
    checks = Checks(batch)
    head, trip = check_layout(batch, checks)
    prod, wms = _control_sections(batch, trip, checks)
    date, tod, interval = interval_of(prod, "SMF72", checks)
    for field, label in (("R723MCPU", "CPU service coefficient"), ("R723MSRB",
                         "SRB service coefficient"), ("R723MADJ", "CPU rate adjustment")):
        value = wms[field]
        checks.fail(value == 0, lambda i, label=label, field=field:
                    f"{label} {field} is 0: the workload manager section is damaged")
    ran = prod["SMF72RAN"].astype(np.int64)
    is_broken = checks.ok & (ran == 1)
    if is_broken.any():
        broken.add(subset(batch, is_broken), tally, encoding)
    checks.ok &= ~is_broken
    periods_ok = check_periods(batch, trip, checks)
    checks.report(tally)
    keep = checks.ok & periods_ok
    tally.settle(parsed=int(keep.sum()))
    if not keep.any():
        return WORKLOAD.empty(), DISTRIBUTION.empty()
    if not keep.all():
        batch, head, prod, wms = subset(batch, keep), head[keep], prod[keep], wms[keep]
        trip = {k: v[keep] for k, v in trip.items()}
        date, tod, interval = date[keep], tod[keep], interval[keep]
    return _decode_good(batch, head, prod, wms, trip, date, tod, interval, source, encoding,
                        distribution, columns, keys)


def _control_sections(batch: Batch, trip: dict[str, Ints], checks: Checks) -> tuple[Rows, Rows]:
    """The product and workload manager sections of every record (zeros for records
    that failed a check: their triplets cannot be trusted)."""
    ok, starts = checks.ok, batch.starts
    prod = PRODUCT.gather(batch.data, np.where(ok, starts + trip["PRS"], starts),
                          available=np.where(ok, PRODUCT.size, 0))
    wms = f72.WMS.gather(batch.data, np.where(ok, starts + trip["WMS"], starts),
                         available=np.where(ok, trip["WML"], 0))
    return prod, wms


def _decode_good(batch: Batch, head: Rows, prod: Rows, wms: Rows, trip: dict[str, Ints],
                 date: npt.NDArray[np.datetime64], tod: Ints, interval: F, source: str,
                 encoding: str, distribution: bool, wanted: frozenset[str] | None,
                 keys: tuple[Codes, Codes] | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The rows of records that passed every check: one per class period (with the
    ``wanted`` columns only, when given)."""
    rec = np.repeat(np.arange(len(batch.starts)), trip["SCN"])
    groups = [g for g in GROUPS if wanted is None or not wanted.isdisjoint(g.columns)]
    fields = tuple(dict.fromkeys([*ROW_FIELDS, *(name for g in groups for name in g.fields)]))
    periods = _periods(batch, trip, wms, interval, rec, fields)
    numbered: dict[str, Numbered] = {}  # the names as the text columns numbered them
    columns: Columns = {
        **_identity_columns(head, prod, wms, date, tod, interval, rec, source, encoding,
                            wanted, numbered),
        "period": periods.col["R723CPER"],
    }
    if wanted is None or "resource_group" in wanted:
        columns["resource_group"] = _resource_group(batch, trip, rec, encoding)
    for group in groups:
        columns.update(group.derive(periods))
    extra = [pl.Series("_record", batch.numbers[rec]), pl.Series(OFFSET, batch.offsets[rec])]
    if keys is not None:
        start = date.astype("datetime64[us]").view(np.int64) + tod.astype(np.int64) * 1_000_000
        extra.append(pl.Series(KEY, _row_keys(keys, head, prod, wms, start, rec,
                                              periods.col["R723CPER"], encoding, numbered)))
    frame = _frame(columns, rec.size, wanted).with_columns(extra)
    if not distribution:
        return frame, DISTRIBUTION.empty()
    return frame, _distribution(batch, trip, rec, periods.col, frame)


def _row_keys(keys: tuple[Codes, Codes], head: Rows, prod: Rows, wms: Rows, start: Ints,
              rec: Ints, period: Ints, encoding: str,
              numbered: dict[str, Numbered]) -> npt.NDArray[np.uint64]:
    """The key of every row (``WORKLOAD_KEY``: the interval of a system, then the class
    period), from the raw fields: each part numbered by its distinct values, the
    distinct combinations (few: intervals of a system, class periods) given their
    codes from the decoded values, and spread back.

    The codes are those of the values the columns hold, so two spellings of one
    name (trailing blanks or zeros) are one key, as in the columns.  ``numbered``:
    the names the text columns numbered already (any missing are numbered here).
    """
    def number(name: str, raw: Rows) -> Numbered:
        return numbered.get(name) or _numbered_texts(raw, encoding)

    plex, plex_of = number("sysplex", prod["SMF72XNM"])
    system, system_of = number("system", head["SMFSID"])
    starts, start_of = np.unique(start, return_inverse=True)
    kind_of = (wms["R723MSCF"] >> 7).astype(np.int64)
    combined = ((plex_of * len(system) + system_of) * starts.size + start_of.reshape(-1)) * 2
    combos, combo_of = np.unique(combined + kind_of, return_inverse=True)
    kind, rest = combos % 2, combos // 2
    start_at, rest = rest % starts.size, rest // starts.size
    interval = keys[0].of_values(zip(
        [plex[i] for i in (rest // len(system)).tolist()],
        [system[i] for i in (rest % len(system)).tolist()],
        starts[start_at].tolist(), kind.tolist(), strict=True), combos.size)
    names, name_of = number("class_name", wms["R723MCNM"])
    pairs, pair_of = np.unique(name_of[rec] << 8 | period, return_inverse=True)
    classes = keys[1].of_values([(names[p >> 8], p & 0xFF) for p in pairs.tolist()],
                                pairs.size)  # (a list: in_order does not call back here)
    return row_keys(interval[combo_of.reshape(-1)][rec], classes[pair_of.reshape(-1)])


def _numbered_texts(raw: Rows, encoding: str) -> tuple[list[str | None], Ints]:
    """(the decoded distinct values of a text field, the number of each row's)."""
    first, inverse = distinct_rows(raw)
    return decoded_texts(raw[first], encoding), inverse.astype(np.int64)


def _period_fields(batch: Batch, trip: dict[str, Ints], rec: Ints,
                   fields: tuple[str, ...]) -> dict[str, F]:
    """The period-section ``fields`` of every class period of the batch.

    The period sections are located as arrays (each record's first section
    from its triplet, then stepped by the triplet's length: newer releases
    write longer ones), taken in one gather, and each field converted once
    for all periods (:meth:`~zperf.formats.layout.Layout.columns`); a
    section shorter than the layout is padded with zeros.
    """
    counts = trip["SCN"]
    within = np.arange(rec.size) - np.repeat(np.cumsum(counts) - counts, counts)
    length = trip["SCL"][rec]
    starts = batch.starts[rec] + trip["SCS"][rec] + within * length
    return f72.SCS.columns(batch.data, starts, fields, available=length)


def _periods(batch: Batch, trip: dict[str, Ints], wms: Rows, interval: F,
             rec: Ints, fields: tuple[str, ...]) -> Periods:
    """The period fields with what each period needs of its record."""
    def per_period(field: str) -> F:
        return wms[field].astype(np.float64)[rec]

    return Periods(
        col=_period_fields(batch, trip, rec, fields), secs=interval[rec],
        micro=trip["SCL"][rec] >= f72.SCS_MICROS_LENGTH,
        service=~(wms["R723MSCF"] & 0x80).astype(bool)[rec],
        mcpu=per_period("R723MCPU"), msrb=per_period("R723MSRB"), adj=per_period("R723MADJ"),
        nffs=per_period("R723NFFS"), nffi=per_period("R723NFFI"))


def _identity_columns(head: Rows, prod: Rows, wms: Rows, date: npt.NDArray[np.datetime64],
                      tod: Ints, interval: F, rec: Ints, source: str, encoding: str,
                      wanted: frozenset[str] | None = None,
                      numbered: dict[str, Numbered] | None = None) -> Columns:
    """Where each row comes from: system, interval, policy, workload and class, and the
    coefficients of the policy in force (the ``wanted`` ones, when given)."""
    def want(name: str) -> bool:
        return wanted is None or name in wanted

    texts = {"sysplex": prod["SMF72XNM"], "system": head["SMFSID"],
             "zos_release": prod["SMF72MVS"], "policy": wms["R723MNSP"],
             "workload": wms["R723MWNM"], "class_name": wms["R723MCNM"],
             "description": wms["R723MCDE"]}
    text = text_columns({name: raw for name, raw in texts.items() if want(name)}, rec,
                        encoding, {"zos_release": zos_release}, numbered)
    report_class = (wms["R723MSCF"] & 0x80).astype(np.int64)
    values: dict[str, Callable[[], Any]] = {
        "source": lambda: pl.lit(source, pl.String),  # the same on every row
        "source_format": lambda: pl.lit(SOURCE_FORMAT, pl.String),
        "interval_start": lambda: (date.astype("datetime64[us]")
                                   + tod.astype("timedelta64[s]"))[rec],
        "interval_seconds": lambda: interval[rec],
        "class_kind": lambda: pl.Series(["service", "report"]).gather(
            (report_class > 0)[rec].astype(np.int64)),
        "policy_activated": lambda: f72.WMS.column(wms, "R723MTPA")[rec],
        "ioc_coefficient": lambda: wms["R723MIOC"].astype(np.float64)[rec] / 10000,
        "mso_coefficient": lambda: wms["R723MMSO"].astype(np.float64)[rec] / 10000,
    }
    return {**text, **{name: make() for name, make in values.items() if want(name)}}


def _resource_group(batch: Batch, trip: dict[str, Ints], rec: Ints,
                    encoding: str) -> pl.Series:
    """The resource group name of each period's class (null when it has none)."""
    has_rg = trip["RGN"] > 0
    if not has_rg.any():
        return pl.Series([None] * rec.size, dtype=pl.String)
    starts = np.where(has_rg, batch.starts + trip["RGS"], batch.starts)
    rgs = f72.RGS.gather(batch.data, starts, available=np.where(has_rg, trip["RGL"], 0))
    return masked(has_rg[rec], text_column(rgs["R723GGNM"], rec, encoding))


def _frame(columns: Columns, rows: int, wanted: frozenset[str] | None = None) -> pl.DataFrame:
    """The workload columns (numpy arrays or polars series) as a frame of the workload
    table's columns and types (the ``wanted`` ones, when given); a column 72.3 does not
    carry (a listing-only one) is null.

    Each column is made to its type: the same frame as ``WORKLOAD.conform``
    gives, without building an expression per column.  The numpy arrays become
    one Arrow table handed to polars without a copy (a polars series made from
    each costs some 30 microseconds of Python, 78 of them per batch); a column
    of one value (``pl.lit``, or None: null) is a constant, not a column.
    """
    order, names, arrays, series, constants = [], [], [], [], []
    for column in WORKLOAD.columns:
        if wanted is not None and column.name not in wanted:
            continue
        order.append(column.name)
        value = columns.get(column.name)
        if value is None or isinstance(value, pl.Expr):  # a constant (None: null)
            constant = pl.lit(None, column.dtype) if value is None else value.cast(column.dtype)
            constants.append(constant.alias(column.name))
        elif isinstance(value, np.ndarray) and value.dtype != object:
            names.append(column.name)
            arrays.append(_arrow_array(value, _arrow_type(column.dtype)))
        else:
            part = (value if isinstance(value, pl.Series)
                    else pl.Series(value.tolist(), strict=False))
            if part.dtype != column.dtype:
                part = part.cast(column.dtype)
            series.append(part.alias(column.name))
    frame = (pl.from_arrow(pa.Table.from_arrays(arrays, names=names)) if arrays
             else pl.DataFrame({"_rows": np.zeros(rows, dtype=np.int8)}))
    assert isinstance(frame, pl.DataFrame)
    return frame.hstack(series).with_columns(constants).select(order)


def _arrow_array(values: npt.NDArray[Any], kind: pa.DataType) -> pa.Array:
    """A numpy column as an Arrow array of ``kind``: a fixed-width number column is
    laid over the array's own memory, anything else made by polars (``pa.array`` would
    import pandas when it is installed, a second or more of every zperf command's
    start, to ask whether the array is one of pandas')."""
    if pa.types.is_integer(kind) or pa.types.is_floating(kind):
        typed = np.ascontiguousarray(values, dtype=kind.to_pandas_dtype())
        return pa.Array.from_buffers(kind, len(typed), [None, pa.py_buffer(typed)])
    made: pa.Array = pl.Series(values).to_arrow().cast(kind)
    return made


@cache
def _arrow_type(dtype: pl.DataType) -> pa.DataType:
    """The Arrow type a polars type is held in (``pl.from_arrow`` gives that type back)."""
    return pl.Series([], dtype=dtype).to_arrow().type


def _buckets(rows: Rows) -> Ints:
    """The 14 bucket words (R723RB01-14) of every entry, entry after entry: the
    entries' bytes read as big-endian words at once (the layout is 14 words
    back to back)."""
    assert all(f.offset == 4 * i and f.kind == "u4" for i, f in enumerate(f72.RTS.fields))
    raw = np.ascontiguousarray(rows).view(np.uint8).reshape(rows.size, f72.RTS.size)
    return raw.view(">u4").astype(np.int64).reshape(-1)


def _distribution(batch: Batch, trip: dict[str, Ints], rec: Ints, col: dict[str, F],
                  work: pl.DataFrame) -> pl.DataFrame:
    """Bucket rows of the periods that point at a distribution entry.

    Key columns are taken from the workload rows just built, with one
    gather, rather than built again column by column.
    """
    crtx = col["R723CRTX"].astype(np.int64)
    has = (crtx > 0) & (trip["RTN"][rec] > 0)
    if not has.any():
        return DISTRIBUTION.empty().with_columns(pl.lit(None, pl.Int64).alias("_record"))
    base = batch.starts[rec][has] + trip["RTS"][rec][has]
    entries = f72.RTS.gather(batch.data, base + crtx[has] * trip["RTL"][rec][has])
    maps = f72.RTS.gather(batch.data, base)
    k = f72.RTD_BUCKETS
    counts, limits = _buckets(entries), _buckets(maps)
    limits_ok = (limits > 0) & (limits < 0xFFFF0000)
    midpoint = np.repeat(col["R723RTDM"][has], k).astype(np.float64)
    keys = work.select(*DISTRIBUTION.names[:7], "_record")[np.repeat(np.flatnonzero(has), k)]
    return keys.with_columns(
        pl.Series("bucket", np.tile(np.arange(1, k + 1, dtype=np.int32), int(has.sum()))),
        pl.Series("bucket_limit_pct", np.where(limits_ok, limits, 0)),
        pl.Series("bucket_limit_ms", np.where(limits_ok, midpoint * limits / 100.0, np.nan),
                  nan_to_null=True),
        pl.Series("trans_ended", counts),
        pl.Series("_ok", limits_ok),
    ).with_columns(
        pl.when(pl.col("_ok")).then(pl.col("bucket_limit_pct")).alias("bucket_limit_pct"),
    ).select(*DISTRIBUTION.names, "_record")
