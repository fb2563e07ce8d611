"""Random damage to the driver and IMS PA fixtures: a one-line error or balanced counts,
never a crash.

Bytes are changed, cut out, inserted and the file truncated; each damaged file is read
with on_error raise (only zperf's own errors may come out, on one line naming the file)
and skip (the counts must add up). Hypothesis draws the damage, so a failure shrinks to
a small one and the profile in conftest.py sets how many files each fixture gets. The
damage shapes these runs once found are regression tests of their readers
(driver/test_driver_damage.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA
from zperf.errors import ZperfError
from zperf.formats.driver.iwl import read_iwl
from zperf.formats.driver.jmeter_csv import read_jmeter_csv
from zperf.formats.driver.jmeter_xml import read_jmeter_xml
from zperf.formats.driver.request_csv import read_driver_csv
from zperf.formats.ims.pa_csv import read_ims_pa_csv
from zperf.formats.ims.pa_report import read_ims_pa_report

Reader = Callable[..., Any]

#: (reader, fixture under tests/data): every text reader whose signature is
#: ``reader(data, file, on_error)``.
CASES: list[tuple[Reader, str]] = [
    (read_iwl, "driver/iwl-two-runs-status.txt"),
    (read_jmeter_csv, "driver/jmeter-17col-formatted-multiline.csv"),
    (read_jmeter_csv, "driver/jmeter-transaction-controller.csv"),
    (read_jmeter_xml, "driver/jmeter-nested.jtl"),
    (read_driver_csv, "driver/requests.csv"),
    (read_ims_pa_csv, "ims/pa-extract-paper004-dsff.csv"),
    (read_ims_pa_csv, "ims/pa-extract-field-names.csv"),
    (read_ims_pa_report, "ims/pa-transit-paper004-fastpath.txt"),
]


def damaged(base: bytes, rng: random.Random) -> bytes:
    """``base`` with one to six bytes changed, runs cut out or inserted, maybe truncated."""
    data = bytearray(base)
    for _ in range(rng.randint(1, 6)):
        pos = rng.randrange(len(data))
        op = rng.random()
        if op < 0.4:
            data[pos] = rng.choice(b'",;\n\r x0.-|<>/\x00\xff9')
        elif op < 0.7:
            del data[pos:pos + rng.randint(1, 30)]
        else:
            data[pos:pos] = bytes(rng.choice(b'",;\n 1a.') for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.2:
        data = data[: rng.randrange(len(data))]
    return bytes(data)


@pytest.mark.parametrize(("reader", "name"), CASES, ids=[name for _, name in CASES])
@given(rng=st.randoms(use_true_random=False))
def test_random_damage(reader: Reader, name: str, rng: random.Random) -> None:
    data = damaged((DATA / name).read_bytes(), rng)
    try:
        reader(data, "d", "raise")
    except ZperfError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("d: ")
    try:
        _, tally = reader(data, "d", "skip")
    except ZperfError:
        return  # a file-level problem (no header, not a JTL document): nothing to count
    assert tally.balanced(), tally.summary()
