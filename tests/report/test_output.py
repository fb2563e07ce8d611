"""Standard output written whole or not at all (zperf.report.output)."""

from __future__ import annotations

import datetime as dt
import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from zperf.errors import OutputError
from zperf.report.output import STDOUT, open_output
from zperf.sim.writers import smf as writer

START = dt.datetime(2026, 1, 5)


class _ShortThenBroken(io.BytesIO):
    """A pipe whose reader went away after 64 KB: Python's buffered stdout returned a
    short count for the write in progress, then the next write breaks."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def write(self, data: object) -> int:
        self.calls += 1
        if self.calls > 1:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(bytes(memoryview(data))[:65536])  # type: ignore[arg-type]


def test_a_short_write_is_written_on_and_the_broken_pipe_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = _ShortThenBroken()
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=pipe))
    with pytest.raises(OutputError) as err, open_output(None) as out:
        out.write(b"x" * 660_005)
    assert (err.value.target, pipe.calls) == (STDOUT, 2)
    assert str(err.value) == f"cannot write {STDOUT}: Broken pipe"


def test_short_writes_add_up_to_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    class Short(io.BytesIO):
        def write(self, data: object) -> int:
            return super().write(bytes(memoryview(data))[:1000])  # type: ignore[arg-type]

    pipe = Short()
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=pipe))
    with open_output("-") as out:
        assert out.write(b"y" * 4500) == 4500
    assert pipe.getvalue() == b"y" * 4500


def test_a_reader_that_leaves_early_is_exit_status_2(tmp_path: Path) -> None:
    """`zperf parse ... | head -c 100`: a CSV of about 240 KB, several times what a
    pipe holds (64 KB), so zperf is still writing when the reader leaves."""
    records = [r for i in range(120) for name in ("CICS", "BATCH", "TSO")
               for r in writer.build_type72_3(writer.ClassInterval(
                   system="SYS1", sysplex="PLEX", start=START + dt.timedelta(minutes=15 * i),
                   interval_seconds=900.0, class_name=name,
                   periods=[writer.period_values(interval_seconds=900, adj=4000, ended=i)
                            for _ in range(2)]))]
    dump = tmp_path / "big.smf"
    dump.write_bytes(writer.frame_rdw(records))
    proc = subprocess.Popen([sys.executable, "-m", "zperf", "parse", "--to", "csv", str(dump)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert len(proc.stdout.read(100)) == 100
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 2
    assert err.endswith(f"zperf: error: cannot write {STDOUT}: Broken pipe\n")
