"""The key -> line locator that points a scenario file's errors at their line."""

from __future__ import annotations

import tomllib

from zperf.sim import catalogue
from zperf.sim.locate import Lines

TEXT = '''\
[scenario]
id = "x"
notes = """
title = "not a key: inside a multi-line string"
[not.a.table]
"""

[[published]]
metric = "a"

[[published]]
metric = "b"
"printed" = "1"

[run.groups]
"IMS Connect" = [
  "IMSCON",
]
MPP = ["IMSMPP"]

[[series]]
parameter = "clients"
[series.metrics]
etr_per_sec = [1, 2]
'''


def test_tables_keys_and_arrays_of_tables() -> None:
    lines = Lines(TEXT)
    assert tomllib.loads(TEXT)["scenario"]["notes"].startswith("title =")
    assert lines.line(("scenario", "id")) == 2
    assert lines.line(("scenario", "notes")) == 3
    assert ("scenario", "title") not in lines.lines and ("not",) not in lines.lines
    assert lines.line(("published", 1, "metric")) == 12
    assert lines.line(("published", 1, "printed")) == 13  # a quoted key
    assert lines.line(("run", "groups", "IMS Connect")) == 16
    assert lines.line(("run", "groups", "MPP")) == 19  # after a multi-line array
    assert lines.line(("series", 0, "metrics", "etr_per_sec")) == 24  # [series.metrics]


def test_a_missing_key_is_found_at_its_table() -> None:
    lines = Lines(TEXT)
    assert lines.line(("published", 0, "source")) == 8
    assert lines.line(("published", 1, "value")) == 11
    assert lines.line(("nowhere",)) is None


def test_every_key_of_a_catalogued_scenario_is_on_its_line() -> None:
    scenario = catalogue.load("ims15-dsff-smq")
    lines, text = Lines(scenario.text), scenario.text.splitlines()
    for i, item in enumerate(scenario.published):
        assert text[lines.line(("published", i, "printed")) - 1] == f'printed = "{item.printed}"'
    assert text[lines.line(("run", "groups", "IMS Connect")) - 1].startswith('"IMS Connect" =')
