"""A 72.3 decode of some workload columns gives exactly those columns of the full decode.

``zperf analyze`` asks the SMF reader for the workload columns it keeps
(``read_each(columns=...)``); the 72.3 decoder then decodes and derives only
the column groups that give them (``type72_columns.GROUPS``).  Whatever the
columns asked for, the frame must be the full decode's frame with only those
columns (and the key that repeated class periods are told by), row for row,
with the same tally; on the fixtures, on random dumps, and through
``zperf.runs``.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_roundtrip_property import FRAMING, SETTINGS, dumps, frame

from zperf.formats.reading import read_each
from zperf.formats.registry import SMF_DECODERS
from zperf.formats.smf.dump import read_smf
from zperf.formats.smf.type72_columns import GROUPS, PERIOD_FIELDS, ROW_FIELDS, Periods
from zperf.formats.smf.type72_decoder import WORKLOAD_KEY
from zperf.runs.analysis import WORKLOAD_COLUMNS
from zperf.runs.run import read_sources
from zperf.runs.spec import RunSpec
from zperf.tables import WORKLOAD

DATA = Path(__file__).resolve().parents[2] / "data" / "smf"
FIXTURES = sorted(DATA.glob("smf72.3-*.smf"))
#: The workload key's columns (the decoder's key is two groups of them).
KEY = frozenset(c for group in WORKLOAD_KEY for c in group)


def _read(data: bytes, columns: frozenset[str] | None,
          **kwargs: Any) -> tuple[pl.DataFrame, Any]:
    tables, tally = read_smf(io.BytesIO(data), "p.smf", decoders=SMF_DECODERS,
                             tables=("workload",), on_error="skip",
                             columns=None if columns is None else {"workload": columns},
                             **kwargs)
    seen = (tally.read, tally.parsed, tally.skipped, tally.other, tally.duplicates,
            [(p.record, p.offset, p.reason) for p in tally.problems])
    return tables["workload"], seen


def _projected_is_selected(data: bytes, columns: frozenset[str], **kwargs: Any) -> None:
    full, full_seen = _read(data, None, **kwargs)
    part, part_seen = _read(data, columns, **kwargs)
    assert part_seen == full_seen
    if full.height == 0:
        return
    expected = [c for c in WORKLOAD.names if c in columns | KEY]
    assert part.columns == expected
    assert part.equals(full.select(expected))


GROUP_COLUMNS = [frozenset(g.columns) for g in GROUPS]
CASES = [frozenset(WORKLOAD_COLUMNS), frozenset(), frozenset({"resource_group"}),
         frozenset({"policy", "description", "goal_type"}), *GROUP_COLUMNS,
         frozenset(WORKLOAD.names)]


@pytest.mark.parametrize("columns", CASES, ids=lambda c: ",".join(sorted(c))[:40] or "key")
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_projected_decode_of_the_fixtures_is_the_full_decode_selected(
        path: Path, columns: frozenset[str]) -> None:
    _projected_is_selected(path.read_bytes(), columns)


@SETTINGS
@given(dumps(), FRAMING, st.sets(st.sampled_from(WORKLOAD.names)))
def test_projected_decode_of_random_dumps_is_the_full_decode_selected(
        dump: Any, how: tuple[str, int], columns: set[str]) -> None:
    _, records, _ = dump  # broken records, other types, every framing
    _projected_is_selected(frame(records, how), frozenset(columns))


def test_each_group_reads_only_its_fields_and_gives_its_columns() -> None:
    rows = 5
    rng = np.random.default_rng(7)
    for group in GROUPS:
        col = {name: rng.uniform(0, 1e6, rows) for name in (*ROW_FIELDS, *group.fields)}
        col.update({name: rng.integers(0, 256, rows) for name in ("R723CRGF", "R723CRTF")
                    if name in group.fields})
        periods = Periods(col=col, secs=np.full(rows, 900.0), micro=np.ones(rows, bool),
                          service=np.ones(rows, bool), mcpu=np.full(rows, 1e4),
                          msrb=np.full(rows, 1e4), adj=np.full(rows, 4000.0),
                          nffs=np.full(rows, 256.0), nffi=np.full(rows, 256.0))
        assert tuple(group.derive(periods)) == group.columns  # KeyError: a field not declared
    assert set(PERIOD_FIELDS) == set(ROW_FIELDS).union(*(g.fields for g in GROUPS))
    derived = [c for g in GROUPS for c in g.columns]
    assert len(derived) == len(set(derived)) and set(derived) <= set(WORKLOAD.names)


def test_a_table_not_named_comes_whole_and_distribution_keeps_every_column() -> None:
    data = FIXTURES[0].read_bytes()
    tables, _ = read_smf(io.BytesIO(data), "p.smf", decoders=SMF_DECODERS,
                         tables=("workload", "distribution"),
                         columns={"workload": frozenset({"cpu_seconds"})})
    assert tables["workload"].columns == WORKLOAD.names  # the buckets' keys need them
    tables, _ = read_smf(io.BytesIO(data), "p.smf", decoders=SMF_DECODERS,
                         tables=("workload",), columns={"cpu": frozenset({"system"})})
    assert tables["workload"].columns == WORKLOAD.names


@pytest.mark.parametrize("jobs", [1, 2])
def test_read_each_hands_the_columns_to_the_reader(jobs: int) -> None:
    paths = [str(p) for p in FIXTURES[:2]]
    got = list(read_each(paths, tables=["workload"], jobs=jobs,
                         columns={"workload": ["cpu_seconds"]}))
    assert [r.tables["workload"].columns for r in got] == [
        [c for c in WORKLOAD.names if c in {"cpu_seconds", *KEY}]] * 2


def test_a_run_read_with_the_projection_is_the_run_read_whole() -> None:
    spec = RunSpec(name="r", sources=tuple(str(p) for p in FIXTURES), etr_per_sec=1.0)
    projected, _ = read_sources(spec)
    whole, _ = read_sources(spec, capacity=True)  # capacity: every workload column
    assert projected["workload"].equals(whole["workload"])
