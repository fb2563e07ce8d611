"""The data rows of a WLMGL listing, all at once.

A large SYSOUT holds hundreds of thousands of ``LABEL value`` rows, but only
a few dozen row *shapes*: the same labels in the same band, with different
numbers.  So every row is reduced to its template (values replaced by a
marker) with vectorized string operations, each distinct template is planned
once (which group and column each value goes to, as the line-by-line reader
would decide), and the values are converted column-wise.

A block is left to the careful line-by-line reader (it is *slow*) when any
of its rows is not plain: an unknown label or shape, a label that repeats
within the block, a value that does not convert, an overflow (``*****``).
That reader then produces the same result, warnings and errors as always.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from zperf.formats.listing import Listing
from zperf.formats.rmf_values import VALUE, is_value
from zperf.formats.rmf_wlmgl_fields import TIME_MS
from zperf.formats.rmf_wlmgl_state import GROUP_BY_NAME, Reader, plan_row, slots_of_band

_MARK = "\x00"
#: A value token: whitespace on both sides (rows are re-spaced with two blanks
#: between tokens first, so that neighbouring values each keep their own).
_VALUE_TOKEN = rf"\s(?:{VALUE})\s"
_SUFFIX_SCALE = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


@dataclass
class RowValues:
    """What the bulk read found: values per block, and the blocks to read carefully."""

    values: pl.DataFrame  # 'block' and one Float64 column per workload column found
    slow: set[int]
    rows_in_last_band: dict[int, int]


def read_rows(listing: Listing, reader: Reader) -> RowValues:
    """Read the data rows the reader collected (collect mode) in bulk."""
    if not reader.runs:
        return RowValues(pl.DataFrame({"block": pl.Series([], dtype=pl.Int64)}), set(), {})
    runs = np.array(reader.runs, dtype=np.int64)
    lengths = runs[:, 1] - runs[:, 0]
    rows = (np.arange(int(lengths.sum()), dtype=np.int64)
            - np.repeat(np.cumsum(lengths) - lengths, lengths) + np.repeat(runs[:, 0], lengths))
    ctx = np.repeat(runs[:, 2], lengths)
    text = listing.text.gather(rows)
    nonblank = (text.str.len_bytes() > 0).to_numpy()
    rows, ctx, text = rows[nonblank], ctx[nonblank], text.filter(pl.Series(nonblank))
    contexts = reader.contexts
    bands = sorted({c[2] for c in contexts})
    band_id = {b: i for i, b in enumerate(bands)}
    ctx_block = np.array([c[0] for c in contexts], dtype=np.int64)
    ctx_band_no = np.array([c[1] for c in contexts], dtype=np.int64)
    ctx_band = np.array([band_id[c[2]] for c in contexts], dtype=np.int64)
    ctx_micro = np.array([c[3] for c in contexts], dtype=np.bool_)
    padded = pl.concat_str([pl.lit(" "), pl.col("t").str.replace_all(r"\s+", "  "),
                            pl.lit(" ")])
    frame = pl.DataFrame({"t": text}).select(
        pl.int_range(pl.len(), dtype=pl.Int64).alias("order"),
        pl.Series("block", ctx_block[ctx]), pl.Series("band_no", ctx_band_no[ctx]),
        pl.Series("band", ctx_band[ctx]), pl.Series("micro", ctx_micro[ctx]),
        padded.str.replace_all(_VALUE_TOKEN, f" {_MARK} ").alias("template"),
        padded.str.extract_all(_VALUE_TOKEN).alias("values"),
        pl.col("t").str.contains(_MARK, literal=True).alias("marked"),
    )
    shapes = frame.select("band", "template").unique(maintain_order=True)
    plans = _Plans(bands)
    tpl_ids, entries, npairs = [], [], []
    for shape_id, (band, template) in enumerate(shapes.iter_rows()):
        plan = plans.plan(band, template)
        tpl_ids.append(shape_id)
        npairs.append(-1 if plan is None else len(plan))
        for value_index, slot, column, kind in plan or ():
            entries.append((shape_id, value_index, slot, column, kind))
    shapes = shapes.with_columns(pl.Series("shape", tpl_ids, dtype=pl.Int64),
                                 pl.Series("npairs", npairs, dtype=pl.Int64))
    frame = frame.join(shapes, on=["band", "template"], how="left")
    slow = set(frame.filter((pl.col("npairs") < 0) | pl.col("marked"))["block"].to_list())
    counted = frame.filter(pl.col("npairs") > 0)
    last_band = counted.group_by("block").agg(
        (pl.col("band_no") == pl.col("band_no").max()).sum().alias("n"))
    rows_in_last_band = dict(zip(last_band["block"].to_list(), last_band["n"].to_list(),
                                 strict=True))
    plan_table = pl.DataFrame(entries, schema={"shape": pl.Int64, "value_index": pl.Int64,
                                               "slot": pl.Int64, "column": pl.String,
                                               "kind": pl.String}, orient="row")
    cells = counted.select("order", "block", "micro", "shape", "values").join(
        plan_table, on="shape", how="inner").with_columns(
        pl.col("values").list.get(pl.col("value_index")).str.strip_chars().alias("text"))
    repeated = cells.group_by("block", "slot").len().filter(pl.col("len") > 1)
    slow |= set(repeated["block"].to_list())
    cells = cells.filter(pl.col("column") != "").with_columns(_converted().alias("value"))
    bad = cells.filter(pl.col("value").is_null() & (pl.col("text") != "N/A")
                       | pl.col("text").str.starts_with("*"))
    slow |= set(bad["block"].to_list())
    good = cells.filter(~pl.col("block").is_in(sorted(slow)))
    if good.height == 0:
        values = pl.DataFrame({"block": pl.Series([], dtype=pl.Int64)})
    else:
        values = (good.sort("order", "value_index")
                  .group_by("block", "column", maintain_order=True)
                  .agg(pl.col("value").last())
                  .pivot(on="column", index="block", values="value"))
    return RowValues(values, slow, rows_in_last_band)


class _Plans:
    """Templates planned as the line-by-line reader plans a row, once per shape."""

    def __init__(self, bands: list[tuple[str, ...]]) -> None:
        self.bands = [[GROUP_BY_NAME[name] for name in band] for band in bands]
        self.slots = [slots_of_band(band) for band in bands]
        self.slot_ids: dict[tuple[str, str], int] = {}

    def plan(self, band: int, template: str) -> list[tuple[int, int, str, str]] | None:
        """(value index, slot id, column, kind) of each pair's first value; None if
        the row is not plain (a bad number, or labels that do not fit the band)."""
        labels: list[str] = []
        firsts: list[int] = []
        label: list[str] = []
        value_index = 0
        for token in template.split():
            if token == _MARK:
                if label:
                    labels.append(" ".join(label))
                    firsts.append(value_index)
                    label = []
                value_index += 1
            elif is_value(token):
                return None  # a number RMF would not print: the careful reader says why
            else:
                label.append(token)
        if not labels:
            return []
        plan = plan_row(self.bands[band], self.slots[band], tuple(labels))
        if plan is None:
            return None
        out = []
        for first, (slot, column, kind) in zip(firsts, plan, strict=True):
            slot_id = self.slot_ids.setdefault(slot, len(self.slot_ids))
            out.append((first, slot_id, column, kind))
        return out


def _converted() -> pl.Expr:
    """The printed value as a number (kind 'number') or as milliseconds ('time_ms')."""
    text = pl.col("text")
    body = text.str.strip_chars_end("%").str.replace_all(",", "", literal=True)
    last = body.str.slice(-1)
    scale = pl.lit(1.0)
    for suffix, factor in _SUFFIX_SCALE.items():
        scale = pl.when(last == suffix).then(pl.lit(factor)).otherwise(scale)
    digits = pl.when(scale != 1.0).then(body.str.slice(0, body.str.len_chars() - 1)) \
        .otherwise(body)
    plain = text.cast(pl.Float64, strict=False)
    as_number = pl.coalesce(plain, digits.cast(pl.Float64, strict=False) * scale)
    parts = text.str.split(".").list.eval(
        pl.when(pl.element() == "").then(pl.lit("0")).otherwise(pl.element())
        .cast(pl.Int64, strict=False))
    n = parts.list.len()

    def part(back: int) -> pl.Expr:
        return pl.when(n >= back).then(parts.list.get(-back, null_on_oob=True)) \
            .otherwise(pl.lit(0, dtype=pl.Int64))

    bad_part = parts.list.eval(pl.element().is_null()).list.any()
    seconds = (part(2) + part(3) * 60 + part(4) * 3600).cast(pl.Float64)
    # A divisor column (not a literal, which polars may turn into a multiplication by
    # its inverse) keeps the result bit for bit what the line-by-line reader computes.
    fraction = part(1).cast(pl.Float64) / (pl.col("micro").cast(pl.Float64) * 999.0 + 1.0)
    as_time = pl.when(bad_part).then(None).otherwise(seconds * 1000.0 + fraction)
    missing = (text == "N/A") | text.str.starts_with("*")
    return (pl.when(missing).then(None)
            .when(pl.col("kind") == TIME_MS).then(as_time)
            .otherwise(as_number))

