"""Field table of the RMF Postprocessor reports in XML (IBM's "ddsml" documents).

A report is a ``postprocessor`` element: ``metric@id`` names it, ``resource``
its system (or sysplex), ``time-data`` its interval; its ``segment`` elements
hold ``part`` elements of ``var-list`` (name/value pairs) and ``table``
(column headings, then rows of cells).  This table says, for every heading
zperf reads (a var name, a column heading), which column it fills and how its
printed value converts; the headings zperf knows and does not keep are
listed too, so that one it does not know is reported as a warning, never
passed over silently.  Headings are compared without regard to case and
runs of blanks.

The CPU Activity report's headings are those of IBM's own output (z/OS V2R5,
the public samples of tests/data/rmf/xml).  No public Workload Activity
(WLMGL) XML exists: its headings are zperf's reading of IBM's description of
the format (segments, parts, var-lists, tables), with the listing's own
group and label words, ``GROUP: LABEL`` as the CPU report names its grouped
columns ("Avg Util%: LOG PROC Effective"): tests/data/rmf/xml/README.md.

Values are the printed ones, converted as the listing's are
(:mod:`~zperf.formats.rmf.values`): numbers with K/M suffixes, times
HH.MM.SS.TTT (or .FFFFFF: six digits after the last point are microseconds,
since no heading says so), an empty cell or ``N/A`` is no value.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from zperf.formats.rmf import wlmgl_fields
from zperf.formats.rmf.values import interval_seconds, number, time_ms

#: How a printed value converts.
TEXT, INT, NUMBER, SECONDS, TIME_MS, IGNORE = ("text", "int", "number", "seconds",
                                               wlmgl_fields.TIME_MS, wlmgl_fields.IGNORE)
#: A distribution bucket's limit: '<', '<=' or '>' and a time (see BUCKET_LIMIT).
BUCKET = "bucket_limit"
Fields = dict[str, tuple[str, str]]  # normalized heading -> (column, conversion)


@functools.lru_cache(maxsize=4096)
def key(heading: str | None) -> str:
    """A heading as the tables below hold it: case and runs of blanks do not matter
    (remembered: every report repeats the same headings)."""
    return " ".join((heading or "").split()).casefold()


#: column -> the heading that fills it, as printed (for messages).
PRINTED: dict[str, str] = {}


def _table(entries: dict[str, tuple[str, str]], ignored: str = "") -> Fields:
    out = {key(h): v for h, v in entries.items()}
    for heading, (column, _) in entries.items():
        PRINTED.setdefault(column, heading)
    out.update({key(h): ("", IGNORE) for h in ignored.split("|") if h})
    return out


# ------------------------------------------------------------ CPU Activity report

CPU_METRIC = "CPU"
CPU_SEGMENT = key("CPU Activity")
PARTITION_SEGMENT = key("Partition Data Report")
#: Segments of the CPU report zperf does not read (IBM's example of the element).
CPU_OTHER_SEGMENTS = frozenset(key(s) for s in ("LPAR Cluster Report", "Group Capacity Report"))

#: The CPU Activity segment's machine values -> cpu columns.
CPU_VARS = _table({
    "CPU": ("machine_type", TEXT), "Model": ("model_capacity_id", TEXT),
    "H/W Model": ("hardware_model", TEXT), "Sequence Code": ("cpc_sequence_code", TEXT),
    "HiperDispatch": ("hiperdispatch", TEXT), "CPC Capacity": ("cpc_capacity_msu", INT),
}, "Change Reason|Boost Type|Boost Class")

#: The processor table (its first heading is CPU Number) -> cpu_table's column names.
PROCESSOR_COLUMNS = _table({
    "CPU Number": ("number", TEXT), "CPU Type": ("type", TEXT),
    "Time% Online": ("online", NUMBER), "Time% LPAR Busy": ("lpar", NUMBER),
    "Time% MVS Busy": ("mvs", NUMBER), "Time% Parked": ("parked", NUMBER),
}, "LOG PROC Share%|HiperDispatch Priority|I/O Interrupts Rate|I/O Interrupts% via TPI|"
   "MT% PROD|MT% UTIL")
PROCESSOR_TABLE = key("CPU Number")

#: Parts of the CPU Activity segment zperf does not read.
CPU_OTHER_PARTS = frozenset(key(p) for p in (
    "System Address Space Analysis", "Distribution of In-ready Work Unit Queue",
    "Work Unit Analysis", "Blocked Workload Analysis"))

#: The Partition Data Report's header values -> cpu (and cpu_lpar) columns.
PARTITION_VARS = _table({
    "MVS Partition Name": ("lpar_name", TEXT), "Image Capacity": ("image_capacity_msu", INT),
}, "Number of Configured Partitions|Wait Completion|Dispatch Interval|Group Name|Group Limit|"
   "Group Capacity Available|Initial Capping|LPAR Hardware Capping|Hardware Group Capping|"
   "Absolute MSU Capping")

PHYSICAL_PART = key("Number of Physical Processors")
PHYSICAL_COLUMNS = _table({"Type": ("processor_type", TEXT),
                           "Number": ("physical_processors", INT)})
#: 'Integrated Information Processor (zIIP)' -> IIP, as SMF70CIN and the PROC Type column say.
PHYSICAL_TYPE = re.compile(r"\((\w+)\)")
PHYSICAL_NAMES = {"ZIIP": "IIP", "ZAAP": "AAP"}

PARTITION_TABLE = key("Partition Name")
#: The Partition Data table -> cpu_lpar columns (WEIGHT: a number, or DED for dedicated).
WEIGHT = "weight"
PARTITION_COLUMNS = _table({
    "Partition Name": ("partition_name", TEXT), "Partition Status": ("partition_status", TEXT),
    "Partition Weight": ("weight", WEIGHT), "MSU Defined": ("msu_defined", INT),
    "MSU Actual": ("msu_actual", INT), "Capping Defined": ("capping_defined", TEXT),
    "Capping WLM%": ("capping_wlm_pct", NUMBER),
    "Num of LOG PROCs": ("logical_processors", INT), "PROC Type": ("processor_type", TEXT),
    "Effective Dispatch Time": ("effective_dispatch_seconds", SECONDS),
    "Total Dispatch Time": ("total_dispatch_seconds", SECONDS),
    "Avg Util%: LOG PROC Effective": ("logical_effective_pct", NUMBER),
    "Avg Util%: LOG PROC Total": ("logical_total_pct", NUMBER),
    "Avg Util%: PHYS PROC LPAR MGMT": ("physical_lpar_mgmt_pct", NUMBER),
    "Avg Util%: PHYS PROC Effective": ("physical_effective_pct", NUMBER),
    "Avg Util%: PHYS PROC Total": ("physical_total_pct", NUMBER),
}, "Boost Type")
#: PR/SM's own row, as RMF prints its name; SMF 70.1 names it PHYSICAL.
PHYSICAL_ROW = {"*PHYSICAL*": "PHYSICAL"}


# ------------------------------------------------------------ Workload Activity report

WLMGL_METRIC = "WLMGL"
POLICY_SEGMENT = key("Workload Activity")
POLICY_VARS = _table({"Policy": ("POLICY", TEXT), "Policy Activation": ("activated", TEXT)})
#: Segment of class periods -> the listing's section title words.
CLASS_SEGMENTS = {key("Service Class Periods"): "SERVICE CLASS",
                  key("Report Class Periods"): "REPORT CLASS"}
#: A class period's key values -> the listing's key words (wlmgl_words.key_values reads them).
KEY_VARS = _table({h: (h.upper(), TEXT) for h in (
    "Workload", "Service Class", "Report Class", "Period", "Importance", "Description",
    "Resource Group")})
GOAL_VAR = key("Goal")


def wlmgl_var(group: str, label: str) -> str:
    """The var name of a listing's label in a column group: 'SERVICE TIME: CPU'."""
    return f"{group}: {label}"


#: A class period's values: the listing's groups and labels (one field table for both).
DATA_VARS = _table({wlmgl_var(g.name, label): target for g in wlmgl_fields.GROUPS
                    for label, target in g.labels.items()})

DISTRIBUTION_TABLE = key("Time: HH.MM.SS.TTT")
DISTRIBUTION_COLUMNS = _table({
    "Time: HH.MM.SS.TTT": ("bucket_limit_ms", BUCKET),
    "Number of Transactions: IN BUCKET": ("trans_ended", NUMBER),
}, "Number of Transactions: CUM TOTAL|Percent: CUM TOTAL|Percent: IN BUCKET")
#: A bucket's limit as printed: '<' the first, '<=' the next, '>' the last (no limit:
#: its time repeats the limit before it).  The same pattern for re and polars.
BUCKET_LIMIT = re.compile(r"^(<=|<|>)[ \t]*([0-9]+(?:\.[0-9]+)+)$")

#: Children of a report's elements that zperf knows (others are reported).
KNOWN_CHILDREN = {
    "postprocessor": frozenset({"metric", "version", "resource", "time-data", "segment",
                                "message"}),
    "segment": frozenset({"name", "part", "message"}),
    "part": frozenset({"name", "var-list", "table", "message"}),
    "table": frozenset({"name", "column-headers", "row"}),
}


# ------------------------------------------------------------ conversions

@functools.lru_cache(maxsize=1 << 16)
def text_of(text: str | None) -> str | None:
    """A printed text, None for an empty cell, 'N/A' and dashes (remembered: the
    reports of a document repeat their names, statuses and types)."""
    text = (text or "").strip()
    return None if not text or text == "N/A" or text.strip("-") == "" else text


@functools.lru_cache(maxsize=1 << 16)
def value_of(kind: str, text: str | None) -> Any:
    """A printed value converted; None for an empty cell, 'N/A' and dashes
    (remembered, as :func:`text_of`).

    ValueError when a number is not one."""
    text = text_of(text)
    if text is None:
        return None
    if kind in (TEXT, WEIGHT):
        return text
    if kind == INT:
        value = number(text)
        return None if value is None else int(value)
    if kind == NUMBER:
        return number(text)
    if kind in (SECONDS, TIME_MS):
        if not re.fullmatch(r"\d+(?:\.\d+)*", text):
            raise ValueError(f"{text!r} is not a time")
        ms = time_ms(text, micro=len(text.rsplit(".", 1)[-1]) == 6)
        return ms / 1000.0 if kind == SECONDS and ms is not None else ms
    return None


#: display-start as the en-us locale prints it: mm/dd/yyyy-hh.mm.ss.
DISPLAY_TIME = re.compile(r"^(\d\d/\d\d/\d{4})-(\d\d\.\d\d\.\d\d)$")
LOCALES = frozenset({"", "en-us"})
#: cycle@unit -> seconds.
CYCLE_UNITS = {"milliseconds": 1e-3, "seconds": 1.0}


def display_time(text: str | None, locale: str | None) -> tuple[str, str]:
    """('mm/dd/yyyy', 'hh.mm.ss') of a display-start; ValueError if it is not one."""
    if key(locale) not in LOCALES:
        raise ValueError(f"display-start in locale {locale!r}: zperf reads en-us dates "
                         "(mm/dd/yyyy)")
    found = DISPLAY_TIME.match((text or "").strip())
    if found is None:
        raise ValueError(f"display-start {text!r} is not mm/dd/yyyy-hh.mm.ss")
    return found.group(1), found.group(2)


def report_interval(text: str | None) -> str:
    """The interval as the listing prints it ('29:59:997' -> '29.59.997')."""
    printed = (text or "").strip().replace(":", ".")
    try:
        interval_seconds(printed)
    except ValueError:
        raise ValueError(f"report-interval {text!r} is not mm:ss:ttt") from None
    return printed


#: 'z/OS V2R5' -> 'V2R5'.
RELEASE = re.compile(r"(V\d+R\d+)")
