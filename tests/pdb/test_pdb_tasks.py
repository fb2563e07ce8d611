"""CICS tasks (SMF 110.1) into the PDB as summaries only (issue 34): folded batch by
batch, against zperf.runs.transactions' own figures, the 95th percentile within the
histogram's bound, loads in any order, twice, split, overlapping, killed, pruned."""

from __future__ import annotations

import datetime as dt
import functools
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from pdb_data import (  # noqa: F401
    DAY,
    files_state,
    month_fixture,
    rolled_up_both_ways,
    same_tables,
    tables_state,
)
from pdb_data import cics_dump as _dump
from pdb_data import cics_tasks as _tasks
from pdb_data import liberty_requests as _liberty
from pdb_data import zcee_requests as _requests

from conftest import run_cli
from zperf.formats import one_input
from zperf.formats.options import ReadOptions
from zperf.formats.reading import read
from zperf.formats.smf import dump
from zperf.pdb import histograms, tasks
from zperf.pdb.load import add
from zperf.pdb.store import KILL_AT, Pdb
from zperf.pdb.trend import trend
from zperf.pdb.upkeep import prune
from zperf.runs.transactions import summary
from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers.smf_framing import frame_rdw


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("tasks")
    return [_dump(out / f"cics-{d}.smf", d) for d in range(3)]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory, days: list[Path]) -> Pdb:
    pdb = Pdb(tmp_path_factory.mktemp("loaded") / "pdb")
    for day in days:
        add(pdb, [day], jobs=1)
    return pdb


def _exact_p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]  # nearest rank


def test_hours_add_up_the_tasks_as_transaction_summary_does(
        loaded: Pdb, days: list[Path]) -> None:
    cics = read(days, tables=["cics_transactions"]).tables["cics_transactions"]
    quarter = summary(cics)  # 15-minute intervals: four to an hour
    want = quarter.group_by("system", "applid", "transaction",
                            pl.col("interval_start").dt.truncate("1h").alias("period_start")
                            ).agg(pl.col("transactions").sum(), pl.col("cpu_seconds").sum(),
                                  pl.col("resp_max_ms").max(), pl.col("cpu_max_ms").max(),
                                  (pl.col("resp_mean_ms") * pl.col("transactions")).sum()
                                  .alias("_resp"))
    hours = loaded.scan("transaction_hour").collect()
    assert hours.height == want.height > 24
    both = want.join(hours, on=["system", "applid", "transaction", "period_start"],
                     suffix="_pdb")
    assert both.height == want.height
    assert both["transactions"].to_list() == both["transactions_pdb"].to_list()
    for name in ("cpu_seconds", "resp_max_ms", "cpu_max_ms"):
        assert both[name].to_list() == pytest.approx(both[f"{name}_pdb"].to_list())
    assert (both["_resp"] / both["transactions"]).to_list() == pytest.approx(
        both["resp_mean_ms"].to_list())
    assert (both["cpu_seconds"] * 1e6 / both["transactions"]).to_list() == pytest.approx(
        both["cpu_us_per_tran"].to_list())
    assert hours["service_class"].unique().to_list() == ["CICSHI"]
    assert hours["shift"].unique().sort().to_list() == ["offprime", "prime", "weekend"]
    assert (hours["resp_histogram"].list.sum() == hours["transactions"]).all()


def test_the_95th_percentile_is_within_the_histogram_s_bound(
        loaded: Pdb, days: list[Path]) -> None:
    cics = read(days, tables=["cics_transactions"]).tables["cics_transactions"]
    by_day = cics.group_by("system", "applid", "transaction",
                           pl.col("stop").dt.truncate("1d").alias("period_start")).agg(
        pl.col("response_ms"), pl.col("cpu_ms"))
    rows = loaded.scan("transaction_day").filter(pl.col("shift") == "all").collect().join(
        by_day, on=["system", "applid", "transaction", "period_start"])
    assert rows.height == 2 * 2 * 3
    for r in rows.iter_rows(named=True):
        for value, p95 in (("response_ms", "resp_p95_ms"), ("cpu_ms", "cpu_p95_ms")):
            exact = _exact_p95(r[value])
            assert abs(r[p95] / exact - 1) <= histograms.ERROR + 1e-9, (r[p95], exact)
            assert r[p95] != pytest.approx(exact, rel=1e-6)  # (read from buckets, not tasks)
    # the month is its days (shift 'all'): counts and histograms add up
    month = loaded.scan("transaction_month").filter(pl.col("shift") == "all").collect()
    assert month["transactions"].sum() == cics.height
    assert month.select(pl.col("cpu_histogram").list.sum()).to_series().sum() == cics.height


def test_a_day_is_folded_batch_by_batch_and_no_task_is_kept(
        days: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    how = ReadOptions(tables=("cics_transactions",))
    whole = tasks.read_folded(one_input.Task(str(days[0]), how))
    # the reader's batches made small (a day of a real region is millions of tasks)
    monkeypatch.setattr(dump, "DECODE_BATCH_BYTES", 8 * 1024)
    monkeypatch.setattr(one_input, "smf_batches",
                        functools.partial(dump.smf_batches, chunk_size=16 * 1024))
    pieces = list(one_input.parts(one_input.Task(str(days[0]), how)))
    assert len(pieces) > 5  # the reader's batches
    small = tasks.read_folded(one_input.Task(str(days[0]), how))
    assert "cics_transactions" not in small.tables
    key = ["system", "applid", "transaction", "period_start"]
    hour = tasks.HOURS["transaction"]
    merged = small.tables[hour].group_by(key).agg(
        pl.col("transactions").sum(), pl.col("cpu_seconds").sum()).sort(key)
    once = whole.tables[hour].sort(key).select(*key, "transactions", "cpu_seconds")
    assert small.tables[hour].height > once.height  # (an hour in several batches)
    assert merged["transactions"].to_list() == once["transactions"].to_list()
    assert merged["cpu_seconds"].to_list() == pytest.approx(once["cpu_seconds"].to_list())


def test_loads_in_any_order_or_twice_give_the_same_pdb(
        tmp_path: Path, loaded: Pdb, days: list[Path]) -> None:
    backwards = Pdb(tmp_path / "backwards")
    for day in reversed(days):
        add(backwards, [day], jobs=1)
    same_tables(tables_state(backwards.root), tables_state(loaded.root))
    before = files_state(backwards.root)
    again = add(backwards, days, jobs=1)
    assert len(again.unchanged) == 3 and files_state(backwards.root) == before


def test_a_day_in_two_dumps_is_the_day_in_one(tmp_path: Path, days: list[Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    one = Pdb(tmp_path / "one")
    add(one, [days[0]], jobs=1)
    halves = [_dump(tmp_path / "a.smf", 0, keep=slice(0, 700)),
              _dump(tmp_path / "b.smf", 0, keep=slice(700, None))]
    code, _, err = run_cli(capsys, "pdb", "add", str(tmp_path / "two"), *map(str, halves))
    assert code == 0, err
    assert err == (f"zperf: {tmp_path / 'two'}: added 3000 CICS tasks summarized (2 systems, "
                   "2026-10-01); their summaries made again (change 1)\n")
    same_tables(tables_state(tmp_path / "two"), tables_state(one.root))


def test_an_input_whose_tasks_overlap_another_s_is_said(
        tmp_path: Path, days: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pdb"
    assert run_cli(capsys, "pdb", "add", str(root), str(days[0]))[0] == 0
    # the same tasks in a dump of other content (fewer of them): counted twice, and said
    other = _dump(tmp_path / "again.smf", 0, keep=slice(100, 200))
    code, _, err = run_cli(capsys, "pdb", "add", str(root), str(other))
    assert code == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"zperf: warning: {other}: CICS tasks of SYSA/CICSA1 ending "
                               "from 2026-10-01 ")
    assert lines[0].endswith(f"as {days[0]} has: the PDB keeps none to tell the same ones "
                             "apart, so those both hold are counted twice")
    assert len(lines) == 3 and "SYSB/CICSB1" in lines[1]


LOAD = "import sys\nfrom zperf.cli import main\nmain(['pdb', 'add', '-j', '1', *sys.argv[1:]])\n"


@pytest.mark.slow
@pytest.mark.parametrize("step", ["read", "staged:1"])
def test_a_killed_load_leaves_the_pdb_as_it_was(step: str, tmp_path: Path,
                                                days: list[Path]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    add(pdb, [days[0]], jobs=1)
    before = tables_state(pdb.root)
    env = {**os.environ, KILL_AT: step}
    done = subprocess.run([sys.executable, "-c", LOAD, str(pdb.root), str(days[1])],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    same_tables(tables_state(pdb.root), before)
    add(pdb, [days[1]], jobs=1)
    assert pdb.scan("transaction_day").filter(pl.col("shift") == "all").collect().height == 8


def test_prune_keeps_the_transaction_hours_their_days(tmp_path: Path,
                                                      days: list[Path]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    add(pdb, days, jobs=1)
    (pdb.root / "pdb.toml").write_text("[retention]\nhour_days = 1\n")
    done = prune(pdb, as_of=dt.date(2026, 10, 3))
    assert [p.value for p in done.partitions["transaction_hour"]] == ["2026-10-01"]
    left = pdb.scan("transaction_hour").collect()["period_start"].dt.date().unique().sort()
    assert left.to_list() == [dt.date(2026, 10, 2), dt.date(2026, 10, 3)]
    assert pdb.scan("transaction_month").collect().height > 0


def test_the_trend_shows_the_transaction_history(
        tmp_path: Path, days: list[Path], month: list[Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    pdb = Pdb(tmp_path / "pdb")
    add(pdb, [*month, *days], jobs=1)
    got = trend(pdb).units["transaction"]
    cics = read(days, tables=["cics_transactions"]).tables["cics_transactions"]
    want = cics.group_by("applid", "transaction").agg(
        pl.len().alias("n"), pl.col("cpu_ms").sum(), pl.col("response_ms"))
    both = got.join(want, on=["applid", "transaction"])
    assert both.height == got.height == 4
    assert both["transactions"].to_list() == both["n"].to_list()
    assert both["cpu_us_per_tran"].to_list() == pytest.approx(
        (both["cpu_ms"] * 1000 / both["n"]).to_list())
    for r in both.iter_rows(named=True):
        assert abs(r["resp_p95_ms"] / _exact_p95(r["response_ms"]) - 1) <= histograms.ERROR
    assert got["transactions"].to_list() == sorted(got["transactions"].to_list(), reverse=True)
    code, text, _ = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 0
    section = text[text.index("Transaction history"):]
    first = both.sort("transactions", descending=True).row(0, named=True)
    assert (f"{first['applid']} {first['transaction']}   2026-10    {first['n']}"
            in section)


def test_the_transaction_history_escapes_the_names(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    region = w.Region("<i>&A", system="SYSA")
    tasks_of = _tasks(0, 50, 7)
    tasks_of["transaction"] = ["<b>|"] * 50
    path = tmp_path / "odd.smf"
    path.write_bytes(frame_rdw([w.dictionary_record(region, DAY),
                                *w.performance_records(region, tasks_of, DAY)]))
    pdb = Pdb(tmp_path / "pdb")
    add(pdb, [month[0], path], jobs=1)
    code, page, _ = run_cli(capsys, "report", "trend", str(pdb.root), "--to", "html")
    assert code == 0 and "Transaction history" in page
    assert "<b>|" not in page and "<i>&A" not in page and "&lt;b&gt;|" in page
    code, page, _ = run_cli(capsys, "report", "trend", str(pdb.root), "--to", "markdown")
    assert code == 0 and "<b>" not in page and "Transaction history" in page


def test_summary_and_query_of_the_transaction_rows(
        loaded: Pdb, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "pdb", "summary", str(loaded.root), "--by", "transaction",
                           "--level", "month", "--to", "csv")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + 4
    assert lines[0].startswith("system,applid,transaction,service_class,report_class,")
    assert "histogram" not in lines[0]  # (what the percentiles are read from)
    code, out, _ = run_cli(capsys, "pdb", "query", str(loaded.root), "--to", "csv",
                           "SELECT transactions, resp_histogram FROM transaction_month "
                           "WHERE shift = 'all' ORDER BY transactions DESC LIMIT 1")
    row = out.splitlines()[1].split(",", 1)
    counts = [int(n) for n in row[1].strip('"').split(",")]
    assert code == 0 and len(counts) == histograms.BUCKETS and sum(counts) == int(row[0])


def test_z_os_connect_requests_are_summarized_per_api(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zperf.runs.transactions import api_summary
    from zperf.sim.writers import smf123

    path = tmp_path / "zcee.smf"
    path.write_bytes(frame_rdw(smf123.build_type123_1(_requests(800, 3), smf123.Server(),
                                                      DAY)))
    code, _, err = run_cli(capsys, "pdb", "add", str(tmp_path / "pdb"), str(path))
    assert code == 0 and err == (
        f"zperf: {tmp_path / 'pdb'}: added 800 z/OS Connect requests summarized (1 system, "
        "2026-10-01); their summaries made again (change 1)\n")
    pdb = Pdb(tmp_path / "pdb")
    day = pdb.scan("api_day").filter(pl.col("shift") == "all").sort("api_name").collect()
    requests = read(path, tables=["zosconnect_requests"]).tables["zosconnect_requests"]
    want = api_summary(requests).sort("api_name")
    assert day["transactions"].to_list() == want["transactions"].to_list() == [400, 400]
    assert day["errors"].to_list() == want["error_count"].to_list()
    assert day["resp_mean_ms"].to_list() == pytest.approx(want["resp_mean_ms"].to_list())
    assert day["resp_max_ms"].to_list() == pytest.approx(want["resp_max_ms"].to_list())
    assert day["sor_mean_ms"].to_list() == pytest.approx(want["sor_mean_ms"].to_list())
    for r in day.iter_rows(named=True):
        values = requests.filter(pl.col("api_name") == r["api_name"])["response_ms"].to_list()
        assert abs(r["resp_p95_ms"] / _exact_p95(values) - 1) <= histograms.ERROR
    assert day["job_name"].unique().to_list() == ["ZCSRV1"]
    # the same requests again, in a dump of other content: said, exit 1
    again = tmp_path / "again.smf"
    again.write_bytes(frame_rdw(smf123.build_type123_1(_requests(800, 3)[:50],
                                                       smf123.Server(), DAY)))
    code, _, err = run_cli(capsys, "pdb", "add", str(tmp_path / "pdb"), str(again))
    assert code == 1 and err.startswith(f"zperf: warning: {again}: z/OS Connect requests of "
                                        "SYSA/ZCSRV1 ending from 2026-10-01 ")


@pytest.mark.parametrize("level", ["week", "month"])
def test_weeks_and_months_made_of_the_days_are_those_made_of_the_hours(
        loaded: Pdb, level: str) -> None:
    # sums, maxima, means and histograms add up from days as from hours
    rolled_up_both_ways(loaded, "transaction", level,
                        ["system", "applid", "transaction", "service_class", "report_class",
                         "period_start", "shift"])


def test_liberty_requests_are_summarized_per_server_and_application(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from zperf.sim.writers import smf120_11

    path = tmp_path / "liberty.smf"
    path.write_bytes(frame_rdw(smf120_11.build_type120_11(
        _liberty(900, 5), smf120_11.Server(job_name="CICSJVM1"), DAY)))
    code, _, err = run_cli(capsys, "pdb", "add", str(tmp_path / "pdb"), str(path))
    assert code == 0 and err == (
        f"zperf: {tmp_path / 'pdb'}: added 900 Liberty requests summarized (1 system, "
        "2026-10-01); their summaries made again (change 1)\n")
    pdb = Pdb(tmp_path / "pdb")
    day = pdb.scan("liberty_day").filter(pl.col("shift") == "all") \
        .sort("context_root", nulls_last=True).collect()
    requests = read(path, tables=["liberty_requests"]).tables["liberty_requests"]
    # by hand: the application is the URI's first path segment, without its query
    app = pl.when(pl.col("uri").str.starts_with("/car100/")).then(pl.lit("car100")) \
        .when(pl.col("uri").str.starts_with("/quote?")).then(pl.lit("quote"))
    want = requests.with_columns(app.alias("app")).group_by("app").agg(
        pl.len().alias("n"), pl.col("response_ms").mean().alias("resp"),
        pl.col("cpu_ms").sum().alias("cpu"), pl.col("offload_ms").sum().alias("ziip"),
        pl.col("cpu_ms").max().alias("cpu_max")).sort("app", nulls_last=True)
    assert day["context_root"].to_list() == want["app"].to_list() == ["car100", "quote", None]
    assert day["transactions"].to_list() == want["n"].to_list() == [300, 300, 300]
    assert day["resp_mean_ms"].to_list() == pytest.approx(want["resp"].to_list())
    assert day["cpu_us_per_tran"].to_list() == pytest.approx(
        (want["cpu"] * 1000 / want["n"]).to_list())
    assert day["ziip_share_pct"].to_list() == pytest.approx(
        (want["ziip"] / want["cpu"] * 100).to_list())
    assert day["ziip_share_pct"].to_list() == pytest.approx([80, 70, 60], abs=0.01)
    assert day["cpu_max_ms"].to_list() == pytest.approx(want["cpu_max"].to_list())
    assert day["job_name"].unique().to_list() == ["CICSJVM1"]
    for r, app_rows in zip(day.iter_rows(named=True), (
            requests.filter(pl.col("uri").str.starts_with(p)) for p in ("/car100/", "/quote?")
    ), strict=False):
        exact = _exact_p95(app_rows["response_ms"].to_list())
        assert abs(r["resp_p95_ms"] / exact - 1) <= histograms.ERROR
    # the weeks and months are the days' sums; the CLI shows them
    month = pdb.scan("liberty_month").filter(pl.col("shift") == "all").collect()
    assert month["transactions"].sum() == 900
    code, out, _ = run_cli(capsys, "pdb", "summary", str(tmp_path / "pdb"), "--by", "liberty",
                           "--level", "month", "-o", "-", "--to", "csv")
    assert code == 0 and out.splitlines()[0].startswith(
        "system,job_name,transaction_class,context_root,period_start,shift,transactions,")
    assert out.count("CICSJVM1") == 3
    # loaded again: nothing changes
    code, _, err = run_cli(capsys, "pdb", "add", str(tmp_path / "pdb"), str(path))
    assert code == 0 and "already loaded" in err
    assert pdb.scan("liberty_month").filter(pl.col("shift") == "all").collect()[
        "transactions"].sum() == 900


def test_the_trend_shows_the_api_and_liberty_history(
        tmp_path: Path, month: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    from zperf.sim.writers import smf120_11, smf123

    zcee = tmp_path / "zcee.smf"
    zcee.write_bytes(frame_rdw(smf123.build_type123_1(_requests(600, 3), smf123.Server(),
                                                      DAY)))
    liberty = tmp_path / "liberty.smf"
    liberty.write_bytes(frame_rdw(smf120_11.build_type120_11(
        _liberty(300, 5), smf120_11.Server(job_name="CICSJVM1"), DAY)))
    pdb = Pdb(tmp_path / "pdb")
    add(pdb, [month[0], zcee, liberty], jobs=1)
    got = trend(pdb)
    assert sorted(got.units) == ["api", "liberty"]
    apis = got.units["api"].sort("api_name")
    requests = read(zcee, tables=["zosconnect_requests"]).tables["zosconnect_requests"]
    want = requests.group_by("api_name").agg(
        pl.len().alias("n"), (pl.col("http_status") >= 400).sum().alias("errors"),
        pl.col("response_ms").mean().alias("resp")).sort("api_name")
    assert apis["transactions"].to_list() == want["n"].to_list() == [300, 300]
    assert apis["errors"].to_list() == want["errors"].to_list()
    assert apis["resp_mean_ms"].to_list() == pytest.approx(want["resp"].to_list())
    assert apis["cpu_us_per_tran"].null_count() == 2  # SMF 123 has no CPU time
    apps = got.units["liberty"].sort("context_root", nulls_last=True)
    assert apps["context_root"].to_list() == ["car100", "quote", None]
    cpu = read(liberty, tables=["liberty_requests"]).tables["liberty_requests"]["cpu_ms"]
    assert apps["cpu_us_per_tran"].sum() == pytest.approx(
        sum(cpu.gather(list(range(k, 300, 3))).mean() * 1000 for k in range(3)))
    assert apps["errors"].null_count() == 3
    code, text, _ = run_cli(capsys, "report", "trend", str(pdb.root))
    assert code == 0 and "Transaction history" not in text
    api = text[text.index("z/OS Connect API history"):text.index("Liberty application history")]
    first = want.row(0, named=True)
    share = first["errors"] * 100 / first["n"]
    assert [f"ZCSRV1 {first['api_name']} GET", "2026-10", "300", f"{share:.1f}"] in [
        line.split("  ")[:1] + line.split()[3:6] for line in api.splitlines()]
    assert "Errors %" in api and "CPU" not in api.split("How to read")[0]
    app = text[text.index("Liberty application history"):]
    assert "CICSJVM1 /" in app and "CPU µs/req" in app
