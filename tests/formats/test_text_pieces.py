"""Text inputs read in pieces give what a whole read gives (zperf.formats.text_input).

The RMF Workload Activity and CPU Activity readers take the text in pieces cut
at the boundaries they know (a class block, a report section); the reading
layer hands them the text as chunks, converted chunk by chunk.  Forcing tiny
chunks and pieces must change nothing: the tables, the tallies (counts,
others, warnings), the problems with the whole file's line numbers and byte
offsets, and the first error with ``--on-error raise``.  The reference is the
reader's own ``read`` of the whole bytes (for one report) and the read with
the default sizes, in which a small fixture is one piece.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from conftest import DATA, LISTING_EDITS, damaged
from zperf.errors import ZperfError
from zperf.formats import pieces, text_input
from zperf.formats.pieces import TextPieces
from zperf.formats.reading import read_stream
from zperf.formats.registry import RMF_REPORTS, RMF_TITLE_STARTS, TEXT_KIND
from zperf.formats.rmf import cpu, wlmgl
from zperf.formats.tally import OnError, Tally

FIXTURES = sorted(p for folder in ("rmf", "cics", "driver", "ims")
                  for p in (DATA / folder).iterdir() if p.suffix in (".txt", ".csv", ".jtl"))
RMF = [p for p in FIXTURES if p.parent.name == "rmf"]
SYSOUT = DATA / "rmf" / "v2r4-asa-sysout.txt"  # Workload Activity and CPU Activity pages
MODES: tuple[OnError, ...] = ("raise", "skip", "keep")


class Piped(io.BytesIO):
    """Standard input from a pipe: it cannot be read again."""

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        raise OSError("not seekable")


def _tally(tally: Tally) -> tuple[Any, ...]:
    return (tally.kind, tally.read_as, tally.read, tally.parsed, tally.skipped, tally.other,
            tally.pending, tally.duplicates, sorted(tally.others.items()), tally.warnings,
            [(p.record, p.line, p.offset, p.reason, p.raw) for p in tally.problems])


def outcome(data: bytes, on_error: OnError, monkeypatch: pytest.MonkeyPatch, *,
            chunk: int | None = None, piece: int | None = None, piped: bool = False,
            kind: str | None = None) -> Any:
    """What read_stream gives (or the error it raises), with these chunk and piece sizes."""
    with monkeypatch.context() as patch:
        if chunk is not None:
            patch.setattr(text_input, "CHUNK_BYTES", chunk)
        if piece is not None:
            patch.setattr(wlmgl, "PIECE_BYTES", piece)
            patch.setattr(cpu, "PIECE_BYTES", piece)
        stream = Piped(data) if piped else io.BytesIO(data)
        try:
            results = read_stream(stream, "x.txt", len(data), kind=kind, on_error=on_error)
        except ZperfError as exc:
            return ("error", type(exc).__name__, str(exc))
    return [(tables, _tally(tally)) for tables, tally in results]


def same(got: Any, expected: Any) -> None:
    """Equal outcomes: the same error, or the same tables and tallies in the same order."""
    if isinstance(expected, tuple) or isinstance(got, tuple):
        assert got == expected
        return
    assert [t for _, t in got] == [t for _, t in expected]
    for (tables, _), (wanted, _) in zip(got, expected, strict=True):
        assert tables.keys() == wanted.keys()
        for name, frame in tables.items():
            assert_frame_equal(frame, wanted[name])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_text_fixture_reads_the_same_in_small_pieces(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes() * (2 if path in RMF else 1)
    for mode in MODES:
        same(outcome(data, mode, monkeypatch, chunk=7, piece=700),
             outcome(data, mode, monkeypatch))


@pytest.mark.slow
@pytest.mark.parametrize("path", RMF, ids=lambda p: p.name)
def test_every_listing_reads_the_same_in_tiny_pieces(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of one byte: every class block and section is a cut."""
    data = path.read_bytes() * 3
    for mode in MODES:
        whole = outcome(data, mode, monkeypatch)
        for chunk, piece in ((1, 1), (1000, 3000)):
            same(outcome(data, mode, monkeypatch, chunk=chunk, piece=piece), whole)


@pytest.mark.parametrize("path", [p for p in RMF if p != SYSOUT], ids=lambda p: p.name)
def test_a_listing_read_in_pieces_is_the_readers_whole_read(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's ``read`` of the whole bytes is the reference, not the stream path."""
    data = path.read_bytes() * 2
    kind = "rmf-cpu" if b"C P U" in data and b"W O R K L O A D" not in data else "rmf-wlmgl"
    for mode in ("skip", "keep"):
        tables, tally = TEXT_KIND[kind].read(data, "x.txt", mode)
        tally.read_as = kind
        same(outcome(data, mode, monkeypatch, chunk=500, piece=300, kind=kind),
             [(tables, _tally(tally))])


def test_a_sysout_of_two_reports_reads_each_in_pieces_even_from_a_pipe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The other report's reader reads the text again: from the file, or from the
    temporary copy kept while reading a pipe."""
    data = SYSOUT.read_bytes() * 2
    whole = outcome(data, "skip", monkeypatch)
    assert [t[0] for _, t in whole] == ["", "rmf-cpu"]  # WLMGL, then its CPU pages
    assert whole[1][0]["cpu"].height > 0
    for piped in (False, True):
        same(outcome(data, "skip", monkeypatch, chunk=333, piece=100, piped=piped), whole)


def test_ebcdic_and_utf16_listings_convert_chunk_by_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = SYSOUT.read_text()
    for data in (text.encode("cp037"), text.encode("utf-16"), text.encode("cp1047")):
        whole = outcome(data, "skip", monkeypatch)
        assert whole[0][0]["workload"].height > 0
        same(outcome(data, "skip", monkeypatch, chunk=333, piece=100), whole)


def test_a_cut_inside_a_report_section_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CPU Activity report runs over several pages; a piece that ends inside it is
    read again from the section's start, so the report is whole and counted once."""
    data = (DATA / "rmf" / "cpu-v2r2-asa-sysout.txt").read_bytes() * 4
    reader = cpu._Reader("x.txt", Tally("x.txt", "skip"))
    seen: list[int] = []
    original = TextPieces.advance

    def advance(self: TextPieces, offset: int, number: int) -> None:
        seen.append(number)
        original(self, offset, number)

    monkeypatch.setattr(TextPieces, "advance", advance)
    reader.read_pieces([data], piece_bytes=1)
    lines = data.split(b"\n")
    assert len(seen) > 1  # cut many times...
    for number in seen:  # ...always at a page or report start
        assert lines[number - 1][:1] == b"1" or b"R E P O R T" in lines[number - 1] \
            or b"A C T I V I T Y" in lines[number - 1]
    whole = cpu.read_cpu_activity(data, "x.txt", "skip")
    assert_frame_equal(reader.frame("x.txt"), whole[0]["cpu"])


def test_a_piece_boundary_inside_a_class_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks end anywhere (here: every 101 bytes, inside class blocks and lines);
    the WLMGL reader reads from the block's key line again."""
    data = (DATA / "rmf" / "v2r5-microseconds.txt").read_bytes() * 4
    whole = outcome(data, "skip", monkeypatch)
    same(outcome(data, "skip", monkeypatch, chunk=101, piece=2000), whole)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(chunk=st.integers(1, 5000), piece=st.integers(100, 20000),
       mode=st.sampled_from(MODES), which=st.sampled_from(RMF),
       edits=st.lists(st.tuples(st.sampled_from(LISTING_EDITS), st.integers(0, 10**6),
                                st.integers(0, 40)), max_size=3))
def test_listings_cut_anywhere_read_as_whole(monkeypatch: pytest.MonkeyPatch, chunk: int,
                                             piece: int, mode: OnError, which: Path,
                                             edits: list[tuple[str, int, int]]) -> None:
    data = damaged(which.read_text() * 2, edits)
    same(outcome(data, mode, monkeypatch, chunk=chunk, piece=piece),
         outcome(data, mode, monkeypatch))


def _counted(chunks: list[bytes], taken: list[int]) -> Iterator[bytes]:
    for chunk in chunks:
        taken.append(len(chunk))
        yield chunk


def test_a_reader_holds_a_piece_not_the_file() -> None:
    """When the first rows come, the WLMGL reader has read about one piece of the text:
    the rest is still unread (memory follows the piece)."""
    block = (DATA / "rmf" / "v2r5-microseconds.txt").read_bytes()
    chunks = [block] * 400  # 780 KB
    taken: list[int] = []
    size = 20 * len(block)
    parts = wlmgl.wlmgl_parts(_counted(chunks, taken), Tally("x.txt", "skip"), piece_bytes=size)
    first = next(parts)
    assert first[0].height > 0
    # the ASA column is decided on the first 400,000 bytes, then a piece is read
    assert sum(taken) <= wlmgl.ASA_SAMPLE + len(block) < len(block) * len(chunks)
    rest = list(parts)
    assert sum(taken) == len(block) * len(chunks)
    assert len(rest) >= 10


def test_text_pieces_end_at_line_ends_and_cut_where_told() -> None:
    text = TextPieces(iter([b"ab\ncd", b"e\nfg\n", b"h"]))
    assert text.head(4) == b"ab\nc"
    assert text.piece(1) == (b"ab\n", False)
    text.advance(3, 2)
    assert (text.offset, text.number) == (3, 2)
    assert text.piece(2) == (b"cde\n", False)
    text.advance(7, 3)
    assert text.piece(100) == (b"fg\nh", True)
    with pytest.raises(ValueError, match="outside the text held"):
        text.advance(1, 1)
    assert TextPieces(iter([b"x\n"])).piece(0) == (b"x\n", True)
    assert TextPieces(iter([])).piece(5) == (b"", True)
    assert pieces.whole(b"") == []


class ShortFirstRead(Piped):
    """A pipe whose first read gives only ``first`` bytes (a pipe may give less than
    asked): the text's first chunk ends there."""

    def __init__(self, data: bytes, first: int) -> None:
        super().__init__(data)
        self.first: int | None = first

    def read(self, size: int | None = -1, /) -> bytes:
        if self.first is not None:
            size, self.first = self.first, None
        return super().read(size)


@pytest.mark.parametrize("cut", [-1, 0, 1, 3, 5, 9, 20])
def test_a_report_title_cut_between_chunks_is_found(monkeypatch: pytest.MonkeyPatch,
                                                    cut: int) -> None:
    """The watcher looks for the start of a title in the bytes (RMF_TITLE_STARTS) before
    it decodes and searches a chunk: a title cut anywhere between two chunks, the
    start of it in one, is still found, and its report read after the first."""
    data = SYSOUT.read_bytes()
    title = data.index(b"C P U")
    monkeypatch.setattr(text_input, "CHUNK_BYTES", 1000)
    results = read_stream(ShortFirstRead(data, title + cut), "x.txt", on_error="skip")
    assert [tally.read_as for _, tally in results] == ["rmf-wlmgl", "rmf-cpu"]
    assert results[1][0]["cpu"].height > 0


def test_every_title_starts_with_its_start() -> None:
    """RMF_TITLE_STARTS is a necessary condition: each title pattern begins with it,
    literally (no quantifier on its last character)."""
    for kind, title in RMF_REPORTS.items():
        start = RMF_TITLE_STARTS[kind].decode()
        assert title.pattern.startswith(start + "\\"), kind
        assert re.escape(start).replace("\\ ", " ") == start
