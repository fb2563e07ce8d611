"""The Workload Activity report in XML (metric WLMGL) into workload and distribution rows.

The layout read (zperf's reading of IBM's description; no public sample
exists: tests/data/rmf/xml/README.md): the report's resource is the sysplex;
a ``Workload Activity`` segment gives the policy and its activation time;
each ``Service Class Periods`` or ``Report Class Periods`` segment holds one
part per class period, whose var-list has the key values (Workload, Service
Class or Report Class, Period, Importance, Description, Resource Group,
Goal) and the values under the listing's own group and label words
(``SERVICE TIME: CPU``), and whose table ``Time: HH.MM.SS.TTT`` is the
response time distribution.  The printed values convert by the listing
reader's rules (key values by ``wlmgl_words.key_values``, the page header by
``header_values``, the goal by ``wlmgl_lines.goal_values``, values by the
listing's field table, column-wise: WORKLOAD_KINDS, DISTRIBUTION_KINDS), so
that the rows are what the listing of the same interval gives.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from typing import Any

from zperf.formats.rmf import xml_fields as fields
from zperf.formats.rmf.wlmgl_lines import goal_values
from zperf.formats.rmf.wlmgl_words import GOAL, goal_columns, header_values, key_values
from zperf.formats.rmf.xml_parts import (
    BadReportError,
    Header,
    Table,
    Unknown,
    cell,
    columns,
    table,
    variables,
)

SOURCE_FORMAT = "rmf-xml"
Row = dict[str, Any]


#: A part as the rules read it, whichever parser found it: given where its children
#: are (None: they are not looked at), its var-lists' (name, value) pairs and its
#: tables (a callable, so that the tree's path notes a part's unknown children
#: when the rules reach it, in the careful path's order).
WlmglPart = Callable[[str | None], tuple[Iterable[tuple[str, str | None]], Iterable[Table]]]


def read_wlmgl(report: ET.Element, head: Header, source: str,
               unknown: Unknown) -> tuple[list[Row], list[Row]]:
    """The workload rows (one per class period) and distribution rows of one report
    (ElementTree)."""
    reading = WlmglReading(head, source, unknown)
    for segment in report.iterfind("segment"):
        printed = " ".join((segment.findtext("name") or "").split())
        unknown.children(segment, f"segment {printed!r} of the WLMGL report")
        reading.segment(printed, [functools.partial(_part_view, part, unknown)
                                  for part in segment.iterfind("part")])
    return reading.finish()


def _part_view(part: ET.Element, unknown: Unknown, where: str | None
               ) -> tuple[Iterable[tuple[str, str | None]], Iterable[Table]]:
    if where is not None:
        unknown.children(part, where)
    return variables(part), (table(element) for element in part.iterfind("table"))


class WlmglReading:
    """One Workload Activity report being read: its segments in order (from either
    parser: :func:`read_wlmgl`, :mod:`~zperf.formats.rmf.xml_fast`), then
    :meth:`finish`."""

    def __init__(self, head: Header, source: str, unknown: Unknown) -> None:
        self.head, self.source, self.unknown = head, source, unknown
        self.policy: Row = {}
        self.periods: list[tuple[WlmglPart, str]] = []  # (part, its segment's name)

    def segment(self, printed: str, parts: Iterable[WlmglPart]) -> None:
        """A segment by its printed name (runs of blanks made one) and its parts."""
        name = fields.key(printed)
        if name == fields.POLICY_SEGMENT:
            for part in parts:
                _values(part(None)[0], fields.POLICY_VARS, self.policy,
                        "the Workload Activity segment", self.unknown)
        elif name in fields.CLASS_SEGMENTS:
            self.periods += [(part, printed) for part in parts]
        else:
            self.unknown.note(f"segment {printed!r} of the WLMGL report")

    def finish(self) -> tuple[list[Row], list[Row]]:
        """The workload rows (one per class period) and the distribution rows."""
        policy, head = self.policy, self.head
        activated = None
        if policy.get("activated"):
            try:
                activated = fields.display_time(policy["activated"], None)
            except ValueError as bad:
                raise BadReportError(f"Policy Activation: {bad}") from None
        system_report = head.restype == "SYSTEM"
        page = (head.release, None if system_report else head.name, head.date, head.time,
                head.interval, activated)
        try:
            base = header_values(page, self.source)
        except ValueError as bad:
            raise BadReportError(str(bad)) from None
        base.update(source_format=SOURCE_FORMAT, system=head.name if system_report else None)
        work: list[Row] = []
        buckets: list[Row] = []
        for number, (part, segment_name) in enumerate(self.periods, start=1):
            where = f"class period {number}"
            row, distribution = _period(part, segment_name, where, self.unknown)
            try:  # by the listing's rules: a PERIOD or a goal too large for its column
                keys = key_values({"POLICY": policy.get("POLICY") or "", **row["keys"]})
                goal = goal_columns(row["goal"])
            except ValueError as bad:
                raise BadReportError(f"{where}: {bad}") from None
            row = {**base, **keys, **goal, **row["values"]}
            work.append(row)
            keys = {k: row[k] for k in ("source", "sysplex", "system", "interval_start",
                                        "class_kind", "class_name", "period")}
            buckets += [{**keys, **bucket} for bucket in distribution]
        return work, buckets


def _values(pairs: Iterable[tuple[str, str | None]], known: fields.Fields, out: Row,
            where: str, unknown: Unknown) -> None:
    for name, value in pairs:
        target = known.get(fields.key(name))
        if target is None:
            unknown.note(f"var {name!r} in {where}")
        elif target[0]:
            out[target[0]] = fields.value_of(fields.TEXT, value)


def _period(part: WlmglPart, segment: str, where: str,
            unknown: Unknown) -> tuple[dict[str, Row], list[Row]]:
    """A class period's keys, goal and values (by the listing's rules), and buckets."""
    pairs, tables = part(f"a part of {segment!r}")
    keys: Row = {}
    goal: Row = {}
    values: Row = {}
    for name, value in pairs:
        heading = fields.key(name)
        if heading == fields.GOAL_VAR:
            goal = _goal(value, unknown)
        elif heading in fields.KEY_VARS:
            keys[fields.KEY_VARS[heading][0]] = (value or "").strip()
        elif heading in fields.DATA_VARS:
            column = fields.DATA_VARS[heading][0]
            if column:  # the first of the names that fill a column (SERVICE TIME: CPU...)
                values.setdefault(column, value)
        else:
            unknown.note(f"var {name!r} in {segment!r}")
    if "SERVICE CLASS" not in keys and "REPORT CLASS" not in keys:
        raise BadReportError(f"{where} has neither a Service Class nor a Report Class")
    distribution: list[Row] = []
    for found in tables:
        if found.first != fields.DISTRIBUTION_TABLE:
            unknown.note(f"table {', '.join(found.headings)!r} in {segment!r}")
        elif not distribution:
            distribution = _buckets(found, unknown)
    return {"keys": keys, "goal": goal, "values": values}, distribution


def _goal(text: str | None, unknown: Unknown) -> Row:
    found = GOAL.search(f"GOAL: {(text or '').strip()}")
    if found is None:
        unknown.note(f"goal {text!r} (goal columns left empty)")
        return {}
    return dict(goal_values(found))


def _buckets(found: Table, unknown: Unknown) -> list[Row]:
    """Distribution rows: bucket number and the printed limit and transactions."""
    kept = columns(found, fields.DISTRIBUTION_COLUMNS, "the response time distribution",
                   unknown)
    return [{"bucket": bucket, **{column: cell(cells, index) for index, column, _ in kept}}
            for bucket, (_, cells) in enumerate(found.rows, start=1)]


#: The workload and distribution columns converted column-wise, and how.
WORKLOAD_KINDS = {column: kind for column, kind in fields.DATA_VARS.values() if column}
DISTRIBUTION_KINDS = {column: kind for column, kind in fields.DISTRIBUTION_COLUMNS.values()
                      if column}
