"""Apache JMeter results (JTL) in XML form into the driver tables.

``<testResults>`` holds one element per sample (``httpSample``, ``sample``;
``sampleResult`` in the old 2.0 format) with short attribute names (``t``
elapsed, ``ts`` time stamp, ``s`` success, ``lb`` label, ``by`` bytes ...).
Plugins and other load-testing tools write JTL XML with elements of other
names (``<jdbcSample>``, ``<customSample>``) and with attributes added or left
out, so a child of ``<testResults>`` is a sample by what it carries, not by
its name: every element with ``t``, ``ts`` and ``s`` (``time``,
``timeStamp``, ``success`` in the 2.0 format) is read.  The others are not
samples zperf can use: they are counted as records of other types, by element
name and the attributes they lack, and named in a warning.
A sample may hold sub-samples: the children of a transaction controller,
the resources of a page, redirects.  Their time is already in their
parent's, so they are never counted as transactions.  The children of a
top-level transaction controller are the page elements (as a CSV file's
child samples are); samples nested deeper (resources, redirects) and
those under other samples are counted as "other" records.

The file is read with expat, which reports each element's line and byte
offset, so a bad value or a file cut short is reported where it is; the
attribute values are then converted column-wise like a CSV file's.

Read whole, not in pieces (:mod:`zperf.formats.pieces`): as the CSV form, its
rows summarise every sample of the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.parsers import expat

import polars as pl

from zperf.errors import ParseError
from zperf.formats.driver.intervals import summarise
from zperf.formats.driver.jmeter_csv import CONTROLLER_MESSAGE, samples_of
from zperf.formats.kinds import TextKind
from zperf.formats.tally import OnError, Tally
from zperf.tables.driver import DRIVER, DRIVER_INTERVALS

SOURCE_FORMAT = "jmeter-xml"
SAMPLE_TAGS = frozenset({"httpSample", "sample", "sampleResult"})
#: What makes an element a sample that can be read, in the 2.1 and the 2.0 format.
REQUIRED = (("t", "time"), ("ts", "timeStamp"), ("s", "success"))
#: XML attribute -> JTL CSV column (format 2.1, then the old 2.0 names).
ATTRIBUTES = {
    "ts": "timeStamp", "t": "elapsed", "lb": "label", "rc": "responseCode",
    "rm": "responseMessage", "tn": "threadName", "dt": "dataType", "s": "success",
    "by": "bytes", "sby": "sentBytes", "ng": "grpThreads", "na": "allThreads",
    "lt": "Latency", "it": "IdleTime", "ct": "Connect", "sc": "SampleCount",
    "ec": "ErrorCount", "hn": "Hostname", "de": "Encoding",
    "timeStamp": "timeStamp", "time": "elapsed", "label": "label",
    "responseCode": "responseCode", "responseMessage": "responseMessage",
    "threadName": "threadName", "dataType": "dataType", "success": "success",
}


def _sniff(head: str) -> bool:
    return "<testResults" in head


class _Collector:
    """expat callbacks: the attributes of top-level samples, with their positions."""

    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.depth = 0
        self.columns: dict[str, list[str | None]] = {}
        self.lines: list[int] = []
        self.offsets: list[int] = []
        self.nested = 0
        self.root: str | None = None
        self.in_controller = False  # the open top-level sample is a transaction controller
        self.unread: dict[str, int] = {}  # top-level elements that are not samples, by what

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth == 1:
            self.root = name
        elif self.depth == 2 and (lacking := _lacking(attrs)):
            named = ", ".join(lacking[:-1]) + " and " * (len(lacking) > 1) + lacking[-1]
            what = f"<{name}> element without {named}"
            self.unread[what] = self.unread.get(what, 0) + 1
            self.in_controller = False
        elif self.depth == 2 or name in SAMPLE_TAGS or ("t" in attrs and "ts" in attrs):
            if self.depth == 2:
                message = attrs.get("rm", attrs.get("responseMessage", ""))
                self.in_controller = message.startswith(CONTROLLER_MESSAGE)
            elif self.depth > 3 or not self.in_controller:
                self.nested += 1
                return
            n = len(self.lines)
            for key, value in attrs.items():
                column = ATTRIBUTES.get(key)
                if column is not None:
                    self.columns.setdefault(column, [None] * n).append(value)
            self.lines.append(self.parser.CurrentLineNumber)
            self.offsets.append(self.parser.CurrentByteIndex)
            for values in self.columns.values():
                if len(values) == n:
                    values.append(None)

    def end(self, name: str) -> None:
        self.depth -= 1


def _lacking(attrs: dict[str, str]) -> list[str]:
    """The attributes of REQUIRED an element does not carry (in the 2.1 names)."""
    return [short for short, old in REQUIRED if short not in attrs and old not in attrs]


_BAD_CHAR_REF = expat.errors.codes[expat.errors.XML_ERROR_BAD_CHAR_REF]
#: The errors expat gives only when the input ends inside an element, a tag or a character.
_AT_THE_END = frozenset(expat.errors.codes[e] for e in (
    expat.errors.XML_ERROR_NO_ELEMENTS, expat.errors.XML_ERROR_UNCLOSED_TOKEN,
    expat.errors.XML_ERROR_PARTIAL_CHAR, expat.errors.XML_ERROR_UNCLOSED_CDATA_SECTION))
#: A numeric character reference, and the characters XML 1.0 allows (its production Char).
_REFERENCE = re.compile(rb"&#(x[0-9A-Fa-f]+|[0-9]+);")
_ALLOWED = ((0x9, 0xA), (0xD, 0xD), (0x20, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF))


@dataclass(frozen=True)
class _Broken:
    """Where and why expat stopped: its message and column, line and byte offset in the
    file, its error code, and whether the file ended inside the XML (cut short, or still
    being written: every sample before it is whole)."""

    what: str
    column: int
    line: int
    offset: int
    code: int
    at_end: bool


def _parse(data: bytes, lead: int, lead_lines: int, file: str) -> tuple[_Collector,
                                                                       _Broken | None]:
    """The samples expat collects from ``data`` (after its ``lead`` blank bytes), and
    where it stopped if the XML breaks off."""
    parser = expat.ParserCreate()
    got = _Collector(parser)
    parser.StartElementHandler = got.start
    parser.EndElementHandler = got.end
    broken: _Broken | None = None
    try:
        parser.Parse(data[lead:], True)
    except expat.ExpatError as exc:
        what = expat.errors.messages.get(exc.code, str(exc))
        offset = max(parser.ErrorByteIndex, 0) + lead
        broken = _Broken(what, exc.offset, exc.lineno + lead_lines, offset, exc.code,
                         at_end=exc.code in _AT_THE_END or offset >= len(data.rstrip()))
    except LookupError as exc:  # the declaration names an encoding Python does not know
        raise ParseError(file, f"the XML declaration names an unknown encoding: {exc}",
                         line=lead_lines + 1, offset=lead) from None
    except ValueError as exc:  # one expat cannot read (UTF-16 named in an 8-bit file)
        raise ParseError(file, f"the XML declaration names an encoding the XML parser "
                               f"cannot read: {exc}", line=lead_lines + 1, offset=lead) from None
    return got, broken


def _forbidden_references_replaced(data: bytes) -> tuple[bytes, int]:
    """``data`` with every reference to a character XML 1.0 forbids replaced by a
    reference to '?' of the same length (``&#x0;`` -> ``&#63;``; the shortest,
    ``&#1;``, by a tab's ``&#9;``), so that lines and byte offsets stay the file's;
    and how many were replaced."""
    replaced = 0

    def allowed(match: re.Match[bytes]) -> bytes:
        nonlocal replaced
        digits = match.group(1)
        code = int(digits[1:], 16) if digits[:1] == b"x" else int(digits)
        if any(low <= code <= high for low, high in _ALLOWED):
            return match.group(0)
        replaced += 1
        width = len(match.group(0)) - 3
        return b"&#9;" if width == 1 else b"&#" + b"63".rjust(width, b"0") + b";"

    return _REFERENCE.sub(allowed, data), replaced


def read_jmeter_xml(
    data: bytes, file: str, on_error: OnError = "raise", *,
    timestamp: str = "start", timezone: str | None = None,
    transactions: Sequence[str] | None = None, interval_seconds: float = 60.0,
    sync_seconds: float = 0.0,
) -> tuple[dict[str, pl.DataFrame], Tally]:
    """Read an XML JTL into ``driver`` and ``driver_intervals`` (keywords as for CSV)."""
    tally = Tally(file, on_error)
    lead = len(data) - len(data.lstrip())  # blank lines before <?xml are not allowed
    lead_lines = data.count(b"\n", 0, lead)
    got, broken = _parse(data, lead, lead_lines, file)
    if broken is not None and broken.code == _BAD_CHAR_REF:
        # JMeter (XStream) writes the control characters of a binary response as
        # references XML 1.0 forbids (&#x0;): read them as '?', keeping every offset
        data, replaced = _forbidden_references_replaced(data)
        if replaced:
            got, broken = _parse(data, lead, lead_lines, file)
            tally.warnings.append(
                f"{replaced} character reference{'s' if replaced > 1 else ''} to characters "
                "XML 1.0 does not allow (such as &#x0;, which JMeter writes for the control "
                "characters of a response) read as '?'")
    got.lines = [n + lead_lines for n in got.lines]
    got.offsets = [o + lead for o in got.offsets]
    if got.root is not None and got.root != "testResults":
        raise ParseError(file, f"the document is <{got.root}>, not JMeter <testResults>",
                         line=1, offset=0)
    frame = pl.DataFrame({k: pl.Series(k, v, dtype=pl.String) for k, v in got.columns.items()})
    for what, n in got.unread.items():
        tally.count(other=n, what=what)
    if got.unread:
        tally.warnings.append("not read (not samples with t, ts and s): " + ", ".join(
            f"{n} {what}" for what, n in got.unread.items()))
    if frame.height == 0 and broken is None:
        tally.count(other=got.nested, what="nested sub-sample")
        return {"driver": DRIVER.empty(), "driver_intervals": DRIVER_INTERVALS.empty()}, tally
    for needed in ("timeStamp", "elapsed"):
        if needed not in frame.columns:
            frame = frame.with_columns(pl.lit(None, dtype=pl.String).alias(needed))
    samples, problems, _ = samples_of(frame, timestamp=timestamp, timezone=timezone,
                                      transactions=transactions)
    names = {"timeStamp": "ts", "elapsed": "t", "success": "s", "bytes": "by",
             "sentBytes": "sby", "allThreads": "na", "grpThreads": "ng", "Latency": "lt",
             "Connect": "ct", "IdleTime": "it"}
    for row, reason in problems:
        for csv_name, attr in names.items():
            reason = reason.replace(f"under '{csv_name}'", f"in attribute {attr}")
        tally.problem(f"JMeter sample: {reason}", record=row + 1, line=got.lines[row],
                      offset=got.offsets[row])
    if broken is not None:
        what = f"the XML breaks off: {broken.what} (column {broken.column})"
        if broken.at_end:
            what = (f"the file ends before its XML does ({broken.what}, column "
                    f"{broken.column}): a results file "
                    "still being written, or cut short; --on-error skip reads the "
                    f"{samples.height} sample{'s' if samples.height != 1 else ''} before it")
        tally.problem(what, record=len(got.lines) + 1, line=broken.line, offset=broken.offset)
    tally.count(parsed=samples.height, other=got.nested, what="nested sub-sample")
    if samples.height == 0:
        return {"driver": DRIVER.empty(), "driver_intervals": DRIVER_INTERVALS.empty()}, tally
    driver, intervals = summarise(samples, source=file, source_format=SOURCE_FORMAT,
                                  interval_seconds=interval_seconds, sync_seconds=sync_seconds,
                                  warnings=tally.warnings)
    return {"driver": driver, "driver_intervals": intervals}, tally


JMETER_XML = TextKind(
    "jmeter-xml", "Apache JMeter results (JTL) as XML: <testResults> of <httpSample>/<sample> "
    "elements, or any element with t, ts and s (plugins); nested sub-samples are not counted "
    "twice",
    ("driver", "driver_intervals"), _sniff, read_jmeter_xml, options=("timestamp", "timezone"))
