"""Capture-ratio formulas against the papers' printed numbers (zperf.calc.capture).

003 Figure 4 gives APPL% CP and the service times it comes from; 004 Table 18
gives, per release, the LPAR's total general CPU per transaction (busy x CPs)
and the CPU service time per transaction of the IMS address-space classes,
whose sum over the total is the share of busy time those classes captured.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from paper_data import read_rows, read_toml, rounds_to, within_rounding

from zperf.calc import formulas as f
from zperf.errors import UsageError

FIGURE4 = read_toml("rmf-figures.toml")["paper003-figure4"]
TABLE18 = {row["metric"]: row for row in read_rows("paper004-table18.csv")}
CLASSES = ("IMS CPU Service Time/Tran (μs)", "ICON CPU Service Time/Tran (μs)",
           "IFP CPU Service Time/Tran (μs)")


def test_appl_seconds_is_the_general_cp_time_appl_pct_was_made_from() -> None:
    """003 Figure 4: APPL% CP 31.66 of the minute is CPU + SRB - IIP = 18.994 s, to the
    printed precision of the percentage (31.655..31.665 % -> 18.993..18.999 s)."""
    seconds = f.appl_seconds(float(FIGURE4["appl_cp_pct"]), FIGURE4["interval_seconds"])
    general = f.general_cp_seconds(float(FIGURE4["cpu_seconds"]), float(FIGURE4["srb_seconds"]),
                                   float(FIGURE4["iip_seconds"]))
    assert seconds == pytest.approx(18.996)
    assert abs(seconds - general) <= f.appl_seconds(0.005, 60)
    assert f.appl_pct(seconds, 60) == pytest.approx(31.66)  # the inverse of appl_pct


@pytest.mark.parametrize("run", ["IMS 13", "IMS 14", "IMS 15"])
def test_busy_seconds_per_transaction_is_table_18s_general_cpu(run: str) -> None:
    """CPU % busy of 7 CPs, per second, over the ETR: the printed Total General CPU µs/Tran."""
    busy = float(TABLE18["CPU % Busy"][run].rstrip("%"))
    etr = float(TABLE18["ETR (Tran/Sec)"][run])
    us_per_tran = f.busy_seconds(busy, 7, 1.0) / etr * 1e6
    printed = TABLE18["Total General CPU μs/Tran"][run]
    assert within_rounding(lambda b, e: f.busy_seconds(b, 7, 1.0) / e * 1e6, printed,
                           TABLE18["CPU % Busy"][run].rstrip("%"),
                           TABLE18["ETR (Tran/Sec)"][run])
    assert us_per_tran == pytest.approx(float(printed), abs=0.01)


@pytest.mark.parametrize(("run", "printed"), [("IMS 13", "0.807"), ("IMS 14", "0.807"),
                                              ("IMS 15", "0.808")])
def test_capture_ratio_of_the_ims_classes_in_table_18(run: str, printed: str) -> None:
    """The IMS, IMS Connect and IFP classes' service time over the LPAR's general CPU:
    IMS 14, (10.678 + 18.748 + 17.957) / 58.710 = 0.8071."""
    captured = sum(float(TABLE18[c][run]) for c in CLASSES)
    ratio = f.capture_ratio(captured, float(TABLE18["Total General CPU μs/Tran"][run]))
    assert rounds_to(ratio, printed)


def test_capture_ratio_refuses_no_busy_time_and_works_on_arrays_and_expressions() -> None:
    with pytest.raises(UsageError, match="busy seconds"):
        f.capture_ratio(1.0, 0.0)
    with pytest.raises(UsageError, match="captured seconds"):
        f.capture_ratio(-1.0, 2.0)
    assert f.capture_ratio(np.array([1.0, 3.0]), np.array([2.0, 4.0])).tolist() == [0.5, 0.75]
    frame = pl.DataFrame({"c": [47.383], "b": [58.710]})
    value = frame.select(f.capture_ratio(pl.col("c"), pl.col("b")))["c"][0]
    assert value == pytest.approx(0.80707, abs=1e-5)
    assert f.busy_seconds(83.06, 7, 600) == pytest.approx(3488.52)
