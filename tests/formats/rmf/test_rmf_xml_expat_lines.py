"""Line breaks as expat counts them (CR LF, LF, a CR alone): the damage's line number
in a document read in pieces, or with reports taken out, rests on them."""

from __future__ import annotations

from xml.parsers import expat

import pytest

from zperf.formats.rmf.xml_expat import line_breaks

CASES = [b"<a>\n<b/>\r\n<c/>\r<d/></a>", b"<a><b/></a>", b"<a>\r\r\n\n</a>", b"<a>\n\n</a>",
         b"<a>\r</a>", b"<a>\r\n\r\n</a>"]


@pytest.mark.parametrize("data", CASES)
def test_the_breaks_of_a_document_are_expat_s(data: bytes) -> None:
    damaged = data + b"<"  # damage after the last byte: expat names its line
    try:
        expat.ParserCreate().Parse(damaged, True)
    except expat.ExpatError as error:
        assert error.lineno == 1 + line_breaks(data)
    else:
        raise AssertionError("the damaged document parsed")


def test_a_range_counts_only_its_breaks() -> None:
    data = b"a\nb\r\nc\rd"
    assert [line_breaks(data, 1), line_breaks(data, 1, 3), line_breaks(data, 3, 5),
            line_breaks(data, 4, 8)] == [3, 1, 1, 2]
