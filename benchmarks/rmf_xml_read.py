"""Benchmark of the RMF Postprocessor XML reader (CPU Activity and WLMGL reports).

    python benchmarks/rmf_xml_read.py [--size-mb 20] [--wlmgl-size-mb 5] [--repeat 3]

Builds two documents and writes them to a temporary directory: one of IBM's
own CPU Activity reports (the 263 reports of the public ZEBRA sample,
tests/data/rmf/xml/zebra-cpu.xml.xz, 3 MB, 14 partitions each, repeated with
each copy a week later) of about ``--size-mb``, and one of Workload Activity
reports (tests/data/rmf/xml/wlmgl-built-from-docs.xml, built from IBM's
description, repeated the same way).  Each is read, alternately so that the
load of a shared machine hits all of them alike, by:

- the page-cache read of the file (``Path.read_bytes``: the floor);
- expat checking the document with no handlers (zperf's safety check);
- ElementTree's C parser building the whole tree;
- zperf with every report through its tree (``careful=True``: the reference);
- zperf as it reads the bytes in memory (the fast path where a report allows);
- zperf as ``zperf parse`` reads a file: in pieces of whole reports, from the
  file as it is read (``xml_parts``; the same code, piece by piece).

For each it prints MB/s (wall, best and median), CPU ms per MB (this process
and any children, median: zperf reads in this process only) and the ratios, in
the same run, to expat's CPU and to the page-cache read's wall time: on a
shared machine compare ratios, not rates.  Peak Python memory of a zperf read
(tracemalloc) is printed too, of the bytes in memory and of the file read in
pieces (``--piece-mb``, the pieces' size).  The peak resident memory of ``zperf parse -o`` is
benchmarks/parse_stream.py's.
"""

from __future__ import annotations

import argparse
import datetime as dt
import lzma
import re
import resource
import statistics
import tempfile
import time
import tracemalloc
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from xml.parsers import expat

from zperf.formats.rmf import xml_pieces
from zperf.formats.rmf.xml import read_rmf_xml, xml_parts
from zperf.formats.tally import Tally

DATA = Path(__file__).resolve().parent.parent / "tests/data/rmf/xml"
_DATE = re.compile(rb"(\d\d)/(\d\d)/(\d{4})-")


def _repeated(data: bytes, size_mb: float) -> bytes:
    """A document's reports repeated to about ``size_mb``, each copy's dates a week later."""
    head = data[:data.index(b"<postprocessor>")]
    end = data.rindex(b"</postprocessor>") + len(b"</postprocessor>")
    body = data[len(head):end] + b"\n"
    copies = max(1, round(size_mb * 1e6 / len(body)))
    parts = [head]
    for week in range(copies):
        def later(found: re.Match[bytes], week: int = week) -> bytes:
            when = dt.date(int(found[3]), int(found[1]), int(found[2])) + dt.timedelta(weeks=week)
            return f"{when:%m/%d/%Y}-".encode()
        parts.append(_DATE.sub(later, body) if week else body)
    return b"".join([*parts, b"</ddsml>\n"])


def _cpu_now() -> float:
    """CPU seconds of this process and its waited-for children (none expected: the check
    runs in this process since branch i31-lib)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _children_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def _measure(readers: dict[str, Callable[[], object]], repeat: int
             ) -> dict[str, tuple[list[float], list[float], list[float]]]:
    """(wall seconds, CPU seconds, of which the children's) of each reader's runs, the
    readers taken in turn."""
    out: dict[str, tuple[list[float], list[float], list[float]]] = {
        name: ([], [], []) for name in readers}
    for _ in range(repeat):
        for name, work in readers.items():
            cpu, children, start = _cpu_now(), _children_now(), time.perf_counter()
            work()
            out[name][0].append(time.perf_counter() - start)
            out[name][1].append(_cpu_now() - cpu)
            out[name][2].append(_children_now() - children)
    return out


def _in_pieces(path: Path) -> None:
    """The file read as ``zperf parse`` reads it: 16 MB chunks, in pieces."""
    with path.open("rb") as stream:
        for _ in xml_parts(iter(lambda: stream.read(16 << 20), b""), Tally(path.name)):
            pass


def _bench(title: str, data: bytes, repeat: int, folder: Path) -> None:
    path = folder / f"{title}.xml"
    path.write_bytes(data)
    mb = len(data) / 1e6
    tables, tally = read_rmf_xml(path.read_bytes(), path.name)
    careful_tables, careful_tally = read_rmf_xml(data, path.name, careful=True)
    same = (tally.summary() == careful_tally.summary() and tally.warnings == careful_tally.warnings
            and all(tables[k].equals(careful_tables[k]) for k in tables))
    rows = ", ".join(f"{frame.height} {name}" for name, frame in tables.items() if frame.height)
    print(f"\n{title}: {mb:.1f} MB, {tally.read} reports, {rows}; fast = careful: {same}")
    runs = _measure({  # (the lambdas: each run reads the file, as zperf parse does)
        "page-cache read": path.read_bytes,
        "expat, no handlers": lambda: expat.ParserCreate().Parse(data, True),
        "ElementTree, whole tree": lambda: ET.fromstring(data),
        "zperf, careful (trees)": lambda: read_rmf_xml(path.read_bytes(), path.name,
                                                       careful=True),
        "zperf": lambda: read_rmf_xml(path.read_bytes(), path.name),
        "zperf, file in pieces": lambda: _in_pieces(path),
    }, repeat)
    floor = statistics.median(runs["page-cache read"][0])
    expat_cpu = statistics.median(runs["expat, no handlers"][1])
    print(f"{'reader':26s} {'MB/s best':>9s} {'median':>7s} {'CPU ms/MB':>10s} "
          f"{'CPU / expat':>11s} {'wall / read':>11s}")
    for name, (wall, cpu, _) in runs.items():
        median, cpu_median = statistics.median(wall), statistics.median(cpu)
        print(f"{name:26s} {mb / min(wall):9.1f} {mb / median:7.1f} "
              f"{cpu_median * 1e3 / mb:10.1f} {cpu_median / expat_cpu:11.2f} "
              f"{median / floor:11.1f}")
    _, cpu, children = runs["zperf"]
    own = statistics.median([c - k for c, k in zip(cpu, children, strict=True)])
    print(f"zperf's CPU: {own * 1e3 / mb:.1f} ms/MB in this process, "
          f"{statistics.median(children) * 1e3 / mb:.1f} in child processes (none expected): "
          f"{mb / own:.1f} MB/s on an idle CPU")
    peaks = []
    for work in (lambda: read_rmf_xml(data, path.name), lambda: _in_pieces(path)):
        tracemalloc.start()
        work()
        peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
        tracemalloc.stop()
    print(f"peak Python memory of a zperf read: {peaks[0]:.0f} MB of the bytes in memory, "
          f"{peaks[1]:.0f} MB of the file in pieces of {xml_pieces.PIECE_BYTES / 1e6:.0f} MB "
          f"(the document: {mb:.0f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--wlmgl-size-mb", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--piece-mb", type=float, help="the pieces' size (default 16.8)")
    args = parser.parse_args()
    if args.piece_mb:
        xml_pieces.PIECE_BYTES = int(args.piece_mb * 1e6)
    with tempfile.TemporaryDirectory() as folder:
        _bench("cpu-activity", _repeated(lzma.decompress(
            (DATA / "zebra-cpu.xml.xz").read_bytes()), args.size_mb), args.repeat, Path(folder))
        if args.wlmgl_size_mb > 0:
            _bench("workload-activity", _repeated(
                (DATA / "wlmgl-built-from-docs.xml").read_bytes(), args.wlmgl_size_mb),
                args.repeat, Path(folder))


if __name__ == "__main__":
    main()
