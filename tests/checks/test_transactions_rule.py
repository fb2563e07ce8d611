"""``check = "transactions"``: a statistic of the CICS tasks' (SMF 110.1) or z/OS Connect
requests' (SMF 123) response or CPU within limits (paper 000's simulated run)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import zperf
from conftest import run_cli


def _rules(folder: Path, body: str) -> Path:
    path = folder / "rules.toml"
    path.write_text(f'runs = ["run"]\n\n{body}')
    return path


@pytest.fixture
def checked(zcee_run: Path, tmp_path: Path) -> Path:
    (tmp_path / "run").symlink_to(zcee_run)
    return tmp_path


def _p95(zcee_run: Path) -> float:
    requests = zperf.read([str(zcee_run / "zcee123.dump")]).tables["zosconnect_requests"]
    return float(requests["response_ms"].quantile(0.95, "linear"))


def test_the_95th_percentile_of_an_api_against_its_limit(
        checked: Path, zcee_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p95 = _p95(zcee_run)
    rules = _rules(checked, f'[[rule]]\nname = "car100 p95"\ncheck = "transactions"\n'
                            f'apis = ["car100"]\nmax = {p95 + 0.01:.3f}\n\n'
                            f'[[rule]]\nname = "car100 p95 tight"\ncheck = "transactions"\n'
                            f'apis = ["car100"]\nmax = {p95 - 0.01:.3f}\n')
    code, out, _ = run_cli(capsys, "check", str(rules))
    lines = out.splitlines()
    assert code == 1
    requests = zperf.read([str(zcee_run / "zcee123.dump")]).tables["zosconnect_requests"]
    where = f"window, {requests.height} requests of api car100"
    assert lines[0] == (f"PASS  car100 p95 [zcee-car100-baseline]: p95_response_ms {p95:.3f} "
                        f"({where}); limit <= {p95 + 0.01:.3f}".rstrip("0"))
    assert lines[1].startswith("FAIL  car100 p95 tight [zcee-car100-baseline]: "
                               f"p95_response_ms {p95:.3f} ({where}); ")
    assert lines[1].endswith("above the maximum " + f"{p95 - 0.01:.3f}".rstrip("0"))


def test_a_cics_transactions_mean_cpu(checked: Path, zcee_run: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from zperf.checks.engine import check

    tasks = zperf.read([str(zcee_run / "cics110.dump")]).tables["cics_transactions"]
    mean = float(tasks.filter(pl.col("transaction") == "CSMI")["cpu_ms"].mean())
    rules = _rules(checked, '[[rule]]\ncheck = "transactions"\ntransactions = ["csmi"]\n'
                            'measure = "cpu"\nstatistic = "mean"\nmin = 0.001\nmax = 10\n')
    outcome = check(rules)
    result = outcome.results[0]
    assert result.passed and result.observed == pytest.approx(mean)
    assert result.rule.name == "transactions mean cpu of csmi >= 0.001, <= 10"
    code, _, _ = run_cli(capsys, "check", str(rules))
    assert code == 0


def test_not_measurable_without_the_records(checked: Path, zcee_run: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (checked / "plain").mkdir()
    (checked / "plain" / "run.toml").write_text(
        (zcee_run / "run.toml").read_text()
        .replace(', "cics110.dump", "zcee123.dump", "liberty120.dump"', "")
        .replace('"smf.dump"', f'"{zcee_run / "smf.dump"}"')
        .replace('"driver.jtl"', f'"{zcee_run / "driver.jtl"}"'))
    rules = checked / "rules.toml"
    rules.write_text('runs = ["plain"]\n[[rule]]\ncheck = "transactions"\n'
                     'transactions = ["CSMI"]\nmax = 5\n[[rule]]\ncheck = "transactions"\n'
                     'transactions = ["NONE"]\nmax = 5\nrequired = true\n')
    code, out, _ = run_cli(capsys, "check", str(rules))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("N/A   transactions p95 response of CSMI <= 5")
    assert lines[0].endswith("not measurable: no CICS tasks (SMF 110.1) among the sources")
    assert lines[1].startswith("FAIL  ")
    assert lines[1].endswith("the rule is required (required = true)")


@pytest.mark.parametrize(("body", "said"), [
    ('apis = ["car100"]\ntransactions = ["CSMI"]\nmax = 5\n',
     "line 3: transactions needs transactions = [...] (CICS transaction ids) or apis = [...] "
     "(z/OS Connect API names), one of the two"),
    ('apis = ["car100"]\nmeasure = "cpu"\nmax = 5\n',
     'line 6: measure = "cpu" is a CICS task\'s USRCPUT: SMF 123 has no CPU (name '
     "transactions, or see the api_cost table)"),
    ('transactions = ["CSMI"]\n',
     "line 3: transactions needs min or max (or both), in ms"),
    ('transactions = ["CSMI"]\nstatistic = "p42"\nmax = 5\n',
     "line 6: statistic must be one of mean, p50, p90, p95, p99, max, not \"p42\""),
])
def test_a_bad_transactions_rule_is_a_rules_error(checked: Path, body: str, said: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rules = _rules(checked, f'[[rule]]\ncheck = "transactions"\n{body}')
    code, _, err = run_cli(capsys, "check", str(rules))
    assert code == 2
    assert f"{rules}: {said}" in err, err
