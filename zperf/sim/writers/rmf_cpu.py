"""Write RMF CPU Activity report listings from cpu table rows.

The build direction of :mod:`zperf.formats.rmf.cpu`, for tests and the
simulator: each row becomes a CPU Activity page (and a Partition Data Report
page when the row names its partition) in the layout of z/OS V2R1 and later
(``TIME %`` headings, MT and LOG PROC SHARE columns) or the older two-line
``TIME PERC`` headings.  The online processors of a type share the row's
figures equally; values are printed to RMF's precision (two decimals).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from zperf.calc import formulas as f
from zperf.sim.writers.wlmgl import full_time
from zperf.tables.cpu import PROCESSOR_TYPES

#: Layout -> heading lines, as (column, label, width) per line; the data
#: values are right-aligned to the end of their column's label in the last
#: heading line (the reader takes them by position).
_Heading = list[tuple[str, str, int]]
LAYOUTS: dict[str, list[_Heading]] = {
    "v2r1": [
        [("num", "---CPU---", 13), ("online", "---------------- TIME % ----------------", 43),
         ("prod", "--- MT % ----", 16), ("share", "LOG PROC", 14),
         ("rate", "--I/O INTERRUPTS--", 18)],
        [("num", "NUM", 5), ("type", "TYPE", 8), ("online", "ONLINE", 10),
         ("lpar", "LPAR BUSY", 13), ("mvs", "MVS BUSY", 11), ("parked", "PARKED", 9),
         ("prod", "PROD", 7), ("util", "UTIL", 9), ("share", "SHARE %", 14),
         ("rate", "RATE", 9), ("tpi", "% VIA TPI", 9)],
    ],
    "v1r13": [
        [("num", "---CPU---", 13), ("online", "ONLINE TIME", 14), ("lpar", "LPAR BUSY", 12),
         ("mvs", "MVS BUSY", 12), ("parked", "PARKED TIME", 14), ("share", "LOG PROC", 11),
         ("rate", "I/O TOTAL", 16), ("tpi", "% I/O INTERRUPTS", 16)],
        [("num", "NUM", 5), ("type", "TYPE", 8), ("online", "PERCENTAGE", 14),
         ("lpar", "TIME PERC", 12), ("mvs", "TIME PERC", 12), ("parked", "PERCENTAGE", 14),
         ("share", "SHARE %", 11), ("rate", "INTERRUPT RATE", 16),
         ("tpi", "HANDLED VIA TPI", 16)],
    ],
}
_PRINTED = dict(PROCESSOR_TYPES)


def percent_text(value: float | None) -> str:
    return "-----" if value is None else f"{value:.2f}"


def _cells(layout: str) -> dict[str, tuple[int, int]]:
    """column -> (start, end of label) in the last heading line (it names every column)."""
    out: dict[str, tuple[int, int]] = {}
    pos = 0
    for column, label, width in LAYOUTS[layout][-1]:
        out[column] = (pos, pos + len(label))
        pos += width
    return out


def _line(values: Mapping[str, str], cells: dict[str, tuple[int, int]]) -> str:
    text = ""
    for column, (start, end) in sorted(cells.items(), key=lambda c: c[1]):
        value = values.get(column)
        if value is None:
            continue
        if column == "num":
            cell_start = start + 1
        elif column == "type":
            cell_start = start
        else:
            cell_start = max(start, end - len(value.split()[0]))
        text = text.ljust(cell_start) + value + " "
    return text.rstrip()


def _header(title: str, row: Mapping[str, Any]) -> list[str]:
    start: dt.datetime = row["interval_start"]
    secs = float(row["interval_seconds"])
    minutes, rest = divmod(round(secs * 1000), 60_000)
    interval = f"{minutes:02d}.{rest // 1000:02d}.{rest % 1000:03d}"
    release = row.get("zos_release") or "V2R4"
    cycle = row.get("cycle_seconds")
    return [
        " " * 50 + title,
        "",
        f"           z/OS {release:<8}             SYSTEM ID {row['system']:<8}         "
        f"DATE {start:%m/%d/%Y}            INTERVAL {interval}",
        f"                                     RPT VERSION {release} RMF       "
        f"TIME {start:%H.%M.%S}" + (f"              CYCLE {cycle:.3f} SECONDS"
                                     if cycle is not None else ""),
        "",
    ]


def _cpu_page(row: Mapping[str, Any], layout: str) -> list[str]:
    lines = _header("C P U  A C T I V I T Y", row)
    capacity = row.get("cpc_capacity_msu")
    lines += [
        f"CPU        {row.get('machine_type') or '':<6} CPC CAPACITY "
        f"{'' if capacity is None else capacity:>5}        SEQUENCE CODE "
        f"{row.get('cpc_sequence_code') or ''}",
        f"MODEL      {row.get('model_capacity_id') or '':<6} CHANGE REASON=NONE        "
        f"HIPERDISPATCH={row.get('hiperdispatch') or 'NO'}",
        f"H/W MODEL  {row.get('hardware_model') or ''}",
        "",
    ]
    for heading in LAYOUTS[layout]:
        lines.append("".join(label.ljust(width) for _, label, width in heading).rstrip())
    cells = _cells(layout)
    for p in processor_lines(row):
        io = {"rate": "0.00", "tpi": "0.00"} if p.prefix == "cp" else {}
        if p.number is not None:
            lines.append(_line({
                "num": f"{p.number:X}", "type": p.printed, "online": f"{p.online_pct:.2f}",
                "lpar": p.lpar, "mvs": p.mvs, "parked": p.parked,
                "prod": "------", "util": "------", "share": "100.0 HIGH", **io}, cells))
            continue
        lines.append(_line({"num": "TOTAL/AVERAGE", "lpar": p.lpar, "mvs": p.mvs,
                            "prod": "------", "util": "------",
                            "share": f"{100.0 * p.online:.1f}",
                            **io}, {k: v for k, v in cells.items()
                                    if k not in ("type", "online")}))
        lines.append("")
    return lines


class ProcessorLine(NamedTuple):
    """One printed processor row of a CPU Activity report: a processor (``number``) or
    its type's TOTAL/AVERAGE row (``number`` None)."""

    prefix: str  # the cpu table's column prefix (cp, ziip...)
    printed: str  # the type as RMF prints it (CP, IIP...)
    online: int  # processors of the type online
    number: int | None
    online_pct: float
    lpar: str  # LPAR BUSY and MVS BUSY as printed
    mvs: str
    parked: str


def processor_lines(row: Mapping[str, Any]) -> Iterator[ProcessorLine]:
    """The processor rows of a cpu row, as both the listing and the XML writer print
    them: the online processors of a type share the row's figures (numbered across
    types), or show their own where the row has them (``<prefix>_busy_each``: (LPAR
    BUSY, MVS BUSY) per processor), then the type's TOTAL/AVERAGE row."""
    number = 0
    for prefix, printed in PROCESSOR_TYPES:
        n = int(row.get(f"{prefix}_online") or 0)
        if not n:
            continue
        engines = row.get(f"{prefix}_online_engines")
        online = 100.0 * (float(engines) / n if engines is not None else 1.0)
        mvs_pct = row.get(f"{prefix}_mvs_busy_pct")
        lpar_pct = row.get(f"{prefix}_lpar_busy_pct")
        lpar, mvs = percent_text(lpar_pct), percent_text(mvs_pct)
        parked = "0.00" if mvs_pct is not None else "100.00"
        each = row.get(f"{prefix}_busy_each")  # the processors' own, where the row has them
        for k in range(n):
            if each is not None:
                one = (percent_text(None if lpar_pct is None else each[k][0]),
                       percent_text(None if mvs_pct is None else each[k][1]))
            else:
                one = (lpar, mvs)
            yield ProcessorLine(prefix, printed, n, number, online, *one, parked)
            number += 1
        yield ProcessorLine(prefix, printed, n, None, online, lpar, mvs, parked)


def _partition_page(row: Mapping[str, Any], lpars: Sequence[Mapping[str, Any]] = ()
                    ) -> list[str]:
    lines = _header("P A R T I T I O N   D A T A   R E P O R T", row)
    physical: dict[str, int] = {}
    for lpar in lpars:
        physical.setdefault(str(lpar.get("processor_type")), int(lpar["physical_processors"]))
    order = ("CP", "AAP", "IIP", "ICF", "IFL")
    physical = dict(sorted(physical.items(), key=lambda kv: order.index(kv[0])
                           if kv[0] in order else len(order)))
    counts = [("NUMBER OF PHYSICAL PROCESSORS", sum(physical.values()))] if physical else []
    counts += list(physical.items())
    names = {lpar["partition_name"] for lpar in lpars} - {"PHYSICAL"}
    left = [f"MVS PARTITION NAME                     {row['lpar_name']:>8}"]
    if row.get("image_capacity_msu") is not None:
        left.append(f"IMAGE CAPACITY                         {row['image_capacity_msu']:>8}")
    if names:
        left.append(f"NUMBER OF CONFIGURED PARTITIONS        {len(names):>8}")
    left += ["WAIT COMPLETION                              NO",
             "DISPATCH INTERVAL                       DYNAMIC"]
    for i, text in enumerate(left):
        if i < len(counts):
            label, number = counts[i]
            text = f"{text:<52}{label:<32}{number:>6}" if i == 0 else \
                f"{text:<68}{label:<16}{number:>6}"
        lines.append(text)
    if lpars:
        lines += ["", *_partition_table(row, lpars)]
    return lines


#: The Partition Data table's columns: heading, width.
_PARTITION_COLUMNS = (("NAME", 10), ("S", 2), ("WGT", 6), ("MSU DEF", 8), ("MSU ACT", 8),
                      ("NUM", 7), ("TYPE", 6), ("EFFECTIVE", 14), ("TOTAL", 14),
                      ("LOG EFF", 9), ("LOG TOT", 9), ("LPAR MGMT", 10), ("PHYS EFF", 10),
                      ("PHYS TOT", 10))


def _partition_table(row: Mapping[str, Any], lpars: Sequence[Mapping[str, Any]]) -> list[str]:
    """One block per processor type: its partitions, *PHYSICAL*, the type's TOTAL."""
    def line(cells: Sequence[str]) -> str:
        return "".join(c.rjust(w) if i > 1 else c.ljust(w)
                       for i, (c, (_, w)) in enumerate(zip(cells, _PARTITION_COLUMNS,
                                                           strict=True))).rstrip()

    out = [" --------- PARTITION DATA -------   -- LOGICAL PARTITION PROCESSOR DATA --   "
           "-- AVERAGE PROCESSOR UTILIZATION PERCENTAGES --",
           line([h for h, _ in _PARTITION_COLUMNS])]
    def pct(value: Any) -> str:
        return "" if value is None else f"{value:.2f}"

    for kind in dict.fromkeys(str(lp.get("processor_type")) for lp in lpars):
        block = [lp for lp in lpars if str(lp.get("processor_type")) == kind]
        block.sort(key=lambda lp: (lp["partition_name"] == "PHYSICAL", lp["partition_name"]))
        for lp in block:
            physical = lp["partition_name"] == "PHYSICAL"
            out.append(line([
                "*PHYSICAL*" if physical else lp["partition_name"], "" if physical else "A",
                "" if physical else "DED" if lp.get("dedicated") else str(lp.get("weight") or ""),
                "" if physical else str(lp.get("msu_defined") or 0),
                "" if physical or kind != "CP" else str(lp.get("msu_actual")
                                                        or round(_msu(row, lp))),
                "" if physical else f"{lp.get('online_engines') or 0:.1f}", kind,
                full_time(float(lp["effective_dispatch_seconds"]) * 1000)[1:],
                full_time(float(lp["total_dispatch_seconds"]) * 1000)[1:],
                "" if physical else pct(lp.get("logical_effective_pct")),
                "" if physical else pct(lp.get("logical_total_pct")),
                pct(lp.get("physical_lpar_mgmt_pct")), pct(lp.get("physical_effective_pct")),
                pct(lp.get("physical_total_pct"))]))
        total = [sum(float(lp.get(c) or 0.0) for lp in block) for c in (
            "effective_dispatch_seconds", "total_dispatch_seconds", "physical_lpar_mgmt_pct",
            "physical_effective_pct", "physical_total_pct")]
        out.append(line(["TOTAL", "", "", "", "", "", "", full_time(total[0] * 1000)[1:],
                         full_time(total[1] * 1000)[1:], "", "", *(pct(v) for v in total[2:])]))
        out.append("")
    return out


def _msu(row: Mapping[str, Any], lpar: Mapping[str, Any]) -> float:
    """MSU ACT: the partition's effective dispatch time at the CPU rate (MSU/h)."""
    cpa, scaling = row.get("cpa_actual"), row.get("cpa_scaling_factor")
    if not cpa or not scaling:
        return 0.0
    return float(f.msu_per_hour(float(lpar["effective_dispatch_seconds"]),
                                float(row["interval_seconds"]), cpa, scaling))


def write_cpu_report(rows: Iterable[Mapping[str, Any]], *, layout: str = "v2r1",
                     asa: bool = True, lpars: Iterable[Mapping[str, Any]] = ()) -> str:
    """A listing with one CPU Activity report (and Partition Data page) per row.

    With ``asa`` every line starts with its carriage-control character
    (``1`` at each new page), as RMF's SYSOUT is written (RECFM=FBA).  ``lpars``
    (cpu_lpar rows) fill each Partition Data page's table, those of its system and
    interval.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    by_interval: dict[tuple[Any, Any], list[Mapping[str, Any]]] = {}
    for lpar in lpars:
        by_interval.setdefault((lpar["system"], lpar["interval_start"]), []).append(lpar)
    pages: list[list[str]] = []
    for row in rows:
        pages.append(_cpu_page(row, layout))
        if row.get("lpar_name"):
            pages.append(_partition_page(row, by_interval.get(
                (row["system"], row["interval_start"]), [])))
    out: list[str] = []
    for page in pages:
        for i, text in enumerate(page):
            out.append(("1" if i == 0 else " ") + text if asa else text)
    return "\n".join(out) + "\n"
