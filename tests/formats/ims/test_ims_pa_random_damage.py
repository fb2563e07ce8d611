"""Random damage to the IMS PA fixtures: a one-line error or balanced counts, never a crash.

The damage and the checks are those of test_driver_random_damage.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_driver_random_damage import check, damaged

from conftest import DATA
from zperf.formats.ims.pa_csv import read_ims_pa_csv
from zperf.formats.ims.pa_report import read_ims_pa_report

CASES: list[tuple[Any, str]] = [
    (read_ims_pa_csv, "pa-extract-paper004-dsff.csv"),
    (read_ims_pa_csv, "pa-extract-field-names.csv"),
    (read_ims_pa_report, "pa-transit-paper004-fastpath.txt"),
]


@pytest.mark.parametrize(("reader", "name"), CASES, ids=[name for _, name in CASES])
def test_random_damage(reader: Any, name: str) -> None:
    base = (DATA / "ims" / name).read_bytes()
    rng = random.Random(name)
    for _ in range(40):
        check(reader, damaged(base, rng))
