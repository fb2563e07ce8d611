"""The zperf exception tree.

Every message that reaches a user carries a position: the file, the record or
line number and the byte offset, so that an analyst can open the dump with a hex
viewer and see the damage for themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


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


class Interrupted(KeyboardInterrupt):
    """Ctrl-C where what it left is known and worth saying (a PDB's change stopped before
    its commit point: the PDB is unchanged): the command line prints "zperf: interrupted:
    " and the message.  A ``KeyboardInterrupt`` still, caught as one."""


class UsageError(ZperfError, ValueError):
    """A call to the library or the command line asks for something impossible.

    A ``ValueError`` too: a wrong value given to a library function is what a
    caller catches as Python's own (``except ValueError``)."""


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known word nearest ``word``, or None.

    The same word in other case ('sysa' for 'SYSA') is nearest; a word that starts
    a known one ('itr' for 'itr_per_sec') counts as near, as do close spellings
    (difflib)."""
    import difflib

    choices = sorted(set(known))
    same = [k for k in choices if k.casefold() == word.casefold()]
    starting = sorted((k for k in choices if k.startswith(word) and word), key=len)
    near = (same[:1] or starting[:1]
            or difflib.get_close_matches(word, choices, n=1, cutoff=0.6))
    return near[0] if near else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """' (did you mean "x"?)' for the known word nearest ``word`` (:func:`nearest`), or ''."""
    near = nearest(word, known)
    return f' (did you mean "{near}"?)' if near else ""


def known_keywords(name: str, *, more: Sequence[str] = (), more_are: str = ""
                   ) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A public function of the library that, given a keyword it does not take, says
    which it does: a ``TypeError`` as Python's own, naming the nearest known
    keyword and all of them (Python names none), instead of a silent mistake.

    ``name`` is the function as the library's users call it (``analyze``);
    ``more`` are keywords it takes besides its own parameters (the run
    description's keys, through ``**options``), which ``more_are`` names.  The
    signature stays the function's own, for type checkers and ``help()``.
    """
    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        import functools
        import inspect

        own = [param.name for param in inspect.signature(function).parameters.values()
               if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)]
        known = {*own, *more}

        @functools.wraps(function)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            unknown = [key for key in kwargs if key not in known]
            if unknown:
                raise TypeError(unknown_keywords(name, unknown, own, more, more_are))
            return function(*args, **kwargs)

        return checked

    return decorate


def unknown_keywords(name: str, unknown: Sequence[str], own: Sequence[str],
                     more: Sequence[str] = (), more_are: str = "") -> str:
    """'analyze() got an unexpected keyword argument 'transaction' (did you mean
    "transactions"?); it takes run, kind, ...' (see :func:`known_keywords`)."""
    known = [*own, *more]
    first = unknown[0]
    words = (f"an unexpected keyword argument {first!r}" if len(unknown) == 1 else
             f"unexpected keyword arguments {', '.join(repr(k) for k in unknown)}")
    takes = ", ".join(own) + (f"; and {more_are}: {', '.join(more)}" if more else "")
    return f"{name}() got {words}{did_you_mean(first, known)}; it takes {takes}"
