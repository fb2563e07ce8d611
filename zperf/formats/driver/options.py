"""How a driver log was written, as the options of each driver reader.

The same few facts about a load driver's log are given on ``zperf parse``'s
command line, on ``zperf analyze``'s and in a run description: what a JMeter
time stamp marks (``start`` or ``end``), the time zone of epoch time stamps
(JMeter's and a request CSV's are UTC milliseconds; RMF's times are the
system's local time), and for a headerless JMeter CSV its columns, delimiter
and time stamp format.  :func:`reader_options` turns them into the per-kind
options of :func:`zperf.formats.read`, so that each reader gets only what it
takes.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from typing import Any

from zperf.errors import UsageError

#: What a JMeter sample's time stamp marks.
TIMESTAMP_CHOICES = ("start", "end")


def check_time_zone(name: str) -> str:
    """``name`` if it is an IANA time zone (Europe/Berlin, America/New_York, UTC)."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"unknown time zone {name!r}: give an IANA name such as "
                         "Europe/Berlin, America/New_York or UTC") from None
    return name


def reader_options(*, timestamp: str | None = None, timezone: str | None = None,
                   columns: Sequence[str] | None = None, delimiter: str | None = None,
                   timestamp_format: str | None = None) -> dict[str, dict[str, Any]]:
    """The per-kind options of :func:`zperf.formats.read` for what is given (None: the
    reader's default); an empty dict when nothing is."""
    if timestamp is not None and timestamp not in TIMESTAMP_CHOICES:
        raise UsageError(f"a JMeter time stamp is the sample's start or end, not {timestamp!r}")
    if timezone is not None:
        check_time_zone(timezone)
    options: dict[str, dict[str, Any]] = {}
    jmeter_csv = {k: v for k, v in (("columns", columns), ("delimiter", delimiter),
                                    ("timestamp_format", timestamp_format),
                                    ("timestamp", timestamp), ("timezone", timezone))
                  if v is not None}
    jmeter_xml = {k: v for k, v in (("timestamp", timestamp), ("timezone", timezone))
                  if v is not None}
    for kind, given in (("jmeter-csv", jmeter_csv), ("jmeter-xml", jmeter_xml),
                        ("driver-csv", {"timezone": timezone} if timezone else {})):
        if given:
            options[kind] = given
    return options
