"""RMF XML's fast path (xml_fast) against the careful path (every report's tree): the
same tables, tally, warnings, problems and errors on every XML fixture and on
documents varied and damaged the ways XML allows (whitespace, attribute order
and quotes, references, CDATA, comments, processing instructions, namespaces,
unknown elements, RMF messages, cut documents); and all of it in this process.
"""

from __future__ import annotations

import lzma
import multiprocessing
import os
import re
import subprocess
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from conftest import DATA
from zperf.errors import ZperfError
from zperf.formats.rmf.xml import fast_reads, read_rmf_xml
from zperf.formats.rmf.xml_scan import spans
from zperf.sim.writers.rmf_xml import write_cpu_xml, write_wlmgl_xml

XML = DATA / "rmf" / "xml"
SMALL = (XML / "zebra-cpu-small.xml").read_bytes()
LARGE = lzma.decompress((XML / "zebra-cpu.xml.xz").read_bytes())
WLMGL = (XML / "wlmgl-built-from-docs.xml").read_bytes()


def _head(data: bytes, reports: int) -> bytes:
    """The document with its first ``reports`` reports only."""
    cut = list(spans(data))
    return data[:cut[reports - 1][1]] + b"\n</ddsml>\n"


FIVE = _head(LARGE, 5)
OTHER = (b'<postprocessor><metric id="CRYPTO"><description>Crypto</description></metric>'
         b"<segment><name>Crypto</name><part><table><column-headers><col>A</col>"
         b"</column-headers><row><col>&lt;1</col></row></table></part></segment>"
         b"</postprocessor>\n")
#: CPU, Workload Activity and another report in one document.
MIXED = FIVE.replace(b"</ddsml>", OTHER + WLMGL[WLMGL.index(b"<postprocessor>"):
                                               WLMGL.rindex(b"</ddsml>")] + b"</ddsml>")


def _written() -> bytes:
    """zperf's own writer's CPU Activity reports (simulate --rmf-format xml)."""
    tables, _ = read_rmf_xml(SMALL, "w.xml", careful=True)
    return write_cpu_xml(tables["cpu"].to_dicts(), tables["cpu_lpar"].to_dicts()).encode()


def _written_wlmgl() -> bytes:
    """zperf's own writer's Workload Activity reports (compact, as IBM writes them), with
    goals and distributions: the fixture's rows written again."""
    tables, _ = read_rmf_xml(WLMGL, "w.xml", careful=True)
    rows = tables["workload"].to_dicts()
    buckets = tables["distribution"]
    distributions = [
        [(b["bucket_limit_ms"], int(b["trans_ended"])) for b in buckets.filter(
            (pl.col("interval_start") == row["interval_start"])
            & (pl.col("class_name") == row["class_name"])).sort("bucket").to_dicts()]
        for row in rows]
    return write_wlmgl_xml(rows, goals=True, distributions=distributions).encode()


WRITTEN_WLMGL = _written_wlmgl()


def outcome(data: bytes, on_error: str, careful: bool) -> Any:
    """All that a read gives: the tables, the tally's counts, warnings and problems, or
    the error."""
    try:
        tables, tally = read_rmf_xml(data, "d.xml", on_error,  # type: ignore[arg-type]
                                     careful=careful)
    except ZperfError as error:
        return type(error).__name__, str(error)
    problems = [(p.record, p.offset, p.line, p.reason, p.raw) for p in tally.problems]
    return tables, (tally.summary(), tally.warnings, problems, tally.balanced())


def assert_same(data: bytes, on_error: str = "skip") -> None:
    fast, careful = outcome(data, on_error, False), outcome(data, on_error, True)
    if isinstance(careful[0], str) or isinstance(fast[0], str):
        assert fast == careful
        return
    assert fast[1] == careful[1]
    assert fast[0].keys() == careful[0].keys()
    for name, frame in careful[0].items():
        assert_frame_equal(fast[0][name], frame)


@pytest.mark.parametrize("document", ["small", "five", "mixed", "wlmgl", "written",
                                      "written-wlmgl"])
@pytest.mark.parametrize("on_error", ["raise", "skip"])
def test_fixtures_same_on_both_paths(document: str, on_error: str) -> None:
    data = {"small": SMALL, "five": FIVE, "mixed": MIXED, "wlmgl": WLMGL,
            "written": _written(), "written-wlmgl": WRITTEN_WLMGL}[document]
    assert_same(data, on_error)


@pytest.mark.parametrize(("data", "fast"), [(SMALL, 1), (FIVE, 5), (MIXED, 8), (WLMGL, 2),
                                            (WRITTEN_WLMGL, 2)],
                         ids=["small", "five", "mixed", "wlmgl", "written-wlmgl"])
def test_the_fast_path_takes_ibms_reports(data: bytes, fast: int) -> None:
    """IBM's CPU reports, the Workload Activity reports (indented or compact) and the
    other report are the fast path's, each found well-formed by itself."""
    read = fast_reads(data, list(spans(data)), "f")
    assert len(read) == fast
    assert all(isinstance(r, str) or r.checked for r in read.values())
    written = _written()
    assert len(fast_reads(written, list(spans(written)), "f")) == 1


def test_the_wlmgl_fixture_fills_both_tables() -> None:
    """(The comparisons compare something: 4 class periods, 5 buckets, on both paths.)"""
    for data in (WLMGL, WRITTEN_WLMGL):
        tables, tally = read_rmf_xml(data, "w.xml")
        assert (tally.read, tally.parsed) == (2, 2)
        assert (tables["workload"].height, tables["distribution"].height) == (4, 5)
        assert tables["distribution"]["bucket_limit_ms"].to_list() == [
            250.0, 500.0, 1000.0, None, 500.0]


@pytest.mark.slow
def test_the_public_sample_same_on_both_paths() -> None:
    assert len(fast_reads(LARGE, list(spans(LARGE)), "f")) == 263
    assert_same(LARGE)


# ------------------------------------------------------------ varied and damaged documents

def _texts(text: str) -> list[tuple[int, int]]:
    """(start, end) of the non-blank texts between tags."""
    return [(m.start(1), m.end(1)) for m in re.finditer(r">([^<]*[^<\s][^<]*)<", text)]


def _vary(text: str, kind: str, at: float) -> str:
    """One variation of the document, at a place chosen by ``at`` (0 to 1)."""
    tags = [m.end() for m in re.finditer(r">", text)]
    after = tags[int(at * len(tags))] if tags else 0
    texts = _texts(text)
    start, end = texts[int(at * len(texts))] if texts else (0, 0)
    if kind == "whitespace":
        return text[:after] + "\n\t  " + text[after:]
    if kind == "crlf":
        return text.replace("\n", "\r\n")
    if kind == "attributes":  # reordered, single-quoted
        return re.sub(r'<row refno="(\d+)" type="SUM">', r"<row type='SUM' refno='\1'>", text)
    if kind == "sum":
        return text.replace('type="SUM"', 'type="sum"', 1)
    if kind == "charref":
        return text[:start] + f"&#{ord(text[start])};" + text[start + 1:] if texts else text
    if kind == "entity":
        return text[:start] + "&amp;" + text[start:] if texts else text
    if kind == "cdata":
        return text[:start] + "<![CDATA[" + text[start:end] + "]]>" + text[end:]
    if kind == "comment":
        return text[:after] + "<!-- a comment -->" + text[after:]
    if kind == "pi":
        return text[:after] + "<?zperf test?>" + text[after:]
    if kind == "unknown":
        return text[:after] + "<extra>x</extra>" + text[after:]
    if kind == "message":
        return text[:after] + "<message>ERB001I data may be incomplete</message>" + text[after:]
    if kind == "empty":
        return text.replace("<col/>", "<col></col>") if at < 0.5 else text.replace(
            "<col></col>", "<col/>")
    if kind == "namespace":
        return re.sub(r"<(ddsml|postprocessor|segment|row)\b", r'<\1 xmlns="urn:x"', text,
                      count=1 + int(at * 3))
    if kind == "prefix":
        return text[:after] + '<p:x xmlns:p="urn:p">y</p:x>' + text[after:]
    if kind == "nbsp":
        return text[:start] + "\u00a0" + text[start:] if texts else text
    if kind == "cut":
        return text[:int(at * len(text))]
    if kind == "mismatch":
        return text[:after] + "</wrong>" + text[after:]
    return _vary_wlmgl(text, kind, at, after, start)


def _vary_wlmgl(text: str, kind: str, at: float, after: int, start: int) -> str:
    """The variations that matter to a Workload Activity report: references in the texts
    it reads (its bucket limits print '&lt;'), empty cells, vars, tables and segments
    zperf does not know."""
    if kind == "limit-ref":  # a bucket limit's '<' as a character reference, or '&gt;'
        return text.replace("&lt;", "&#60;" if at < 0.5 else "&gt;", 1)
    if kind == "quote":
        return text[:start] + ("&quot;" if at < 0.5 else "&apos;&amp;") + text[start:]
    if kind == "empty-cell":
        cells = [m.start() for m in re.finditer(r"<col>[^<]*</col>", text)]
        if not cells:
            return text
        cell = cells[int(at * len(cells))]
        return text[:cell] + "<col/>" + text[text.index("</col>", cell) + 6:]
    if kind == "empty-limit":  # a bucket without its limit: a problem naming '(empty)'
        return re.sub(r"<col>&lt;[^<]*</col>", "<col/>" if at < 0.5 else "<col></col>", text,
                      count=1)
    if kind == "var":
        return text.replace("<var><name>", "<var><name>NEW: THING</name><value>1</value></var>"
                            "<var><name>", 1 + int(at * 3))
    if kind == "segment":
        return text.replace("</segment>", "</segment><segment><name>Other Things</name><part>"
                            "<var-list><var><name>A</name><value>1</value></var></var-list>"
                            "</part></segment>", 1)
    if kind == "table":
        return text.replace("<table>", "<table><column-headers><col>Odd</col></column-headers>"
                            "<row><col>1</col></row></table><table>", 1)
    raise AssertionError(kind)


_KINDS = ["whitespace", "crlf", "attributes", "sum", "charref", "entity", "cdata", "comment",
          "pi", "unknown", "message", "empty", "namespace", "prefix", "nbsp", "cut",
          "mismatch", "limit-ref", "quote", "empty-cell", "empty-limit", "var", "segment",
          "table"]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(document=st.sampled_from([SMALL, FIVE, MIXED, WLMGL, WRITTEN_WLMGL]),
       variations=st.lists(st.tuples(st.sampled_from(_KINDS), st.floats(0, 1, exclude_max=True)),
                           min_size=1, max_size=4),
       on_error=st.sampled_from(["raise", "skip"]))
def test_varied_documents_same_on_both_paths(document: bytes,
                                             variations: list[tuple[str, float]],
                                             on_error: str) -> None:
    text = document.decode()
    for kind, at in variations:
        text = _vary(text, kind, at)
    assert_same(text.encode(), on_error)


@pytest.mark.parametrize("kind", ["whitespace", "crlf", "charref", "entity", "message", "cut",
                                  "limit-ref", "quote", "empty-cell", "empty-limit", "var",
                                  "segment", "table"])
def test_wlmgl_varied_same_on_both_paths(kind: str) -> None:
    """The variations that matter most to a Workload Activity report, in both documents
    (the properties below try every one at random places)."""
    for document, at, on_error in ((WLMGL, 0.3, "skip"), (WRITTEN_WLMGL, 0.8, "raise")):
        assert_same(_vary(document.decode(), kind, at).encode(), on_error)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(document=st.sampled_from([FIVE, WLMGL, WRITTEN_WLMGL]),
       at=st.floats(0, 1, exclude_max=True), insert=st.binary(max_size=6),
       remove=st.integers(0, 6), on_error=st.sampled_from(["raise", "skip"]))
def test_damaged_bytes_same_on_both_paths(document: bytes, at: float, insert: bytes,
                                          remove: int, on_error: str) -> None:
    """(Where expat reads the document less the reports found well-formed, its damage
    is placed back in the document's lines and bytes: the same message as the whole
    document's check gives.)"""
    where = int(at * len(document))
    assert_same(document[:where] + insert + document[where + remove:], on_error)


@pytest.mark.parametrize("damage", [b"</postprocessor>\n&oops;", b"<", b"\x01", b"]]>"],
                         ids=["entity", "lt", "control", "cdata-end"])
@pytest.mark.parametrize("where", ["between", "after", "inside"])
def test_damage_placed_in_the_document(damage: bytes, where: str) -> None:
    """Damage between, after or inside reports the fast path has found well-formed:
    the same line and byte offset as expat's check of the whole document."""
    cut = list(spans(FIVE))
    at = {"between": cut[2][1], "after": len(FIVE) - 3,
          "inside": FIVE.index(b"<name>Partition Data</name>", cut[3][0]) + 8}[where]
    data = FIVE[:at] + damage + FIVE[at:]
    for on_error in ("raise", "skip"):
        assert_same(data, on_error)
    name, message = outcome(data, "raise", False)
    assert name == "ParseError" and "line" in message


@pytest.mark.parametrize("newline", [b"\r\r\n", b"\r"], ids=["cr-crlf", "cr"])
def test_damage_after_reports_placed_by_expats_lines(newline: bytes) -> None:
    """Lines end as expat counts them (a CR alone is a line break too) in the reports the
    fast path found well-formed (hypothesis, ci profile: CR CR LF, junk at the end)."""
    data = FIVE.replace(b"\n", newline) + b"<extra>x</extra>"
    for on_error in ("raise", "skip"):
        assert_same(data, on_error)


# ------------------------------------------------------------ the check, in this process

def test_a_large_document_is_read_without_a_second_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No fork after polars is loaded (its threads may hold a lock the child then waits
    for; zperf.formats.parallel spawns its workers for that reason): the check and the
    reading of a 3 MB document (above the 2 MB from which a second process was forked
    once) run here."""

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("a process was started")

    monkeypatch.setattr(os, "fork", refused)
    monkeypatch.setattr(subprocess, "Popen", refused)
    monkeypatch.setattr(multiprocessing.Process, "start", refused)
    assert len(LARGE) > 1 << 21
    tables, tally = read_rmf_xml(LARGE, "large.xml")
    assert tally.read == 263 and tables["cpu"].height == 263


def test_the_check_refuses_entities_and_names_damage() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aa">]><ddsml>&a;</ddsml>'
    assert outcome(bomb, "skip", False)[0] == "InputError"
    name, message = outcome(SMALL[:2000] + b"<", "raise", False)
    assert name == "ParseError" and re.search(r"line \d+", message) and "offset" in message


@pytest.mark.parametrize("data", [MIXED, FIVE[:-500], FIVE.replace(b"<row", b"<rov", 3)],
                         ids=["mixed", "cut", "damaged"])
def test_mixed_cut_and_damaged_documents_as_the_careful_path(data: bytes) -> None:
    for on_error in ("raise", "skip"):
        assert_same(data, on_error)


def test_careful_and_fast_frames_are_not_empty() -> None:
    """The comparisons above compare something: IBM's sample fills both tables."""
    tables, _ = read_rmf_xml(FIVE, "f.xml")
    assert tables["cpu"].height == 5 and tables["cpu_lpar"].height == 5 * 14
    counts = tables["cpu_lpar"].select(pl.col("effective_dispatch_seconds").is_not_null().sum(),
                                       pl.col("physical_processors").is_not_null().sum(),
                                       pl.col("own_partition").sum()).row(0)
    assert counts == (45, 60, 5)  # (deactivated partitions have no dispatch time)
