"""What a damaged input must give: the oracle of zperf's fuzzing harness.

Every input goes through each way a user reaches a reader:

1. the reader itself (``TextKind.read``, ``read_smf``, ``read_parsed_binary``),
   once with ``on_error="raise"`` and once with ``"skip"``;
2. the library's front door, :func:`zperf.formats.read` on a file (which
   sniffs the kind, so a damaged file may well go to another reader);
3. (for some inputs) the command line in-process, ``zperf.cli.main(["parse",
   ...])``, with a random ``--on-error`` and output format.

The library and the command line read with an ``on_conflict`` chosen by the
input's bytes (not by the random generator, whose draws decide the inputs a
ledger records): a record or report repeated by the damage with other values
is a conflict, the one-line error with "error", kept once with "first" and
"last" (and a repeated copy is always read once, never an error).

An input passes when each way gives rows (or none), counted skips, or the
documented error: an :class:`~zperf.errors.InputError` whose message is one
line starting with the file's name, and from the command line exit status 2
with one ``zperf: error:`` line and no output file left behind.  Anything else
is a crash: another exception, a tally that does not balance (records read
= parsed + skipped + other, nothing pending), a table that does not have its
schema's columns and types, a record skipped without a word in ``raise``
mode, a problem ``raise`` stops at that ``skip`` does not count, an exit
status outside 0, 1, 2, or a Rust panic's stack printed on file descriptor 2
(polars panics print one even when zperf catches the panic).  (Hangs are
caught by the runner, ``fuzz/run.py``.)
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import sys
import traceback
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz.corpus import bases
from fuzz.mutations import mutate

FILE = "fuzzed"
#: Readers of binary inputs (the others get the text operators).
BINARY = ("smf70.1", "smf72.3", "smf110.2", "smf110.1", "smf123.1", "smf120.11", "smf30",
          "smf123.2", "zperf-parquet", "zperf-arrow")
MODES = ("raise", "skip")
CONFLICTS = ("error", "first", "last")
CLI_FORMATS = ("csv", "json", "ndjson", "parquet", "arrow", "table")
#: How a Rust panic (polars, say) starts the message it prints on file descriptor 2.
PANIC = "panicked at"


class Crash(Exception):
    """An input broke a rule of the oracle (the message says which)."""


class Hang(BaseException):
    """Raised by the runner's alarm when an input takes longer than its time limit
    (a BaseException, so that no ``except Exception`` in zperf swallows it)."""


@dataclass
class Verdict:
    """What one input gave through each way, and the crashes it caused."""

    outcomes: dict[str, str] = field(default_factory=dict)
    crashes: list[str] = field(default_factory=list)


def fuzzed_input(reader: str, seed: int | str, index: int) -> tuple[bytes, random.Random]:
    """Input ``index`` of a run with ``seed`` for ``reader`` (the same every time), and
    the random generator that goes on to choose how it is read."""
    rng = random.Random(f"{seed}:{reader}:{index}")
    base = rng.choice(bases(reader))
    return mutate(base, rng, binary=reader in BINARY), rng


def _schema_check(tables: dict[str, Any], where: str) -> None:
    from zperf.tables import SCHEMAS

    for name, frame in tables.items():
        schema = SCHEMAS.get(name)
        if schema is None:
            raise Crash(f"{where}: a table named {name!r} that no schema declares")
        if dict(frame.schema) != schema.polars_schema():
            raise Crash(f"{where}: the {name} table does not have its schema's columns")


def _tally_check(tally: Any, mode: str, where: str) -> None:
    if not tally.balanced():
        raise Crash(f"{where}: the tally does not balance: {tally.summary()}")
    if mode == "raise" and tally.skipped:
        raise Crash(f"{where}: {tally.skipped} records skipped with on_error='raise'")


def _error_check(exc: BaseException, file: str, where: str) -> str:
    from zperf.errors import InputError

    if not isinstance(exc, InputError):
        raise Crash(f"{where}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    text = str(exc)
    if "\n" in text or not text.startswith(f"{file}:"):
        raise Crash(f"{where}: the error is not one line naming the file: {text!r}") from exc
    return "error"


def direct_reader(reader: str) -> Callable[[bytes, str], tuple[dict[str, Any], Any]]:
    """The reader function of ``reader`` as ``read(data, on_error)``."""
    from zperf.formats.parsed import read_parsed_binary
    from zperf.formats.registry import SMF_DECODERS, TEXT_KIND
    from zperf.formats.smf.dump import read_smf

    if reader.startswith("smf"):
        return lambda data, mode: read_smf(io.BytesIO(data), FILE, on_error=mode,  # type: ignore[arg-type]
                                           decoders=SMF_DECODERS)
    if reader in ("zperf-parquet", "zperf-arrow"):
        return lambda data, mode: read_parsed_binary(data, FILE)
    kind = TEXT_KIND[reader]
    return lambda data, mode: kind.read(data, FILE, mode)  # type: ignore[arg-type]


def _by_reader(reader: str, data: bytes, verdict: Verdict, always_skip: bool) -> None:
    """raise, then skip when raise stopped at a problem (or ``always_skip``): a problem
    that stops raise must be a counted skip (or a file-level error) in skip."""
    read = direct_reader(reader)
    got: dict[str, tuple[str, int]] = {}
    for mode in MODES:
        if mode == "skip" and got["raise"][0] != "error" and not always_skip:
            break
        where = f"{reader} reader, on_error={mode}"
        try:
            tables, tally = read(data, mode)
        except (Crash, Hang, KeyboardInterrupt):
            raise
        except BaseException as exc:
            got[mode] = (_error_check(exc, FILE, where), 0)
            continue
        _schema_check(tables, where)
        _tally_check(tally, mode, where)
        rows = sum(frame.height for frame in tables.values())
        got[mode] = ("skipped" if tally.skipped else "rows" if rows else "empty", tally.skipped)
    verdict.outcomes["reader"] = "/".join(got[m][0] for m in MODES if m in got)
    if "skip" in got and got["skip"][0] == "skipped" and got["raise"][0] != "error":
        raise Crash(f"{reader} reader: skip counted {got['skip'][1]} bad records that raise "
                    "read without a word")


def _by_library(path: Path, mode: str, verdict: Verdict, conflict: str = "error") -> None:
    from zperf import formats

    where = f"zperf.formats.read, on_error={mode}, on_conflict={conflict}"
    try:
        result = formats.read([str(path)], on_error=mode,  # type: ignore[arg-type]
                              on_conflict=conflict)  # type: ignore[arg-type]
    except (Crash, Hang, KeyboardInterrupt):
        raise
    except BaseException as exc:
        verdict.outcomes["library"] = _error_check(exc, str(path), where)
        return
    _schema_check(result.tables, where)
    for tally in result.tallies:
        _tally_check(tally, mode, where)
    verdict.outcomes["library"] = "skipped" if result.skipped else "read"


def _by_command_line(path: Path, mode: str, fmt: str, verdict: Verdict,
                     conflict: str = "error") -> None:
    from zperf.cli import main

    out = path.with_name("out." + fmt)
    out.unlink(missing_ok=True)
    args = ["parse", "--on-error", mode, "--on-conflict", conflict, "--to", fmt, "-o", str(out),
            str(path)]
    stdout, stderr = io.StringIO(), io.StringIO()
    where = f"zperf {' '.join(args)}"
    code: Any = 0
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            main(args)
    except SystemExit as done:
        code = done.code
    except (Hang, KeyboardInterrupt):
        raise
    except BaseException as exc:
        raise Crash(f"{where}: {type(exc).__name__}: {exc}") from exc
    err = stderr.getvalue()
    if code not in (0, 1, 2, None):
        raise Crash(f"{where}: exit status {code!r}; stderr: {err[-300:]!r}")
    if "Traceback" in err:
        raise Crash(f"{where}: a traceback on stderr: {err[-300:]!r}")
    if code == 2:
        errors = [line for line in err.splitlines() if line.startswith("zperf: error: ")]
        if len(errors) != 1 or not err.rstrip("\n").splitlines()[-1].startswith("zperf: error: "):
            raise Crash(f"{where}: exit 2 without one 'zperf: error:' line: {err[-300:]!r}")
        if out.exists():
            raise Crash(f"{where}: exit 2 but {out.name} was written")
    elif not out.exists():
        raise Crash(f"{where}: exit {code} but no output file")
    verdict.outcomes["cli"] = f"exit {code or 0}"


def check(reader: str, data: bytes, workdir: Path, rng: random.Random, *,
          skip: float = 1.0, library: float = 1.0, cli: float = 1.0) -> Verdict:
    """Feed ``data`` to ``reader`` by every way; the crashes are in ``Verdict.crashes``.

    The reader itself always reads with ``raise``, and with ``skip`` when that
    stopped at a problem; ``skip``, ``library`` and ``cli`` are the shares of
    the other inputs also read with ``skip``, through ``zperf.formats.read``
    and through the command line (all of them by default; the long run takes
    a sample, as every way costs a full read).
    """
    verdict = Verdict()
    path = workdir / "input"
    conflict = CONFLICTS[zlib.crc32(data) % len(CONFLICTS)]
    always_skip = rng.random() < skip
    steps: list[Callable[[], None]] = [
        lambda: _by_reader(reader, data, verdict, always_skip)]
    if rng.random() < library:
        mode = rng.choice(MODES)
        steps.append(lambda: _by_library(path, mode, verdict, conflict))
    if rng.random() < cli:
        cli_mode, fmt = rng.choice(MODES), rng.choice(CLI_FORMATS)
        steps.append(lambda: _by_command_line(path, cli_mode, fmt, verdict, conflict))
    if len(steps) > 1:
        path.write_bytes(data)
    for step in steps:
        with _native_stderr(workdir) as printed:
            try:
                step()
            except Crash as crash:
                cause = crash.__cause__
                trace = "".join(traceback.format_exception(cause)) if cause is not None else ""
                verdict.crashes.append(f"{crash}\n{trace}".rstrip())
        if PANIC in printed.text:
            verdict.crashes.append("a Rust panic printed its stack on stderr (the user "
                                   f"sees it above the error line): {printed.text[:300]!r}")
    return verdict


@dataclass
class _Printed:
    text: str = ""


@contextlib.contextmanager
def _native_stderr(workdir: Path) -> Iterator[_Printed]:
    """What native code (a Rust panic of polars, say) writes straight to file
    descriptor 2 while the block runs: Python's ``sys.stderr`` does not see it."""
    printed = _Printed()
    sink = workdir / "stderr"
    sys.stderr.flush()
    saved = os.dup(2)
    with sink.open("wb") as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield printed
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    printed.text = sink.read_bytes().decode("utf-8", errors="replace")
