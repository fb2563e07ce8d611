"""Every report kind as a reader sees it: HTML in headless Chromium, screenshots to look at.

    python tests/report/screenshots.py                # every case, to tests/actual/screenshots
    python tests/report/screenshots.py run scaling    # some cases
    python tests/report/screenshots.py --month        # with the month of two systems (slow)

For each case of :data:`reportcheck.CASES` it writes ``NAME.html``, ``NAME.txt``,
``NAME.md`` and ``NAME.png`` (the whole page) to the output folder, and prints
what the checks of tests/reportcheck.py find: tick labels that repeat, a legend
missing or naming what is not drawn, text outside its chart or cut short, tables
wider than the page, words folded in the text report, internal words. The tests
(tests/report/test_layout.py, test_browser.py) assert the same checks; this
script is for looking: open the PNGs, read the text. The inputs are simulated
once into ``--inputs`` (default tests/actual/screenshot-inputs) and kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import reportcheck as rc  # noqa: E402  (tests/ is not a package)
from zperf.report.views.model import Report  # noqa: E402


def text_problems(report: Report, text: str, markdown: str) -> list[str]:
    cells = [cell for section in report.sections
             for table in section.tables for row in table.rows for cell in row]
    return [*rc.broken_words(text, cells), *(f"text: {w}" for w in rc.internal_words(text)),
            *(f"markdown: {w}" for w in rc.internal_words(markdown))]


def chart_problems(report: Report) -> list[str]:
    from zperf.report.charts import render_svgs, spec

    charts = [chart for section in report.sections for chart in section.charts]
    problems = []
    for chart, svg in zip(charts, render_svgs([c.plot for c in charts]), strict=True):
        found = [*rc.tick_problems(svg), *rc.legend_problems(spec(chart.plot), svg)]
        problems += [f"chart {chart.key}: {p}" for p in found]
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help=f"of: {', '.join(rc.CASES)}")
    parser.add_argument("--out", type=Path, default=HERE.parent / "actual" / "screenshots")
    parser.add_argument("--inputs", type=Path,
                        default=HERE.parent / "actual" / "screenshot-inputs")
    parser.add_argument("--month", action="store_true", help="the month case too (slow)")
    args = parser.parse_args()
    names = args.cases or [n for n, c in rc.CASES.items() if args.month or not c.get("slow")]
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1767225600")
    from zperf.report.build import make_report, render

    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    args.inputs.mkdir(parents=True, exist_ok=True)
    rc.make_inputs(args.inputs.resolve(), month="activity-month" in names)
    os.chdir(args.inputs)
    found = 0
    with rc.chromium() as browser:
        for name in names:
            report = make_report(rc.request(name))
            page = out / f"{name}.html"
            page.write_bytes(render(report, "html"))
            text, markdown = render(report, "text").decode(), render(report, "markdown").decode()
            (out / f"{name}.txt").write_text(text)
            (out / f"{name}.md").write_text(markdown)
            seen = rc.look(browser, page, out / f"{name}.png", sections=True)
            problems = [*seen["errors"], *seen["layout"], *chart_problems(report),
                        *text_problems(report, text, markdown)]
            problems += [f"request: {url}" for url in seen["requests"] if url != page.as_uri()]
            found += len(problems)
            print(f"{name}: {out / name}.png" + ("" if problems else ", nothing found"))
            for problem in problems:
                print(f"  - {problem}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
