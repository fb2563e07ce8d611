"""SMF 72.3 decoding against published RMF figures and hand-worked examples.

The expected values come from the papers' RMF extracts (paper 000 Figure 2,
paper 003 Figure 4) and from a modeled class worked by hand, all kept in
samples/smf/paper-figures.toml next to the raw values that produce them.
"""

from __future__ import annotations

import datetime as dt
import io
import tomllib
from types import ModuleType
from typing import Any

import numpy as np
import polars as pl
import pytest

from conftest import SAMPLES
from zperf.formats.smf import type72_fields as f72
from zperf.formats.smf.dump import read_smf72
from zperf.formats.smf.header import PRODUCT, REASSEMBLY, REASSEMBLY_BLOCK
from zperf.sim.writers import smf as writer

TOML = SAMPLES / "smf" / "paper-figures.toml"
SPEC = tomllib.loads(TOML.read_text())

# Printed precision of each WLMGL value (decimal places RMF prints).
PLACES = {"trans_avg": 2, "trans_mpl": 2, "trans_end_per_sec": 2, "resp_actual_ms": 0,
          "resp_std_dev_ms": 0, "su_ioc": 0, "su_cpu": 0, "su_srb": 0, "su_total": 0,
          "su_per_sec": 0, "cpu_seconds": 3, "srb_seconds": 3, "iit_seconds": 3,
          "iip_seconds": 3, "appl_cp_pct": 2, "appl_iipcp_pct": 2, "appl_iip_pct": 2,
          "appl_aapcp_pct": 2, "goal_response_ms": 0, "ex_vel_pct": 1}


def parse(data: bytes, **kwargs: Any) -> tuple[pl.DataFrame, pl.DataFrame, Any]:
    return read_smf72(io.BytesIO(data), "test.smf", **kwargs)


def _cases() -> list[tuple[str, int, dict[str, Any]]]:
    return [(item["name"], i + 1, p["printed"]) for item in SPEC["interval"]
            for i, p in enumerate(item["period"])]


@pytest.fixture(scope="module")
def sample_table(sample_builder: ModuleType) -> pl.DataFrame:
    work, _, tally = parse(sample_builder.build(TOML))
    assert tally.skipped == 0
    return work


@pytest.mark.parametrize(("name", "period", "printed"), _cases(),
                         ids=[f"{n}-p{p}" for n, p, _ in _cases()])
def test_printed_values(sample_table: pl.DataFrame, name: str, period: int,
                        printed: dict[str, Any]) -> None:
    item = next(i for i in SPEC["interval"] if i["name"] == name)
    row = sample_table.filter((pl.col("class_name") == item["class_name"])
                              & (pl.col("period") == period)).to_dicts()
    assert len(row) == 1
    for column, expected in printed.items():
        got = row[0][column]
        if column in PLACES:
            assert round(got, PLACES[column]) == pytest.approx(expected), column
        else:
            assert got == expected, column


def test_paper_figure_4_headline(sample_table: pl.DataFrame) -> None:
    """The issue's own numbers for paper 003 Figure 4 and paper 000 Figure 2."""
    fig4 = sample_table.filter(pl.col("class_name") == "CICS2A20").row(0, named=True)
    assert f"{fig4['trans_end_per_sec']:.2f}" == "1476.40"
    assert (f"{fig4['appl_cp_pct']:.2f}", f"{fig4['appl_iipcp_pct']:.2f}",
            f"{fig4['appl_iip_pct']:.2f}") == ("31.66", "6.76", "75.53")
    fig2 = sample_table.filter(pl.col("class_name") == "ZOSCONN").row(0, named=True)
    assert (f"{fig2['appl_cp_pct']:.2f}", f"{fig2['appl_iipcp_pct']:.2f}") == ("19.94", "19.52")
    # SERVICE TIME CPU includes normalized zIIP time; APPL% CP takes it out again.
    assert fig4["cpu_seconds"] > fig4["iip_seconds"]
    assert fig4["appl_cp_pct"] == pytest.approx(
        (fig4["cpu_seconds"] + fig4["srb_seconds"] - fig4["iip_seconds"]) / 60 * 100)


def test_header_columns(sample_table: pl.DataFrame) -> None:
    fig2 = sample_table.filter(pl.col("class_name") == "ZOSCONN").row(0, named=True)
    assert fig2["sysplex"] == "MV22"
    assert fig2["zos_release"] == "V2R3"
    assert fig2["interval_start"] == dt.datetime(2020, 9, 10, 13, 32, 6)
    assert fig2["interval_seconds"] == 60.0
    assert fig2["policy"] == "NORMAL"
    assert fig2["class_kind"] == "report"
    assert fig2["description"] == "zosConnect reports"
    assert fig2["importance"] is None and fig2["goal_type"] is None
    assert fig2["policy_activated"] == dt.datetime(2020, 7, 22, 15, 53, 43)
    assert fig2["source_format"] == "smf72.3" and fig2["source"] == "test.smf"
    batch = sample_table.filter(pl.col("class_name") == "BATCHMED")
    assert batch["class_kind"].to_list() == ["service"] * 3
    assert batch["resource_group"].to_list() == ["RGBATCH"] * 3
    assert batch["goal_type"].to_list() == ["average_response", "velocity", "discretionary"]
    assert batch["ziip_nff"].to_list() == [569] * 3
    assert batch["importance"].to_list() == [2, 3, None]


def test_subcapacity_normalization(sample_table: pl.DataFrame) -> None:
    """NFFS = 569: APPL% CP subtracts IIP x 569/256, not IIP itself."""
    p1 = sample_table.filter((pl.col("class_name") == "BATCHMED") & (pl.col("period") == 1))
    row = p1.row(0, named=True)
    assert row["appl_cp_pct"] == pytest.approx((10 + 1 + 0.2 - 0.5 * 569 / 256) / 300 * 100)


def test_distribution_table(sample_builder: ModuleType) -> None:
    _, dist, _ = parse(sample_builder.build(TOML))
    p1 = dist.filter((pl.col("class_name") == "BATCHMED") & (pl.col("period") == 1))
    assert p1["trans_ended"].to_list() == [100, 200, 300, 400, 250, 100, 50, 40, 30, 10, 10,
                                           5, 3, 2]
    assert p1["trans_ended"].sum() == 1500  # the bucket counts add up to ENDED
    assert p1["bucket_limit_pct"].to_list()[:3] == [50, 60, 70]
    assert p1["bucket_limit_ms"].to_list()[0] == 150.0  # 50 % of the 300 ms midpoint
    assert p1["bucket_limit_ms"].to_list()[-1] is None  # "more than 400 %"
    # Periods without an entry (CRTX = 0) have no distribution rows.
    assert dist.filter(pl.col("period") == 2).height == 0


def test_committed_sample_is_current(sample_builder: ModuleType) -> None:
    """samples/smf/paper-figures.smf is what build_samples.py makes of the TOML."""
    assert (SAMPLES / "smf" / "paper-figures.smf").read_bytes() == sample_builder.build(TOML)


# ------------------------------------------------------------ hand-built records

START = dt.datetime(2025, 4, 9, 8, 15, 0)


def _interval(**changes: Any) -> writer.ClassInterval:
    period = writer.period_values(interval_seconds=900, adj=4000, ended=900, cpu_seconds=90.0,
                                  srb_seconds=9.0, resp_ms=120.0, trans_avg=2.0,
                                  trans_mpl=1.5)
    base: dict[str, Any] = {"system": "SYS1", "sysplex": "PLEXA", "start": START,
                                "interval_seconds": 900.0, "class_name": "ONLINE",
                                "periods": [period]}
    base.update(changes)
    return writer.ClassInterval(**base)


def test_worked_example_900_seconds() -> None:
    """By hand: 4000 SU/s; 90 s CPU = 360000 SU; 900 ended in 900 s -> 1/s."""
    work, _, _ = parse(writer.frame_rdw(writer.build_type72_3(_interval())))
    row = work.row(0, named=True)
    assert row["su_cpu"] == 360000.0
    assert row["cpu_seconds"] == pytest.approx(90.0)
    assert row["appl_cp_pct"] == pytest.approx((90 + 9) / 900 * 100)
    assert row["trans_end_per_sec"] == pytest.approx(1.0)
    assert row["resp_actual_ms"] == pytest.approx(120.0)
    assert row["trans_avg"] == pytest.approx(2.0)
    assert row["trans_mpl"] == pytest.approx(1.5)
    assert row["interval_start"] == START
    assert row["su_per_sec"] == pytest.approx((360000 + 36000) / 900)


def test_period_with_no_ended_transactions_divides_by_nothing() -> None:
    period = writer.period_values(interval_seconds=60, adj=4000, ended=0, cpu_seconds=1.0)
    work, _, _ = parse(writer.frame_rdw(writer.build_type72_3(
        _interval(periods=[period], interval_seconds=60.0))))
    row = work.row(0, named=True)
    assert row["trans_ended"] == 0
    assert row["resp_actual_ms"] == 0.0 and row["resp_std_dev_ms"] == 0.0
    assert row["su_trx_serv"] == 0.0


def test_three_periods_and_1024us_units_when_section_is_short() -> None:
    """A z/OS 2.1-length period section (720 bytes) has no microsecond twins."""
    periods = [writer.period_values(interval_seconds=900, adj=4000, ended=10 * (i + 1),
                                    cpu_seconds=float(i + 1), resp_ms=50.0 * (i + 1))
               for i in range(3)]
    for p in periods:
        p.pop("R723CTETX")
    work, _, _ = parse(writer.frame_rdw(writer.build_type72_3(
        _interval(periods=periods, scs_length=720))))
    assert work["period"].to_list() == [1, 2, 3]
    assert work["resp_actual_ms"].to_list() == pytest.approx([50.0, 100.0, 150.0])
    assert work["cpu_seconds"].to_list() == pytest.approx([1.0, 2.0, 3.0])


def test_longer_sections_of_newer_releases_parse() -> None:
    work, _, _ = parse(writer.frame_rdw(writer.build_type72_3(_interval(scs_length=840))))
    assert work.row(0, named=True)["cpu_seconds"] == pytest.approx(90.0)


def test_broken_pieces_describe_their_sections_in_the_declared_reassembly_area() -> None:
    """Five periods with a distribution, two periods a piece: the information blocks
    (read by name, in REASSEMBLY_SECTIONS order) say where each piece's sections go."""
    periods = [writer.period_values(interval_seconds=900, adj=4000, ended=1)] * 5
    pieces = writer.build_type72_3(_interval(periods=periods, rtd=[[1] * 14] * 5,
                                             resource_group="RG1"), max_periods=2)
    seen = []
    for piece in pieces:
        head = np.frombuffer(piece, dtype=f72.RECORD_HEAD.dtype, count=1)[0]
        product = np.frombuffer(piece, dtype=PRODUCT.dtype, count=1,
                                offset=int(head["SMF72PRS"]))[0]
        assert (product["SMF72RAN"], product["SMF72RAL"]) == (1, 16 + 4 * 7)
        at = int(head["SMF72PRS"]) + int(product["SMF72RAO"])
        area = np.frombuffer(piece, dtype=REASSEMBLY.dtype, count=1, offset=at)[0]
        blocks = np.frombuffer(piece, dtype=REASSEMBLY_BLOCK.dtype, count=area["SMF72RIN"],
                               offset=at + int(area["SMF72RIO"]))
        described = dict(zip(f72.REASSEMBLY_SECTIONS, blocks.tolist(), strict=True))
        seen.append((area["SMF72RBR"], area["SMF72RSQ"], head["SMF72SCN"], head["SMF72RTN"],
                     described["WM"], described["RG"], described["SC"], described["RT"]))
    # (pieces, sequence, periods here, entries here, WM, RG, SC and RT (total, first here))
    assert seen == [(3, 1, 2, 3, (1, 1), (1, 1), (5, 1), (6, 1)),
                    (3, 2, 2, 2, (1, 1), (1, 1), (5, 3), (6, 4)),
                    (3, 3, 1, 1, (1, 1), (1, 1), (5, 5), (6, 6))]
    work, dist, _ = parse(writer.frame_rdw(pieces))
    assert work["period"].to_list() == [1, 2, 3, 4, 5] and dist.height == 5 * 14


def test_cp1047_text_fields() -> None:
    data = writer.frame_rdw(writer.build_type72_3(
        _interval(description="[CICS] prod", class_name="CICS$1"), encoding="cp1047"))
    work, _, _ = parse(data, encoding="cp1047")
    assert work.row(0, named=True)["description"] == "[CICS] prod"
    # Read with the wrong code page, the brackets come out as other characters.
    wrong, _, _ = parse(data)
    assert wrong.row(0, named=True)["description"] != "[CICS] prod"


def test_service_and_report_class_of_the_same_name_are_two_rows() -> None:
    data = writer.frame_rdw(writer.build_type72_3(_interval())
                            + writer.build_type72_3(_interval(report_class=True)))
    work, _, _ = parse(data)
    assert sorted(work["class_kind"].to_list()) == ["report", "service"]


def test_layout_tables_are_consistent() -> None:
    assert f72.SCS.size == 792 and f72.WMS.size == 280 and f72.RECORD_HEAD.size == 92
    assert f72.SCS.offset_of("R723CSUP") == 544
    assert f72.SCS.offset_of("R723CTETX") == 720
    assert f72.WMS.offset_of("R723MADJ") == 172
    assert f72.WMS.offset_of("R723NFFS") == 244


@pytest.mark.parametrize(("mvs", "release"), [
    ("ZV020500", "V2R5"), ("SP7.2.3", "SP7.2.3"), ("", None),
    ("ZV\u00b920500", "ZV\u00b920500"),  # a damaged byte (cp037 0xDA) that isdigit() accepts
])
def test_release_of_smfxxmvs(mvs: str, release: str | None) -> None:
    from zperf.formats.smf.columns import zos_release

    assert zos_release(mvs) == release
