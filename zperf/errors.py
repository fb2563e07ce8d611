"""The zperf exception tree.

Every message that reaches a user carries a position: the file, the record or
line number and the byte offset, so that an analyst can open the dump with a hex
viewer and see the damage for themselves.
"""

from __future__ import annotations


class ZperfError(Exception):
    """Base class of every error zperf raises on purpose."""

    #: One problem per line, each naming its file and line (a rules file's problems):
    #: printed as such; any other message is joined into one line.
    multiline = False


class InputError(ZperfError):
    """An input file cannot be used as it is (bad bytes, bad transfer, bad text)."""

    def __init__(
        self,
        file: str,
        what: str,
        *,
        record: int | None = None,
        offset: int | None = None,
        line: int | None = None,
    ) -> None:
        self.file = file
        self.what = what
        self.record = record
        self.offset = offset
        self.line = line
        super().__init__(self.__str__())

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its parts (an error raised in a worker process of ``--jobs``
        reaches the command as it was raised)."""
        return (_input_error, (type(self), self.file, self.what, self.record, self.offset,
                               self.line))

    def position(self) -> str:
        """The 'record N at offset 0x..' or 'line N' part of the message."""
        parts = []
        if self.record is not None:
            parts.append(f"record {self.record}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.offset is not None:
            parts.append(f"at offset 0x{self.offset:X}")
        return " ".join(parts)

    def __str__(self) -> str:
        pos = self.position()
        what = _printable(self.what)
        return f"{self.file}: {pos}: {what}" if pos else f"{self.file}: {what}"


def _printable(text: str) -> str:
    """``text`` with control characters (a line end, a NUL, X'1C' from a damaged file)
    escaped, so that a message quoting the input stays one line a terminal shows."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _input_error(kind: type[InputError], file: str, what: str, record: int | None,
                 offset: int | None, line: int | None) -> InputError:
    return kind(file, what, record=record, offset=offset, line=line)


class ParseError(InputError):
    """A record or line is malformed: a length, a triplet, a packed field is wrong."""


class ConflictError(InputError):
    """Two inputs (or two records of one) give the same class period or CPU interval with
    other values: which to believe is the user's choice (``--on-conflict``)."""


class TransferError(InputError):
    """The file was moved off z/OS in a way that destroyed it (text mode, no RDWs)."""


class OutputError(ZperfError):
    """An output cannot be written: no such folder, no permission, disk full, closed pipe."""

    def __init__(self, target: str, why: str) -> None:
        self.target = target
        self.why = why
        super().__init__(f"cannot write {target}: {why}")


class UsageError(ZperfError):
    """A call to the library or the command line asks for something impossible."""
