"""Feeds (OpenMetrics text, OTLP JSON lines), SQL, and other readers of the layout."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from pdb_data import PER_DAY, month_fixture  # noqa: F401 (fixture)

from zperf.errors import UsageError
from zperf.pdb.feeds import metric_columns, openmetrics, otlp
from zperf.pdb.load import add
from zperf.pdb.query import sql, summary
from zperf.pdb.store import Pdb
from zperf.tables.history import SUMMARIES

#: A sample line of the OpenMetrics text format (a gauge with labels and a time stamp).
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|'
                    r'\\[\\"n])*"(?:,|(?=\})))*\})? (-?[0-9.e+-]+|NaN) ([0-9]+(?:\.[0-9]+)?)$')


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory, month: list[Path]) -> Pdb:
    pdb = Pdb(tmp_path_factory.mktemp("feeds") / "pdb")
    add(pdb, month[:2], jobs=1)
    return pdb


def _odd_rows() -> pl.DataFrame:
    """A summary row whose names hold what both formats must escape."""
    return SUMMARIES["class_day"].conform(pl.DataFrame({
        "system": ['S"Y\\1'], "class_kind": ["service"], "class_name": ["a\nb"],
        "period": [1], "shift": ["all"], "period_start": [dt.datetime(2026, 10, 1)],
        "intervals": [96], "trans_ended": [10], "measured_seconds": [86400.0],
        "etr_per_sec": [float("nan")], "pi_worst": [None]}))


def test_openmetrics_is_the_specifications_text(loaded: Pdb) -> None:
    frame = loaded.scan("system_hour").collect()
    text = b"".join(openmetrics(frame, "system_hour")).decode()
    lines = text.splitlines()
    assert lines[-1] == "# EOF" and text.endswith("# EOF\n")
    families: list[str] = []
    last: dict[tuple[str, str], float] = {}
    for line in lines[:-1]:
        if line.startswith("#"):
            kind, name = line.split(" ")[1:3]
            assert kind in ("TYPE", "UNIT", "HELP")
            if kind == "TYPE":
                assert line.endswith(" gauge") and name not in families
                families.append(name)
            if kind == "UNIT":
                assert name.endswith("_seconds") and line.endswith(" seconds")
            continue
        match = SAMPLE.match(line)
        assert match, line
        assert match.group(1) == families[-1]  # a family's samples follow its metadata
        series = (match.group(1), match.group(2))
        stamp = float(match.group(4))
        assert stamp > last.get(series, 0.0)  # increasing time stamps per series
        last[series] = stamp
    assert families == [f"zperf_system_hour_{c}" for c in metric_columns(
        "system_hour", frame.columns) if frame[c].is_not_null().any()]
    assert ('zperf_system_hour_intervals{system="SYSA",shift="offprime"} 4 1790812800'
            in lines)  # 2026-10-01 00:00 UTC


def test_names_from_the_data_are_escaped_in_both_formats() -> None:
    text = b"".join(openmetrics(_odd_rows(), "class_day")).decode()
    assert ('zperf_class_day_trans_ended{system="S\\"Y\\\\1",class_kind="service",'
            'class_name="a\\nb",period="1",shift="all"} 10 1790812800') in text
    assert "etr_per_sec{" not in text and "pi_worst{" not in text  # NaN and null: no sample
    lines = b"".join(otlp(_odd_rows(), "class_day", timezone="Europe/Berlin")).splitlines()
    data = json.loads(lines[0])
    metrics = data["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]
    ended = next(m for m in metrics if m["name"] == "zperf.class_day.trans_ended")
    point = ended["gauge"]["dataPoints"][0]
    assert point["asInt"] == "10" and point["timeUnixNano"] == "1790805600000000000"
    assert {"key": "system", "value": {"stringValue": 'S"Y\\1'}} in point["attributes"]
    assert {"key": "class_name", "value": {"stringValue": "a\nb"}} in point["attributes"]
    assert ended["unit"] == "1" and ended["description"]


def test_otlp_is_a_metrics_data_per_line(loaded: Pdb) -> None:
    frame = loaded.scan("system_day").collect()
    lines = b"".join(otlp(frame, "system_day")).decode().splitlines()
    assert len(lines) == 2  # two days, each a MetricsData
    for line in lines:
        data = json.loads(line)
        scope = data["resourceMetrics"][0]["scopeMetrics"][0]
        assert scope["scope"]["name"] == "zperf.pdb"
        busy = next(m for m in scope["metrics"] if m["name"] == "zperf.system_day.cp_busy_pct")
        assert busy["unit"] == "%" and len(busy["gauge"]["dataPoints"]) == 2 * 3


def test_sql_reads_every_table_by_its_name(loaded: Pdb) -> None:
    got = sql(loaded, "SELECT system, count(*) AS n FROM workload GROUP BY system ORDER BY system")
    per_system = 2 * PER_DAY["workload"] // 2  # two days of one of the two systems
    assert got.to_dicts() == [{"system": "SYSA", "n": per_system},
                              {"system": "SYSB", "n": per_system}]
    days = sql(loaded, "SELECT DISTINCT month FROM class_day")
    assert days["month"].to_list() == ["2026-10"]
    with pytest.raises(UsageError, match=r"^query: "):
        sql(loaded, "SELECT nothing FROM workload")
    with pytest.raises(UsageError, match=r"^query: "):
        sql(loaded, "SELEC 1")


def test_summary_picks_by_level_shift_system_and_days(loaded: Pdb) -> None:
    every = summary(loaded)
    assert every.height == 4 and set(every["shift"]) == {"all"}
    prime = summary(loaded, level="hour", shifts=["prime"], systems=["SYSB"],
                    since=dt.date(2026, 10, 2))
    assert prime.height == 10 and set(prime["system"]) == {"SYSB"}
    with pytest.raises(UsageError, match="--level must be one of"):
        summary(loaded, level="year")


def test_duckdb_and_pandas_read_the_folders_as_they_are(loaded: Pdb) -> None:
    duckdb = pytest.importorskip("duckdb")
    pandas = pytest.importorskip("pandas")
    root = loaded.root
    rows = duckdb.sql(f"SELECT system, count(*) FROM read_parquet('{root}/table=workload/**/"
                      "*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY 1").fetchall()
    per_system = 2 * PER_DAY["workload"] // 2
    assert rows == [("SYSA", per_system), ("SYSB", per_system)]
    frame = pandas.read_parquet(root / "table=system_day")
    assert sorted(frame["system"].unique()) == ["SYSA", "SYSB"] and len(frame) == 12


def test_spark_reads_and_writes_the_same_layout(loaded: Pdb, tmp_path: Path,
                                                spark: Any) -> None:
    """With the test process's one Spark session (tests/conftest.py): a session of its own
    would start Python workers without zperf's interpreter, and be the one the later
    Spark tests of this process were given."""
    from zperf.spark.pdb import read_pdb

    frame = read_pdb(spark, str(loaded.root), "workload")
    assert frame.count() == 2 * PER_DAY["workload"]
    assert {r["system"] for r in frame.select("system").distinct().collect()} == {"SYSA", "SYSB"}


def test_a_stream_is_written_as_it_is_made(loaded: Pdb) -> None:
    from zperf.pdb.feeds import export

    out = io.BytesIO()
    assert export(loaded, "cpu", "openmetrics", out, systems=["SYSA"],
                  since=dt.date(2026, 10, 2)) == 96
    assert out.getvalue().endswith(b"# EOF\n") and b'system="SYSB"' not in out.getvalue()
