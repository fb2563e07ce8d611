"""zperf simulate's library side: one request, one outcome, one rule for the verdict."""

from __future__ import annotations

import polars as pl

from zperf.sim import catalogue
from zperf.sim.command import Request, run, summary


def test_one_rule_counts_the_notes_and_fails_on_differs() -> None:
    notes = pl.Series(["reproduced", "differs: smf.dump gives 2", "reproduced",
                       "published inconsistency (see the scenario)"])
    line, failed = summary(notes, "of 4 published figures; exact")
    assert line == ("1 differs between files, 1 published inconsistency (see the scenario), "
                    "2 reproduced (of 4 published figures; exact)")
    assert failed
    line, failed = summary(pl.Series(["modeled (not printed)", "differs (ITR not constant)"]),
                           "of 2 figures")
    assert line == "1 differs (ITR not constant), 1 modeled (not printed) (of 2 figures)"
    assert failed
    assert summary(pl.Series(["reproduced", "not a zperf analyze figure"]), "x") == (
        "1 not a zperf analyze figure, 1 reproduced (x)", False)


def test_list_is_the_catalogue() -> None:
    outcome = run(Request("list"))
    assert outcome.table is not None and outcome.name == "scenarios"
    assert outcome.table["scenario"].to_list() == catalogue.ids()
    assert (outcome.summary, outcome.failed) == (None, False)
    row = outcome.table.filter(scenario="ims15-fast-path").row(0, named=True)
    assert row["paper"] == "004" and row["reproduces"].startswith("004 Table 18")
