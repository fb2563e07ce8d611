"""XML content density (paper 002 backup): hand-counted documents, errors, streaming."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest
from paper_data import DATA

from zperf.calc import formulas as f
from zperf.calc.density import CHUNK_BYTES
from zperf.errors import InputError, ParseError

RESPONSE = DATA / "paper002-soap-response.xml"


def test_the_papers_sample_response() -> None:
    """002's "Sample SOAP response": the only content is the text of <Response>.

    The xmlns:SOAP-ENV attribute is markup (002: leave namespace declarations
    out), the indentation between tags is layout; the <Response> text counts
    with its line end and spaces: 1 + 6 + 21 + 1 + 4 = 33 bytes of 238.
    """
    d = f.content_density_of_file(RESPONSE)
    assert (d.size_bytes, d.content_bytes) == (238, 33)
    assert round(d.content_density_pct, 2) == 13.87
    # counting layout too adds "\n  ", "\n    ", "\n  " and "\n" inside the envelope
    assert f.content_density_of_file(RESPONSE, count_whitespace=True).content_bytes == 33 + 12


DOC = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<r xmlns="urn:a" xmlns:p="urn:b" id="12345" p:k="xy">\n'   # 5 + 2 attribute bytes
       '  <b>abc</b>\n'                                             # 3
       '  <c p:d="é"/>\n'                                           # 2 (é is 2 bytes)
       '  <e>x &amp; y</e>\n'                                       # 5 ("x & y")
       '  <f><![CDATA[<raw>]]></f>\n'                               # 5
       '  <g>one <h>two</h> three</g>\n'                            # 4 + 3 + 6
       '</r>\n').encode()


def test_a_hand_counted_document() -> None:
    d = f.content_density(io.BytesIO(DOC), "t.xml")
    assert d.size_bytes == len(DOC)
    assert d.content_bytes == 5 + 2 + 3 + 2 + 5 + 5 + 4 + 3 + 6
    assert d.content_density_pct == pytest.approx(35 / len(DOC) * 100)


def test_empty_elements_and_no_content() -> None:
    d = f.content_density(io.BytesIO(b'<a xmlns="urn:x"><b/></a>'), "t.xml")
    assert (d.content_bytes, d.content_density_pct) == (0, 0.0)


@pytest.mark.parametrize(("doc", "line", "offset", "what"), [
    (b"<a>\n<b></a>", 2, 0x9, "mismatched tag"),
    (b"", 1, 0x0, "no element found"),
    (b"<a>ok</a><b/>", 1, 0x9, "junk after document element"),
    (b'<a x="1" x="2"/>', 1, 0x9, "duplicate attribute"),
    (b"\x00\x01\x02", 1, 0x0, "not well-formed"),
])
def test_malformed_xml_says_where(doc: bytes, line: int, offset: int, what: str) -> None:
    with pytest.raises(ParseError, match=what) as caught:
        f.content_density(io.BytesIO(doc), "bad.xml")
    error = caught.value
    assert (error.file, error.line, error.offset) == ("bad.xml", line, offset)
    assert str(error).startswith(f"bad.xml: line {line} at offset 0x{offset:X}: ")


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot open"):
        f.content_density_of_file(tmp_path / "none.xml")


ITEM = b'<item code="ABCDEFGH">payload-0123456789</item>\n'  # 8 + 18 content bytes


PIECE = 64 * 1024


def _density_and_peak(items: int) -> tuple[f.Density, int]:
    """Density of <d> with ``items`` items read in 64 KiB pieces, and the most memory the
    reader allocated (the document is built before tracing starts)."""
    document = b"<d>\n" + ITEM * items + b"</d>\n"
    tracemalloc.start()
    try:
        density = f.content_density(io.BytesIO(document), "big.xml", chunk_bytes=PIECE)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert density.size_bytes == len(document)
    return density, peak


def test_streaming_takes_the_same_memory_whatever_the_size() -> None:
    """0.25 MB and 1.5 MB in pieces that cut items anywhere (even inside a value or a
    text): exact counts, and the same peak memory, a few pieces, for both (a reader
    that held the document would need 1.5 MB, four times the bound)."""
    assert PIECE % len(ITEM) and CHUNK_BYTES % len(ITEM)
    small, small_peak = _density_and_peak(5_000)
    large, large_peak = _density_and_peak(30_000)
    assert large.size_bytes > 21 * PIECE
    assert (small.content_bytes, large.content_bytes) == (5_000 * 26, 30_000 * 26)
    assert large_peak < small_peak + PIECE // 4
    assert large_peak < 6 * PIECE
