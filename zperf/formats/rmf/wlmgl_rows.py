"""The data rows of a WLMGL listing, all at once.

A large SYSOUT holds hundreds of thousands of ``LABEL value`` rows but only a
few dozen row *shapes*.  Blanking every character a printed value is made of
(digits, ``. , * %``, ``N/A``, a K/M/G/T suffix after a digit) leaves a row's
*skeleton*: its labels where they stand.  RMF right-aligns its values, so
the skeletons of a listing are few; each is planned once, as the
line-by-line reader would plan the row (which group and column each label's value goes
to), and then every value is cut out of the text between one label and the
next, checked and converted column-wise.

A block is left to the line-by-line reader (wlmgl_block; the block is
*slow*) when any of its rows is not plain: an unknown label or shape, a label
that repeats within the block, a gap between labels that does not hold
exactly one well-formed value, an overflow (``*****``).  That reader then
gives the warnings and errors only it knows how to word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa

from zperf.formats.fits import misfit_expr
from zperf.formats.listing import Listing
from zperf.formats.rmf.values import TIME_TEXT, VALUE, number_expr, time_ms_expr
from zperf.formats.rmf.wlmgl_fields import TIME_MS, Group
from zperf.formats.rmf.wlmgl_lines import EVENT, QUIET
from zperf.formats.rmf.wlmgl_walk import Context, Walk, expand_runs
from zperf.formats.rmf.wlmgl_words import GROUP_BY_NAME, plan_row, slots_of_band
from zperf.tables import WORKLOAD

_WHOLE_VALUE = rf"^(?:{VALUE})$"
#: Slot of the cell before the first label; an end that means "to the end of the row".
_LEAD, _END = -1, 1 << 30


@dataclass
class RowValues:
    """What the bulk read found: values per block, and the blocks to read line by line."""

    values: pl.DataFrame  # 'block' and one Float64 column per workload column found
    slow: set[int]


def read_rows(rows: pl.DataFrame, contexts: list[Context], printable: bool) -> RowValues:
    """Read the data rows (``data_rows``) in bulk; ``printable``: the listing's
    lines are all printable ASCII and tabs."""
    empty = RowValues(pl.DataFrame({"block": pl.Series([], dtype=pl.Int64)}), set())
    if not rows.height:
        return empty
    plans = _Plans(contexts)
    shape, lead = plans.shapes(rows)
    rows = rows.with_columns(pl.Series("shape", shape), pl.Series("lead", lead))
    # Rows to leave to the line-by-line reader: an unplanned shape, a value before the
    # first label, or a character that is not printable ASCII (a tab, say, or a
    # control character Python and polars would not agree is a blank).
    unusual = (pl.col("t").str.contains("\t", literal=True) if printable
               else pl.col("t").str.contains(r"[^\x20-\x7e]"))
    odd = rows.filter((pl.col("lead") < 0) | (pl.col("t").str.find(r"\S") != pl.col("lead"))
                      | unusual)
    slow = set(odd["block"].to_list())
    slow |= plans.repeated_slots(rows)
    frames = []
    for kind, table in plans.tables().items():
        cells = rows.join(table, on="shape", how="inner", maintain_order="left_right")
        gap = pl.col("t").str.slice(pl.col("start"), pl.col("end") - pl.col("start"))
        cells = cells.select((pl.col("seq") + pl.col("pair")).alias("seq"), "block", "micro",
                             "column", (pl.col("end") == _END).alias("to_end"), gap.alias("gap"))
        cells = cells.with_columns(pl.col("gap").str.strip_chars(" ").alias("text")) \
            .with_columns(pl.col("text").cast(pl.Float64, strict=False).alias("value"))
        # A token of value characters that casts to a number is one well-formed
        # value (digits and at most one point): only the others are checked.
        unread = cells.filter(pl.col("value").is_null())
        slow |= set(cells.filter(_bad_edges())["block"].to_list())
        slow |= set(unread.filter(_bad_token())["block"].to_list())
        if kind == _IGNORED:
            continue
        values, bad = (_times if kind == TIME_MS else _numbers)(cells, unread)
        slow |= bad | _misfits(values, plans.columns)
        frames.append(values)
    good = pl.concat(frames).filter(~pl.col("block").is_in(sorted(slow))) if frames else None
    if good is None or good.height == 0:
        return RowValues(empty.values, slow)
    return RowValues(_per_block(good, plans.columns), slow)


def data_rows(listing: Listing, found: Walk) -> pl.DataFrame:
    """The data rows the walk found, in line order: their sequence number (room
    for the cells of each), line index, block, context (band), microsecond
    times and text; blank lines and distribution rows left out."""
    index, context = expand_runs(found.runs)
    kinds = found.kinds[index]
    data = (kinds == QUIET) | (kinds == EVENT)
    index, context = index[data], context[data]
    blocks = np.array([c[0] for c in found.contexts], dtype=np.int64)
    micro = np.array([c[2] for c in found.contexts], dtype=np.bool_)
    return pl.DataFrame({"seq": np.arange(len(index), dtype=np.int64) * _MAX_CELLS,
                         "index": index, "block": blocks[context], "context": context,
                         "micro": micro[context], "t": listing.text.gather(index)},
                        schema={"seq": pl.Int64, "index": pl.Int64, "block": pl.Int64,
                                "context": pl.Int64, "micro": pl.Boolean, "t": pl.String})


def skeletons(text: pl.Series) -> pl.Series:
    """Each row with the characters of its values blanked: its labels where they stand.

    Byte-wise on the Arrow buffer of all rows at once (a suffix or 'N/A' never
    reaches across the start of a row)."""
    array = text.rechunk().to_arrow().cast(pa.large_string())
    if array.null_count or array.buffers()[2] is None:
        return text
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64)[
        array.offset : array.offset + len(array) + 1]
    raw = np.frombuffer(array.buffers()[2], dtype=np.uint8)
    starts = np.zeros(len(raw) + 1, dtype=np.bool_)  # a row starts here: nothing joins across
    starts[offsets] = True
    digit = (raw - np.uint8(ord("0"))) < 10
    blank = digit | (raw == ord(".")) | (raw == ord(",")) | (raw == ord("*")) | (raw == ord("%"))
    suffix = (raw == ord("K")) | (raw == ord("M")) | (raw == ord("G")) | (raw == ord("T"))
    blank[1:] |= suffix[1:] & digit[:-1] & ~starts[1:-1]
    na = np.flatnonzero((raw[:-2] == ord("N")) & (raw[1:-1] == ord("/")) & (raw[2:] == ord("A"))
                        & ~starts[1:-2] & ~starts[2:-1])
    blank[na] = blank[na + 1] = blank[na + 2] = True
    out = np.where(blank, np.uint8(32), raw)
    rebuilt = pa.LargeStringArray.from_buffers(len(array), pa.py_buffer(offsets.copy()),
                                               pa.py_buffer(out))
    return pl.Series(text.name, rebuilt)


class _Plans:
    """Row shapes planned as the line-by-line reader plans a row, once per shape."""

    def __init__(self, contexts: list[Context]) -> None:
        self.contexts = contexts
        self.slot_ids: dict[tuple[str, str], int] = {}
        self.columns: list[str] = []
        self.column_ids: dict[str, int] = {}
        self.entries: list[tuple[int, int, int, int, int, str]] = []
        self.slots_of_shape: list[list[int]] = []

    def shapes(self, rows: pl.DataFrame) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Each row's shape id, and where its first label starts (-1: unplanned)."""
        bands = sorted({c[1] for c in self.contexts})
        band_id = {b: i for i, b in enumerate(bands)}
        context_band = np.array([band_id[c[1]] for c in self.contexts], dtype=np.int64)
        skeleton = skeletons(rows["t"])
        band = context_band[rows["context"].to_numpy()]
        mixed = skeleton.hash(7).to_numpy() ^ (band.astype(np.uint64) * np.uint64(_MIX))
        _, first, shape = np.unique(mixed, return_index=True, return_inverse=True)
        texts = skeleton.gather(first)
        if not ((skeleton == texts.gather(shape)).all()
                and (band == band[first][shape]).all()):  # a hash collision: exactly, slowly
            exact = pl.DataFrame({"b": band, "s": skeleton}).select(
                pl.struct("b", "s").rank("dense")).to_series().to_numpy()
            _, first, shape = np.unique(exact, return_index=True, return_inverse=True)
            texts = skeleton.gather(first)
        shape = shape.reshape(-1).astype(np.int64)
        groups = [[GROUP_BY_NAME[name] for name in band] for band in bands]
        slots = [slots_of_band(band) for band in bands]
        leads = []
        for number, (band_of, text) in enumerate(zip(band[first].tolist(), texts.to_list(),
                                                     strict=True)):
            planned = self._plan(groups[band_of], slots[band_of], text)
            if planned is None or len(planned[1]) >= _MAX_CELLS:
                leads.append(-1)
                self.slots_of_shape.append([])
                continue
            leads.append(planned[0])
            self.slots_of_shape.append([cell[2] for cell in planned[1]])
            for start, end, slot, column, kind in planned[1]:
                column_id = self.column_ids.setdefault(column, len(self.column_ids)) \
                    if column else -1
                self.entries.append((number, start, end, slot, column_id, kind))
        self.columns = list(self.column_ids)
        return shape.astype(np.int64), np.array(leads, dtype=np.int64)[shape]

    def _plan(self, groups: list[Group], slots: dict[str, list[int]],
              skeleton: str) -> tuple[int, list[Cell]] | None:
        """Where the row's first label starts, and each cell: (start, end, slot, column, kind).

        A label is a run of words one blank apart; its value lies between it
        and the next label (or the end of the row).  A label that ends the row
        has no value, and the line-by-line reader drops it: so does this.  A row
        with no label at all is left to the line-by-line reader (it checks, then
        drops, values with no label).
        """
        labels = [(m.group(), m.start(), m.end())
                  for m in re.finditer(r"\S+(?: \S+)*", skeleton)]
        if not labels:
            return None
        lead = labels[0][1]
        if labels[-1][2] == len(skeleton):
            labels.pop()  # no value after it
        if not labels:
            return lead, []
        plan = plan_row(groups, slots, tuple(name for name, _, _ in labels))
        if plan is None:
            return None
        cells = []
        for i, ((_, _, end), (slot, column, kind)) in enumerate(zip(labels, plan, strict=True)):
            after = labels[i + 1][1] if i + 1 < len(labels) else _END
            slot_id = self.slot_ids.setdefault(slot, len(self.slot_ids))
            cells.append((end, after, slot_id, column, kind if column else _IGNORED))
        return lead, cells

    def tables(self) -> dict[str, pl.DataFrame]:
        """The planned cells by kind: shape, start, end, column id, and a sequence step."""
        table = pl.DataFrame(self.entries, orient="row", schema={
            "shape": pl.Int64, "start": pl.Int64, "end": pl.Int64, "slot": pl.Int64,
            "column": pl.Int64, "kind": pl.String})
        table = table.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).over("shape")
                                   .alias("pair"))
        return {kind: part.select("shape", "start", "end", "column", "pair")
                for (kind,), part in table.partition_by("kind", as_dict=True).items()}

    def repeated_slots(self, rows: pl.DataFrame) -> set[int]:
        """Blocks where a (group, label) slot is printed twice: the line-by-line reader
        then looks for the next free group, and says so."""
        n_slots = len(self.slot_ids)
        if not n_slots:
            return set()
        shape_slots = [(shape, slot) for shape, slots in enumerate(self.slots_of_shape)
                       for slot in slots]
        if not shape_slots:
            return set()
        pairs = np.array(shape_slots, dtype=np.int64)
        per_shape = np.bincount(pairs[:, 0], minlength=len(self.slots_of_shape))
        order = np.argsort(pairs[:, 0], kind="stable")
        starts = np.concatenate(([0], np.cumsum(per_shape)[:-1]))
        shapes = rows["shape"].to_numpy()
        blocks = rows["block"].to_numpy()
        counts = per_shape[shapes]
        take = (np.arange(int(counts.sum()), dtype=np.int64)
                - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(starts[shapes], counts))
        slots = pairs[order, 1][take]
        owner = np.repeat(blocks, counts)
        hits = np.bincount(owner * n_slots + slots,
                           minlength=(int(blocks.max()) + 1) * n_slots)
        return set((np.flatnonzero(hits > 1) // n_slots).tolist())


#: A cell of a planned row: value text from..to, slot id, workload column, kind.
Cell = tuple[int, int, int, str, str]
_IGNORED = "ignored"
_MIX = 0x9E3779B97F4A7C15  # spreads the band over the skeleton's hash
_MAX_CELLS = 4096  # cells of one row, at most (a row of 133 columns holds a few dozen)


def _bad_edges() -> pl.Expr:
    """Gaps that do not stand between two whole words: every gap must begin with
    a blank, and end with one unless it runs to the end of the row."""
    gap = pl.col("gap")
    return ~gap.str.starts_with(" ") | (~pl.col("to_end") & ~gap.str.ends_with(" "))


def _bad_token() -> pl.Expr:
    """Gaps that do not hold exactly one token that is a value as RMF prints it
    (an overflow, '*****', is left to the line-by-line reader, which warns)."""
    text = pl.col("text")
    return ((text == "") | text.str.contains(" ", literal=True) | text.str.starts_with("*")
            | ~text.str.contains(_WHOLE_VALUE))


def _numbers(cells: pl.DataFrame, unread: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """Number cells with their value, as values.convert() gives it;
    and the blocks where one does not convert.  ``unread``: the cells whose
    text is not a plain number ('N/A', '4876K', '1,234', '50%')."""
    read = cells.filter(pl.col("value").is_not_null()).select("seq", "block", "column", "value")
    suffixed = unread.filter(pl.col("text") != "N/A").with_columns(
        number_expr(pl.col("text")).alias("value"))
    bad = set(suffixed.filter(pl.col("value").is_null())["block"].to_list())
    missing = unread.filter(pl.col("text") == "N/A")
    return pl.concat([read, suffixed.select(read.columns), missing.select(read.columns)]), bad


def _misfits(values: pl.DataFrame, columns: list[str]) -> set[int]:
    """Blocks with a value its workload column cannot hold (a count of 10**20): the
    line-by-line reader reports them."""
    schema = WORKLOAD.polars_schema()
    integer = [i for i, name in enumerate(columns) if schema[name].is_integer()]
    if not integer:
        return set()
    checks = [(pl.col("column") == i) & misfit_expr(pl.col("value"), schema[columns[i]])
              for i in integer]
    return set(values.filter(pl.any_horizontal(checks))["block"].to_list())


def _times(cells: pl.DataFrame, unread: pl.DataFrame) -> tuple[pl.DataFrame, set[int]]:
    """Time cells (HHH.MM.SS.TTT or .FFFFFF, leading parts left off) in ms, as
    values.time_ms() gives them; and the blocks where one does
    not convert (``unread``: those that are not a plain number, '2.05.500')."""
    bad = set(unread.filter(~pl.col("text").str.contains(TIME_TEXT))["block"].to_list())
    value = time_ms_expr(pl.col("text"), pl.col("micro"))
    return cells.select("seq", "block", "column", value.alias("value")), bad


def _per_block(cells: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """One row per block, one column per workload column: the last value printed wins.

    ``seq`` orders the cells as they were printed (row by row, left to right)."""
    block = cells["block"].to_numpy()
    column = cells["column"].to_numpy()
    seq = cells["seq"].to_numpy()
    n_blocks, width = int(block.max()) + 1, len(columns)
    where = block * width + column
    last = np.full(n_blocks * width, -1, dtype=np.int64)
    np.maximum.at(last, where, seq)
    winner = seq == last[where]
    grid: npt.NDArray[np.float64] = np.full(len(last), np.nan)
    grid[where[winner]] = cells["value"].to_numpy()[winner]
    grid = grid.reshape(n_blocks, width)
    present = np.unique(block)
    data = {"block": pl.Series("block", present, dtype=pl.Int64)}
    for i, name in enumerate(columns):
        data[name] = pl.Series(name, grid[present, i], nan_to_null=True)
    return pl.DataFrame(data)
