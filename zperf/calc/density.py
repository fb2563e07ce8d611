"""XML content density: how much of a document is data rather than markup.

Paper 002 (backup charts) defines it as the bytes of attribute values plus the
bytes of element text, over the document's size.  Namespace declarations
(``xmlns`` and ``xmlns:p`` attributes) are markup.  Text that is only white
space between elements (indentation) is layout, not content; text with any
other character counts whole.  The document is read in 1 MiB pieces with
expat, so files of any size take constant memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import BinaryIO
from xml.parsers import expat

from zperf.errors import ParseError

CHUNK = 1 << 20


@dataclass(frozen=True)
class Density:
    """A document's size, its content bytes and their share."""

    size_bytes: int
    content_bytes: int

    @property
    def density_pct(self) -> float:
        return self.content_bytes / self.size_bytes * 100 if self.size_bytes else 0.0


def content_density(stream: BinaryIO, name: str) -> Density:
    """Density of the XML document read from ``stream`` (``name`` is for messages)."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    counted = [0]
    pending: list[str] = []

    def flush() -> None:
        text = "".join(pending)
        pending.clear()
        if text.strip():
            counted[0] += len(text.encode())

    def start(_: str, attributes: dict[str, str]) -> None:
        flush()
        counted[0] += sum(len(v.encode()) for k, v in attributes.items()
                          if k != "xmlns" and not k.startswith("xmlns:"))

    def end(_: str) -> None:
        flush()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = pending.append
    size = 0
    try:
        for chunk in _chunks(stream):
            size += len(chunk)
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        raise ParseError(name, f"not well-formed XML: {expat.ErrorString(exc.code)}",
                         line=exc.lineno, offset=parser.CurrentByteIndex) from None
    return Density(size, counted[0])


def _chunks(stream: BinaryIO) -> Iterable[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk
