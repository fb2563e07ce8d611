"""XML content density: how much of a document is data rather than markup.

Paper 002 (backup, "Calculating content density") defines it as the bytes of
all attribute values plus the bytes of all element content, over the size of
the document, and says to leave ``xmlns`` attributes out of the content: a
namespace declaration is markup overhead.  Two readings are zperf's:

* text that is only white space between tags (indentation, line ends) is
  layout, not content, unless ``count_whitespace`` is set; text with any other
  character counts whole, spaces included;
* values are counted as UTF-8 bytes after XML decoding (``&amp;`` is one byte
  of content), and CDATA sections are element content.

The document is fed to expat in 1 MiB pieces and nothing is kept but two
counters, so a file of any size takes the same memory.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

from zperf.errors import InputError, ParseError

CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class Density:
    """A document's size, its content bytes and their share."""

    size_bytes: int
    content_bytes: int

    @property
    def content_density_pct(self) -> float:
        """Content bytes over document bytes, in %; 0 for an empty document."""
        return self.content_bytes / self.size_bytes * 100 if self.size_bytes else 0.0


class _Counter:
    """expat handlers that add up content bytes without keeping any text."""

    def __init__(self, count_whitespace: bool) -> None:
        self.count_whitespace = count_whitespace
        self.content = 0
        self._run_bytes = 0
        self._run_has_data = False

    def text(self, data: str) -> None:
        self._run_bytes += len(data.encode())
        if not self._run_has_data and (self.count_whitespace or not data.isspace()):
            self._run_has_data = True

    def end_run(self) -> None:
        """A tag closes a run of text: it counts if it held anything but layout."""
        if self._run_has_data:
            self.content += self._run_bytes
        self._run_bytes = 0
        self._run_has_data = False

    def start(self, _: str, attributes: dict[str, str]) -> None:
        self.end_run()
        self.content += sum(len(value.encode()) for key, value in attributes.items()
                            if key != "xmlns" and not key.startswith("xmlns:"))

    def end(self, _: str) -> None:
        self.end_run()


def content_density(stream: BinaryIO, name: str, *, count_whitespace: bool = False,
                    chunk_bytes: int = CHUNK_BYTES) -> Density:
    """Content density of the XML document read from ``stream`` (``name`` names it in errors).

    Malformed XML raises :class:`ParseError` with the line and byte offset expat
    stopped at.
    """
    counter = _Counter(count_whitespace)
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.StartElementHandler = counter.start
    parser.EndElementHandler = counter.end
    parser.CharacterDataHandler = counter.text
    size = 0
    try:
        while chunk := stream.read(chunk_bytes):
            size += len(chunk)
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        # expat has no position for an error at the very end (an empty document)
        offset = parser.ErrorByteIndex if parser.ErrorByteIndex >= 0 else size
        raise ParseError(name, f"not well-formed XML: {expat.ErrorString(exc.code)}",
                         line=exc.lineno, offset=offset) from None
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    counter.end_run()
    return Density(size_bytes=size, content_bytes=counter.content)


def content_density_of_file(path: str | Path, *, count_whitespace: bool = False) -> Density:
    """Content density of the XML file at ``path`` ('-': standard input)."""
    if str(path) == "-":
        return content_density(sys.stdin.buffer, "-", count_whitespace=count_whitespace)
    try:
        with Path(path).open("rb") as stream:
            return content_density(stream, str(path), count_whitespace=count_whitespace)
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        raise InputError(str(path), f"cannot open: {exc.strerror or exc}") from None
