"""``zperf simulate``: the reference papers' benchmark runs as input files."""

from __future__ import annotations

import sys
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import click
import polars as pl

from zperf import report
from zperf.cli.options import output_format, output_options
from zperf.errors import UsageError
from zperf.sim.engine import VARIANTS, simulate
from zperf.sim.writers.wlmgl import LAYOUTS


def scenario_ids() -> list[str]:
    """Ids of the catalogued scenarios (zperf/sim/scenarios/*.toml)."""
    folder = resources.files("zperf.sim") / "scenarios"
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def load_scenario(name: str) -> dict[str, Any]:
    """A catalogued scenario by id, or a scenario TOML file by path."""
    path = Path(name)
    if name.endswith(".toml") and path.exists():
        text = path.read_text()
    elif name in scenario_ids():
        text = (resources.files("zperf.sim") / "scenarios" / f"{name}.toml").read_text()
    else:
        known = ", ".join(scenario_ids()) or "none"
        raise UsageError(f"no scenario {name!r}; `zperf simulate list` shows them ({known})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{name}: not a valid scenario TOML: {exc}") from None


def _listing() -> pl.DataFrame:
    rows = []
    for sid in scenario_ids():
        meta = load_scenario(sid).get("scenario", {})
        rows.append({"scenario": sid, "paper": str(meta.get("paper", "")),
                     "title": meta.get("title", ""),
                     "reproduces": "; ".join(meta.get("reproduces", []))})
    return pl.DataFrame(rows, schema={"scenario": pl.String, "paper": pl.String,
                                      "title": pl.String, "reproduces": pl.String})


@click.command(name="simulate")
@output_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Run folder to write (default: the scenario id, in the current folder).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the interval-to-interval variation.")
@click.option("--exact", is_flag=True, help="No variation: every interval as published.")
@click.option("--variant", type=click.Choice(VARIANTS), default="rdw", show_default=True,
              help="SMF dump framing: RDWs, BDW blocks, or VBS spanned records.")
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default=None,
              help="Release layout of the RMF Workload Activity listings (default: the "
                   "scenario's z/OS release if it is one of these, else V2R4).")
@click.option("--check", "check_only", is_flag=True,
              help="Simulate, parse and analyze, and print every published figure beside "
                   "the reproduced one (exit 1 if one does not agree).")
@click.option("--series", is_flag=True,
              help="Paper 004: write the modeled 10-80 % CPU busy scaling series, one "
                   "interval per load level, the last the published run (with --check: "
                   "that run reproduced, the other levels marked modeled).")
@click.argument("scenario", metavar="SCENARIO|list")
def simulate_command(scenario: str, out_dir: str | None, seed: int, exact: bool, variant: str,
                     layout: str | None, check_only: bool, series: bool, fmt: str | None,
                     output: str) -> None:
    """Write the input files of a benchmark run from the reference papers.

    `zperf simulate list` shows the catalogue: each scenario, its paper and
    the tables it reproduces. `zperf simulate SCENARIO` writes a run folder
    (SMF dump with 70.1 and 72.3 records, RMF Workload Activity listings, for
    CICS runs DFHSTUP and DFH0STAT statistics and SMF 110.2, the driver's
    report or JTL request log, a run.toml for zperf analyze, and
    manifest.json saying what each file is, the seed and the zperf version).
    SCENARIO is a catalogue id or a scenario TOML file. --check also shows
    which files each figure came back from (every copy must agree) and, for
    paper 000's cost model, the costs it predicts that the paper prints no
    number for. --series (paper 004 runs) writes the scaling runs behind the
    paper's ITR, response-time and busy charts, which it prints no numbers
    for: 10 % to 70 % busy modeled at the published run's ITR, then the
    published ~80 % run; zperf analyze prints one interval row per level.

    \b
    Examples:
      zperf simulate list
      zperf simulate ims15-fast-path --out runs/ims15 && zperf analyze runs/ims15
      zperf simulate ims15-fast-path --check
      zperf simulate ims15-fast-path --series --exact --out runs/fp-scaling
    """
    fmt, terminal = output_format(fmt, output)
    if scenario == "list":
        report.render(_listing(), fmt, output, table="scenarios", terminal=terminal)
        return
    spec = load_scenario(scenario)
    if series:
        _series(spec, out_dir, seed=seed, exact=exact, variant=variant, layout=layout,
                check_only=check_only, fmt=fmt, output=output, terminal=terminal)
        return
    if spec.get("scenario", {}).get("kind", "rmf") == "observations":
        from zperf.sim.observations import write_observations

        target = Path(out_dir or spec["scenario"]["id"])
        manifest = write_observations(spec, target)
        click.echo(f"zperf: wrote {target}/ ({manifest.name}): the messages and the "
                   "observations of a run that writes no RMF data", err=True)
        return
    if check_only:
        from zperf.sim.check import check

        result = check(spec, Path(out_dir) if out_dir else None, seed=seed, exact=exact,
                       variant=variant)
        shown = (result.select("metric", "lpar", "printed", "reproduced_as_printed", "note",
                               "from", "source") if fmt == "table" else result)
        report.render(shown, fmt, output, table="check", terminal=terminal)
        notes = result["note"].str.replace(r"^differs: .*", "differs between files")
        counts = dict(notes.value_counts().iter_rows())
        figures = result.filter(pl.col("published").is_not_null()).height
        click.echo("zperf: " + ", ".join(f"{n} {note}" for note, n in sorted(counts.items()))
                   + f" (of {figures} published figures; "
                   + ("exact" if exact else f"with noise, seed {seed}") + ")", err=True)
        if result["note"].str.starts_with("differs").any():
            sys.exit(1)
        return
    target = Path(out_dir or spec["scenario"]["id"])
    manifest = simulate(spec, target, seed=seed, exact=exact, variant=variant, layout=layout)
    click.echo(f"zperf: wrote {target}/ ({manifest.name}); analyze it with "
               f"`zperf analyze {target}`", err=True)


def _series(spec: dict[str, Any], out_dir: str | None, *, seed: int, exact: bool,
            variant: str, layout: str | None, check_only: bool, fmt: str, output: str,
            terminal: bool) -> None:
    """--series: write (or, with --check, reproduce) the modeled scaling series."""
    from zperf.sim.series import MODELED, SeriesError, check_series, simulate_series

    try:
        if check_only:
            result = check_series(spec, Path(out_dir) if out_dir else None, variant=variant)
        else:
            target = Path(out_dir or f"{spec['scenario']['id']}-scaling")
            manifest = simulate_series(spec, target, seed=seed, exact=exact, variant=variant,
                                       layout=layout)
    except SeriesError as exc:
        raise UsageError(str(exc)) from None
    if not check_only:
        click.echo(f"zperf: wrote {target}/ ({manifest.name}): one interval per load level, "
                   f"the last the published run, the others modeled; analyze it with "
                   f"`zperf analyze {target}`", err=True)
        return
    shown = (result.select("level", "metric", "value", "printed", "note", "source")
             if fmt == "table" else result)
    report.render(shown, fmt, output, table="series", terminal=terminal)
    counts = dict(result["note"].value_counts().iter_rows())
    click.echo("zperf: " + ", ".join(f"{n} {note}" for note, n in sorted(counts.items()))
               + f" (of {result.height} figures: the published run's are checked, the other "
               f"levels' are {MODELED}; exact)", err=True)
    if result["note"].str.starts_with("differs").any():
        sys.exit(1)
