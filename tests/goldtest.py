"""Golden files: the CLI's outputs compared byte for byte with what was accepted before.

Each case runs ``zperf ARGS`` in-process (as the console script does) and
writes one text file: the command, its exit status, its standard output and
its standard error, with the few things that differ from run to run or
machine to machine scrubbed (the temporary folder, zperf's version).

``tests/golden/*.txt`` is what was accepted. On a mismatch the actual output
goes to ``tests/actual/`` (git-ignored) for a diff. To accept a change made on
purpose, run::

    python -m pytest tests/test_golden.py --update-golden

and read ``git diff tests/golden`` before committing it (the model is
coverage.py's ``tests/goldtest.py``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"
ACTUAL = Path(__file__).resolve().parent / "actual"


def scrub(text: str, tmp: Path | None) -> str:
    """Replace what varies between runs: the temporary folder and zperf's version."""
    from zperf import __version__

    if tmp is not None:  # as given, and as markdown escapes it (test\_name)
        text = text.replace(str(tmp), "<tmp>")
        text = text.replace(re.sub(r"([\\`*_\[\]|~])", r"\\\1", str(tmp)), "<tmp>")
    text = re.sub(rf"\bzperf {re.escape(__version__)}\b", "zperf <version>", text)
    return text.replace(f'"zperf_version": "{__version__}"', '"zperf_version": "<version>"')


def transcript(args: Sequence[str], code: int, out: str, err: str) -> str:
    """The file a case is compared as."""
    return (f"$ zperf {' '.join(args)}\nexit: {code}\n--- stdout\n{out}"
            + ("" if out.endswith("\n") or not out else "\n<no newline at end>\n")
            + f"--- stderr\n{err}")


def folder_digest(folder: Path) -> str:
    """One line per file written to ``folder``: its path, size and SHA-256.

    A run folder's files are binary (SMF dumps) and large; their digests pin
    them byte for byte. ``manifest.json`` names zperf's version, so it is
    compared scrubbed, as text.
    """
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        name = path.relative_to(folder).as_posix()
        if name == "manifest.json":
            data = scrub(data.decode(), folder).encode()
        lines.append(f"{name} {len(data)} {hashlib.sha256(data).hexdigest()}")
    return "\n".join(lines) + "\n"


def compare(name: str, actual: str, update: bool) -> None:
    """Assert ``actual`` equals the golden file ``name``, or (update) rewrite it."""
    golden = GOLDEN / name
    if update:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual)
        return
    expected = golden.read_text() if golden.exists() else None
    if expected != actual:
        ACTUAL.mkdir(exist_ok=True)
        (ACTUAL / name).write_text(actual)
        raise AssertionError(
            f"{name} differs from the golden file (actual output in tests/actual/{name}; "
            "accept a change made on purpose with `python -m pytest tests/test_golden.py "
            "--update-golden`)" if expected is not None else
            f"no golden file tests/golden/{name}: create it with --update-golden")
