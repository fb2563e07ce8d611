"""The names of many rows decoded once per distinct combination (``text_columns``)
are each field decoded on its own (``text_column``), whatever the repeats."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from zperf.formats.encodings import encode_text
from zperf.formats.smf.columns import (
    text_column,
    text_columns,
    text_columns_apart,
    zos_release,
)

WORDS = st.sampled_from(["", "A", "PLEX1", "SYS1", "ZV020400", "ZV020500", "Z", "CICSPROD",
                         "BATCH", "X" * 8])
WIDTHS = {"short": 4, "name": 8, "long": 32}


@given(st.lists(st.tuples(WORDS, WORDS, WORDS), min_size=0, max_size=60),
       st.lists(st.integers(0, 59), max_size=80), st.booleans())
def test_text_columns_are_each_field_decoded_alone(rows: list[tuple[str, str, str]],
                                                   picks: list[int], blank_nul: bool) -> None:
    fields = {}
    for k, (name, width) in enumerate(WIDTHS.items()):
        raw = [encode_text(r[k][:width], width) for r in rows]
        if blank_nul:  # zeros where a name was never set
            raw = [b"\x00" * width if not r[k] else v for r, v in zip(rows, raw, strict=True)]
        fields[name] = np.array(raw, dtype=f"S{width}")
    index = np.array([p for p in picks if p < len(rows)], dtype=np.int64)
    convert = {"name": zos_release}
    got = text_columns(fields, index, "cp037", convert)
    apart = text_columns_apart(fields, index, "cp037")  # SMF 30's way: each field alone
    for name, raw in fields.items():
        assert got[name].to_list() == text_column(raw, index, "cp037",
                                                  convert.get(name)).to_list()
        assert apart[name].to_list() == text_column(raw, index, "cp037").to_list()


def test_many_distinct_long_names_are_told_apart() -> None:
    # 5,000 combinations, each long name its own: every row keeps its own names.
    long = np.array([encode_text(f"D{i:07d}" * 4, 32) for i in range(5000)], dtype="S32")
    short = np.array([encode_text(f"S{i % 7}", 8) for i in range(5000)], dtype="S8")
    index = np.arange(5000)[::-1]
    got = text_columns({"long": long, "short": short}, index, "cp037")
    assert got["long"].to_list() == [f"D{i:07d}" * 4 for i in range(5000)][::-1]
    assert got["short"].to_list() == [f"S{i % 7}" for i in range(5000)][::-1]
