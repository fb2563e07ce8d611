"""RMF Workload Activity (WLMGL) listings into the canonical workload table.

The report is read by its labels and headings, not by column positions, so
the same code reads SYSOUT with ASA control characters, listings without
them, and extracts pasted into documents with tabs.  Columns the listing
does not print stay null; ``source_format`` is 'rmf-wlmgl'.  Other reports
on the same SYSOUT are counted and skipped.

Reading happens in three passes, so that a large SYSOUT reads at tens of
MB/s: the structure (page headers, key lines, headings, goals, response
time distributions) line by line (rmf_wlmgl_state), the data rows in bulk
(rmf_wlmgl_rows), and then one row per class period, where a block the bulk
pass could not take as it is gets read again line by line.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from zperf.formats._kinds import TextKind
from zperf.formats._tally import OnError, Tally
from zperf.formats.listing import Listing, listing_table
from zperf.formats.rmf_wlmgl_rows import RowValues, read_rows
from zperf.formats.rmf_wlmgl_state import Reader, _Block
from zperf.tables import DISTRIBUTION, WORKLOAD

_MARKS = ("W O R K L O A D", "WORKLOAD ACTIVITY", "REPORT CLASS=", "SERVICE CLASS=",
          "REPORT BY: POLICY=")
_KEYS = ["source", "sysplex", "system", "interval_start", "class_kind", "class_name", "period"]


def read_wlmgl(data: bytes, file: str, *,
               on_error: OnError = "raise") -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Parse a WLMGL listing (bytes of the whole file) into (workload, distribution, tally).

    The distribution rows come from the RESPONSE TIME DISTRIBUTION tables: the
    bucket's upper limit in ms (null for the last, 'more than' bucket) and
    the transactions in the bucket; the limit as a % of the midpoint is not
    printed and stays null.
    """
    tally = Tally(file, on_error)
    listing = listing_table(data)
    reader = Reader(file, tally, collect=True)
    _follow(listing, reader)
    work, dist = _settle(listing, reader, read_rows(listing, reader))
    return work.drop("_block"), dist, tally


def _follow(listing: Listing, reader: Reader) -> None:
    """Pass 1: feed the reader every line that is not plainly a data row.

    A plain line (no '=', ':', '-', heading word or distribution mark) read
    while the reader is inside a block band is a data row: such runs are
    handed over whole, without a Python call per line.
    """
    text = listing.text
    blank = (text.str.len_bytes() == 0).to_numpy()
    lead = text.str.strip_chars_start().str.slice(0, 1)
    # Lines with these go to the reader one by one too: page headers and the
    # like (in a band they are data rows, which the reader then also says).
    marked = pl.any_horizontal(*(text.str.contains(s, literal=True)
                                 for s in ("=", ":", "ACTIVITY", "A C T", "-", "HHH", "SYSPLEX",
                                           "RPT VERSION", "POLICY ACTIVATION", "GOAL", "PAGE")))
    plain = (~pl.select(marked).to_series().to_numpy() & ~blank & ~listing.new_page
             & ~lead.is_in(["<", ">"]).to_numpy())
    others = np.flatnonzero(~plain & ~blank)
    lines = listing.lines(others)
    previous = 0
    for index, line in zip(others.tolist(), lines, strict=True):
        if previous < index:
            _plain_run(listing, reader, plain, previous, index)
        reader.position = index
        reader.feed(line)
        previous = index + 1
    if previous < len(listing):
        _plain_run(listing, reader, plain, previous, len(listing))
    reader.position = len(listing)
    reader.close(at_end=True)


def _plain_run(listing: Listing, reader: Reader, plain: np.ndarray[Any, Any], first: int,
               end: int) -> None:
    if reader.ready:
        reader.collect_rows(first, end)
        return
    indices = np.flatnonzero(plain[first:end]) + first
    for index, line in zip(indices.tolist(), listing.lines(indices), strict=True):
        reader.position = index
        reader.feed(line)
        if reader.ready:
            reader.collect_rows(index + 1, end)
            return


def _settle(listing: Listing, reader: Reader,
            found: RowValues) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Pass 3: one row per block; slow blocks are read again line by line."""
    fast_rows: list[dict[str, Any]] = []
    slow_rows: list[dict[str, Any]] = []
    buckets: list[tuple[int, list[tuple[float | None, int]]]] = []
    for block in reader.blocks:
        if block.index in found.slow:
            row = _again(listing, reader, block)
            if row is not None:
                slow_rows.append({**row, "_block": block.index})
                buckets.append((block.index, block.buckets))
            continue
        block.rows_in_band = found.rows_in_last_band.get(block.index, 0)
        before = len(reader.rows)
        reader.settle(block)
        if len(reader.rows) > before:
            fast_rows.append({**reader.rows.pop(), "_block": block.index})
            buckets.append((block.index, reader.buckets.pop()))
    work = _workload(fast_rows, slow_rows, found.values)
    return work, _distribution(work, buckets)


def _again(listing: Listing, reader: Reader, block: _Block) -> dict[str, Any] | None:
    """Read one block again with the careful line-by-line reader."""
    scratch = Tally(reader.tally.file, reader.tally.on_error)
    careful = Reader(reader.file, scratch)
    careful.header = block.header
    for line in listing.lines(np.arange(block.start, block.end)):
        careful.feed(line)
    careful.close(at_end=block.at_end)
    tally = reader.tally
    tally.warnings += scratch.warnings
    tally.problems += scratch.problems
    tally.skipped += scratch.skipped
    tally.parsed += scratch.parsed
    if careful.rows:
        block.buckets = careful.buckets[0]
        return careful.rows[0]
    return None


def _workload(fast: list[dict[str, Any]], slow: list[dict[str, Any]],
              values: pl.DataFrame) -> pl.DataFrame:
    frames = []
    if fast:
        base = pl.DataFrame(fast, infer_schema_length=None)
        if values.height:
            base = base.join(values.rename({"block": "_block"}), on="_block", how="left")
        frames.append(base)
    if slow:
        frames.append(pl.DataFrame(slow, infer_schema_length=None))
    if not frames:
        return WORKLOAD.empty().with_columns(pl.lit(None, pl.Int64).alias("_block"))
    conformed = [WORKLOAD.conform(f).with_columns(f["_block"].cast(pl.Int64)) for f in frames]
    return pl.concat(conformed).sort("_block")


def _distribution(work: pl.DataFrame,
                  buckets: list[tuple[int, list[tuple[float | None, int]]]]) -> pl.DataFrame:
    blocks, numbers, limits, counts = [], [], [], []
    for block, rows in buckets:
        for number, (limit, count) in enumerate(rows, start=1):
            blocks.append(block)
            numbers.append(number)
            limits.append(limit)
            counts.append(count)
    if not blocks:
        return DISTRIBUTION.empty()
    dist = pl.DataFrame({"_block": blocks, "bucket": numbers, "bucket_limit_ms": limits,
                         "trans_ended": counts}, schema_overrides={"bucket_limit_ms": pl.Float64})
    keys = work.select(*_KEYS, "_block")
    return DISTRIBUTION.conform(dist.join(keys, on="_block", how="inner", maintain_order="left"))


def _read(data: bytes, file: str, on_error: OnError) -> tuple[dict[str, pl.DataFrame], Tally]:
    work, dist, tally = read_wlmgl(data, file, on_error=on_error)
    return {"workload": work, "distribution": dist}, tally


WLMGL = TextKind(
    "rmf-wlmgl", "RMF Postprocessor Workload Activity report (WLMGL) listing, as text",
    ("workload", "distribution"), lambda text: any(mark in text for mark in _MARKS), _read)
