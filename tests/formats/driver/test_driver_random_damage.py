"""Random damage to every driver fixture: a one-line error or balanced counts, never a crash.

Bytes are changed, cut out, inserted and the file truncated, with a fixed seed; each damaged
file is read with on_error raise (only zperf's own errors may come out) and skip (the counts
must add up).  Also the damage shapes the random runs found once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from conftest import DATA
from zperf.errors import ParseError, ZperfError
from zperf.formats.driver.iwl import read_iwl
from zperf.formats.driver.jmeter_csv import read_jmeter_csv
from zperf.formats.driver.jmeter_xml import read_jmeter_xml
from zperf.formats.driver.request_csv import read_driver_csv

Reader = Callable[..., Any]
CASES: list[tuple[Reader, str]] = [
    (read_iwl, "iwl-two-runs-status.txt"),
    (read_jmeter_csv, "jmeter-17col-formatted-multiline.csv"),
    (read_jmeter_csv, "jmeter-transaction-controller.csv"),
    (read_jmeter_xml, "jmeter-nested.jtl"),
    (read_driver_csv, "requests.csv"),
]


def damaged(base: bytes, rng: random.Random) -> bytes:
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


def check(reader: Reader, data: bytes) -> None:
    try:
        reader(data, "d", "raise")
    except ZperfError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("d: ")
    try:
        _, tally = reader(data, "d", "skip")
    except ZperfError:
        return  # a file-level problem (no header, not a JTL document): nothing to count
    assert tally.balanced(), tally.summary()


@pytest.mark.parametrize(("reader", "name"), CASES, ids=[name for _, name in CASES])
def test_random_damage(reader: Reader, name: str) -> None:
    base = (DATA / "driver" / name).read_bytes()
    rng = random.Random(name)
    for _ in range(40):
        check(reader, damaged(base, rng))


def test_a_time_stamp_years_away_lists_only_busy_intervals() -> None:
    data = (DATA / "driver" / "requests.csv").read_bytes().replace(b"2022-10-04T10:01:10",
                                                                 b"2622-10-04T10:01:10")
    tables, tally = read_driver_csv(data, "far.csv")
    assert tables["driver_intervals"].get_column("transactions").to_list() == [1, 2, 1]
    assert tally.warnings[0].startswith("the requests span 2022-10-04 07:59:00 to 2622-10-04 "
                                        "08:01:00: only the intervals in which requests ended")


def test_a_quote_in_the_middle_of_a_field_is_reported_not_guessed() -> None:
    text = (DATA / "driver" / "jmeter-transaction-controller.csv").read_bytes()
    text = text.replace(b"GET /logo.png", b'GET /lo"go;x".png')
    with pytest.raises(ParseError, match=r"record 2 line 3 at offset 0x[0-9A-F]+: JMeter "
                                         r"sample: 13 fields where the header has 12"):
        read_jmeter_csv(text, "q.jtl")
    _, tally = read_jmeter_csv(text, "q.jtl", on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped) == (5, 4, 1)


def test_an_xml_declaration_with_an_unknown_encoding() -> None:
    with pytest.raises(ParseError, match="line 1 at offset 0x0: the XML declaration names an "
                                         "unknown encoding"):
        read_jmeter_xml(b'<?xml version="1.0" encoding="U1-TF-8"?><testResults/>', "e.jtl")
