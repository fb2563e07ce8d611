"""Every report case in a real browser: Debian's Chromium, headless, network off.

Each page must load without a console error or a page error, make no network
request at all (everything is inline), draw every chart (SVG marks of non-zero
size), and show every text whole: no SVG text outside its chart, no name cut
short with an ellipsis, no table wider than the page's column, both in the
charts' own font and in the wider one a browser without it falls back to
(tests/reportcheck.py's ``LAYOUT``, run twice).  The screenshots go to a
temporary folder, or with ``ZPERF_SCREENSHOTS=docs/img`` to the manual's
pictures (docs/reports.md); ``python tests/report/screenshots.py`` takes them of every case to look
at, section by section.

Playwright drives the browser (``executable_path``: the system Chromium, never
a downloaded one; ``playwright install`` is not needed): it is Microsoft's
well-kept driver, with console, request and page-error events and screenshots
in a few lines, where Selenium would need chromium-driver and CDP logging
options for the same.  .ci/run installs Chromium when it is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import reportcheck as rc
from zperf.report.build import make_report, render

pytestmark = pytest.mark.slow

#: The cases whose pictures the manual shows (docs/reports.md), by the names it gives them.
README = {"run-one-interval": "run", "comparison": "comparison", "scaling": "scaling",
          "activity": "activity", "reproduction-sharing": "reproduction"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with rc.chromium() as launched:
        yield launched


@pytest.mark.parametrize("name", [n for n, c in rc.CASES.items() if not c.get("slow")])
def test_report_in_chromium(browser: Any, report_cases: Path, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    shots = Path(os.environ.get("ZPERF_SCREENSHOTS", str(tmp_path))).resolve() \
        if name in README else tmp_path
    monkeypatch.chdir(report_cases)
    page_file = tmp_path / f"{name}.html"
    page_file.write_bytes(render(make_report(rc.request(name)), "html"))
    picture = shots / f"report-{README.get(name, name)}.png"
    seen = rc.look(browser, page_file, picture, scale=0.75, most_height=2400)
    assert seen["errors"] == []
    assert seen["requests"] == [page_file.as_uri()]  # the page itself, nothing else
    assert seen["layout"] == []
    assert seen["charts"] or rc.CASES[name].get("charts") is False, "no chart on the page"
    for number, chart in enumerate(seen["charts"], 1):
        assert chart["width"] > 100 and chart["height"] > 50, (number, chart)
        assert chart["marks"] > 5 and chart["roles"] > 0, (number, chart)  # data drawn
    assert picture.stat().st_size > 10_000
