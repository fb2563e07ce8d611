"""A report as its reader sees it: the checks that a chart or a text report reads right,
shared by the tests (tests/report/test_layout.py, test_browser.py) and the screenshot
script (tests/report/screenshots.py).

Each check returns the problems it finds, one line each, empty when all is well,
so that a test asserts ``== []`` and shows every problem at once, and the script
prints them beside the pictures:

- :func:`tick_problems`: an axis whose tick labels repeat ("10:00 10:00 10:01");
- :func:`legend_problems`: a chart of several series without a legend, or a
  legend naming a series the chart does not draw (an "IIP" with no zIIP);
- :func:`broken_words`: a text report that folds a table cell's word (a metric
  name) across two lines;
- :func:`internal_words`: zperf's own markup or field names reaching the reader
  ("[[inconsistency]]", "modeled_busy_pct");
- :data:`LAYOUT` (run in the browser): text outside its SVG or box or over other
  text, a name cut short, a table wider than the page.

Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright with
``executable_path`` (never a downloaded browser), headless, no sandbox (the CI
container has none) and every background fetch switched off.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-default-apps",
        "--disable-sync", "--no-pings"]
#: The page width a reader's browser window has (the page's column is 1000 px).
VIEWPORT = {"width": 1040, "height": 1400}
#: The widest sans-serif a reader's browser may fall back to when it has none of the
#: charts' fonts (Debian's default): the layout is checked in it too.
WIDE_FONT = '"DejaVu Sans"'

_SVG = "{http://www.w3.org/2000/svg}"


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium (the system's), network-quiet."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


# --- the SVG of a chart --------------------------------------------------------------


def _texts(group: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in group.iter(f"{_SVG}text")]


def _groups(root: ET.Element, role: str) -> Iterator[ET.Element]:
    for element in root.iter(f"{_SVG}g"):
        if role in (element.get("class") or "").split():
            yield element


def axes(svg: str) -> list[tuple[str, list[str]]]:
    """Each drawn axis of the chart: its description and its tick labels in order."""
    root = ET.fromstring(svg)
    found = []
    for axis in _groups(root, "role-axis"):
        labels = [t for g in _groups(axis, "role-axis-label") for t in _texts(g)]
        if labels:
            found.append((axis.get("aria-label") or "an axis", labels))
    return found


def tick_problems(svg: str) -> list[str]:
    """An axis that shows the same tick label twice (a time axis ticking every 30 s and
    labelled to the minute): the reader cannot tell the ticks apart."""
    problems = []
    for name, labels in axes(svg):
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            problems.append(f"{name}: tick labels repeat: {', '.join(repeated)} "
                            f"(all: {' '.join(labels)})")
    return problems


def legends(svg: str) -> list[list[str]]:
    """The labels of each legend of the chart."""
    root = ET.fromstring(svg)
    return [[t for g in _groups(legend, "role-legend-label") for t in _texts(g)]
            for legend in _groups(root, "role-legend")]


def _units(spec: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Every single-view part of a (layered, faceted, concatenated) spec, and the name
    of the dataset it draws (its own, or the nearest enclosing part's)."""
    parts = [(spec, "")]
    while parts:
        part, data = parts.pop()
        data = part.get("data", {}).get("name", data)
        for key in ("layer", "vconcat", "hconcat", "concat"):
            parts += [(inner, data) for inner in part.get(key, [])]
        if "spec" in part:
            parts.append((part["spec"], data))
        if "encoding" in part:
            yield part, data


#: The channels that place a mark: a series is drawn where one of them has a value.
_POSITIONS = ("x", "y", "x2", "y2", "theta")


def legend_problems(spec: dict[str, Any], svg: str) -> list[str]:
    """A colour meaning several series with no legend to say which is which, or a legend
    naming a series with no value in the data drawn (an "IIP" of a run with no zIIP,
    its bars all 0; a line at 0 is drawn): a legend names only what is there."""
    shown = [label for labels in legends(svg) for label in labels]
    problems = []
    drawn: set[str] = set()
    categorical = False
    for unit, data in _units(spec):
        encoding = unit["encoding"]
        rows = spec.get("datasets", {}).get(data, [])
        amounts = [e["field"] for channel, e in encoding.items() if channel in _POSITIONS
                   and isinstance(e, dict) and e.get("type") == "quantitative" and "field" in e]
        mark = unit.get("mark", {})
        nothing = (None,) if (mark.get("type") if isinstance(mark, dict) else mark) in (
            "line", "point", "rule", "text", "tick", "circle", "square") else (None, 0, 0.0)
        for channel in ("color", "shape"):
            by = encoding.get(channel, {})
            name = by.get("field")
            if not name or by.get("type") != "nominal":
                continue
            categorical = True
            present = {str(row[name]) for row in rows if row.get(name) is not None
                       and any(row.get(a) not in nothing for a in amounts)}
            drawn |= present
            if len(present) > 1 and not shown and by.get("legend", {}) is not None:
                problems.append(f"series {sorted(present)} (by {name}) and no legend")
    ghosts = [label for label in shown
              if categorical and label not in drawn and not _number(label)]
    if ghosts:
        problems.append(f"the legend names {ghosts}, which the chart does not draw "
                        f"(drawn: {sorted(drawn)})")
    return problems


def _number(label: str) -> bool:
    """A label of a colour gradient's legend (a PI scale's 0, 1, 2), not a series."""
    return re.fullmatch(r"[−-]?[0-9.,]+", label) is not None


# --- the text report -----------------------------------------------------------------


def broken_words(text: str, cells: Sequence[str]) -> list[str]:
    """The table cells' words that do not stand whole on one line of ``text`` (rich
    folded a metric name in mid-word): each word of each cell must appear on a line
    as it is."""
    lines = text.splitlines()
    whole = set()
    for line in lines:
        whole.update(line.split())
    problems = []
    for cell in dict.fromkeys(cells):
        for word in cell.split():
            if word not in whole and not any(word in line for line in lines):
                problems.append(f"{word!r} (of {cell!r}) is broken across lines")
    return sorted(set(problems))


#: zperf's own words that mean nothing to a reader: the scenario files' TOML tables and
#: keys ("[[inconsistency]] entries", "[scaling]", 'lpar = "combined"'), template markup,
#: Python's reprs of no value.  (zperf's column names, resp_ms, are the names its tables
#: and `zperf analyze` print: a reader meets them there.)
INTERNAL = re.compile(
    r"\[\[[a-z_.]+\]\]|\[[a-z_.]+\]"          # [[inconsistency]], [scaling]
    r"|\b[a-z_]+ = (?:\"|\d)"                    # lpar = "combined", scale = 1000
    r"|\{\{|\}\}|\{%|%\}"                       # template markup
    r"|\b(?:None|nan|NaN)\b"                      # Python's no-values
)


def internal_words(text: str, allowed: Sequence[str] = ()) -> list[str]:
    """Every internal word of ``text`` (see :data:`INTERNAL`), once each."""
    found = []
    for match in INTERNAL.finditer(text):
        word = match.group(0)
        if word in allowed:
            continue
        start = max(0, match.start() - 30)
        found.append(f"{word!r} in ...{text[start:match.end() + 30]!r}...")
    return list(dict.fromkeys(found))


# --- the page in the browser ---------------------------------------------------------

#: What a reader would see cut or smudged: every SVG text element against its chart's
#: box (the SVG's, as the page scales it) and against the chart's other texts (tick
#: labels run together, "10:0010:00"; labels printed over each other), every chart
#: against its figure, every table against the page's column (a table wider than it
#: scrolls: on paper it is cut), and names shortened with an ellipsis.
LAYOUT = """() => {
  const out = [];
  const near = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5
      && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
  document.querySelectorAll('figure.chart').forEach((figure, i) => {
    const svg = figure.querySelector('svg');
    if (!svg) { out.push(`chart ${i + 1}: no SVG`); return; }
    const box = svg.getBoundingClientRect();
    if (!near(box, figure.getBoundingClientRect()))
      out.push(`chart ${i + 1} (${figure.id}): wider than its figure`);
    // a legend's symbols, which a label running long runs into
    const placed = [...svg.querySelectorAll('.role-legend-symbol path')]
      .map(symbol => ['a legend symbol', symbol.getBoundingClientRect()]);
    svg.querySelectorAll('text').forEach(text => {
      const words = text.textContent.trim();
      // a label Vega hid (labelOverlap: opacity 0) is not seen
      if (!words || Number(getComputedStyle(text).opacity) === 0) return;
      const r = text.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      const over = placed.find(([w, o]) => Math.min(r.right, o.right) - Math.max(r.left, o.left) > 1
          && Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top) > 2);
      if (over)
        out.push(`chart ${i + 1} (${figure.id}): text "${words}" over "${over[0]}"`);
      placed.push([words, r]);
      if (!near(r, box))
        out.push(`chart ${i + 1} (${figure.id}): text "${words}" outside the chart ` +
                 `(${Math.round(r.left - box.left)}..${Math.round(r.right - box.left)} of ` +
                 `${Math.round(box.width)} px wide, ${Math.round(r.top - box.top)}..` +
                 `${Math.round(r.bottom - box.top)} of ${Math.round(box.height)} px high)`);
      if (words.includes('…'))
        out.push(`chart ${i + 1} (${figure.id}): text cut short: "${words}"`);
    });
  });
  const column = document.body.getBoundingClientRect();
  document.querySelectorAll('.scroll').forEach((scroll, i) => {
    if (scroll.scrollWidth > scroll.clientWidth + 1) {
      const head = scroll.querySelector('th');
      out.push(`table ${i + 1} (${head ? head.textContent : ''}...): ${scroll.scrollWidth} px ` +
               `wide in a ${scroll.clientWidth} px column`);
    }
  });
  document.querySelectorAll('h1, h2, h3, p, dt, dd, li, caption, figcaption').forEach(el => {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
      out.push(`"${el.textContent.slice(0, 40)}" cut at its box`);
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < column.left - 0.5 || r.right > column.right + 0.5))
      out.push(`"${el.textContent.slice(0, 40)}" outside the page's column`);
  });
  return out;
}"""

#: Every chart's drawn marks and size (a chart that drew nothing is a failure too).
CHART_MARKS = """() => [...document.querySelectorAll('figure.chart svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  const marks = [...svg.querySelectorAll('path, rect, line, circle, text')]
    .filter(m => !m.closest('.background') && m.getAttribute('class') !== 'background')
    .map(m => m.getBBox()).filter(b => b.width > 0 || b.height > 0);
  return {width: box.width, height: box.height, marks: marks.length,
          roles: svg.querySelectorAll('[role="graphics-symbol"]').length};
})"""


def look(browser: Any, page_file: Path, screenshot: Path | None = None, *,
         scale: float = 1.0, most_height: float | None = None,
         sections: bool = False) -> dict[str, Any]:
    """Open ``page_file`` offline in ``browser``; the console errors, the requests, the
    layout problems and the charts' marks; and when asked, a screenshot of the page
    (its top ``most_height`` px, or all of it) and, with ``sections``, one of each
    section (``NAME-03-intervals.png``: a size to read)."""
    context = browser.new_context(offline=True, viewport=VIEWPORT, device_scale_factor=scale,
                                  java_script_enabled=True)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(page_file.as_uri(), wait_until="load")
        layout = page.evaluate(LAYOUT)
        seen = {"errors": errors, "requests": list(requests),  # (the reload asks again)
                "charts": page.evaluate(CHART_MARKS)}
        page.add_style_tag(content=f"svg text {{ font-family: {WIDE_FONT} !important; }}")
        layout += [f"{problem} (in {WIDE_FONT})" for problem in page.evaluate(LAYOUT)
                   if problem not in layout]
        seen["layout"] = layout
        if screenshot is not None:  # as the reader's browser draws it
            page.reload(wait_until="load")
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            height = page.evaluate("document.documentElement.scrollHeight")
            page.screenshot(path=str(screenshot), full_page=True, clip={
                "x": 0, "y": 0, "width": VIEWPORT["width"],
                "height": min(height, most_height or height)})
            for number, part in enumerate(page.query_selector_all("header, section")
                                          if sections else []):
                name = part.get_attribute("id") or "header"
                part.screenshot(path=str(screenshot.with_name(
                    f"{screenshot.stem}-{number:02d}-{name}.png")))
    finally:
        context.close()
    return seen


# --- the reports to look at ----------------------------------------------------------

#: Every report kind, and the shapes of data that made charts go wrong: one interval,
#: three releases, a sysplex day, an RMF listing, the paper's SMF sample, a series.
#: Inputs are relative to the folder :func:`make_inputs` fills ("{repo}" is the
#: checkout); ``slow`` cases (a month) are left out unless asked for; ``charts``: False
#: for a report that has none.
CASES: dict[str, dict[str, Any]] = {
    "run": {"kind": "run", "inputs": ("ims15-fast-path",)},
    "run-one-interval": {"kind": "run", "inputs": ("cics52-liberty-t2-reuse",)},
    "comparison": {"kind": "comparison", "inputs": ("ims14-fast-path", "ims15-fast-path")},
    "comparison-releases": {"kind": "comparison",
                            "inputs": ("ims13-fast-path", "ims14-fast-path", "ims15-fast-path")},
    "scaling": {"kind": "scaling", "inputs": ("fp-series",)},
    "scaling-releases": {"kind": "scaling",
                         "inputs": ("series-ims13", "series-ims14", "series-ims15")},
    "scaling-runs": {"kind": "scaling",
                     "inputs": ("ims13-fast-path", "ims14-fast-path", "ims15-fast-path")},
    "activity": {"kind": "activity", "inputs": ("plex/smf-20261001.dump",), "top": 8},
    "activity-listing": {"kind": "activity",
                         "inputs": ("{repo}/tests/data/rmf/v2r4-asa-sysout.txt",)},
    "activity-sample": {"kind": "activity", "inputs": ("{repo}/samples/smf/paper-figures.smf",)},
    "activity-month": {"kind": "activity", "inputs": ("month/*.dump",), "slow": True},
    "reproduction": {"kind": "reproduction", "inputs": ("ims15-fast-path",), "exact": True},
    "reproduction-sharing": {"kind": "reproduction", "inputs": ("ims15-dsff-smq",),
                             "exact": True},
    "reproduction-series": {"kind": "reproduction", "inputs": ("ims15-fast-path",),
                            "series": True, "charts": False},  # a table of levels
    "trend": {"kind": "trend", "inputs": ("pdb-year",)},
    "trend-partial": {"kind": "trend", "inputs": ("pdb-gap",)},
}
REPO = Path(__file__).resolve().parent.parent


def make_inputs(folder: Path, month: bool = False) -> Path:
    """The cases' runs, series and dumps in ``folder`` (each made once: a second call
    finds them); returns ``folder``."""
    from zperf.sim import catalogue
    from zperf.sim.engine import simulate
    from zperf.sim.month import Month, write_month
    from zperf.sim.series import simulate_series

    for name in ("ims13-fast-path", "ims14-fast-path", "ims15-fast-path",
                 "cics52-liberty-t2-reuse"):
        if not (folder / name).exists():
            simulate(catalogue.find(name), folder / name, exact=True)
    for release in ("ims13", "ims14", "ims15"):
        if not (folder / f"series-{release}").exists():
            simulate_series(catalogue.find(f"{release}-fast-path"), folder / f"series-{release}",
                            exact=True)
    if not (folder / "fp-series").exists():
        simulate_series(catalogue.find("ims15-fast-path"), folder / "fp-series", exact=True)
    if not (folder / "plex").exists():  # a day of a small sysplex
        write_month(Month(systems=3, days=1, seed=5), folder / "plex")
    if not (folder / "pdb-year").exists():  # a year's month summaries, the last month partial
        _trend_data().write_year(folder / "pdb-year", days_short={12: 15})
    if not (folder / "pdb-gap").exists():  # a month missing days, months with no data
        _trend_data().write_year(folder / "pdb-gap", months=5, days_short={2: 20})
    if month and not (folder / "month").exists():
        write_month(Month(systems=2, days=30, seed=7), folder / "month")
    return folder


def _trend_data() -> Any:
    import importlib
    import sys

    sys.path.insert(0, str(REPO / "tests" / "pdb"))
    return importlib.import_module("trend_data")


def request(name: str) -> Any:
    """The case's :class:`zperf.report.build.ReportRequest`, to make in the inputs' folder
    (the current one: the footer names inputs as given)."""
    from zperf.report.build import ReportRequest

    case = {k: v for k, v in CASES[name].items() if k not in ("slow", "charts")}
    inputs = tuple(str(found) for given in case.pop("inputs")
                   for found in (sorted(Path().glob(given)) if "*" in given
                                 else [given.replace("{repo}", str(REPO))]))
    return ReportRequest(inputs=inputs, **case)
