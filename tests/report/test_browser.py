"""Every report kind in a real browser: Debian's Chromium, headless, network off.

Each page must load without a console error or a page error, make no network
request at all (everything is inline), and every chart must have drawn
content (SVG marks of non-zero size).  The screenshots go to a temporary
folder, or with ``ZPERF_SCREENSHOTS=docs/img`` to the README's pictures.

Playwright drives the browser (``executable_path``: the system Chromium, never
a downloaded one; ``playwright install`` is not needed): it is Microsoft's
well-kept driver, with console, request and page-error events and screenshots
in a few lines, where Selenium would need chromium-driver and CDP logging
options for the same.  .ci/run installs Chromium when it is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zperf.report.build import ReportRequest, make_report, render
from zperf.sim.month import Month, write_month

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-default-apps",
        "--disable-sync", "--no-pings"]
#: What every chart must show: its SVG's drawn marks and their total size.
CHART_MARKS = """() => [...document.querySelectorAll('figure.chart svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  const marks = [...svg.querySelectorAll('path, rect, line, circle, text')]
    .filter(m => !m.closest('.background') && m.getAttribute('class') !== 'background')
    .map(m => m.getBBox()).filter(b => b.width > 0 || b.height > 0);
  return {width: box.width, height: box.height, marks: marks.length,
          roles: svg.querySelectorAll('[role="graphics-symbol"]').length};
})"""


#: Each kind's inputs, relative to the simulated runs' folder (as the footer shows them).
REQUESTS = {
    "run": ReportRequest("run", ("cics52-liberty-t2-reuse",)),
    "comparison": ReportRequest("comparison", ("ims14-fast-path", "ims15-fast-path")),
    "scaling": ReportRequest("scaling", ("fp-series",)),
    "activity": ReportRequest("activity", ("plex/smf-20261001.dump",), top=8),
    "reproduction": ReportRequest("reproduction", ("ims15-dsff-smq",), exact=True),
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert Path(CHROMIUM).exists(), "Chromium is missing: apt-get install -y chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.mark.parametrize("kind", ["run", "comparison", "scaling", "activity", "reproduction"])
def test_report_in_chromium(browser: Any, sim_runs: Path, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    if not (sim_runs / "plex").exists():  # a day of a small sysplex, for the activity report
        write_month(Month(systems=3, days=1, seed=5), sim_runs / "plex")
    shots = Path(os.environ.get("ZPERF_SCREENSHOTS", str(tmp_path))).resolve()
    monkeypatch.chdir(sim_runs)
    page_file = tmp_path / f"{kind}.html"
    page_file.write_bytes(render(make_report(REQUESTS[kind]), "html"))
    context = browser.new_context(offline=True, viewport={"width": 1040, "height": 1400},
                                  device_scale_factor=0.75, java_script_enabled=True)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri(), wait_until="load")
    charts = page.evaluate(CHART_MARKS)
    shots.mkdir(parents=True, exist_ok=True)
    height = min(page.evaluate("document.documentElement.scrollHeight"), 2400)
    page.screenshot(path=str(shots / f"report-{kind}.png"), full_page=True,
                    clip={"x": 0, "y": 0, "width": 1040, "height": height})
    context.close()
    assert errors == []
    assert requests == [page_file.as_uri()]  # the page itself, nothing else
    assert charts, "no chart on the page"
    for number, chart in enumerate(charts, 1):
        assert chart["width"] > 100 and chart["height"] > 50, (number, chart)
        assert chart["marks"] > 5 and chart["roles"] > 0, (number, chart)  # data drawn
    assert (shots / f"report-{kind}.png").stat().st_size > 10_000
