"""The format of an output file from its name (zperf.report.suffixes), for any command:
the suffix picks it, --to must agree, a file zperf does not write is refused."""

from __future__ import annotations

import pytest

from zperf.errors import UsageError
from zperf.report import FORMATS
from zperf.report.build import REPORT_FORMATS
from zperf.report.suffixes import (
    COMPRESSED,
    FILE_KINDS,
    NOT_WRITTEN,
    SUFFIX_KINDS,
    format_for_file,
)

TABLES = FORMATS  # zperf parse, analyze, compare, simulate
ERRORS = {"csv": "csv"}  # --errors


def test_every_format_is_a_kind_of_file_and_every_suffix_means_one_thing() -> None:
    assert set(TABLES.values()) | set(REPORT_FORMATS.values()) <= set(FILE_KINDS)
    suffixes = [s for kind in FILE_KINDS.values() for s in kind.suffixes]
    assert len(suffixes) == len(set(suffixes)) == len(SUFFIX_KINDS)
    assert not set(SUFFIX_KINDS) & set(NOT_WRITTEN)
    assert not (set(SUFFIX_KINDS) | set(NOT_WRITTEN)) & set(COMPRESSED)
    every = [*SUFFIX_KINDS, *NOT_WRITTEN, *COMPRESSED]
    assert all(s == s.lower() and s.startswith(".") for s in every)
    assert [k for k, file in FILE_KINDS.items() if file.binary] == ["parquet", "arrow"]


@pytest.mark.parametrize(("path", "fmt", "formats", "default", "expected"), [
    ("x.parquet", None, TABLES, "csv", "parquet"),
    ("dir/X.Feather", None, TABLES, "csv", "arrow"),
    ("x.arrow", "arrow", TABLES, "csv", "arrow"),
    ("x.jsonl", None, TABLES, "csv", "ndjson"),
    ("x.txt", None, TABLES, "csv", "table"),
    ("x.txt", "ndjson", TABLES, "csv", "ndjson"),
    ("x", None, TABLES, "csv", "csv"),
    ("x.dat", None, TABLES, "csv", "csv"),
    ("x.dat", "parquet", TABLES, "csv", "parquet"),
    ("/dev/null", "json", TABLES, "csv", "json"),
    (".parquet", None, TABLES, "csv", "csv"),  # a hidden file's name, no suffix
    ("x.htm", None, REPORT_FORMATS, "text", "html"),
    ("x.txt", "markdown", REPORT_FORMATS, "text", "markdown"),
    ("report", None, REPORT_FORMATS, "text", "text"),
    ("skipped.txt", None, ERRORS, "csv", "csv"),  # no text format: the plain one it has
])
def test_the_format_a_name_gives(path: str, fmt: str | None, formats: dict[str, str],
                                 default: str, expected: str) -> None:
    assert format_for_file(path, fmt, formats, default) == expected


@pytest.mark.parametrize(("path", "fmt", "formats", "message"), [
    ("x.parquet", "csv", TABLES, "-o x.parquet is a Parquet file name but --to csv was "
                                 "given: drop --to, or name the file x.csv"),
    ("./a/x.JSON", "ndjson", TABLES, "-o ./a/x.JSON is a JSON file name but --to ndjson was "
                                     "given: drop --to, or name the file ./a/x.ndjson"),
    ("x.txt", "parquet", TABLES, "-o x.txt is a text file name but --to parquet was given: "
                                 "drop --to, or name the file x.parquet"),
    ("x.txt", "html", REPORT_FORMATS, "-o x.txt is a text file name but --to html was "
                                      "given: drop --to, or name the file x.html"),
    ("x.xml", None, TABLES, "-o x.xml is an XML file name; zperf writes table (.txt), csv "
                            "(.csv), json (.json), ndjson (.ndjson, .jsonl), parquet "
                            "(.parquet), arrow (.arrow, .feather)"),
    ("x.PDF", None, REPORT_FORMATS, "-o x.PDF is a PDF file name; zperf writes html (.html, "
                                    ".htm), text (.txt), markdown (.md, .markdown)"),
    ("x.tsv", "csv", TABLES, "-o x.tsv is a tab-separated file name; zperf writes table"),
    ("x.csv.bz2", None, TABLES, "-o x.csv.bz2 is a bzip2-compressed file name, and zperf "
                                "compresses nothing it writes: give -o x.csv and compress "
                                "it, or pipe standard output through bzip2"),
    ("x.Zst", None, TABLES, "-o x.Zst is a zstd-compressed file name"),
    ("bad.json", None, ERRORS, "-o bad.json is a JSON file name; zperf writes csv (.csv)"),
])
def test_a_name_that_says_otherwise(path: str, fmt: str | None, formats: dict[str, str],
                                    message: str) -> None:
    with pytest.raises(UsageError) as refused:
        format_for_file(path, fmt, formats, "csv")
    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value)


def test_the_option_and_the_writer_are_named() -> None:
    with pytest.raises(UsageError, match=r"^--errors e\.parquet is a Parquet file name; "
                                         r"--errors writes csv \(\.csv\)$"):
        format_for_file("e.parquet", None, ERRORS, "csv", option="--errors", writer="--errors")
