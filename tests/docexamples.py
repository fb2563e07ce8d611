"""The documentation's examples, run as a reader would run them (issue 31).

A page (README.md, docs/*.md) is read as a list of fenced blocks, run in order
in a folder of its own, which holds ``samples/`` (the bundled files) and
whatever the page's own commands write there; nothing else. What each kind of
block does:

``sh``
    Each command runs (a line ending in ``\\`` goes on on the next); it must
    exit 0, or the status its comment names (``# exits 1: ...``).  ``zperf``
    commands, with a ``> FILE`` or ``>> FILE`` after them or a ``cat FILE |``
    before, run in this process as the console script does; any other line
    runs in bash, with the installed ``zperf`` on the PATH.
``console``
    ``$ COMMAND`` lines, each followed by what it prints: zperf's standard
    output, then its standard error, as on a terminal 80 columns wide, with
    the things that differ from run to run scrubbed (tests/goldtest.py).  The
    output must be the one shown, line for line.
``python``
    Run in a namespace of its own, in the page's folder.
``toml`` (and any other file)
    Written where the HTML comment before it says, ``<!-- file: rules.toml -->``,
    for the blocks after it; a ``toml`` block with no such comment must at
    least be TOML.
``yaml``
    A CI job: its ``zperf`` commands run as ``sh`` lines would (the job's own
    set-up, ``pip install``, is the reader's).
``text``
    Never run: what a command prints where the block before shows the command
    (the test beside the example compares it), a message, a layout.

A block of a kind that runs is left out only with ``<!-- not run: WHY -->``
just before it, kept for what cannot run here (a Spark cluster, a z/OS host,
hours of fuzzing).  ``zperf simulate ... --out DIR`` is run once per test
process and copied (its output depends only on its arguments), so pages can
each start from the runs they use.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT
from goldtest import scrub

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,})(?P<info>[\w-]*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<key>file|not run):\s*(?P<value>.*?)\s*-->\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
EXPECTED = re.compile(r"\bexits (\d+)\b")
#: Kinds of block that are never run (a block without a kind is an error: say which).
NOT_RUN = {"text"}


@dataclass(frozen=True)
class Block:
    info: str
    text: str
    line: int       # the fence's line, 1-based
    marker: tuple[str, str] | None  # ("file", "rules.toml") or ("not run", "why")


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a markdown text, with the marker comment before each."""
    lines = text.split("\n")
    out: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        indent, fence = len(match["indent"]), match["fence"]
        body = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        marker = MARKER.match(before)
        out.append(Block(match["info"], "\n".join(body) + "\n", i + 1,
                         (marker["key"], marker["value"]) if marker else None))
        i = j + 1
    return out


def section(page: str, heading: str) -> str:
    """The text of the section of ``page`` (a path from the repository's root:
    "docs/check.md") under ``heading`` (its text without the #s), up to the next
    heading of its level or above: what the tests that read the documentation read."""
    text = (ROOT / page).read_text()
    lines = text.split("\n")
    for number, line in enumerate(lines):
        match = re.match(r"(#+) (.*)$", line)
        if match and match[2] == heading:
            level = len(match[1])
            end = next((k for k in range(number + 1, len(lines))
                        if (m := re.match(r"(#+) ", lines[k])) and len(m[1]) <= level
                        and not _in_fence(lines, k)), len(lines))
            return "\n".join(lines[number + 1:end])
    raise AssertionError(f"{page} has no section {heading!r}")


def _in_fence(lines: list[str], index: int) -> bool:
    return sum(1 for line in lines[:index] if FENCE.match(line)) % 2 == 1


# ------------------------------------------------------------------ commands


class _Stream(io.TextIOWrapper):
    """A standard stream over bytes, a terminal or not."""

    def __init__(self, data: bytes = b"", *, tty: bool = False) -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", newline="\n", write_through=True)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty

    def value(self) -> bytes:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue()


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def zperf(args: list[str], *, stdin: bytes = b"", terminal: bool = False,
          env: dict[str, str] | None = None) -> tuple[int, bytes, str]:
    """``zperf ARGS`` in this process, as the console script runs it: its exit status,
    standard output (bytes) and standard error."""
    from zperf.cli import main

    out, err, inp = _Stream(tty=terminal), _Stream(), _Stream(stdin)
    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = inp, out, err
    try:
        with _environment({"COLUMNS": "80", **(env or {})}):
            main(args)
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    return code, out.value(), err.value().decode()


_SIMULATED: list[Path] = []


def _simulated() -> Path:
    """The folder of this process's simulated runs: made when first needed (most test
    processes import this module and simulate nothing) and removed when the process
    ends (a month of a sysplex is hundreds of MB)."""
    if not _SIMULATED:
        _SIMULATED.append(Path(tempfile.mkdtemp(prefix="zperf-doc-runs-")))
        atexit.register(shutil.rmtree, _SIMULATED[0], ignore_errors=True)
    return _SIMULATED[0]


def _simulate(args: list[str], folder: Path, terminal: bool) -> tuple[int, bytes, str]:
    """``zperf simulate ... --out DIR`` made once per process and copied into ``folder``."""
    out = args[args.index("--out") + 1]
    key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:16]
    made = _simulated() / key
    if not (made / "status").exists():
        made.mkdir(exist_ok=True)
        with contextlib.chdir(made):
            code, printed, err = zperf(args, terminal=terminal)
        (made / "stdout").write_bytes(printed)
        (made / "stderr").write_text(err)
        (made / "status").write_text(str(code))
    target = folder / out
    if (made / out).exists():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(made / out, target)
    return (int((made / "status").read_text()), (made / "stdout").read_bytes(),
            (made / "stderr").read_text())


def _comment(line: str) -> tuple[str, str]:
    """A shell line's command and its comment (``#`` after a blank, outside quotes)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def commands(text: str) -> list[str]:
    """A sh block's commands: lines joined where one ends in a backslash."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        if pending:
            line = pending + " " + line.lstrip()
            pending = ""
        command, _ = _comment(line)
        if command.endswith("\\"):
            pending = command[:-1].rstrip()
            continue
        if line.strip():
            out.append(line)
    assert not pending, f"a command ends in a backslash: {pending}"
    return out


def run(line: str, folder: Path, *, terminal: bool = False) -> tuple[int, bytes, str]:
    """One shell command line in ``folder``: in this process when it is zperf's alone
    (with a file for its output or input), else in bash."""
    command, _ = _comment(line)
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|<>&;")
    lexer.whitespace_split = True
    tokens = list(lexer)
    env = {}
    while tokens and re.fullmatch(r"[A-Z_]+=.*", tokens[0]):
        name, value = tokens.pop(0).split("=", 1)
        env[name] = value
    stdin = b""
    if tokens[:1] == ["cat"] and len(tokens) > 3 and tokens[2] == "|":
        stdin = (folder / tokens[1]).read_bytes()
        tokens = tokens[3:]
    redirect = None
    if len(tokens) > 2 and tokens[-2] in (">", ">>"):
        redirect = tokens[-2:]
        tokens = tokens[:-2]
    plain = tokens[:1] == ["zperf"] and not any(t in ("|", "<", ">", ">>", "&", ";", "&&", "||")
                                                 for t in tokens)
    with contextlib.chdir(folder):
        if not plain:
            bin_dir = str(Path(sys.executable).parent)
            done = subprocess.run(["bash", "-c", command], capture_output=True, check=False,
                                  env={**os.environ, "COLUMNS": "80",
                                       "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"})
            return done.returncode, done.stdout, done.stderr.decode()
        args = [found for token in tokens[1:] for found in _glob(os.path.expandvars(token))]
        if args[:1] == ["simulate"] and "--out" in args and not stdin and not env:
            code, out, err = _simulate(args, folder, terminal and redirect is None)
        else:
            code, out, err = zperf(args, stdin=stdin, terminal=terminal and redirect is None,
                                   env=env)
        if redirect is not None:
            target = Path(os.path.expandvars(redirect[1]))
            with target.open("ab" if redirect[0] == ">>" else "wb") as file:
                file.write(out)
            out = b""
    return code, out, err


def _glob(token: str) -> list[str]:
    """A word as the shell expands it in the current folder: a pattern that names files
    is those files, sorted; any other word is itself."""
    if not re.search(r"[*?\[]", token):
        return [token]
    return sorted(str(path) for path in Path().glob(token)) or [token]


def expected_status(line: str) -> int:
    match = EXPECTED.search(_comment(line)[1])
    return int(match[1]) if match else 0


def shown(out: bytes, err: str, folder: Path) -> str:
    """What a terminal shows: standard output, then standard error, colourless, scrubbed."""
    text = out.decode(errors="replace") + err
    lines = [ANSI.sub("", line).rstrip() for line in text.splitlines()]
    return scrub("\n".join(lines) + "\n", folder) if lines else ""


# ------------------------------------------------------------------ pages


def console(text: str) -> list[tuple[str, str]]:
    """A console block's commands, each with the output shown after it."""
    pairs: list[tuple[str, list[str]]] = []
    pending = ""
    for line in text.splitlines():
        if pending or line.startswith("$ "):
            command = pending + (" " + line.lstrip() if pending else line[2:])
            pending = ""
            if _comment(command)[0].endswith("\\"):
                pending = _comment(command)[0][:-1].rstrip()
                continue
            pairs.append((command, []))
        else:
            assert pairs, f"output before any command: {line!r}"
            pairs[-1][1].append(line)
    return [(command, "\n".join(lines) + "\n" if lines else "") for command, lines in pairs]


def _yaml_commands(text: str) -> list[str]:
    """A CI job's zperf commands: ``run:`` steps (``|`` a line each, ``>-`` folded) and
    ``script:`` items."""
    out: list[str] = []
    folded: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if folded is not None:
            if stripped and not stripped.startswith(("- ", "#")) and ":" not in stripped.split()[0]:
                folded.append(stripped)
                continue
            out.append(" ".join(folded))
            folded = None
        body = re.sub(r"^(- )?(run: )?", "", stripped)
        if stripped.endswith("run: >-"):
            folded = []
        elif body.startswith("zperf "):
            out.append(body)
    if folded:
        out.append(" ".join(folded))
    return out


@dataclass
class Outcome:
    ran: int = 0
    not_run: int = 0


def run_page(page: Path, folder: Path, *, keep_going: bool = False, skip: int = 0) -> Outcome:
    """Run every block of ``page`` in ``folder`` but the first ``skip``; an AssertionError
    names the block, the command and what differed (``keep_going``: every such error, at
    the end)."""
    (folder / "samples").symlink_to(ROOT / "samples", target_is_directory=True)
    outcome = Outcome()
    failures: list[str] = []
    for block in blocks(page.read_text())[skip:]:
        try:
            _run_block(page, block, folder, outcome)
        except AssertionError as failure:
            if not keep_going:
                raise
            failures.append(str(failure))
    assert not failures, "\n\n".join(failures)
    return outcome


def _run_block(page: Path, block: Block, folder: Path, outcome: Outcome) -> None:
    name = page.relative_to(ROOT).as_posix()
    where = f"{name}, line {block.line} ({block.info or 'no kind'} block)"
    if block.marker and block.marker[0] == "not run":
        assert block.marker[1], f"{where}: say why it is not run"
        outcome.not_run += 1
        return
    if block.marker and block.marker[0] == "file":
        path = folder / block.marker[1]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block.text)
    elif block.info in NOT_RUN:
        return
    elif block.info == "toml":
        tomllib.loads(block.text)
    elif block.info in ("sh", "yaml"):
        lines = commands(block.text) if block.info == "sh" else _yaml_commands(block.text)
        assert lines, f"{where}: no command"
        # a CI job's summary file, as GitHub Actions names it
        with _environment({"GITHUB_STEP_SUMMARY": str(folder / "step-summary.md")}):
            for line in lines:
                code, _, err = run(line, folder)
                assert code == expected_status(line), (
                    f"{where}: `{line}` exited {code}, not {expected_status(line)}:\n{err}")
    elif block.info == "console":
        for line, expected in console(block.text):
            code, out, err = run(line, folder, terminal=True)
            assert code == expected_status(line), (
                f"{where}: `{line}` exited {code}, not {expected_status(line)}:\n{err}")
            actual = shown(out, err, folder)
            assert actual == expected, (
                f"{where}: `{line}` printed\n{actual}\nwhere the page shows\n{expected}")
    elif block.info == "python":
        with contextlib.chdir(folder), contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block.text, where, "exec"), {"__name__": "__main__"})
    else:
        raise AssertionError(f"{where}: a block of kind {block.info!r} is neither run nor "
                             "marked <!-- not run: why -->")
    outcome.ran += 1


if __name__ == "__main__":  # python tests/docexamples.py docs/check.md: every failure
    for argument in sys.argv[1:]:
        with tempfile.TemporaryDirectory() as scratch:
            page = Path(argument).resolve()
            print(run_page(page, Path(scratch), keep_going=True,
                           skip=1 if page == ROOT / "README.md" else 0))
