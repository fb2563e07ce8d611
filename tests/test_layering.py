"""The package's layers import one way only, and click/rich stay at the edges.

formats -> tables -> calc -> report -> cli is the data flow; a module may import
its own layer and the layers below it (errors and tables are the foundation).
The simulator sits beside the calculator: it writes with the formats' writers
and checks its runs with the calculator.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "zperf"
RANK = {"errors": 0, "tables": 0, "formats": 1, "calc": 2, "sim": 2, "report": 3, "cli": 4}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "zperf" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in RANK else None


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
    return names


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if _layer(
    "zperf." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts)))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_one_way(path: Path) -> None:
    own = _layer("zperf." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
    assert own is not None
    for name in _imports(path):
        other = _layer(name)
        if other is not None:
            assert RANK[other] <= RANK[own], f"{path.name} ({own}) imports {name} ({other})"
        top = name.split(".")[0]
        if top == "click":
            assert own == "cli", f"{path.name}: only the cli layer may import click"
        if top == "rich":
            assert own in ("cli", "report"), f"{path.name}: rich belongs to report and cli"


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The rule above can fail: a formats module importing report is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("from zperf.report import render\nimport click\n")
    names = _imports(bad)
    assert "zperf.report" in names and "click" in names
    assert RANK[_layer("zperf.report") or ""] > RANK["formats"]


def test_every_layer_module_is_checked() -> None:
    layers = {_layer("zperf." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts))
              for p in MODULES}
    assert {"formats", "report", "cli", "tables", "errors"} <= layers
