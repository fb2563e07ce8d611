"""The line of a key in a TOML text, for error messages that point into a scenario or
rules file (and tomllib's own errors, said the same way).

``tomllib`` gives values, not positions.  ``tomlkit`` keeps positions but is a
second TOML parser to depend on (and to agree with ``tomllib``) for one job:
naming a line.  A scenario file has already parsed by the time a problem is
found, so a scan of its lines is enough: table headers (``[a]``, ``[[a]]``,
``[a.b]``, arrays of tables counted), ``key = value`` lines (bare, quoted or
dotted keys), and multi-line strings skipped so that their text is never taken
for a key.  A key path whose key is absent (a missing field) resolves to the
line of its table.
"""

from __future__ import annotations

import re
import tomllib

from zperf.sim.model import KeyPath

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r'^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
                  r'(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\'))*)\s*=(.*)$')
_PART = re.compile(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')
_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def toml_error(exc: tomllib.TOMLDecodeError, file: str) -> str:
    """tomllib's complaint as 'FILE: line N: not valid TOML: what (column C)'."""
    message = str(exc)
    found = _TOML_POSITION.search(message)
    if found is None:
        return f"{file}: not valid TOML: {message}"
    return (f"{file}: line {found[1]}: not valid TOML: {message[:found.start()]} "
            f"(column {found[2]})")


def _parts(dotted: str) -> list[str]:
    return [a or b or c for a, b, c in _PART.findall(dotted)]


def _depth(value: str) -> int:
    """How many more brackets ``value`` opens than it closes (strings and comments aside)."""
    bare = _STRING.sub("", value).split("#", 1)[0]
    return bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")


def _opens_multiline(value: str) -> str | None:
    """The delimiter of a multi-line string that ``value`` opens and does not close."""
    text = value.strip()
    for quote in ('"""', "'''"):
        if text.startswith(quote) and text.count(quote) == 1:
            return quote
    return None


class Lines:
    """Where each table and key of a TOML text is: key path -> 1-based line number."""

    def __init__(self, text: str) -> None:
        self.lines: dict[KeyPath, int] = {}
        self._arrays: dict[KeyPath, int] = {}  # array of tables -> its last index
        table: KeyPath = ()
        closing: str | None = None
        depth = 0  # inside a value that spans lines (an array, an inline table)
        for number, line in enumerate(text.splitlines(), start=1):
            if closing is not None:  # inside a multi-line string
                if closing in line:
                    closing = None
                continue
            if depth > 0:
                depth += _depth(line)
                continue
            header = _HEADER.match(line)
            if header is not None:
                table = self._header(header.group(1) == "[[", _parts(header.group(2)))
                self.lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key is not None:
                self.lines.setdefault((*table, *_parts(key.group(1))), number)
                closing = _opens_multiline(key.group(2))
                depth = 0 if closing else max(0, _depth(key.group(2)))

    def _resolve(self, parts: list[str]) -> KeyPath:
        """A dotted table name as a key path: an array of tables means its last element."""
        path: KeyPath = ()
        for part in parts:
            path = (*path, part)
            if path in self._arrays:
                path = (*path, self._arrays[path])
        return path

    def _header(self, array: bool, parts: list[str]) -> KeyPath:
        if not array:
            return self._resolve(parts)
        name = (*self._resolve(parts[:-1]), parts[-1])
        self._arrays[name] = self._arrays.get(name, -1) + 1
        return (*name, self._arrays[name])

    def line(self, where: KeyPath) -> int | None:
        """The line of ``where``, or of the nearest table or key that holds it."""
        for end in range(len(where), 0, -1):
            found = self.lines.get(where[:end])
            if found is not None:
                return found
        return None
