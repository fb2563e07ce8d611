"""typed_rows: the step from a driver log's string columns to values, shared by the
request CSV reader and the JMeter CSV and XML readers."""

from __future__ import annotations

import datetime as dt

import polars as pl

from zperf.formats import delimited as text


def test_good_rows_keep_their_values_and_time_bad_rows_one_problem_each() -> None:
    frame = pl.DataFrame({
        "ts": ["2024-01-02 03:04:05", "soon", "2024-01-02 03:04:06", "2024-01-02 03:04:07",
               "2024-01-02 03:04:08"],
        "ms": ["12.5", "x", "y", "", "4"],
        "label": ["a", None, "b", "c", "d"],
    })
    good, problems = text.typed_rows(frame, {"ms": text.FLOAT, "label": text.TEXT},
                                     required=("ms",), time_column="ts", time_name="start")
    assert good.columns == ["ms", "label", "start"]
    assert good.rows() == [(12.5, "a", dt.datetime(2024, 1, 2, 3, 4, 5)),
                           (4.0, "d", dt.datetime(2024, 1, 2, 3, 4, 8))]
    assert problems == [  # row 1's time stamp comes before its value
        (1, "soon under 'ts' is not a time of format %Y-%m-%d %H:%M:%S%.f"),
        (2, "y under 'ms' is not a number"),
        (3, "no value under 'ms'"),
    ]


def test_a_pattern_and_a_time_zone_reach_the_time_stamps() -> None:
    frame = pl.DataFrame({"ts": ["02/01/2024 03:04"], "ms": ["1"]})
    good, problems = text.typed_rows(frame, {"ms": text.FLOAT}, required=(), time_column="ts",
                                     time_name="__ts__", pattern="dd/MM/yyyy HH:mm")
    assert problems == [] and good.get_column("__ts__").to_list() == [dt.datetime(2024, 1, 2,
                                                                                 3, 4)]
    epoch = pl.DataFrame({"ts": ["1704164645000"], "ms": ["1"]})  # 03:04:05 UTC
    good, _ = text.typed_rows(epoch, {"ms": text.FLOAT}, required=(), time_column="ts",
                              time_name="__ts__", timezone="Europe/Paris")
    assert good.get_column("__ts__").to_list() == [dt.datetime(2024, 1, 2, 4, 4, 5)]


def test_a_bad_value_holding_a_line_break_is_named_on_one_line() -> None:
    """A quoted field that runs over two lines is quoted in the message with ``\\n``
    (found by tests/formats/test_random_damage.py on an IMS PA extract)."""
    import pytest

    from zperf.errors import ParseError
    from zperf.formats.ims.pa_csv import read_ims_pa_csv

    data = (b"IMSID;DATE;TIME;TRANCODE;PSB;TRANCNT;Process Time (sec)\n"
            b'IMSB;2019-11-05;10.15.00;PAYINQ;PAYPSB1;"x\n12";0.004\n')
    with pytest.raises(ParseError) as error:
        read_ims_pa_csv(data, "pa.csv", "raise")
    assert "\n" not in str(error.value)
    assert "x\\n12 under 'TRANCNT' is not a whole number" in str(error.value)
