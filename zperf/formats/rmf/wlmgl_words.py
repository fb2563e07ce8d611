"""The words and shapes of a WLMGL listing that its readers look for.

Page header fields, goal lines, distribution rows, the words that make a line
a heading, a state-sample line or the end of a block, where each label of a
data row goes (its plan), and the row values a page header and a class's key
lines give.  What a line is (wlmgl_lines), the bulk readers (wlmgl_rows,
wlmgl) and the line-by-line reader (wlmgl_block) share these, so that every
path reads a line the same way.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from zperf.formats.fits import misfit
from zperf.formats.rmf.values import interval_seconds, pairs
from zperf.formats.rmf.wlmgl_fields import GROUPS, HEADING, IGNORE, LABEL_ALIASES, Group
from zperf.tables import WORKLOAD

HEADER_FIELDS = {
    "zos_release": re.compile(r"(?:z/OS|OS/390)\s+(V\d+R\d+)"),
    "sysplex": re.compile(r"SYSPLEX\s+(\S+)"),
    "date": re.compile(r"(?<!/)DATE\s+(\d\d/\d\d/\d{4})"),
    "time": re.compile(r"(?<![-/])TIME\s+(\d\d\.\d\d\.\d\d)\b"),
    "interval": re.compile(r"INTERVAL\s+(\d+\.\d\d\.\d+)"),
    "activated": re.compile(r"POLICY ACTIVATION DATE/TIME\s+(\d\d/\d\d/\d{4})\s+"
                            r"(\d\d\.\d\d\.\d\d)"),
}
#: A page header as the readers keep it: these values, in this order.
HEADER_NAMES = ("zos_release", "sysplex", "date", "time", "interval", "activated")
Header = tuple[Any, ...]
SOURCE_FORMAT = "rmf-wlmgl"
#: A row of the RESPONSE TIME DISTRIBUTION: the bucket's limit, the cumulative
#: and the bucket's count.  One definition for both readers: Python's re reads
#: it line by line (BUCKET); the bulk reader runs it in polars, ASCII-only
#: ("(?-u)"), on lines of printable ASCII, where the two engines agree on what
#: \s, \d and \b match.
BUCKET_PATTERN = (r"^\s*(?P<op><=|<|>)\s*(?P<limit>\d+(?:\.\d+)+)\s+(?P<cumulative>\d+[KM]?)"
                  r"\s+(?P<count>\d+[KM]?)\b")
BUCKET = re.compile(BUCKET_PATTERN)
GOAL = re.compile(r"GOAL:\s*(?:EXECUTION VELOCITY\s+(\d+(?:\.\d+)?)%|RESPONSE TIME\s+"
                   r"([\d.]+)\s+(?:FOR\s+(\d+)%|AVG)|(DISCRETIONARY)|(SYSTEM))")
#: Words of which a heading line has at least one (a cheap test before HEADING).
MAY_HEAD = re.compile(r"TRANS|SERVICE|APPL|DASD|STORAGE|PROMOTED|RATES|ENCLAVES")
#: Lines that start the subsystem state-sample section of a class period.
STATE_SAMPLES = ("STATE SAMPLES", "SUB  P", "SUB P", "RESPONSE TIME BREAKDOWN")
#: Titles of the rules between report sections (squeezed): not part of a class.
SECTIONS = ("PERIODS", "POLICY", "WORKLOAD", "CLASSES", "GROUPS")
STOP_BLOCK = ("RESPONSE TIME DISTRIBUTION", "STATE SAMPLES", "-TIME-", "SUB  P",
               "SUB P", "TYPE ")


def header_values(header: Header, file: str) -> dict[str, Any]:
    """Row values from a page header (the same for every class under it); a date
    or time that is not one raises ValueError."""
    h = dict(zip(HEADER_NAMES, header, strict=True))
    start = None
    if h["date"] and h["time"]:
        start = dt.datetime.strptime(f"{h['date']} {h['time']}", "%m/%d/%Y %H.%M.%S")
    activated = None
    if h["activated"]:
        activated = dt.datetime.strptime(" ".join(h["activated"]), "%m/%d/%Y %H.%M.%S")
    return {"source": file, "source_format": SOURCE_FORMAT, "sysplex": h["sysplex"],
            "zos_release": h["zos_release"], "interval_start": start,
            "interval_seconds": interval_seconds(h["interval"]) if h["interval"] else None,
            "policy_activated": activated}


def key_values(keys: dict[str, str]) -> dict[str, Any]:
    """Row values from a class's key lines (POLICY=, SERVICE CLASS=, PERIOD=...).

    A summary of a workload group (POLICY= and WORKLOAD= but no class: the
    WLMGL(WGROUP) report) is a row of class_kind 'workload' named after the
    workload; the summary of the whole policy (POLICY= alone: WLMGL(POLICY)) one
    of class_kind 'policy' named after the policy."""
    group = keys.get("RESOURCE GROUP")
    return {
        "policy": keys.get("POLICY"), "workload": keys.get("WORKLOAD"),
        "class_kind": class_kind(keys), "class_name": class_name(keys),
        "description": keys.get("DESCRIPTION") or None,
        "period": _small_number(keys, "PERIOD", "period"),
        "importance": _small_number(keys, "IMPORTANCE", "importance"),
        "resource_group": None if not group or group.startswith("*") else group,
    }


def _small_number(keys: dict[str, str], key: str, column: str) -> int | None:
    """PERIOD=n, IMPORTANCE=n as a number (None when printed as a word, such as
    IMPORTANCE=HIGH); ValueError when it is too large for its column."""
    text = keys.get(key, "")
    if not (text.isascii() and text.isdigit()):
        return None
    why = misfit(WORKLOAD.polars_schema()[column], int(text))
    if why is not None:
        raise ValueError(f"{key}={text} {why}")
    return int(text)


def goal_columns(goal: dict[str, Any] | tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """A class's goal columns (wlmgl_lines.goal_values' pairs) as a row's values;
    ValueError when one is too large for its column (RESPONSE TIME ... FOR
    99999999999%), as for the keys."""
    values = dict(goal)
    schema = WORKLOAD.polars_schema()
    for column, value in values.items():
        why = misfit(schema[column], value) if isinstance(value, int | float) else None
        if why is not None:
            raise ValueError(f"GOAL {column.removeprefix('goal_').upper()} {value} {why}")
    return values


#: Where each label/value pair of a row goes: ((group, label), column, kind).
Plan = list[tuple[tuple[str, str], str, str]]


@functools.lru_cache(maxsize=4096)
def header_fields(text: str) -> dict[str, Any]:
    """Header values printed on a line (page headers repeat: remembered)."""
    found: dict[str, Any] = {}
    for name, pattern in HEADER_FIELDS.items():
        m = pattern.search(text)
        if m:
            found[name] = m.groups() if name == "activated" else m.group(1)
    return found


@functools.lru_cache(maxsize=4096)
def heading(text: str) -> tuple[list[Group], bool]:
    """The groups a line names, and whether it is a heading line (not a data row)."""
    headings = [GROUPS[int(m.lastgroup[1:])] for m in HEADING.finditer(text) if m.lastgroup]
    return headings, bool(headings) and not pairs_safe(text)


GROUP_BY_NAME = {g.name: g for g in GROUPS}


@functools.lru_cache(maxsize=1024)
def slots_of_band(names: tuple[str, ...]) -> dict[str, list[int]]:
    return slots_of([GROUP_BY_NAME[n] for n in names])


def slots_of(groups: list[Group]) -> dict[str, list[int]]:
    """label -> indices of the groups (of a band) that have it."""
    slots: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        for label in group.labels:
            slots.setdefault(label, []).append(i)
    return slots


def plan_row(groups: list[Group], slots: dict[str, list[int]],
             labels: tuple[str, ...]) -> Plan | None:
    """Where each label of a row goes (group order, left to right), or None."""
    plan = []
    start = 0
    for raw in labels:
        label = LABEL_ALIASES.get(raw, raw)
        index = next((i for i in slots.get(label, ()) if i >= start), None)
        if index is None:
            return None
        start = index + 1
        group = groups[index]
        column, kind = group.labels[label]
        plan.append(((group.name, label), column if kind != IGNORE else "", kind))
    return plan


def class_kind(keys: dict[str, str]) -> str:
    """'service', 'report', 'workload' (a workload-group summary) or 'policy'."""
    if "REPORT CLASS" in keys:
        return "report"
    if "SERVICE CLASS" in keys:
        return "service"
    return "workload" if "WORKLOAD" in keys else "policy"


def class_name(keys: dict[str, str]) -> str:
    """The class's name; a summary's is its workload's, or its policy's."""
    return (keys.get("SERVICE CLASS") or keys.get("REPORT CLASS") or keys.get("WORKLOAD")
            or keys.get("POLICY") or "")


def pairs_safe(text: str) -> bool:
    """Does the line hold label/value pairs (a data row rather than a heading)?"""
    try:
        found = pairs(text)
    except ValueError:
        return True
    return any(not v[0].replace(".", "").isalpha() and "HHH" not in label
               for label, v in found)
