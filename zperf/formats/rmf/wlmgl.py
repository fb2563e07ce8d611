"""RMF Workload Activity (WLMGL) listings into the canonical workload table.

The report is read by its labels and headings, not by column positions, so
the same code reads SYSOUT with ASA control characters, listings without
them, and extracts pasted into documents with tabs.  Columns the listing
does not print stay null; ``source_format`` is 'rmf-wlmgl'.  Other reports
on the same SYSOUT are counted and skipped.

So that a large SYSOUT reads at tens of MB/s, it is read column-wise, in
pieces of about 16 MB cut before a class block: the lines as Arrow strings
(listing); what each line is (wlmgl_lines) and the one state machine fed the
lines that can change its state (wlmgl_walk), which says where each class
block's lines are; the data rows converted column-wise (wlmgl_rows); and
then one row per class period (here).  A block the bulk passes cannot take
as it is, and one the listing ends in, is read line by line (wlmgl_block).
``per_line`` feeds the machine every line and reads every block line by
line: the reference the bulk path must equal
(tests/formats/rmf/test_rmf_wlmgl_bulk.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import polars as pl

from zperf.formats.fits import misfit_expr
from zperf.formats.kinds import TextKind
from zperf.formats.listing import (
    Listing,
    ebcdic_as_utf8,
    has_asa_column,
    listing_encoding,
    listing_table,
)
from zperf.formats.pieces import TextPieces, whole
from zperf.formats.rmf.values import number_expr, time_ms_expr
from zperf.formats.rmf.wlmgl_block import BlockReader, block_lines
from zperf.formats.rmf.wlmgl_goals import perf_index_of_lines
from zperf.formats.rmf.wlmgl_rows import data_rows, read_rows
from zperf.formats.rmf.wlmgl_walk import Walk, walk
from zperf.formats.rmf.wlmgl_words import (
    BUCKET_PATTERN,
    goal_columns,
    header_values,
    key_values,
)
from zperf.formats.tally import OnError, Tally
from zperf.tables import DISTRIBUTION, WORKLOAD

_MARKS = ("W O R K L O A D", "WORKLOAD ACTIVITY", "REPORT CLASS=", "SERVICE CLASS=",
          "REPORT BY: POLICY=")
_NOT_PRINTABLE = r"[^\t\x20-\x7e]"
_KEYS = ["source", "sysplex", "system", "interval_start", "class_kind", "class_name", "period"]


#: A large listing is read in pieces of about this many bytes, each cut before
#: a class block, so that memory follows the piece, not the file.  (Reading
#: one piece's values while walking the next, in two threads, was tried: with
#: polars already using both cores it was slower.)
PIECE_BYTES = 16 << 20
#: Bytes of the start of a listing that say whether it has ASA control characters
#: (:func:`has_asa_column` looks at its first 2,000 lines of up to 200 bytes).
ASA_SAMPLE = 2000 * 200


def read_wlmgl(data: bytes, file: str, *, on_error: OnError = "raise",
               piece_bytes: int | None = None,
               per_line: bool = False) -> tuple[pl.DataFrame, pl.DataFrame, Tally]:
    """Parse a WLMGL listing (bytes of the whole file) into (workload, distribution, tally).

    The distribution rows come from the RESPONSE TIME DISTRIBUTION tables: the
    bucket's upper limit in ms (null for the last, 'more than' bucket) and
    the transactions in the bucket; the limit as a % of the midpoint is not
    printed and stays null.  The whole file is read as a stream of one chunk
    (:func:`wlmgl_parts`): one code reads both.
    """
    tally = Tally(file, on_error)
    if listing_encoding(data) == "cp037":
        data = ebcdic_as_utf8(data)
    done = list(wlmgl_parts(whole(data), tally, piece_bytes=piece_bytes, per_line=per_line))
    return pl.concat([w for w, _ in done]), pl.concat([d for _, d in done]), tally


def wlmgl_parts(chunks: Iterable[bytes], tally: Tally, *, piece_bytes: int | None = None,
                per_line: bool = False) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """The (workload, distribution) rows of a listing given as UTF-8 chunks, piece by
    piece in file order (at least one pair), counted into ``tally``: a listing larger
    than memory is read holding a piece (``piece_bytes``, default
    :data:`PIECE_BYTES`) at a time."""
    text = TextPieces(chunks)
    size = PIECE_BYTES if piece_bytes is None else piece_bytes
    for listing, found in _pieces(text, tally, size, per_line):
        yield _Builder(tally.file, tally, listing, found, per_line).build()


def _pieces(text: TextPieces, tally: Tally, piece_bytes: int,
            per_line: bool) -> Iterator[tuple[Listing, Walk]]:
    """The listing in walked pieces, each (but the last) cut before a class block."""
    asa = has_asa_column(text.head(ASA_SAMPLE))
    memo: dict[str, Any] = {}
    header, size = None, piece_bytes
    while True:
        data, final = text.piece(size)
        listing = listing_table(data, asa=asa, first_number=text.number,
                                first_offset=text.offset)
        mark = tally.checkpoint()
        found = walk(listing, tally, header=header, memo=memo, final=final, per_line=per_line)
        if not final and found.cut is None:  # one block so far: a larger piece
            tally.rollback(mark)
            size *= 2
            continue
        yield listing, found
        if final or found.cut is None:
            return
        header = found.headers[found.header[found.limit]]
        text.advance(int(listing.offsets[found.cut]), int(listing.numbers[found.cut]))
        size = piece_bytes


def _valueless(values: pl.DataFrame, blocks: int) -> set[int]:
    """The blocks (of the first ``blocks``) that bulk-read ``values`` give no measurement:
    no row, or a row of nulls."""
    measures = [m for m in WORKLOAD.measures if m in values.columns]
    valued = (values.filter(~pl.all_horizontal(pl.col(m).is_null() for m in measures))
              if measures else values.clear())
    return set(range(blocks)) - set(valued["block"].to_list())


class _Builder:
    """One row per class block of a walked piece: most in bulk, the rest line by line."""

    def __init__(self, file: str, tally: Tally, listing: Listing, found: Walk,
                 per_line: bool) -> None:
        self.file, self.tally, self.listing, self.found = file, tally, listing, found
        self.per_line = per_line
        self.rows = data_rows(listing, found)

    def build(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        found, file = self.found, self.file
        headers, bad_headers = _table(found.headers, lambda h: header_values(h, file), "header")
        keys, bad_keys = _table(found.keys, key_values, "key")
        goals, bad_goals = _table(found.goals, goal_columns, "goal")
        failures = self._failures(bad_headers, bad_keys, bad_goals)
        values, buckets, not_bulk = self._bulk()
        # a block read in bulk to no value is read again line by line, which says it where
        # it is: in file order among the other problems, whatever the piece size
        odd = not_bulk | failures.keys() | _valueless(values, found.limit)
        slow = sorted(block for block in odd if block < found.limit)
        self.tally.settle(parsed=found.limit - len(slow))  # the others settle one by one
        by_line, by_line_buckets = self._line_by_line(slow, failures)
        fast_blocks = np.setdiff1d(np.arange(found.limit, dtype=np.int64),
                                   np.array(slow, dtype=np.int64))
        fast = pl.Series(fast_blocks).implode()
        values = pl.concat([values.filter(pl.col("block").is_in(fast)), by_line],
                           how="diagonal_relaxed").rename({"block": "_block"})
        kept = np.union1d(fast_blocks, by_line["block"].to_numpy()).astype(np.int64)
        blocks = pl.DataFrame({"_block": kept, "header": np.array(found.header)[kept],
                               "key": np.array(found.key)[kept],
                               "goal": np.array(found.goal)[kept]},
                              schema={"_block": pl.Int64, "header": pl.Int64, "key": pl.Int64,
                                      "goal": pl.Int64})
        raw, perf_index = self._raw()
        work = (blocks.join(headers, on="header", how="left")
                .join(keys, on="key", how="left").join(goals, on="goal", how="left")
                .join(raw, on="_block", how="left").join(perf_index, on="_block", how="left")
                .join(values, on="_block", how="left"))
        work = WORKLOAD.conform(work).with_columns(work["_block"])
        dist = pl.concat([buckets.filter(pl.col("_block").is_in(fast)), by_line_buckets])
        return work.drop("_block"), _distribution(work, dist)

    def _failures(self, bad_headers: dict[int, str], bad_keys: dict[int, str],
                  bad_goals: dict[int, str]) -> dict[int, str]:
        """Blocks whose page header, keys or goal do not convert, and why (the header
        first)."""
        found = self.found
        failures: dict[int, str] = {}
        if not bad_headers and not bad_keys and not bad_goals:
            return failures
        for block in range(found.limit):
            reason = bad_headers.get(found.header[block])
            if reason is None:
                reason = bad_keys.get(found.key[block])
            if reason is None:
                reason = bad_goals.get(found.goal[block])
            if reason is not None:
                failures[block] = reason
        return failures

    def _bulk(self) -> tuple[pl.DataFrame, pl.DataFrame, set[int]]:
        """Values and distribution rows of every block read in bulk, and the blocks
        that must be read line by line."""
        found = self.found
        if self.per_line:
            return _EMPTY_VALUES, _EMPTY_BUCKETS, set(range(found.blocks))
        rows = read_rows(self.rows, found.contexts, self.listing.printable)
        buckets, odd = self._buckets()
        slow = rows.slow | odd | self._twice_distributed()
        if found.at_end:
            slow.add(found.blocks - 1)  # its values may be partial: the line-by-line reader says
        return rows.values, buckets, slow

    def _line_by_line(self, blocks: list[int],
                      failures: dict[int, str]) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Values and distribution rows of these blocks, read line by line (each one
        a row or a problem)."""
        reader = BlockReader(self.tally)
        values: list[dict[str, float | None]] = []
        buckets: list[tuple[int, int, float | None, int]] = []
        for block, lines in zip(blocks, block_lines(self.listing, self.found, self.rows,
                                                    blocks, failures), strict=True):
            read = reader.read(lines)
            if read is None:
                continue
            values.append({"block": block, **read[0]})
            buckets.extend((block, number, limit, count)
                           for number, (limit, count) in enumerate(read[1], start=1))
        columns = sorted({name for row in values for name in row} - {"block"})
        frame = pl.DataFrame({"block": [row["block"] for row in values],
                              **{name: [row.get(name) for row in values] for name in columns}},
                             schema={"block": pl.Int64, **dict.fromkeys(columns, pl.Float64)})
        return frame, pl.DataFrame(buckets, orient="row", schema=_EMPTY_BUCKETS.schema)

    def _raw(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """The state-sample lines of each block, joined as printed; and the PERF INDX
        printed among them."""
        index, block = self.found.raw()
        lines = self.listing.text.gather(index)
        joined = (pl.DataFrame({"_block": block, "state_samples_raw": lines})
                  .group_by("_block", maintain_order=True)
                  .agg(pl.col("state_samples_raw").str.join("\n")))
        return joined, perf_index_of_lines(block, lines).rename({"block": "_block"})

    def _buckets(self) -> tuple[pl.DataFrame, set[int]]:
        """RESPONSE TIME DISTRIBUTION rows, parsed column-wise; and the blocks with
        a row that is not printable ASCII (left to the line-by-line reader)."""
        index, block = self.found.buckets()
        frame = pl.DataFrame({"_block": block, "t": self.listing.text.gather(index)})
        odd: set[int] = set()
        if not self.listing.printable:
            odd = set(frame.filter(pl.col("t").str.contains(_NOT_PRINTABLE))["_block"].to_list())
        parts = frame.select("_block", pl.col("t").str.extract_groups(f"(?-u){BUCKET_PATTERN}")
                             .alias("m")).unnest("m")
        # The count's number once: misfit_expr uses its value four times, and an eager
        # select evaluates number_expr (the costly part here) for each use.
        parts = parts.filter(pl.col("op").is_not_null()).with_columns(
            number_expr(pl.col("count")).alias("count"))
        limit = time_ms_expr(pl.col("limit"), pl.lit(False))
        return parts.select(
            "_block", pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("_block").alias("bucket"),
            pl.when(pl.col("op") == ">").then(None).otherwise(limit).alias("bucket_limit_ms"),
            pl.col("count").cast(pl.Int64, strict=False).alias("trans_ended")), \
            odd | set(parts.filter(misfit_expr(pl.col("count"), pl.Int64()))["_block"].to_list())

    def _twice_distributed(self) -> set[int]:
        """Blocks with a second distribution title, or one after distribution rows:
        only the first distribution is kept, with a warning (line by line)."""
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


_EMPTY_VALUES = pl.DataFrame({"block": pl.Series([], dtype=pl.Int64)})
_EMPTY_BUCKETS = pl.DataFrame(schema={"_block": pl.Int64, "bucket": pl.Int64,
                                      "bucket_limit_ms": pl.Float64, "trans_ended": pl.Int64})


def _table(items: list[Any], convert: Any, name: str) -> tuple[pl.DataFrame, dict[int, str]]:
    """One row per distinct header, key set or goal, with the columns it gives;
    and why those that do not convert do not (their blocks become problems)."""
    rows, bad = [], {}
    for i, item in enumerate(items):
        try:
            rows.append({name: i, **convert(item)})
        except ValueError as exc:
            bad[i] = str(exc)
    if not rows:
        return pl.DataFrame({name: pl.Series([], dtype=pl.Int64)}), bad
    return pl.DataFrame(rows, infer_schema_length=None).with_columns(
        pl.col(name).cast(pl.Int64)), bad


def _distribution(work: pl.DataFrame, dist: pl.DataFrame) -> pl.DataFrame:
    if dist.height == 0:
        return DISTRIBUTION.empty()
    keys = work.select(*_KEYS, "_block")
    dist = dist.sort("_block", "bucket")
    return DISTRIBUTION.conform(dist.join(keys, on="_block", how="inner", maintain_order="left"))


def _read(data: bytes, file: str, on_error: OnError) -> tuple[dict[str, pl.DataFrame], Tally]:
    work, dist, tally = read_wlmgl(data, file, on_error=on_error)
    return {"workload": work, "distribution": dist}, tally


def _stream(chunks: Iterable[bytes], tally: Tally) -> Iterator[dict[str, pl.DataFrame]]:
    for work, dist in wlmgl_parts(chunks, tally):
        yield {"workload": work, "distribution": dist}


WLMGL = TextKind(
    "rmf-wlmgl", "RMF Postprocessor Workload Activity report (WLMGL) listing, as text",
    ("workload", "distribution"), lambda text: any(mark in text for mark in _MARKS), _read,
    stream=_stream, listing=True)
