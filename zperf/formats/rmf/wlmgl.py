"""RMF Workload Activity (WLMGL) listings into the canonical workload table.

The report is read by its labels and headings, not by column positions, so
the same code reads SYSOUT with ASA control characters, listings without
them, and extracts pasted into documents with tabs.  Columns the listing
does not print stay null; ``source_format`` is 'rmf-wlmgl'.  Other reports
on the same SYSOUT are counted and skipped.

The careful line-by-line reader (rmf_wlmgl_state) is the reference.  So that
a large SYSOUT reads at tens of MB/s, it is read column-wise instead, in
pieces of about 16 MB cut before a class block: the lines as Arrow strings
(listing), each sorted into a kind (rmf_wlmgl_lines), the structure walked by
replaying the careful reader's decisions (rmf_wlmgl_walk), the data rows read
in bulk (rmf_wlmgl_rows), and then one row per class period (here), where a
block the bulk passes could not take as it is, and the last block of the
listing, are read again by the careful reader.  The result is exactly the
careful reader's (tests/formats/test_rmf_wlmgl_bulk.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import polars as pl

from zperf.formats.kinds import TextKind
from zperf.formats.listing import (
    Listing,
    ebcdic_as_utf8,
    has_asa_column,
    listing_encoding,
    listing_table,
)
from zperf.formats.rmf.wlmgl_rows import RowValues, number, read_rows, time_ms
from zperf.formats.rmf.wlmgl_state import PageHeader, Reader
from zperf.formats.rmf.wlmgl_walk import Walk, walk
from zperf.formats.rmf.wlmgl_words import key_values
from zperf.formats.tally import OnError, Tally
from zperf.tables import DISTRIBUTION, WORKLOAD

_MARKS = ("W O R K L O A D", "WORKLOAD ACTIVITY", "REPORT CLASS=", "SERVICE CLASS=",
          "REPORT BY: POLICY=")
#: Reader._read_bucket's pattern, for lines of printable ASCII only (where the
#: ASCII classes mean what Python's do, and the regex runs twice as fast).
_BUCKET = (r"(?-u)^\s*(?<op><=|<|>)\s*(?<limit>\d+(?:\.\d+)+)\s+\d+[KM]?\s+"
           r"(?<count>\d+[KM]?)\b")
_NOT_PRINTABLE = r"[^\t\x20-\x7e]"
_KEYS = ["source", "sysplex", "system", "interval_start", "class_kind", "class_name", "period"]


#: A large listing is read in pieces of about this many bytes, each cut before
#: a class block, so that memory follows the piece, not the file.  (Reading
#: one piece's values while walking the next, in two threads, was tried: with
#: polars already using both cores it was slower.)
PIECE_BYTES = 16 << 20


def read_wlmgl(data: bytes, file: str, *, on_error: OnError = "raise",
               piece_bytes: int = PIECE_BYTES) -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Parse a WLMGL listing (bytes of the whole file) into (workload, distribution, tally).

    The distribution rows come from the RESPONSE TIME DISTRIBUTION tables: the
    bucket's upper limit in ms (null for the last, 'more than' bucket) and
    the transactions in the bucket; the limit as a % of the midpoint is not
    printed and stays null.
    """
    tally = Tally(file, on_error)
    if listing_encoding(data) == "cp037":
        data = ebcdic_as_utf8(data)
    done = [_values(file, tally, listing, found)
            for listing, found in _pieces(data, tally, piece_bytes)]
    return pl.concat([w for w, _ in done]), pl.concat([d for _, d in done]), tally


def _values(file: str, tally: Tally, listing: Listing,
            found: Walk) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A walked piece's rows: data rows in bulk, then one row per class period."""
    return _Builder(file, tally, listing, found, read_rows(listing, found)).build()


def _pieces(data: bytes, tally: Tally, piece_bytes: int) -> Iterator[tuple[Listing, Walk]]:
    """The listing in walked pieces, each (but the last) cut before a class block."""
    asa = has_asa_column(data)
    memo: dict[str, Any] = {}
    start, number, header, size = 0, 1, None, piece_bytes
    while True:
        end = len(data)
        if end - start > size:
            end = data.find(b"\n", start + size) + 1 or len(data)
        final = end >= len(data)
        listing = listing_table(data[start:end], asa=asa, first_number=number,
                                first_offset=start)
        mark = tally.checkpoint()
        found = walk(listing, tally, header=header, memo=memo, final=final)
        if not final and found.cut is None:  # one block so far: a larger piece
            tally.rollback(mark)
            size *= 2
            continue
        yield listing, found
        if final or found.cut is None:
            return
        header = found.headers[found.header[found.limit]]
        start, number = int(listing.offsets[found.cut]), int(listing.numbers[found.cut])
        size = piece_bytes


class _Builder:
    """Pass 3: one row per block, the slow ones read again by the careful reader."""

    def __init__(self, file: str, tally: Tally, listing: Listing, found: Walk,
                 rows: RowValues) -> None:
        self.file, self.tally, self.listing, self.found = file, tally, listing, found
        self.values = rows.values
        self.slow = rows.slow | self._twice_distributed()
        if found.blocks and found.limit == found.blocks:
            self.slow.add(found.blocks - 1)  # the last may be cut short: the careful reader says
        self.slow = {block for block in self.slow if block < found.limit}
        self.helper = Reader(file, Tally(file, "skip"))

    def build(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        found = self.found
        headers, bad_headers = self._table(found.headers, self._header_values, "header")
        keys, bad_keys = self._table(found.keys, key_values, "key")
        goals, _ = self._table(found.goals, lambda g: g, "goal")
        limit = found.limit
        blocks = pl.DataFrame({"_block": np.arange(limit, dtype=np.int64),
                               "header": found.header[:limit], "key": found.key[:limit],
                               "goal": found.goal[:limit]},
                              schema={"_block": pl.Int64, "header": pl.Int64, "key": pl.Int64,
                                      "goal": pl.Int64})
        self.slow |= set(blocks.filter(pl.col("header").is_in(bad_headers)
                                       | pl.col("key").is_in(bad_keys))["_block"].to_list())
        buckets = self._buckets()
        fast = blocks.filter(~pl.col("_block").is_in(sorted(self.slow)))
        fast = (fast.join(headers, on="header", how="left")
                .join(keys, on="key", how="left").join(goals, on="goal", how="left")
                .join(self._raw(), on="_block", how="left")
                .drop("header", "key", "goal"))
        if self.values.height:
            fast = fast.join(self.values.rename({"block": "_block"}), on="_block", how="left")
        self.tally.settle(parsed=fast.height)
        slow_rows, slow_buckets = self._again()
        frames = [fast] + ([pl.DataFrame(slow_rows, infer_schema_length=None)] if slow_rows
                           else [])
        work = pl.concat([WORKLOAD.conform(f).with_columns(f["_block"].cast(pl.Int64))
                          for f in frames]).sort("_block")
        dist = pl.concat([buckets.filter(pl.col("_block").is_in(fast["_block"].implode())),
                          slow_buckets])
        return work.drop("_block"), self._distribution(work, dist)

    @staticmethod
    def _table(items: list[Any], convert: Any, name: str) -> tuple[pl.DataFrame, list[int]]:
        """One row per distinct header, key set or goal, with the columns it gives;
        and the ids of those that do not convert (their blocks go to the careful reader)."""
        rows, bad = [], []
        for i, item in enumerate(items):
            try:
                rows.append({name: i, **convert(item)})
            except ValueError:
                bad.append(i)
        if not rows:
            return pl.DataFrame({name: pl.Series([], dtype=pl.Int64)}), bad
        return pl.DataFrame(rows, infer_schema_length=None).with_columns(
            pl.col(name).cast(pl.Int64)), bad

    def _header_values(self, header: tuple[Any, ...]) -> dict[str, Any]:
        return self.helper._header_values(PageHeader(*header))

    def _raw(self) -> pl.DataFrame:
        """The state-sample lines of each block, joined as the careful reader keeps them."""
        index, block = self.found.raw()
        return (pl.DataFrame({"_block": block,
                              "state_samples_raw": self.listing.text.gather(index)})
                .group_by("_block", maintain_order=True)
                .agg(pl.col("state_samples_raw").str.join("\n")))

    def _buckets(self) -> pl.DataFrame:
        """RESPONSE TIME DISTRIBUTION rows, parsed column-wise; a block with a row
        that is not printable ASCII is left to the careful reader."""
        index, block = self.found.buckets()
        frame = pl.DataFrame({"_block": block, "t": self.listing.text.gather(index)})
        if not self.listing.printable:
            odd = frame.filter(pl.col("t").str.contains(_NOT_PRINTABLE))
            self.slow |= set(odd["_block"].to_list())
        parts = frame.select("_block", pl.col("t").str.extract_groups(_BUCKET)
                             .alias("m")).unnest("m")
        parts = parts.filter(pl.col("op").is_not_null())
        limit = time_ms(pl.col("limit"), pl.lit(False))
        return parts.select(
            "_block", pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("_block").alias("bucket"),
            pl.when(pl.col("op") == ">").then(None).otherwise(limit).alias("bucket_limit_ms"),
            number(pl.col("count")).cast(pl.Int64, strict=False).alias("trans_ended"))

    def _twice_distributed(self) -> set[int]:
        """Blocks with a second distribution title, or one after distribution rows:
        the careful reader warns (one distribution per system) and keeps the first."""
        titles = np.array(self.found.distribution_titles, dtype=np.int64).reshape(-1, 2)
        if not len(titles):
            return set()
        index, block = self.found.buckets()
        blocks, counts = np.unique(titles[:, 1], return_counts=True)
        slow = set(blocks[counts > 1].tolist())
        first_row = np.full(self.found.blocks, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(first_row, block, index)
        slow |= set(titles[first_row[titles[:, 1]] < titles[:, 0], 1].tolist())
        return slow

    def _again(self) -> tuple[list[dict[str, Any]], pl.DataFrame]:
        """The slow blocks, each read again with the careful line-by-line reader."""
        rows: list[dict[str, Any]] = []
        buckets: list[tuple[int, int, float | None, int]] = []
        found, tally = self.found, self.tally
        for block in sorted(b for b in self.slow if b < found.limit):
            scratch = Tally(tally.file, tally.on_error)
            careful = Reader(self.file, scratch)
            careful.header = PageHeader(*found.headers[found.header[block]])
            first, end = found.start[block], found.end[block]
            for line in self.listing.lines(np.arange(first, end)):
                careful.feed(line)
            careful.close(at_end=found.at_end and block == found.blocks - 1)
            # The walk handed this block on: the careful reader's verdict settles it
            # (the other records of its lines were counted by the walk).
            tally.warnings += scratch.warnings
            for p in scratch.problems:
                tally.problem(p.reason, record=p.record, offset=p.offset, raw=p.raw,
                              line=p.line, handed_on=True)
            tally.settle(parsed=scratch.parsed)
            if careful.rows:
                rows.append({**careful.rows[0], "_block": block})
                for number, (limit, count) in enumerate(careful.buckets[0], start=1):
                    buckets.append((block, number, limit, count))
        return rows, pl.DataFrame(buckets, orient="row", schema={
            "_block": pl.Int64, "bucket": pl.Int64, "bucket_limit_ms": pl.Float64,
            "trans_ended": pl.Int64})

    @staticmethod
    def _distribution(work: pl.DataFrame, dist: pl.DataFrame) -> pl.DataFrame:
        if dist.height == 0:
            return DISTRIBUTION.empty()
        keys = work.select(*_KEYS, "_block")
        dist = dist.sort("_block", "bucket")
        return DISTRIBUTION.conform(dist.join(keys, on="_block", how="inner",
                                              maintain_order="left"))


def _read(data: bytes, file: str, on_error: OnError) -> tuple[dict[str, pl.DataFrame], Tally]:
    work, dist, tally = read_wlmgl(data, file, on_error=on_error)
    return {"workload": work, "distribution": dist}, tally


WLMGL = TextKind(
    "rmf-wlmgl", "RMF Postprocessor Workload Activity report (WLMGL) listing, as text",
    ("workload", "distribution"), lambda text: any(mark in text for mark in _MARKS), _read)
