"""A mistake on the command line is one line, as every other error (zperf.cli.usage): the
command, what was wrong, the option meant when one is near, where the help is; exit 2.
And --traceback is taken after the subcommand too."""

from __future__ import annotations

import pytest

from conftest import SAMPLES, run_cli

SAMPLE = str(SAMPLES / "smf" / "paper-figures.smf")


@pytest.mark.parametrize(("args", "line"), [
    (["parse", "--tabel", "cpu", SAMPLE],
     "parse: no such option --tabel (did you mean --table?); see zperf parse --help"),
    (["parse", "--to", "xls", SAMPLE],
     "parse: --to: 'xls' is not one of 'table', 'csv', 'json', 'ndjson', 'parquet', 'arrow'; "
     "see zperf parse --help"),
    (["parse", "--table", "capacty", SAMPLE],
     "parse: --table: 'capacty' is not one of 'workload', 'distribution', 'cpu', 'cpu_lpar', "
     "'db2entry', 'db2conn', 'cics_transactions', 'zosconnect_requests', "
     "'zosconnect_api_requests', 'liberty_requests', 'job_intervals', 'job_steps', "
     "'ims_transit', 'driver', 'driver_intervals', 'capacity', 'cec', 'peaks', 'performance', "
     "'offload', 'transaction_summary', 'api_cost', 'api_callouts', 'job_hours', 'job_days', "
     "'job_capture' (did you mean capacity?); see zperf parse --help"),
    (["parse"], "parse: missing argument FILE...; see zperf parse --help"),
    (["parse", SAMPLE, "--table"],
     "parse: option '--table' requires an argument; see zperf parse --help"),
    (["parse", "-j", "0", SAMPLE],
     "parse: --jobs: 0 is not in the range x>=1; see zperf parse --help"),
    (["calc", "itr", "--busy", "80"], "calc itr: missing option --etr; see zperf calc itr --help"),
    (["--bogus", "parse"], "no such option --bogus; see zperf --help"),
    (["analyze", "--pre", "class", SAMPLE],
     "analyze: no such option --pre (did you mean --per?); see zperf analyze --help"),
])
def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                   line: str) -> None:
    code, out, err = run_cli(capsys, *args)
    assert (code, out, err) == (2, "", f"zperf: error: {line}\n")


def test_an_unknown_command_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "pars", SAMPLE)
    assert code == 2 and err.startswith("zperf: error: no such command 'pars'")
    assert err.endswith("; see zperf --help\n") and err.count("\n") == 1
    code, _, err = run_cli(capsys, "calc", "itrr")
    assert code == 2 and err.startswith("zperf: error: calc: no such command 'itrr'")
    assert err.count("\n") == 1


@pytest.mark.parametrize("where", ["before", "after", "calc"])
def test_traceback_before_or_after_the_command(capsys: pytest.CaptureFixture[str],
                                               where: str) -> None:
    from zperf import cli
    from zperf.errors import InputError, UsageError

    args = {"before": ["--traceback", "parse", "no/such.smf"],
            "after": ["parse", "--traceback", "no/such.smf"],
            "calc": ["calc", "ms-per-tran", "--traceback", "--cpu-seconds", "1",
                     "--interval", "0", "--transactions", "1"]}[where]
    with pytest.raises(InputError if where != "calc" else UsageError):
        cli.main(args)  # raised as it is, not said in one line
    code, _, err = run_cli(capsys, *args[1:] if where == "before" else
                           [a for a in args if a != "--traceback"])
    assert code == 2 and err.startswith("zperf: error: ") and err.count("\n") == 1
