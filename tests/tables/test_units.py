"""Every column's unit and decimals are declared once, by its name (issue 31), and every
table declares the columns a table for people shows first."""

from __future__ import annotations

import pytest

from zperf.tables import SCHEMAS
from zperf.tables.history import SUMMARIES
from zperf.units import (
    AS_IS,
    COUNT,
    MEAN,
    MILLISECONDS,
    MSU,
    PERCENT,
    RATIO,
    declared,
    unit_of,
)

#: Every declared table: zperf parse's and the PDB's summaries (zperf pdb summary).
EVERY = {**SCHEMAS, **SUMMARIES}


def test_every_float_column_declares_its_decimals() -> None:
    """A float column without a declaration would show its own digits: 909.1 beside
    913 in one column.  Integer columns are shown as the integers they are."""
    undeclared = sorted({c.name for s in EVERY.values() for c in s.columns
                         if c.dtype.is_float() and not declared(c.name)})
    assert undeclared == []


def test_a_column_gives_its_unit() -> None:
    column = next(c for c in SCHEMAS["workload"].columns if c.name == "resp_actual_ms")
    assert column.unit is MILLISECONDS and column.unit.decimals == 3


@pytest.mark.parametrize(("name", "unit"), [
    ("enc_ms", MEAN),                  # multisystem enclaves, not milliseconds
    ("resp_actual_ms", MILLISECONDS), ("total_transit_ms", MILLISECONDS),
    ("r4ha_msu", MSU), ("lac_msu", MSU), ("msu_per_hour", MSU), ("ziip_msu_per_hour", MSU),
    ("group_msu_4h_avg", MSU),
    ("capture_ratio", RATIO), ("report_capture_ratio", RATIO),
    ("iipcp_pct_of_cp", PERCENT), ("delta_pct", PERCENT),
    ("systems", COUNT), ("capped_intervals", COUNT), ("skipped_records", COUNT),
    ("no_such_column", AS_IS),
])
def test_names_declare_units(name: str, unit: object) -> None:
    assert unit_of(name) is unit


def test_every_table_declares_what_it_shows_first() -> None:
    for schema in EVERY.values():
        assert schema.priority, schema.name
        assert set(schema.priority) <= set(schema.names), schema.name
        assert len(set(schema.priority)) == len(schema.priority), schema.name
