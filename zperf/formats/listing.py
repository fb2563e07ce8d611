"""Printed reports (SYSOUT listings) as clean numbered lines.

RMF, CICS and IMS PA reports reach analysts as text in several shapes: with
the ASA carriage-control character in column 1 (``1`` new page, ``0`` and
``-`` extra blank lines, ``+`` overprint), with form feeds instead, with no
control column at all, still in EBCDIC, or pasted into a document with tabs
for column alignment.  This module hides those differences: it yields lines
with their number and byte offset in the file, the control column removed,
page starts marked and overprinted lines dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

ASA_CODES = frozenset(" 01-+")


@dataclass(frozen=True)
class Line:
    """One line of a listing: number and byte offset in the file, text, page start."""

    number: int
    offset: int
    text: str
    new_page: bool = False


def listing_encoding(head: bytes) -> str:
    """'cp037' for a listing still in EBCDIC (blanks are X'40'), else 'utf-8'."""
    sample = head[:4096]
    if sample and sample.count(0x40) > len(sample) // 8 and sample.count(0x20) < len(sample) // 50:
        return "cp037"
    return "utf-8"


def looks_like_text(head: bytes) -> bool:
    """Mostly printable characters and line ends (in ASCII or EBCDIC)?"""
    sample = head[:8192]
    if not sample:
        return False
    if listing_encoding(sample) == "cp037":
        sample = sample.decode("cp037", errors="replace").encode("ascii", errors="replace")
    printable = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 12, 13))
    return printable > 0.97 * len(sample)


def _has_asa_column(lines: list[bytes]) -> bool:
    """Column 1 is carriage control when every non-empty line starts with a code
    and some line starts a page ('1') or adds space ('0', '-') as RMF's do."""
    body = [ln for ln in lines if ln.strip()]
    if not body or not all(ln[:1].decode("latin-1") in ASA_CODES for ln in body):
        return False
    return any(ln[:1] in (b"1", b"0", b"-") for ln in body)


def listing_lines(data: bytes) -> Iterator[Line]:
    """Yield the lines of a listing with carriage control and page breaks handled."""
    encoding = listing_encoding(data)
    if encoding == "cp037":  # EBCDIC new line (X'15') and line feed (X'25')
        data = data.decode("cp037", errors="replace").replace("\x85", "\n").encode("utf-8")
    raw = data.split(b"\n")
    asa = _has_asa_column([r.rstrip(b"\r\f") for r in raw[:2000]])
    offset = 0
    for number, chunk in enumerate(raw, start=1):
        start = offset
        offset += len(chunk) + 1
        line = chunk.rstrip(b"\r")
        new_page = False
        if line.startswith(b"\f"):
            new_page, line = True, line.lstrip(b"\f")
        if asa and line:
            code, line = line[:1], line[1:]
            if code == b"+":  # overprint: underlining or bold, no new content
                continue
            new_page = new_page or code == b"1"
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line.decode("latin-1")
        yield Line(number, start, text.replace("\f", "").rstrip(), new_page)
