"""The way one input travels is one-directional as run, not only as imported.

The import-linter contract "a file is read one way" sees imports; a call can
still go back up without one (a generator of an upper module pulled from below,
a function handed down and called back).  Here ``zperf.read`` runs under a
profiler, and every call from one module of the way to another must go down the
steps of docs/architecture.md ("The way one input travels"): the way in, the
per-input step, the dispatch, what they read from (opening, the text chunks,
the walk, the decoders), the bulk walk, the framing, the contract.  The helpers
every step uses (the options value, the registry, the tally, repeats...) are
below all of them and call none of them.  Reading the stream the opening step
gave is not a call up: the walk pulls bytes from the object it was handed.
"""

from __future__ import annotations

import gc
import gzip
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import zperf
from conftest import ROOT, SAMPLES
from zperf.sim.writers import smf as writer

#: The steps, top first; modules of one step do not call each other.
STEPS: list[tuple[str, ...]] = [
    ("reading",),
    ("parallel", "one_input"),
    ("registry", "text_input", "smf.dump"),
    ("opening", "smf.physical", "smf.type72_decoder", "smf.type70_decoder", "smf.type110",
     "rmf.wlmgl", "rmf.cpu", "rmf.xml"),
    ("archives", "compressed", "record_listing", "pieces", "smf.fast_walk"),
    ("text_chunks", "smf.framing"),
    ("smf.record_decoder",),
]
RANK = {module: rank for rank, step in enumerate(STEPS) for module in step}
HELPERS = len(STEPS)  # any other module of zperf.formats: below every step
#: What a reader calls on the stream it was handed (the opening step's objects).
STREAM = {"read", "readinto", "readable", "seekable", "close", "peek"}


def _module(frame: FrameType | None) -> str | None:
    name = frame.f_globals.get("__name__", "") if frame else ""
    return name.removeprefix("zperf.formats.") if name.startswith("zperf.formats.") else None


def calls_up(read: Callable[[], Any]) -> set[str]:
    """The calls between modules of zperf.formats that go up the steps while ``read``
    runs, as 'caller -> callee.function'."""
    up: set[str] = set()

    def profile(frame: FrameType, event: str, _: object) -> None:
        if event != "call" or frame.f_code.co_name in STREAM:
            return
        callee = _module(frame)
        if callee is None:
            return
        caller, back = None, frame.f_back
        while back is not None and caller is None:
            caller, back = _module(back), back.f_back
        if caller is None or caller == callee:
            return
        if RANK.get(caller, HELPERS) >= RANK.get(callee, HELPERS) and callee in RANK:
            up.add(f"{caller} -> {callee}.{frame.f_code.co_name}")

    read()  # imports first: importing is not the way
    # no garbage collection while profiled: a collection closes an earlier test's
    # generators inside whatever frame runs then, which would look like a call up
    gc.collect()
    gc.disable()
    sys.setprofile(profile)
    try:
        read()
    finally:
        sys.setprofile(None)
        gc.enable()
    return up


def _spanned_gzip(tmp_path: Path) -> Path:
    data = (SAMPLES / "smf" / "paper-figures.smf").read_bytes()
    records, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 2], "big")
        records.append(data[at:at + length])
        at += length
    path = tmp_path / "spanned.smf.gz"
    path.write_bytes(gzip.compress(writer.frame_bdw(records, 800, spanned=True)))
    return path


@pytest.mark.parametrize("source", ["rdw", "spanned-gzip", "wlmgl", "cpu", "two-files"])
def test_no_call_goes_back_up_the_way(source: str, tmp_path: Path) -> None:
    rmf = ROOT / "tests" / "data" / "rmf"
    given: Any = {
        "rdw": SAMPLES / "smf" / "paper-figures.smf",
        "spanned-gzip": _spanned_gzip(tmp_path),
        "wlmgl": rmf / "v2r4-asa-sysout.txt",
        "cpu": rmf / "cpu-v2r2-asa-sysout.txt",
        "two-files": [SAMPLES / "smf" / "paper-figures.smf", rmf / "paper003-figure4.txt"],
    }[source]
    up = calls_up(lambda: zperf.read(given, on_conflict="last"))
    assert not up, "\n".join(sorted(up))


def test_a_call_back_up_is_seen() -> None:
    """The check itself: code of smf.dump run from a frame of a decoder's module (as a
    decoder calling the dispatch above it would) is reported."""
    import io

    from zperf.formats.smf import dump, type72_decoder

    data = (SAMPLES / "smf" / "paper-figures.smf").read_bytes()
    call = compile("dump.read_smf72(io.BytesIO(data), 'x')", "<decoder>", "eval")
    scope = {"__name__": type72_decoder.__name__, "dump": dump, "io": io, "data": data}
    found = calls_up(lambda: eval(call, scope))  # (run in a frame of that module)
    assert "smf.type72_decoder -> smf.dump.read_smf72" in found


def test_the_one_call_back_up_is_a_conflicts_second_look() -> None:
    """The one call that goes back up, and only when an earlier input must be looked at
    again (a conflict's values, whose rows were let go; a sysplex's report compared again
    with a later system's rows): :class:`~zperf.formats.repeats.AcrossFiles` is handed
    ``reading``'s ``recall``, which reads that input's table again down the same way."""
    import datetime as dt

    from zperf.errors import ConflictError

    def dump(ended: int) -> bytes:
        return writer.frame_rdw(writer.build_type72_3(writer.ClassInterval(
            system="SYS1", sysplex="PLEX1", start=dt.datetime(2026, 3, 2, 9, 0),
            interval_seconds=900.0, class_name="CICSPROD",
            periods=[writer.period_values(interval_seconds=900.0, adj=213, ended=ended,
                                          cpu_seconds=20.0)])))

    def read() -> None:
        with pytest.raises(ConflictError, match="trans_ended 1200 here, 1000 there"):
            zperf.read([dump(1000), dump(1200)])
    assert calls_up(read) == {"repeats -> reading.recall"}
