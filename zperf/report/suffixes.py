"""What an output file's name says it holds: the format is taken from the suffix.

``zperf parse -o x.parquet`` once wrote CSV into ``x.parquet`` (and ``zperf
report -o r.pdf`` plain text), exit status 0: a file that lies about what it
holds, found only when a reader fails on it, or worse, reads it as something
else.  Every command that writes a file (``-o``, ``--errors``, ``--junit``,
``--markdown``) asks :func:`format_for_file` which format to write; the map
of suffixes to kinds of file is here, once, and each command says which
formats it writes (its ``--to`` names) and what kind of file each is.

The rules, the same for every command:

* a suffix of a kind the command writes picks that format (``.parquet``:
  Parquet); ``--to`` that says otherwise is a usage error;
* ``.txt`` is plain text: the command's text format (``zperf parse``'s
  table, ``zperf report``'s text), and any format that is plain text (CSV,
  JSON, markdown; not HTML or XML) when ``--to`` asks for it;
* a suffix of a kind the command does not write (``.html`` for ``zperf
  parse``, ``.csv`` for ``zperf report``), of a file zperf never writes
  (``.pdf``, ``.xlsx``, ``.docx``), or of a compressed file (``.gz``: zperf
  compresses nothing it writes) is a usage error naming what it writes;
* no suffix, or one that names no kind of file (``out``, ``out.dat``): the
  command's default for a file, or ``--to``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

from zperf.errors import UsageError


@dataclass(frozen=True)
class FileKind:
    """A kind of file zperf writes: what a message calls it ("a Parquet" file name),
    the suffixes that name it (the first is the one suggested), and whether it is plain
    text (a .txt file may hold it) or binary."""

    called: str
    suffixes: tuple[str, ...]
    plain: bool = True
    binary: bool = False


#: Every kind of file zperf writes.
FILE_KINDS: dict[str, FileKind] = {
    "csv": FileKind("a CSV", (".csv",)),
    "json": FileKind("a JSON", (".json",)),
    "ndjson": FileKind("an NDJSON", (".ndjson", ".jsonl")),
    "parquet": FileKind("a Parquet", (".parquet",), plain=False, binary=True),
    "arrow": FileKind("an Arrow IPC", (".arrow", ".feather"), plain=False, binary=True),
    "text": FileKind("a text", (".txt",)),
    "html": FileKind("an HTML", (".html", ".htm"), plain=False),
    "markdown": FileKind("a markdown", (".md", ".markdown")),
    "xml": FileKind("an XML", (".xml",), plain=False),
}

#: Suffix -> the kind of file it names.
SUFFIX_KINDS: dict[str, str] = {
    suffix: kind for kind, file in FILE_KINDS.items() for suffix in file.suffixes}

#: Suffixes of files zperf never writes, and what a message calls them.
NOT_WRITTEN: dict[str, str] = {
    ".pdf": "a PDF", ".xlsx": "an Excel", ".xlsm": "an Excel", ".xls": "an Excel",
    ".ods": "an OpenDocument spreadsheet", ".docx": "a Word", ".doc": "a Word",
    ".odt": "an OpenDocument text", ".rtf": "an RTF", ".tsv": "a tab-separated",
    ".avro": "an Avro", ".orc": "an ORC", ".yaml": "a YAML", ".yml": "a YAML",
    ".png": "a PNG image", ".svg": "an SVG image", ".jpg": "a JPEG image",
    ".jpeg": "a JPEG image",
}

#: Suffixes of compressed files: the tool that makes them.
COMPRESSED: dict[str, str] = {
    ".gz": "gzip", ".tgz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd",
    ".lz4": "lz4", ".zip": "zip",
}


def _writes(formats: Mapping[str, str]) -> str:
    """'csv (.csv), ndjson (.ndjson, .jsonl), ...': the formats and their suffixes."""
    return ", ".join(f"{fmt} ({', '.join(FILE_KINDS[kind].suffixes)})"
                     for fmt, kind in formats.items())


def format_for_file(path: str, fmt: str | None, formats: Mapping[str, str], default: str, *,
                    option: str = "-o", writer: str = "zperf") -> str:
    """The format to write the file ``path`` in (see the module doc).

    ``formats`` are the formats the command writes (its ``--to`` names) and the kind of
    file each is (:data:`FILE_KINDS`), ``default`` the one for a name without a known
    suffix, ``fmt`` the one ``--to`` asked for (None: not given); ``option`` and
    ``writer`` ("zperf parse") are named in the usage error.
    """
    suffix = PurePath(path).suffix.lower()
    stem = path[: -len(suffix)] if suffix else path  # as given: ./x.parquet stays ./x
    if suffix in COMPRESSED:
        tool = COMPRESSED[suffix]
        raise UsageError(f"{option} {path} is a {tool}-compressed file name, and zperf "
                         f"compresses nothing it writes: give {option} {stem} "
                         f"and compress it, or pipe standard output through {tool}")
    if suffix in NOT_WRITTEN:
        raise UsageError(f"{option} {path} is {NOT_WRITTEN[suffix]} file name; {writer} "
                         f"writes {_writes(formats)}")
    kind = SUFFIX_KINDS.get(suffix)
    if kind is None:
        return fmt or default
    file = FILE_KINDS[kind]
    if fmt is not None:
        if formats[fmt] == kind or (kind == "text" and FILE_KINDS[formats[fmt]].plain):
            return fmt
        raise UsageError(f"{option} {path} is {file.called} file name but --to {fmt} was "
                         f"given: drop --to, or name the file "
                         f"{stem}{FILE_KINDS[formats[fmt]].suffixes[0]}")
    same = [f for f, k in formats.items() if k == kind]
    if not same and kind == "text":  # plain text: any text format the command writes
        same = [f for f, k in formats.items() if FILE_KINDS[k].plain]
    if not same:
        raise UsageError(f"{option} {path} is {file.called} file name; {writer} writes "
                         f"{_writes(formats)}")
    return same[0]
