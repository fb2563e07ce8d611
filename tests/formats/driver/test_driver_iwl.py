"""WebSphere Studio Workload Simulator engine output: paper 003's Figure 5, runs, bad lines.

Fixtures (tests/data/driver/iwl-*.txt) say in their first lines where their
numbers come from.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from conftest import DATA
from zperf.errors import ParseError
from zperf.formats import read, sniff
from zperf.formats.driver.iwl import read_iwl
from zperf.sim.writers.driver import write_iwl_log
from zperf.tables.driver import DRIVER

FIGURE5 = (DATA / "driver" / "iwl-paper003-figure5.txt").read_bytes()
TWO_RUNS = (DATA / "driver" / "iwl-two-runs-status.txt").read_bytes()

#: Paper 003, Figure 5, value by value (the response time printed in seconds).
FIGURE5_ROW: dict[str, Any] = {
    "source": "f5.txt", "source_format": "driver-iwl", "run": 1,
    "run_start": None, "run_end": None, "run_seconds": 304.0, "time_limit_seconds": 300.0,
    "clients": 200, "clients_completed": 0, "transactions": 328969,
    "transactions_per_sec": 1079.830, "pages": 397189, "pages_per_sec": 1303.760,
    "page_elements": 397189, "page_elements_per_sec": 1303.760, "resp_basis": "page element",
    "resp_avg_ms": 22.0, "resp_p50_ms": None, "resp_p90_ms": None, "resp_p95_ms": None,
    "resp_p99_ms": None, "resp_max_ms": None, "resp_avg_all_running_ms": None, "errors": 0,
    "network_errors": 0, "server_errors": 0, "bytes_read": None, "bytes_written": None,
    "read_mb": 3305.795, "written_mb": 168.631,
}


def test_paper003_figure5_every_value() -> None:
    tables, tally = read_iwl(FIGURE5, "f5.txt")
    frame = tables["driver"]
    assert frame.columns == DRIVER.names and frame.height == 1
    assert frame.row(0, named=True) == FIGURE5_ROW
    # 14 engine lines parsed, the 3 comment lines of the fixture counted as other
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (17, 14, 0, 3)
    assert tally.balanced() and not tally.warnings


def test_printed_throughput_is_kept_not_recomputed_from_whole_seconds() -> None:
    """328969 / 304 s would be 1082.13/s: the engine's rate uses the exact run time."""
    row = read_iwl(FIGURE5, "f5.txt")[0]["driver"].row(0, named=True)
    assert row["transactions"] / row["run_seconds"] == pytest.approx(1082.13, abs=0.005)
    assert row["transactions_per_sec"] == 1079.830
    assert row["transactions"] / row["transactions_per_sec"] == pytest.approx(304.649, abs=5e-4)


def test_start_fills_the_first_run_start_and_end() -> None:
    start = dt.datetime(2016, 5, 17, 14, 0)
    row = read_iwl(FIGURE5, "f5.txt", start=start)[0]["driver"].row(0, named=True)
    assert row["run_start"] == start
    assert row["run_end"] == dt.datetime(2016, 5, 17, 14, 5, 4)


def test_two_runs_status_lines_qualifier_and_unknown_label() -> None:
    tables, tally = read_iwl(TWO_RUNS, "two.txt")
    first, second = tables["driver"].rows(named=True)
    assert (first["run"], first["run_seconds"], first["time_limit_seconds"]) == (1, 182.0, 180.0)
    assert (first["clients"], first["clients_completed"]) == (60, 0)
    assert (first["transactions"], first["transactions_per_sec"]) == (256870, 1411.374)
    assert (first["page_elements"], first["page_elements_per_sec"]) == (513740, 2822.747)
    assert (first["pages"], first["pages_per_sec"]) == (256870, 1411.374)
    assert (first["network_errors"], first["server_errors"], first["errors"]) == (1, 2, 3)
    assert (first["read_mb"], first["written_mb"]) == (1991.664, 109.472)
    assert first["resp_avg_ms"] == 12.0 and first["resp_avg_all_running_ms"] == 0.0
    # the second run prints fewer totals; the status line before it is its own
    assert (second["run"], second["run_seconds"], second["clients"]) == (2, 3600.0, 80)
    assert (second["transactions"], second["transactions_per_sec"]) == (5400000, 1500.0)
    assert second["resp_avg_ms"] == 15.0 and second["errors"] is None
    assert second["time_limit_seconds"] is None and second["pages"] is None
    # 3 status lines of two lines each, 15 + 5 totals; comments, start message, unknown label
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (32, 26, 0, 6)
    assert tally.warnings == ["IWL label not recognised: 'Peak memory' (IWL0061I)"]


def test_status_lines_give_the_clients_when_the_totals_do_not() -> None:
    text = (b"# clients 12/40 | rd 1.0 MB/s | wr 0.1 MB/s | pg 10 | web err 0\n"
            b"| resp avg = 0.004 | pg elem/s = 10.000\n"
            b"IWL0038I Run time = 00:00:10\nIWL0059I Transactions = 50\n")
    row = read_iwl(text, "s.txt")[0]["driver"].row(0, named=True)
    assert (row["clients"], row["clients_completed"]) == (40, None)
    assert row["transactions_per_sec"] == 5.0  # not printed: 50 / 10 s


def test_writer_prints_figure5_back_line_for_line() -> None:
    row = read_iwl(FIGURE5, "f5.txt")[0]["driver"].row(0, named=True)
    engine_lines = [ln for ln in FIGURE5.decode().splitlines() if ln.startswith("IWL")]
    assert write_iwl_log([row]).splitlines() == engine_lines


def test_round_trip_of_several_runs_with_status() -> None:
    runs = read_iwl(TWO_RUNS, "two.txt")[0]["driver"]
    text = write_iwl_log(runs.rows(named=True),
                         status=[{"clients": 5, "clients_total": 60, "pages": 7,
                                  "resp_avg_s": 0.01}])
    again, tally = read_iwl(text.encode(), "two.txt")
    assert again["driver"].equals(runs)
    assert tally.balanced() and tally.other == 0


def test_sniffed_and_read_through_the_registry(tmp_path: Any) -> None:
    assert sniff(FIGURE5) == "driver-iwl"
    path = tmp_path / "engine.log"
    path.write_bytes(FIGURE5)
    result = read([str(path)])
    assert result.tables["driver"].get_column("transactions_per_sec").to_list() == [1079.830]
    assert result.tables["driver_intervals"].height == 0


@pytest.mark.parametrize(("bad", "what"), [
    (b"IWL0059I Transactions = 3289x69", "'3289x69' is not a number"),
    (b"IWL0060I Transaction throughput = 1079.830 /min",
     "'1079.830 /min': unit '/min' is not one of /s, /sec"),
    (b"IWL0038I Run time = 5 minutes", "'5 minutes' is not a run time hh:mm:ss"),
    (b"IWL0007I Clients completed = all", "'all' is not a count of the form done/total"),
    (b"IWL0059I Page elements = 3.5", "'3.5' is not a whole number"),
])
def test_a_bad_value_names_its_line_and_offset(bad: bytes, what: str) -> None:
    lines = FIGURE5.splitlines(keepends=True)
    damaged = b"".join(lines[:6]) + bad + b"\n" + b"".join(lines[7:])
    offset = len(b"".join(lines[:6]))
    with pytest.raises(ParseError) as err:
        read_iwl(damaged, "bad.txt")
    assert str(err.value) == (f"bad.txt: line 7 at offset 0x{offset:X}: "
                              f"IWL engine output: {what}")


def test_skip_drops_the_bad_line_and_keeps_the_counts_balanced() -> None:
    damaged = FIGURE5.replace(b"Transactions = 328969", b"Transactions = 32#969")
    tables, tally = read_iwl(damaged, "bad.txt", on_error="skip")
    row = tables["driver"].row(0, named=True)
    assert row["transactions"] is None and row["transactions_per_sec"] == 1079.830
    assert (tally.read, tally.parsed, tally.skipped, tally.other) == (17, 13, 1, 3)
    assert tally.balanced() and tally.problems[0].line == 9


def test_truncated_log_keeps_what_was_printed() -> None:
    cut = FIGURE5[: FIGURE5.index(b"IWL0059I Network")]
    row = read_iwl(cut, "cut.txt")[0]["driver"].row(0, named=True)
    assert row["transactions"] == 328969 and row["pages"] is None and row["errors"] is None


def test_ebcdic_engine_log_from_zos() -> None:
    """An engine run on z/OS writes EBCDIC; the listing layer reads it."""
    ebcdic = FIGURE5.decode().replace("\n", "\x85").encode("cp037")
    assert read_iwl(ebcdic, "e.txt")[0]["driver"].row(0, named=True)["transactions"] == 328969
