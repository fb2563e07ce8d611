"""Printed reports (SYSOUT listings) as clean numbered lines.

RMF, CICS and IMS PA reports reach analysts as text in several shapes: with
the ASA carriage-control character in column 1 (``1`` new page, ``0`` and
``-`` extra blank lines, ``+`` overprint), with form feeds instead, with no
control column at all, still in EBCDIC, pasted into a document with tabs
between its cells, or with runs of blanks made tabs (``unexpand -a``, an
editor, mail).  This module hides those differences: it yields lines with
their number and byte offset in the file, tabs at stops of 8 expanded (see
:func:`tab_stops`), the control column removed, page starts marked and
overprinted lines dropped.  Every reader of a printed report takes its lines
from here, so each rule is applied once for all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa

from zperf.formats.encodings import DEFAULT_ENCODING

ASA_CODES = frozenset(" 01-+")
#: Where the tabs of a listing whose blanks became tabs stand: every 8th column
#: (``unexpand``'s, editors' and terminals' default).
TAB_STOP = 8


@dataclass(frozen=True)
class Line:
    """One line of a listing: number and byte offset in the file, text, page start,
    and whether tabs of it were expanded (:func:`tab_stops`)."""

    number: int
    offset: int
    text: str
    new_page: bool = False
    tabs: bool = False


def listing_encoding(head: bytes) -> str:
    """'cp037' for a listing still in EBCDIC (blanks are X'40'), else 'utf-8'."""
    sample = head[:4096]
    if sample and sample.count(0x40) > len(sample) // 8 and sample.count(0x20) < len(sample) // 50:
        return "cp037"
    return "utf-8"


#: Byte order marks of UTF-16 text (a file saved as "Unicode" on Windows).
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
#: Share of a sample's characters that must be printable (or tabs, line ends, form
#: feeds) for it to be text: binary SMF fields are far below it.
TEXT_SHARE = 0.97


def text_encoding(head: bytes) -> str | None:
    """How a file's first bytes are text: 'utf-16' (with a byte order mark), 'cp037'
    (an EBCDIC listing), 'utf-8' (UTF-8, which ASCII is, or mostly printable
    ASCII with a few bytes of another code page); None when they are not text."""
    sample = head[:8192]
    if not sample:
        return None
    if sample.startswith(UTF16_BOMS):
        decoded = sample.decode("utf-16", errors="replace")
        return "utf-16" if _mostly_printable(decoded) else None
    if listing_encoding(sample) == "cp037":
        decoded = sample.decode("cp037", errors="replace")
        return "cp037" if _mostly_printable(decoded.replace("\x85", "\n")) else None
    decoded = _utf8(sample) or ""
    if decoded and _mostly_printable(decoded.removeprefix("\ufeff")):
        return "utf-8"
    printable = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 12, 13))
    return "utf-8" if printable > TEXT_SHARE * len(sample) else None


def is_ebcdic_text(sample: bytes) -> bool:
    """Are these bytes EBCDIC text (however few its blanks: text pasted with tabs)?
    Mostly printable in code page 037 (ASCII's digits and punctuation are control
    characters there), with letters and digits (above X'80' in EBCDIC), and not
    UTF-8 (text in a script with no ASCII letters is UTF-8 bytes above X'80')."""
    if not sample or _utf8(sample) is not None:
        return False
    high = int(np.count_nonzero(np.frombuffer(sample, dtype=np.uint8) >= 0x80))
    return bool(high >= len(sample) // 10) and _mostly_printable(
        sample.decode("cp037", errors="replace").replace("\x85", "\n"))


def _utf8(sample: bytes) -> str | None:
    """The sample as UTF-8 text (a multi-byte character cut by its end allowed), or None
    when it is not UTF-8."""
    try:
        return sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return sample[:exc.start].decode("utf-8") if exc.start >= len(sample) - 3 else None


def _mostly_printable(text: str) -> bool:
    if not text:
        return False
    shown = sum(1 for c in text if c.isprintable() or c in "\t\n\r\f")
    return shown > TEXT_SHARE * len(text)


def tab_stops(data: bytes) -> bool:
    """Are the tabs of this text (UTF-8 or ASCII) tab stops, to be expanded at every
    8th column, rather than the cell separators of a pasted extract?

    A listing whose runs of blanks became tabs (``unexpand -a``, an editor, mail)
    keeps the blanks of a run after its last tab stop: a value right-aligned
    under its heading follows its tab with blanks ("\\t   12.5").  An extract
    pasted with tabs between its cells puts one tab where the whole run of
    blanks was, never a tab and then a blank: its tabs stay cell separators,
    which the readers take as they always have (expanding them would put the
    cells at columns that mean nothing)."""
    return b"\t " in data


#: A tab followed by 8 blanks: never made by tab stops of 8 (the blanks would have
#: been another tab).
TOO_WIDE = re.compile(rb"\t {8}")
#: Said once per file whose tabs were expanded (:mod:`zperf.formats.text_input`).
TABS_NOTE = (f"tabs expanded at stops of {TAB_STOP} (the listing's blanks had been made "
             "tabs: unexpand, an editor, mail)")


def too_wide(line: bytes) -> str:
    """Why a listing with a tab followed by 8 blanks or more (``line``) is refused."""
    shown = line.decode("utf-8", errors="replace").strip()
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return (f"a tab followed by 8 blanks or more ({shown!r}): its tabs were not made at "
            f"stops of {TAB_STOP} (those blanks would have been a tab) and its columns "
            "cannot be told; expand them as they were made (expand -t N FILE) and read "
            "the result")


def expanded_text(text: str) -> str:
    """A text's lines with tabs expanded at stops of 8 if they are tab stops (what a
    listing reader sees, :func:`tab_stops`), for recognising the report."""
    if "\t " not in text:
        return text
    return "\n".join(line.expandtabs(TAB_STOP) for line in text.split("\n"))


def expanded(line: bytes) -> bytes:
    """One line of a listing with its tabs expanded at stops of 8, counted from the
    line's first byte (the control column and a form feed count, as they did for the
    tool that made the tabs)."""
    return line.expandtabs(TAB_STOP) if b"\t" in line else line


def _has_asa_column(lines: list[bytes]) -> bool:
    """Column 1 is carriage control when every non-empty line starts with a code
    and some line starts a page ('1') or adds space ('0', '-') as RMF's do."""
    body = [ln for ln in lines if ln.strip()]
    if not body or not all(ln[:1].decode("latin-1") in ASA_CODES for ln in body):
        return False
    return any(ln[:1] in (b"1", b"0", b"-") for ln in body)


def ebcdic_as_utf8(data: bytes, encoding: str = DEFAULT_ENCODING) -> bytes:
    """An EBCDIC listing as UTF-8 text, in the code page ``encoding``; EBCDIC
    new line (X'15') and line feed (X'25') both end a line."""
    return data.decode(encoding, errors="replace").replace("\x85", "\n").encode("utf-8")


def has_asa_column(data: bytes) -> bool:
    """Does the listing (UTF-8 or ASCII bytes) keep ASA control characters in column 1?
    Decided on its first 2,000 lines."""
    head = data[: 2000 * 200].split(b"\n", 2000)[:2000]
    if tab_stops(data[: 2000 * 200]):
        head = [expanded(r) for r in head]
    return _has_asa_column([r.rstrip(b"\r\f") for r in head])


def listing_lines(data: bytes, *, asa: bool | None = None) -> Iterator[Line]:
    """Yield the lines of a listing with carriage control and page breaks handled."""
    encoding = listing_encoding(data)
    if encoding == "cp037":
        data = ebcdic_as_utf8(data)
    raw = data.split(b"\n")
    stops = tab_stops(data)
    if asa is None:
        asa = _has_asa_column([(expanded(r) if stops else r).rstrip(b"\r\f")
                               for r in raw[:2000]])
    offset = 0
    for number, chunk in enumerate(raw, start=1):
        start = offset
        offset += len(chunk) + 1
        line = chunk.rstrip(b"\r")
        tabs = stops and b"\t" in line
        if tabs:
            line = expanded(line)
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
        yield Line(number, start, text.replace("\f", "").rstrip(), new_page, tabs)


@dataclass
class Listing:
    """All lines of a listing at once, as columns (what ``listing_lines`` yields one by one).

    Readers that must keep up with large SYSOUTs classify lines with
    vectorized string operations on ``text`` and make :class:`Line` objects
    only for the few lines they look at one by one.
    """

    text: pl.Series
    numbers: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    new_page: npt.NDArray[np.bool_]
    #: The lines whose tabs were expanded (None: no line's were).
    tabs: npt.NDArray[np.bool_] | None = None
    #: Every line holds only printable ASCII and tabs (as listings do): readers
    #: may then skip their per-line checks for odd characters.
    printable: bool = False

    @classmethod
    def of_lines(cls, lines: Iterable[Line]) -> Listing:
        """The lines ``listing_lines`` yields, as columns (Python's idea of blanks kept).
        Taken one by one, so that no Line object outlives its turn."""
        texts: list[str] = []
        numbers: list[int] = []
        offsets: list[int] = []
        pages: list[bool] = []
        tabs: list[bool] = []
        for ln in lines:
            tabs.append(ln.tabs)
            texts.append(ln.text)
            numbers.append(ln.number)
            offsets.append(ln.offset)
            pages.append(ln.new_page)
        return cls(pl.Series("text", texts, dtype=pl.String), np.array(numbers, dtype=np.int64),
                   np.array(offsets, dtype=np.int64), np.array(pages, dtype=np.bool_),
                   np.array(tabs, dtype=np.bool_) if any(tabs) else None)

    def __len__(self) -> int:
        return len(self.numbers)

    def lines(self, indices: npt.NDArray[np.int64]) -> list[Line]:
        """The lines at these positions, as Line objects."""
        texts = self.text.gather(indices).to_list()
        tabs = (self.tabs[indices].tolist() if self.tabs is not None
                else [False] * len(texts))
        return [Line(n, o, t, p, b) for n, o, t, p, b in zip(
            self.numbers[indices].tolist(), self.offsets[indices].tolist(), texts,
            self.new_page[indices].tolist(), tabs, strict=True)]


def listing_table(data: bytes, *, asa: bool | None = None, first_number: int = 1,
                  first_offset: int = 0) -> Listing:
    """The lines of a listing as columns, exactly as ``listing_lines`` gives them.

    For a piece of a larger listing: ``asa`` says whether the whole listing
    has a control column, ``first_number`` and ``first_offset`` where the piece
    starts in it (line numbers and byte offsets are the whole listing's)."""
    encoding = listing_encoding(data)
    if encoding == "cp037":
        data = ebcdic_as_utf8(data)
    printable = _printable(data)
    if not printable:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:  # some lines are not UTF-8: the careful line-by-line way
            careful = Listing.of_lines(listing_lines(data, asa=asa))
            careful.numbers += first_number - 1
            careful.offsets += first_offset
            return careful
    # The lines as Arrow strings over the file's own bytes, each with its line
    # end (stripped below with the other trailing blanks).
    raw_bytes = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw_bytes == ord("\n"))
    starts = np.concatenate(([0], ends + 1)).astype(np.int64)
    bounds = np.concatenate((starts, [len(data)])).astype(np.int64)
    raw = pl.Series("text", pa.LargeStringArray.from_buffers(
        len(starts), pa.py_buffer(bounds), pa.py_buffer(data)))
    tabs = None
    if tab_stops(data):  # the lines made from the file's bytes, each line start kept
        tabs = raw.str.contains("\t", literal=True).to_numpy()
        at = np.flatnonzero(tabs)
        raw = raw.cast(pl.String).scatter(
            at, [t.expandtabs(TAB_STOP) for t in raw.gather(at).to_list()])
    if asa is None:
        asa = has_asa_column(data)
    offsets = starts + first_offset
    numbers = np.arange(first_number, first_number + len(raw), dtype=np.int64)
    text = raw
    page = np.zeros(len(raw), dtype=np.bool_)
    feeds = bool(np.count_nonzero(raw_bytes == ord("\f")))
    if feeds:
        page = text.str.starts_with("\f").to_numpy()
        text = text.str.strip_chars_start("\f")
    keep = None
    if asa:
        code = text.str.slice(0, 1)
        text = text.str.slice(1)  # an empty line stays empty
        page = page | (code == "1").to_numpy()
        plus = (code == "+").to_numpy()
        if plus.any():
            keep = ~plus
    if feeds:
        text = text.str.replace_all("\f", "", literal=True)
    text = text.str.strip_chars_end()
    if keep is not None:
        text = text.filter(pl.Series(keep))
        numbers, offsets, page = numbers[keep], offsets[keep], page[keep]
        tabs = tabs[keep] if tabs is not None else None
    return Listing(text.alias("text"), numbers, offsets, page.astype(np.bool_), tabs, printable)


def misaligned(line: Line, placed: Iterable[tuple[int, int, float, float]],
               tabs: bool = False) -> str | None:
    """Why a line cannot be read by its columns when its tabs, or those of the lines
    that define its columns (``tabs``), were expanded: the first of its texts
    ``placed`` in a column (``start, end`` of the text in the line, and ``left, right``
    of the column it was placed in) that does not overlap that column; None when each
    does, or no tab was expanded.

    Tabs made at stops other than 8 (``unexpand -t 4``, an editor set so) expand to
    other columns, and a reader that places values by the heading over them would
    take them for other columns' values: the line is refused with the reason, never
    read by a guess.  (A reader that reads by labels is not misled, and does not ask.)"""
    if not (line.tabs or tabs):
        return None
    for start, end, left, right in placed:
        if not (start < right and end > left):
            return tabs_misplaced(line.text[start:end])
    return None


def tabs_misplaced(text: str) -> str:
    """The reason a line with tabs is refused: ``text`` is not in line with its column."""
    return (f"{text!r} is not in line with its column once the line's tabs are expanded "
            f"at stops of {TAB_STOP}: the tabs were made at other stops; expand them as they "
            "were made (expand -t N FILE) and read the result")


def _printable(data: bytes) -> bool:
    """Only printable ASCII, tabs, line ends (LF, CR LF) and form feeds in the file?"""
    if not data:
        return True
    raw = np.frombuffer(data, dtype=np.uint8)
    if int(raw.max()) >= 127:
        return False
    controls = int(np.count_nonzero(raw < 32)) - sum(
        int(np.count_nonzero(raw == ord(c))) for c in "\t\n\f")
    if controls and np.count_nonzero(raw == ord("\r")):  # CR LF line ends are not odd
        controls -= int(np.count_nonzero((raw[:-1] == ord("\r")) & (raw[1:] == ord("\n"))))
    return controls == 0
