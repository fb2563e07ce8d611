"""A plain (non-editable) install carries the templates and the man pages."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT


@pytest.mark.slow
def test_wheel_has_templates_and_man_pages(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, check=False)
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("zperf-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "zperf/templates/manpage.1.j2" in names
    for page in (ROOT / "man").glob("*.1"):
        assert any(n.endswith(f".data/data/share/man/man1/{page.name}") for n in names), page
    for module in (ROOT / "zperf").rglob("*.py"):  # every package is listed in setup.cfg
        assert module.relative_to(ROOT).as_posix() in names, module
    assert "zperf/py.typed" in names
    assert not any(n.startswith(("tests/", "samples/")) for n in names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # Run from the unpacked wheel only (not the source tree): the template loads.
    probe = ("import zperf.cli.manpage as m, zperf.cli as c, pathlib, sys; "
             "assert 'site' in pathlib.Path(m.__file__).parts; "
             "sys.stdout.write(m.render(c.cli, 'zperf-parse'))")
    run = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                         text=True, check=False, env={"PYTHONPATH": str(site), "PATH": ""})
    assert run.returncode == 0, run.stderr
    assert run.stdout == (ROOT / "man" / "zperf-parse.1").read_text()
