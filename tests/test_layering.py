"""The package's layers import one way only, and no module reaches into another's privates.

The layer contracts are import-linter's (``[tool.importlinter]`` in
pyproject.toml): cli > report > checks > sim > runs > formats > calc > tables >
errors, the format families independent of each other, inside formats the steps of
the way a file is read (reading > one_input > smf.dump > smf.physical >
smf.fast_walk > smf.framing...), click only in the command line, rich only in the
renderers and the command line.  CI runs them on the
package (``lint-imports``, a step of .ci/run); the slow tests here run them on
a copy of the package with one violation of each planted, to show that every
contract can fail.  import-linter sees only static imports,
so a second check refuses dynamic imports of zperf modules and imports of a
private name (``_name``) from another module.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "zperf"


def _lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter on the ``zperf`` package found in ``folder``."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
         " sys.exit(lint_imports_command())", "--no-cache"],
        cwd=folder, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(folder), "PATH": "", "LC_ALL": "C.UTF-8"})


ONE_WAY = "a file is read one way: each step imports only the steps below it"
#: One violation of each contract: (module file, the line planted, contract broken).
PLANTED = [
    ("calc/cpu.py", "import zperf.sim.engine", "layers import downward only"),
    ("formats/smf/header.py", "from zperf.report import render", "layers import downward only"),
    ("checks/bounds.py", "import zperf.report.junit", "layers import downward only"),
    ("sim/month/plan.py", "import zperf.checks.engine", "layers import downward only"),
    ("formats/smf/physical.py", "import zperf.formats.rmf.values",
     "format families do not import each other"),
    ("runs/spec.py", "import click", "click belongs to the command line"),
    ("sim/month/plan.py", "from rich.console import Console",
     "rich belongs to the renderers and the command line"),
    ("cli/__init__.py", "import zperf.spark.plan", "nothing in zperf imports the Spark extra"),
    ("report/text.py", "import pyspark", "nothing in zperf imports the Spark extra"),
    ("spark/plan.py", "import zperf.cli", "layers import downward only"),
    ("formats/smf/framing.py", "import zperf.formats.smf.dump", ONE_WAY),
    ("formats/one_input.py", "from zperf.formats.reading import read", ONE_WAY),
    ("formats/parallel.py", "import zperf.formats.one_input", ONE_WAY),
    ("formats/text_chunks.py", "import zperf.formats.text_input", ONE_WAY),
    ("formats/smf/physical.py", "import zperf.formats.smf.type72_decoder", ONE_WAY),
    ("formats/smf/type70_decoder.py", "from zperf.formats.smf.physical import scan", ONE_WAY),
    ("formats/smf/record_decoder.py", "import zperf.formats.smf.framing", ONE_WAY),
]


@pytest.mark.slow
@pytest.mark.parametrize(("module", "line", "contract"), PLANTED)
def test_a_planted_violation_breaks_its_contract(tmp_path: Path, module: str, line: str,
                                                 contract: str) -> None:
    copy = tmp_path / "zperf"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}\n")
    result = _lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{contract} BROKEN" in result.stdout, result.stdout


def private_reaches(source: str, module: str) -> list[str]:
    """What ``source`` (the text of zperf module ``module``) imports that it should not.

    * a private name (``_name``) from another module, or ``alias._name`` of an
      imported zperf module;
    * a zperf module by ``importlib.import_module`` or ``__import__``, which
      no contract can see.
    """
    tree = ast.parse(source)
    found: list[str] = []
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("zperf"):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and node.module != module:
                    found.append(f"from {node.module} import {alias.name}")
            if any(part.startswith("_") and not part.startswith("__")
                   for part in node.module.split(".")):
                found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("zperf"):
                    imported.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in imported and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            found.append(f"{node.value.id}.{node.attr}")
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name.endswith(("import_module", "__import__")) and node.args:
                first = node.args[0]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)
                        and not first.value.startswith("zperf")):
                    found.append(f"{name}({ast.unparse(first)})")
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reaches_into_another(path: Path) -> None:
    assert private_reaches(path.read_text(), _module_name(path)) == []


@pytest.mark.parametrize(("source", "reach"), [
    ("from zperf.formats.smf.type72 import _ratio", "from zperf.formats.smf.type72 import _ratio"),
    ("from zperf.formats import _legacy", "from zperf.formats import _legacy"),
    ("from zperf.formats._old import read", "from zperf.formats._old import ..."),
    ("from zperf.formats.rmf import wlmgl\nwlmgl._feed(1)", "wlmgl._feed"),
    ("import importlib\nimportlib.import_module('zperf.report')",
     "importlib.import_module('zperf.report')"),
    ("__import__(name)", "__import__(name)"),
])
def test_the_private_check_sees_a_violation(source: str, reach: str) -> None:
    assert reach in private_reaches(source, "zperf.calc.cpu")
    assert private_reaches("from zperf.calc.cpu import _own\nimport importlib\n"
                           "importlib.import_module('json')", "zperf.calc.cpu") == []


#: Every SMF record decoder (a module ``zperf.formats.smf.type*``: listed in the contract
#: "a file is read one way" or not yet, like a decoder being added) reaches neither the
#: walk nor the way above it, directly or through other modules, and the walk reaches no
#: decoder: they share ``smf.record_decoder`` only.  import-linter's wildcards take whole
#: module names only, so this is checked on its graph here (grimp, which it is built on).
DECODERS_APART = """
import grimp
graph = grimp.build_graph("zperf", cache_dir=None)
decoders = sorted(m for m in graph.modules if m.startswith("zperf.formats.smf.type"))
walk = ["zperf.formats.smf." + m for m in ("physical", "fast_walk", "framing")]
above = ["zperf.formats." + m for m in ("smf.dump", "one_input", "parallel", "reading",
                                        "opening", "text_input")]
for decoder in decoders:
    for step in walk + above:
        if graph.find_shortest_chain(importer=decoder, imported=step):
            print(decoder, "imports", step)
        if step in walk and graph.find_shortest_chain(importer=step, imported=decoder):
            print(step, "imports", decoder)
"""


def _decoders_apart(folder: Path) -> list[str]:
    """The imports between a decoder and the walk (or the way above) in ``folder``'s zperf."""
    result = subprocess.run([sys.executable, "-c", DECODERS_APART], cwd=folder,
                            capture_output=True, text=True, check=True,
                            env={"PYTHONPATH": str(folder), "PATH": "", "LC_ALL": "C.UTF-8"})
    return result.stdout.splitlines()


def test_no_decoder_imports_the_walk_and_the_walk_no_decoder() -> None:
    assert _decoders_apart(ROOT) == []


@pytest.mark.slow
@pytest.mark.parametrize(("module", "line", "seen"), [
    # a decoder being added, listed nowhere yet
    ("formats/smf/type30.py", "from zperf.formats.smf.physical import scan",
     "zperf.formats.smf.type30 imports zperf.formats.smf.physical"),
    ("formats/smf/type30.py", "import zperf.formats.one_input",
     "zperf.formats.smf.type30 imports zperf.formats.one_input"),
    ("formats/smf/fast_walk.py", "import zperf.formats.smf.type30",
     "zperf.formats.smf.fast_walk imports zperf.formats.smf.type30"),
])
def test_a_decoder_importing_the_walk_is_seen(tmp_path: Path, module: str, line: str,
                                              seen: str) -> None:
    copy = tmp_path / "zperf"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "formats/smf/type30.py").write_text('"""A decoder being added."""\n')
    target = copy / module
    target.write_text(target.read_text() + f"\n{line}\n")
    assert seen in _decoders_apart(tmp_path)
