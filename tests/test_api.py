"""The public API (``import zperf``): the manual's examples (docs/library.md) run, the
calls a polars or pandas user writes first work (a path, a list, bytes, a file object; a
scenario id), wrong arguments say what is taken, every table the command line shows is
one call away (the same rows), the exports are the library's functions, and importing the
package stays cheap."""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import io
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import zperf
from conftest import DATA, ROOT, SAMPLES, run_cli
from zperf.errors import InputError, UsageError

SAMPLE = SAMPLES / "smf" / "paper-figures.smf"
CPU_DUMP = DATA / "smf" / "smf70.1-rdw.smf"


def _readme_examples() -> list[str]:
    """Every python block of the manual's "As a library" page, in order."""
    page = (ROOT / "docs" / "library.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks, "docs/library.md has no python example"
    return blocks


def _run_block(block: str, number: int) -> tuple[dict[str, Any], str]:
    names: dict[str, Any] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, f"docs/library.md, block {number}", "exec"), names)
    return names, printed.getvalue()


def test_the_readme_examples_run_and_say_what_they_print(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    blocks = _readme_examples()
    assert len(blocks) == 5
    names, printed = _run_block(blocks[0], 1)
    assert names["workload"].columns == zperf.SCHEMAS["workload"].names
    assert "CICS2A20" in printed and "91.785508" in printed  # paper 003: 91.79 % offload
    names, printed = _run_block(blocks[1], 2)
    assert ("samples/smf/paper-figures.smf: 11 records read = 3 parsed + 0 skipped + "
            "8 other types") in printed
    assert names["performance"].columns == zperf.SCHEMAS["performance"].names
    names, printed = _run_block(blocks[2], 3)
    window = names["run"].window.row(0, named=True)
    # 003 Figure 4: 88584 transactions in the minute; IIP 45.320 s over them is 511.6 us
    assert window["etr_per_sec"] == pytest.approx(88584 / 60)
    assert round(window["cics_ziip_us_per_tran"], 1) == 511.6
    assert round(window["cics_cpu_us_per_tran"], 1) == 726.0  # (64.307 + 0.007) s / 88584
    assert "1476.4 tran/s; 726.0 µs of CPU and 511.6 µs of zIIP" in blocks[2]
    assert "CICS2A20" in names["per_class"]["class_name"].to_list()
    names, printed = _run_block(blocks[3], 4)
    assert printed.startswith("ITR ims15-fast-path vs ims14-fast-path: +1.61 % (different")
    assert printed.split("\n")[0].startswith(blocks[3].split("# ", 2)[2].split(" (")[0])
    names, printed = _run_block(blocks[4], 5)
    lines = printed.splitlines()
    assert lines[0].startswith("read() got an unexpected keyword argument 'tabels' (did you "
                               "mean \"tables\"?); it takes sources, tables, kind, ")
    assert lines[1].startswith("unknown table 'capacty' (did you mean \"capacity\"?); known: "
                               "workload, ")


# ------------------------------------------------------------------ read: the call forms

def _workload(result: zperf.ParseResult) -> pl.DataFrame:
    return result.tables["workload"].drop("source")


@pytest.fixture(scope="module")
def expected() -> pl.DataFrame:
    return _workload(zperf.read([str(SAMPLE)]))


@pytest.mark.parametrize("form", ["str", "path", "list", "tuple", "glob", "bytes", "bytearray",
                                  "memoryview", "bytesio", "file", "gzip"])
def test_read_takes_what_a_polars_user_gives(form: str, expected: pl.DataFrame,
                                             tmp_path: Path) -> None:
    """zperf.read("dump.smf") once read the characters of the string ('d: cannot open');
    a Path and bytes were a TypeError."""
    data = SAMPLE.read_bytes()
    packed = tmp_path / "dump.smf.gz"
    packed.write_bytes(gzip.compress(data))
    with SAMPLE.open("rb") as file, gzip.open(packed) as unpacked:
        source: Any = {"str": str(SAMPLE), "path": SAMPLE, "list": [str(SAMPLE)],
                       "tuple": (SAMPLE,), "glob": SAMPLES.glob("smf/*.smf"), "bytes": data,
                       "bytearray": bytearray(data), "memoryview": memoryview(data),
                       "bytesio": io.BytesIO(data), "file": file, "gzip": unpacked}[form]
        result = zperf.read(source, tables=["workload"])
        assert _workload(result).equals(expected)
        assert not file.closed and not unpacked.closed  # a caller's file is the caller's
    name = {"bytes": "<bytes>", "bytearray": "<bytes>", "memoryview": "<bytes>",
            "bytesio": "<stream>", "gzip": str(packed)}.get(form, str(SAMPLE))
    assert [t.file for t in result.tallies] == [name]
    assert set(result.tables["workload"]["source"]) == {name}


def test_several_inputs_are_named_by_position(expected: pl.DataFrame) -> None:
    data = SAMPLE.read_bytes()
    result = zperf.read([data, io.BytesIO(data), CPU_DUMP])
    assert [t.file for t in result.tallies] == ["<bytes 1>", "<stream 2>", str(CPU_DUMP)]
    assert _workload(result).equals(expected)  # the second copy's repeats counted once
    assert result.tables["cpu"].height > 0


def test_read_takes_standard_input_as_dash(monkeypatch: pytest.MonkeyPatch,
                                           expected: pl.DataFrame) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(SAMPLE.read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    result = zperf.read("-")
    assert _workload(result).equals(expected) and result.tallies[0].file == "-"


@pytest.mark.parametrize(("source", "error", "message"), [
    (42, TypeError, "read() takes a path (str or os.PathLike), bytes or a binary file "
                    "object, or a list of them; not int"),
    ([str(SAMPLE), 4.2], TypeError, "read() takes a path (str or os.PathLike), bytes or a "
                                    "binary file object, or a list of them; not float "
                                    "(input 2)"),
    ([], UsageError, "read(): no input: give a path, bytes, a binary file object, or a list "
                     "of them"),
    ("no/such.smf", InputError, "no/such.smf: cannot open: No such file or directory"),
])
def test_a_wrong_source_says_what_is_taken(source: Any, error: type[Exception],
                                           message: str) -> None:
    with pytest.raises(error) as raised:
        zperf.read(source)
    assert str(raised.value) == message


def test_a_text_file_object_is_refused_with_the_mode_to_use() -> None:
    with SAMPLE.open() as text, pytest.raises(TypeError, match=r"open the file in binary "
                                                               r"mode \(open\(path, 'rb'\)\)"):
        zperf.read(text)


# ---------------------------------------------------------- every table one call away

@pytest.mark.parametrize(("table", "source"), [
    ("capacity", CPU_DUMP), ("cec", CPU_DUMP), ("peaks", CPU_DUMP),
    ("performance", SAMPLE), ("offload", SAMPLE), ("workload", SAMPLE), ("cpu_lpar", CPU_DUMP)])
def test_every_table_the_command_shows_is_one_call_away(
        table: str, source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """zperf parse --table NAME and zperf.table(NAME, ...) / zperf.read(tables=[NAME]) are
    the same rows (the command is a client of the library)."""
    frame = zperf.table(table, source)
    assert frame.height > 0 and frame.columns == zperf.SCHEMAS[table].names
    assert frame.schema == zperf.SCHEMAS[table].polars_schema()
    assert zperf.read([source], tables=[table]).tables[table].equals(frame)
    code, out, _ = run_cli(capsys, "parse", "--table", table, "--to", "csv", str(source))
    assert code == 0
    shown = pl.read_csv(io.StringIO(out), schema=frame.schema)
    # (CSV writes a float as the decimal it stands for: equal to 15 digits)
    assert_frame_equal(shown, frame, check_exact=False, rel_tol=1e-13)


def test_a_derived_table_is_in_the_result_only_when_named() -> None:
    everything = zperf.read(CPU_DUMP)
    assert "capacity" not in everything.tables and everything.tables["cpu"].height > 0
    assert set(everything.tables) == set(zperf.TABLES) - {"capacity", "cec", "peaks",
                                                          "performance", "offload",
                                                          "transaction_summary", "api_cost",
                                                          "api_callouts", "job_hours", "job_days",
                                                          "job_capture"}
    assert zperf.read(CPU_DUMP, tables="capacity").tables["capacity"].height > 0


def test_table_says_what_reading_said_as_warnings() -> None:
    with pytest.warns(zperf.ZperfWarning, match=r"^samples/smf/paper-figures\.smf: 5 class "
                                                r"periods already read from an earlier file"):
        twice = zperf.table("workload", ["samples/smf/paper-figures.smf"] * 2)
    assert twice.height == 5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zperf.table("workload", SAMPLE)  # nothing to say: no warning


# ------------------------------------------------------------ wrong arguments are said

@pytest.mark.parametrize(("call", "message"), [
    (lambda: zperf.read(SAMPLE, tabels=["cpu"]),
     "read() got an unexpected keyword argument 'tabels' (did you mean \"tables\"?); it "
     "takes sources, tables, kind, on_error, encoding, jobs, options, progress, "
     "on_conflict"),
    (lambda: zperf.table("cpu", SAMPLE, encodng="cp1047", tables=["cpu"]),
     "table() got unexpected keyword arguments 'encodng', 'tables' (did you mean "
     "\"encoding\"?); it takes name, sources, kind, on_error, encoding, jobs, options, "
     "on_conflict"),
    (lambda: zperf.compare("a", "b", bse="first"),
     "compare() got an unexpected keyword argument 'bse' (did you mean \"base\"?); it takes "
     "base, kind, on_error, encoding, jobs, on_conflict"),
    (lambda: zperf.simulate("ims15-fast-path", seeds=3),
     "simulate() got an unexpected keyword argument 'seeds' (did you mean \"seed\"?); it "
     "takes scenario, out, seed, exact, variant, layout, rmf_format"),
    (lambda: zperf.analyze(sources=[SAMPLE], transaction=["report:CICS2A20"], cpu=1),
     "analyze() got unexpected keyword arguments 'transaction', 'cpu' (did you mean "
     "\"transactions\"?); it takes run, per, kind, on_error, encoding, jobs; and the run "
     "description's keys (zperf.RunOptions): name, sources, systems, transactions, "
     "etr_per_sec, rate_from, response_from, groups, start, end, cps, ziips, "
     "driver_timezone, jtl_timestamp, on_conflict"),
])
def test_a_keyword_a_function_does_not_take_names_what_it_takes(call: Any,
                                                                message: str) -> None:
    """A misspelled keyword to analyze was passed over; Python's own TypeError (read,
    compare...) names nothing known."""
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize(("call", "message"), [
    (lambda: zperf.read(SAMPLE, on_error="skipp"), "on_error must be one of raise, skip, keep"),
    (lambda: zperf.read(SAMPLE, kind="smff"), "unknown input kind 'smff'; known: smf, "),
    (lambda: zperf.table("capacty", SAMPLE), "unknown table 'capacty' (did you mean "
                                             "\"capacity\"?); known: workload, "),
    (lambda: zperf.compare(SAMPLE, SAMPLE, base="last"), "base must be 'previous' or 'first'"),
    (lambda: zperf.simulate("ims15-fast-pth"), "no scenario 'ims15-fast-pth'"),
    (lambda: zperf.analyze(sources=SAMPLE, per="window"),
     "per must be 'class' or 'system' (the run table's rows: analyze(...).table('window')), "
     "not 'window'"),
    (lambda: zperf.analyze(sources=SAMPLE, per="class", cps=3, groups={"A": ["B"]}),
     "per class uses only the run's sources, name, systems, start, end, on_conflict; not: "
     "cps, groups"),
])
def test_a_value_a_function_does_not_take_is_a_value_error(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        call()
    assert isinstance(raised.value, UsageError) and isinstance(raised.value, zperf.ZperfError)


def test_the_run_description_keys_are_one_list() -> None:
    """zperf.RunOptions (analyze's keywords), the keys a run.toml may hold and the fields
    of RunSpec are the same names: a key cannot be known to one and not the other."""
    from zperf.runs.spec import RUN_KEYS

    assert tuple(zperf.RunOptions.__annotations__) == RUN_KEYS
    assert set(RUN_KEYS) == {f.name for f in dataclasses.fields(zperf.RunSpec)}


def test_a_misspelled_key_is_refused_in_a_run_file_too(tmp_path: Path) -> None:
    spec = tmp_path / "run.toml"
    spec.write_text(f'sources = ["{SAMPLE}"]\ntransaction = ["report:CICS2A20"]\n')
    with pytest.raises(UsageError, match=r"unknown key\(s\) transaction \(did you mean "
                                         r"\"transactions\"\?\); known: name, sources, "):
        zperf.analyze(spec)


# ----------------------------------------------------------------- analyze and compare

def _run_folder(folder: Path, name: str, source: Path = SAMPLE) -> Path:
    folder.mkdir()
    (folder / "run.toml").write_text(
        f'name = "{name}"\nsources = ["{source}"]\nsystems = ["SYSA"]\n'
        'transactions = ["report:CICS2A20"]\ncps = 1\n[groups]\nCICS = ["CICS2A20"]\n')
    return folder


def test_analyze_takes_a_folder_a_run_file_a_runspec_or_options(tmp_path: Path) -> None:
    folder = _run_folder(tmp_path / "base", "base")
    by_folder = zperf.analyze(folder)
    by_file = zperf.analyze(folder / "run.toml")
    by_text = zperf.analyze(str(folder))
    by_spec = zperf.analyze(by_folder.spec)
    by_options = zperf.analyze(name="base", sources=[str(SAMPLE)], systems=["SYSA"],
                               transactions=["report:CICS2A20"], groups={"CICS": ["CICS2A20"]},
                               cps=1)
    one_path = zperf.analyze(name="base", sources=SAMPLE, systems=["SYSA"],
                             transactions=["report:CICS2A20"], groups={"CICS": ["CICS2A20"]},
                             cps=1)  # one Path, not a list: once its characters were read
    for other in (by_file, by_text, by_spec, by_options, one_path):
        assert other.window.equals(by_folder.window)
    assert [t.file for t in by_folder.tallies] == [str(SAMPLE)]
    assert zperf.analyze(folder, name="renamed").spec.name == "renamed"  # options win
    with pytest.raises(UsageError, match="already described"):
        zperf.analyze(by_folder.spec, cps=2)
    with pytest.raises(UsageError, match=r"needs a run\.toml"):
        zperf.analyze(tmp_path)


def test_analyze_per_class_or_system_is_the_command_s_view(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    view = zperf.analyze(sources=[SAMPLE], per="class")
    assert isinstance(view, zperf.View) and view.per == "class" and view.skipped == 0
    code, out, _ = run_cli(capsys, "analyze", "--per", "class", "--to", "csv", str(SAMPLE))
    assert code == 0
    assert pl.read_csv(io.StringIO(out), schema=view.table.schema).equals(view.table)
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "run.toml").write_text(f'sources = ["{CPU_DUMP}"]\ntransactions = ["X"]\n'
                                     '[groups]\nA = ["X"]\n')
    system = zperf.analyze(folder, per="system")  # the run file's other keys are the run's
    assert system.table["system"].to_list() == ["SYS1"]


def test_compare_takes_runs_or_analyses(tmp_path: Path) -> None:
    first = zperf.analyze(_run_folder(tmp_path / "one", "one"))
    compared = zperf.compare(first, _run_folder(tmp_path / "two", "two"))
    assert compared.table.columns == ["metric", "label", "one", "two", "delta", "delta_pct",
                                      "notes"]
    etr = compared.table.row(by_predicate=pl.col("metric") == "etr_per_sec", named=True)
    assert (etr["one"], etr["delta"]) == (pytest.approx(88584 / 60), 0.0)
    assert compared.verdict == "ITR not available: no verdict"  # no busy, no ITR
    assert compared.skipped == 0 and len(compared.tallies) == 2
    with pytest.raises(UsageError, match="at least two runs"):
        zperf.compare(first)


# -------------------------------------------------------------------------- simulate

def test_simulate_takes_an_id_a_scenario_file_or_a_scenario(tmp_path: Path) -> None:
    """zperf.simulate("ims15-fast-path", out) was an AttributeError: it wanted the
    internal Scenario."""
    from zperf.sim import catalogue

    by_id = zperf.simulate("ims15-fast-path", tmp_path / "id", exact=True)
    by_file = zperf.simulate(ROOT / "zperf/sim/scenarios/ims15-fast-path.toml",
                             str(tmp_path / "file"), exact=True)
    by_object = zperf.simulate(catalogue.find("ims15-fast-path"), tmp_path / "object",
                               exact=True)
    assert by_id == tmp_path / "id" / "manifest.json" and by_id.is_file()
    dumps = {p.parent.name: (p.parent / "smf.dump").read_bytes()
             for p in (by_id, by_file, by_object)}
    assert dumps["id"] == dumps["file"] == dumps["object"]
    assert zperf.analyze(tmp_path / "id").window["etr_per_sec"][0] == pytest.approx(
        98733.87, abs=0.01)  # paper 004 Table 18, IMS 15 Fast Path
    with pytest.raises(TypeError, match=re.escape("simulate() takes a scenario id, a "
                                                  "scenario TOML file or a Scenario, not int")):
        zperf.simulate(15, tmp_path / "x")  # type: ignore[arg-type]
    assert not (tmp_path / "x").exists()


# --------------------------------------------------------------------- the package

def test_import_zperf_loads_no_third_party_package() -> None:
    """`zperf --version` and `import zperf` must not pay for polars (PEP 562 exports)."""
    code = ("import sys, zperf; print(zperf.__version__, sorted(m for m in "
            "('polars', 'numpy', 'pyarrow', 'click', 'rich') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    assert result.stdout == f"{zperf.__version__} []\n"


def test_the_exports_are_the_library_functions() -> None:
    from zperf.names import ALL_TABLES
    from zperf.runs.derived import read, table
    from zperf.runs.run import analyze_run, compare_runs
    from zperf.sim.command import write_run
    from zperf.tables import SCHEMAS

    assert (zperf.read, zperf.table, zperf.analyze, zperf.compare, zperf.simulate,
            zperf.SCHEMAS, zperf.TABLES) == (read, table, analyze_run, compare_runs,
                                             write_run, SCHEMAS, ALL_TABLES)
    assert set(zperf.__all__) <= set(dir(zperf))
    for name in zperf.__all__:
        assert getattr(zperf, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'analyse'"):
        zperf.analyse  # type: ignore[attr-defined]  # noqa: B018
    assert (ROOT / "zperf" / "py.typed").is_file()


def test_the_signatures_are_the_functions_own() -> None:
    """The keyword check keeps each signature (help(), an editor, a type checker)."""
    import inspect

    assert list(inspect.signature(zperf.read).parameters) == [
        "sources", "tables", "kind", "on_error", "encoding", "jobs", "options", "progress",
        "on_conflict"]
    assert "per" in inspect.signature(zperf.analyze).parameters
    assert zperf.read.__doc__ and zperf.read.__doc__.startswith("Read files into tables")


SNIPPET = '''\
from pathlib import Path

import polars as pl

import zperf

frame: pl.DataFrame = zperf.table("workload", Path("dump.smf"))
result = zperf.read(["a.smf", Path("b.smf"), b"bytes"], tables=["capacity"])
run = zperf.analyze("runs/ims15", cps=7)
view = zperf.analyze(sources=["dump.smf"], per="class")
manifest: Path = zperf.simulate("ims15-fast-path", "out")
reveal_type(run)
reveal_type(view)
reveal_type(result.tables)
zperf.analyze(sources=["dump.smf"], transaction=["report:X"])
zperf.compare(run, "runs/ims14", base="last")
zperf.read("dump.smf", tables=["cpu"], on_error="skipp")
'''


@pytest.mark.slow
def test_mypy_holds_a_caller_to_the_public_signatures(tmp_path: Path) -> None:
    """py.typed is shipped and the signatures are precise: mypy knows what analyze returns
    (overloads on per) and refuses a misspelled run description key, a base or an on_error
    the library does not take."""
    snippet = tmp_path / "zperf_api_snippet.py"
    snippet.write_text(SNIPPET)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                             "--cache-dir", str(ROOT / ".mypy_cache"), str(snippet)],
                            capture_output=True, text=True, cwd=ROOT)
    lines = [line.split(": ", 1)[1] for line in result.stdout.splitlines()
             if f"{snippet.name}:" in line.split(": ", 1)[0]]
    notes = [line for line in lines if line.startswith("note: Revealed type")]
    assert notes == ['note: Revealed type is "zperf.runs.analysis.Analysis"',
                     'note: Revealed type is "zperf.runs.run.View"',
                     'note: Revealed type is "dict[str, polars.dataframe.frame.DataFrame]"']
    errors = [line for line in lines if line.startswith("error:")]
    assert any('Unexpected keyword argument "transaction"' in e and '"transactions"' in e
               for e in errors), errors
    assert any('Argument "base" to "compare_runs" has incompatible type "Literal[\'last\']"'
               in e for e in errors), errors
    assert any('Argument "on_error" to "read" has incompatible type "Literal[\'skipp\']"' in e
               for e in errors), errors
    assert len(errors) == 4, errors  # the analyze call's two lines, base, on_error
