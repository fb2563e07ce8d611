"""The Spark tests' shared pieces: skipped with the reason when pyspark is not installed
(``pip install -e '.[spark,test]'``; CI installs it), one local[2] session for all."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'zperf[spark]'")

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"

#: Inputs of every kind zperf parses, and the tables each fills.
FIXTURES = [
    ROOT / "samples" / "smf" / "paper-figures.smf",
    DATA / "rmf" / "paper003-figure4.txt",
    DATA / "rmf" / "v2r4-asa-sysout.txt",
    DATA / "rmf" / "cpu-v2r1-ibm-sample.txt",
    DATA / "cics" / "dfh0stat-db2entries-synthetic.txt",
    DATA / "cics" / "dfhstup-reports-synthetic.txt",
    DATA / "ims" / "pa-transit-paper004-fastpath.txt",
    DATA / "driver" / "iwl-paper003-figure5.txt",
    DATA / "driver" / "jmeter-transaction-controller.csv",
]


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local[2] session for every Spark test of a test process (it takes seconds to start)."""
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers must import zperf
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("zperf-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    from zperf.spark import register

    register(session)
    yield session
    session.stop()
