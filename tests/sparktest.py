"""Inputs of the Spark tests (tests/spark): one file of every kind zperf parses."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
