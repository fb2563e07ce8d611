"""Benchmark of the RMF Postprocessor XML reader (CPU Activity reports).

    python benchmarks/rmf_xml_read.py [--size-mb 20] [--repeat 3]

Builds (in memory) a document of IBM's own CPU Activity reports: the 263
reports of the public ZEBRA sample (tests/data/rmf/xml/zebra-cpu.xml.xz,
3 MB, 14 partitions each) repeated, each copy a week later, to about
``--size-mb``; then reads it with zperf and prints MB/s, beside two
references measured in the same run on the same bytes (this machine is
shared, so the ratios are what to compare): expat checking the document with
no handlers, and ElementTree's C parser building the whole tree at once.
Peak memory of a read (tracemalloc) is printed too: it stays at about the
document's size plus one report's tree, whatever the number of reports.
"""

from __future__ import annotations

import argparse
import datetime as dt
import lzma
import re
import statistics
import time
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.parsers import expat

from zperf.formats.rmf.xml import read_rmf_xml

SAMPLE = Path(__file__).resolve().parent.parent / "tests/data/rmf/xml/zebra-cpu.xml.xz"
_DATE = re.compile(rb"(\d\d)/(\d\d)/(\d{4})-")


def _document(size_mb: float) -> bytes:
    """The sample's reports (6 days) repeated, each copy's dates a week later."""
    data = lzma.decompress(SAMPLE.read_bytes())
    head = data[:data.index(b"<postprocessor>")]
    body = data[len(head):data.rindex(b"</ddsml>")]
    copies = max(1, round(size_mb * 1e6 / len(body)))
    parts = [head]
    for day in range(copies):
        def later(found: re.Match[bytes], day: int = day) -> bytes:
            when = dt.date(int(found[3]), int(found[1]), int(found[2])) + dt.timedelta(weeks=day)
            return f"{when:%m/%d/%Y}-".encode()
        parts.append(_DATE.sub(later, body) if day else body)
    return b"".join([*parts, b"</ddsml>\n"])


def _timed(work: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = _document(args.size_mb)
    mb = len(data) / 1e6

    def check() -> None:
        expat.ParserCreate().Parse(data, True)

    def tree() -> None:
        ET.fromstring(data)

    def zperf() -> None:
        tables, tally = read_rmf_xml(data, "bench.xml")
        assert tally.skipped == 0 and tables["cpu"].height == tally.read

    runs = {name: [] for name in ("expat", "ElementTree", "zperf")}
    for _ in range(args.repeat):  # alternately, so that load changes hit all three
        for name, work in (("expat", check), ("ElementTree", tree), ("zperf", zperf)):
            runs[name] += _timed(work, 1)
    tables, tally = read_rmf_xml(data, "bench.xml")
    print(f"document: {mb:.1f} MB, {tally.read} CPU Activity reports, "
          f"{tables['cpu_lpar'].height} cpu_lpar rows")
    for name, seconds in runs.items():
        best, median = min(seconds), statistics.median(seconds)
        print(f"{name:12s} best {mb / best:6.1f} MB/s  median {mb / median:6.1f} MB/s  "
              f"(zperf / this, median: {statistics.median(runs['zperf']) / median:.2f})")
    tracemalloc.start()
    read_rmf_xml(data, "bench.xml")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak Python memory of a read: {peak / 1e6:.0f} MB (the document: {mb:.0f} MB)")


if __name__ == "__main__":
    main()
