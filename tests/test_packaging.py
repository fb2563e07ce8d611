"""A plain (non-editable) install carries the templates and the man pages.

The wheel is built from a copy of the files git knows (committed or not, but
not ignored): a ``build/`` or ``*.egg-info`` folder left in the working tree by
an earlier build can hold modules that no longer exist, and setuptools would
put them in the wheel and hide a missing package.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT


def _clean_copy(into: Path) -> Path:
    """The repository's files that git does not ignore, copied into ``into``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
        capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is still listed
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.mark.slow
def test_wheel_has_templates_and_man_pages(tmp_path: Path) -> None:
    source = _clean_copy(tmp_path / "source")
    assert not (source / "build").exists() and not list(source.glob("*.egg-info"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(source)], capture_output=True, text=True, check=False)
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("zperf-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "zperf/templates/manpage.1.j2" in names
    assert {"zperf/templates/report.html.j2", "zperf/templates/report.css"} <= set(names)
    for page in (ROOT / "man").glob("*.1"):
        assert any(n.endswith(f".data/data/share/man/man1/{page.name}") for n in names), page
    # Every package is listed in setup.cfg, and no module comes from anywhere else.
    modules = {m.relative_to(source).as_posix() for m in (source / "zperf").rglob("*.py")}
    modules.add("zperf/templates/__init__.py")  # templates/ is package_dir'd into zperf
    assert {n for n in names if n.endswith(".py")} == modules
    assert "zperf/py.typed" in names
    assert "zperf/sim/machines.toml" in names  # the simulator's machines and their ratings
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
    # The report template and its CSS load from the wheel too (an HTML report, no charts).
    probe = ("import pathlib, sys, zperf.report.html as h; "
             "from zperf.report.views.model import Report, Section, Fact; "
             "assert 'site' in pathlib.Path(h.__file__).parts; "
             "page = h.render_html(Report('run', '<T>', 's', (Section('k', 'K', "
             "facts=(Fact('a', 'b'),)),))).decode(); "
             "assert '&lt;T&gt;' in page and 'font-variant-numeric' in page, page[:300]")
    run = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                         text=True, check=False, env={"PYTHONPATH": str(site), "PATH": ""})
    assert run.returncode == 0, run.stderr


def test_every_package_is_listed_in_setup_cfg() -> None:
    """setup.cfg names its packages one by one: a new subpackage left out installs
    nothing of it (the sysplex month's `zperf.sim.month` once broke `pip install .`).
    The fast tests run from the source tree and cannot see it: this test does."""
    import configparser

    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    listed = set(config["options"]["packages"].split())
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "zperf").rglob("__init__.py")}
    assert found - listed == set()
