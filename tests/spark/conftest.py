"""The Spark tests' shared pieces: skipped with the reason when pyspark is not installed
(``pip install -e '.[spark,test]'``; CI installs it), one local[2] session for all."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'zperf[spark]'")

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
