"""Paper 001's codepage conversion costs, pair by pair."""

from __future__ import annotations

import pytest
from paper_data import read_rows

from zperf.calc import formulas as f
from zperf.errors import UsageError

PAPER = read_rows("paper001-codepages.csv")


@pytest.mark.parametrize("row", PAPER, ids=[f"{r['from_name']}-{r['into_name']}" for r in PAPER])
def test_every_measured_pair(row: dict[str, str]) -> None:
    source, target = int(row["from_ccsid"]), int(row["into_ccsid"])
    assert f.codepage_cpu_ms_per_1k(source, target) == float(row["cpu_ms_per_1k_chars"])
    assert f.ccsid(row["from_name"]) == source and f.ccsid(row["from_ccsid"]) == source
    assert f.CCSID_NAMES[target] == row["into_name"]


def test_the_table_is_the_papers_and_in_its_order() -> None:
    assert list(f.CPU_MS_PER_1K_CHARS) == [(int(r["from_ccsid"]), int(r["into_ccsid"]))
                                           for r in PAPER]


def test_cost_is_linear_in_the_characters() -> None:
    assert f.codepage_cpu_ms(1208, 437, 1) == 0.0094
    assert f.codepage_cpu_ms(1208, 437, 1000) == pytest.approx(9.4)
    assert f.codepage_cpu_ms(37, 437, 0) == 0


def test_pairs_and_names_it_did_not_measure() -> None:
    with pytest.raises(UsageError, match="measured no conversion from 37 into 1047"):
        f.codepage_cpu_ms(37, 1047, 1)
    with pytest.raises(UsageError, match="unknown code page 'latin-1'"):
        f.ccsid("latin-1")
    with pytest.raises(UsageError, match="K characters must not be negative"):
        f.codepage_cpu_ms(37, 437, -1)
