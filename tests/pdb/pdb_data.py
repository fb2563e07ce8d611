"""Month data for the PDB's tests: daily SMF dumps of a small sysplex, and what a PDB holds.

``sysplex_days`` is the one adapter to the simulator's month
(:mod:`zperf.sim.month`, ``zperf simulate sysplex-month``): systems SYSA, SYSB...,
an online day and a batch night, service classes with goals and the report
classes that regroup them, zIIPs, defined capacity and capping.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from zperf.pdb.layout import TABLES
from zperf.pdb.store import Pdb
from zperf.sim.writers import smf110_1 as w
from zperf.sim.writers.smf_framing import frame_rdw


def sysplex_days(out: Path, *, systems: int = 2, classes: int = 20, days: int = 3,
                 seed: int = 0) -> list[Path]:
    """One SMF dump per day (70.1 and 72.3 of every system, 15-minute intervals), from
    2026-10-01 (a Thursday)."""
    from zperf.sim.month import Month, write_month

    return write_month(Month(systems=systems, classes=classes, days=days, seed=seed),
                       out).dumps


#: The rows of a day of :func:`sysplex_days`' two systems (96 intervals of 15 minutes
#: each): 20 class records (14 service classes, 6 report classes); the 6 service
#: classes with a response-time goal have 14 buckets of response time each; one CPU
#: interval; every partition's (2) CPs and zIIPs; 36 SMF 30 interval records (started
#: tasks, online regions, TSO users and batch jobs).
PER_DAY = {"workload": 2 * 96 * 20, "distribution": 2 * 96 * 6 * 14, "cpu": 2 * 96,
           "cpu_lpar": 2 * 96 * 2 * 2, "job_intervals": 2 * 96 * 36}
#: The class records of a system's interval.
CLASSES = 20


DAY = dt.datetime(2026, 10, 1)
REGIONS = (w.Region("CICSA1", system="SYSA"), w.Region("CICSB1", system="SYSB"))


def cics_tasks(day: int, n: int, seed: int) -> dict[str, object]:
    """``n`` tasks of day ``day`` (from DAY): two transactions, log-normal responses,
    gamma CPU, ends spread over the day."""
    rng = np.random.default_rng(seed)
    start = (np.datetime64(DAY + dt.timedelta(days=day), "us")
             + np.sort(rng.integers(0, 86_000_000_000, n)).astype("timedelta64[us]"))
    response = np.maximum(rng.lognormal(math.log(20_000), 0.8, n), 50).astype(np.int64)
    cpu = rng.gamma(4, 0.5, n).round(3)
    return {"transaction": rng.choice(["PAY1", "INQ1"], n).tolist(),
            "task_number": np.arange(1, n + 1), "program": ["DFHPGM"] * n,
            "user_id": ["USER1"] * n, "start": start,
            "stop": start + response.astype("timedelta64[us]"), "cpu_ms": cpu,
            "cpu_on_cp_ms": (cpu * 0.7).round(3), "dispatch_ms": cpu * 2,
            "dispatch_count": rng.integers(1, 30, n), "service_class": ["CICSHI"] * n,
            "report_class": ["RCICS"] * n}


def cics_dump(path: Path, day: int, n: int = 1500, *, seed: int = 0,
          keep: slice = slice(None)) -> Path:
    """A dump of CICS tasks (SMF 110.1) of both regions (SYSA's CICSA1, SYSB's CICSB1) of a
    day from DAY (``keep``: a slice of them)."""
    records = []
    when = DAY + dt.timedelta(days=day)
    for number, region in enumerate(REGIONS):
        every = cics_tasks(day, n, seed + 10 * day + number)
        chosen = {k: v[keep] for k, v in every.items()}  # type: ignore[index]
        records += [w.dictionary_record(region, when),
                    *w.performance_records(region, chosen, when)]
    path.write_bytes(frame_rdw(records))
    return path


def zcee_requests(n: int, seed: int, day: int = 0) -> list[dict[str, object]]:
    """``n`` z/OS Connect requests (SMF 123) over day ``day`` from DAY: two APIs, some
    errors, no SOR time for a few."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    for k in range(n):
        entry = DAY + dt.timedelta(days=day, seconds=int(rng.integers(0, 86_000)))
        took = float(rng.lognormal(math.log(30), 0.6))
        out.append({"request_id": k, "api_name": ("car100", "quote")[k % 2],
                    "api_version": "1.0.0", "method": "GET", "uri": "/x",
                    "http_status": 500 if k % 11 == 0 else 200, "request_bytes": 0,
                    "response_bytes": 100, "entry": entry,
                    "exit": entry + dt.timedelta(milliseconds=took),
                    **({"sor_sent": entry + dt.timedelta(milliseconds=took / 4),
                        "sor_received": entry + dt.timedelta(milliseconds=took / 2)}
                       if k % 5 else {}),
                    "sor_name": "CICS", "user_name": "U"})
    return out


def liberty_requests(n: int, seed: int, day: int = 0) -> list[dict[str, object]]:
    """``n`` Liberty requests (SMF 120.11) over day ``day`` from DAY to three
    applications (one of them the root URI), a key in the path of one, a query string
    in another; part of the CPU on zIIPs (80, 70 and 60 %)."""
    rng = np.random.default_rng(seed)
    uris = ("/car100/models/{k}", "/quote?symbol=IBM", "/")
    out: list[dict[str, object]] = []
    for k in range(n):
        start = DAY + dt.timedelta(days=day, seconds=int(rng.integers(0, 86_000)))
        took = float(rng.lognormal(math.log(40), 0.7))
        cpu = round(float(rng.gamma(3, 0.8)), 3)
        out.append({"request_id": f"R{k:06d}", "uri": uris[k % 3].format(k=k),
                    "start": start, "end": start + dt.timedelta(milliseconds=took),
                    "cpu_ms": cpu, "cpu_on_cp_ms": round(cpu * (0.2 + 0.1 * (k % 3)), 3),
                    "user_name": "U", "client_ip": "10.1.1.1", "response_bytes": 900})
    return out


@pytest.fixture(scope="session", name="month")
def month_fixture(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three days (Thursday to Saturday) of two systems, 20 class records each."""
    return sysplex_days(tmp_path_factory.mktemp("month"))


@pytest.fixture(scope="session", name="other_month")
def other_month_fixture(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The same days, systems and classes with other values (another seed): conflicts."""
    return sysplex_days(tmp_path_factory.mktemp("other"), seed=1)


def files_state(root: Path) -> dict[str, str]:
    """Every file under ``root`` (but the locks) and a hash of its bytes."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith(".lock")}


def as_format_1(root: Path) -> int:
    """A PDB as zperf wrote it before format 2: week and month summaries a year a file
    (how many files)."""
    files = 0
    for folder in sorted(root.glob("table=*_week")) + sorted(root.glob("table=*_month")):
        rows = pl.concat([pl.read_parquet(f, hive_partitioning=False)
                          for f in sorted(folder.glob("month=*/*.parquet"))])
        for month in list(folder.glob("month=*")):
            for file in month.iterdir():
                file.unlink()
            month.rmdir()
        years = rows.with_columns(pl.col("period_start").dt.year().alias("_year"))
        for (year,), part in years.partition_by("_year", as_dict=True).items():
            (folder / f"year={year}").mkdir()
            part.drop("_year").write_parquet(folder / f"year={year}" / "part-00000001-0.parquet")
            files += 1
    manifest = root / "_zperf" / "manifest.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "format": 1}))
    return files


def tables_state(root: Path) -> dict[str, pl.DataFrame]:
    """Every table of the PDB, sorted, as a reader sees it (file names left aside)."""
    pdb = Pdb(root)
    out = {}
    for table in TABLES:
        frame = pdb.scan(table).collect()
        out[table] = frame.sort(frame.columns, nulls_last=True)
    return out


def same_tables(a: dict[str, pl.DataFrame], b: dict[str, pl.DataFrame]) -> None:
    from polars.testing import assert_frame_equal

    assert a.keys() == b.keys()
    for table in a:
        assert_frame_equal(a[table], b[table], check_row_order=False)


def rolled_up_both_ways(pdb: Pdb, entity: str, level: str, keys: list[str]) -> None:
    """An entity's week or month rows as the PDB keeps them (made of its days:
    summaries.FROM_DAYS) are those made of its hours, column by column."""
    from zperf.pdb import summaries

    assert entity in summaries.FROM_DAYS
    from_hours = summaries.rollup(pdb.scan(f"{entity}_hour").collect(), entity, level,
                                  pdb.config().shifts)
    kept = pdb.scan(f"{entity}_{level}").collect()
    both = from_hours.join(kept, on=keys, how="full", suffix="_pdb", nulls_equal=True)
    assert both.height == from_hours.height == kept.height > 0
    for name, dtype in from_hours.schema.items():
        if name in keys:
            continue
        if dtype.is_float():
            ours, theirs = both[name], both[f"{name}_pdb"]
            assert (ours.is_null() == theirs.is_null()).all(), name
            assert ours.drop_nulls().to_list() == pytest.approx(
                theirs.drop_nulls().to_list(), rel=1e-9), name
        else:
            assert both[name].to_list() == both[f"{name}_pdb"].to_list(), name
