"""Every input kind zperf reads, in one place: SMF record decoders and text kinds.

To add an input format, write its reader in the subpackage of its family
(``smf``, ``rmf``, ``cics``, ``ims``, ``driver``) and list it here: an SMF
record type in :data:`SMF_DECODERS`, a text format in :data:`TEXT_KINDS`
(sniffing tries them in order, so a specific kind goes before a general
one).  :func:`sniff` names the kind of a file from its first bytes.
"""

from __future__ import annotations

import re

from zperf.errors import InputError
from zperf.formats.cics.dfh0stat import DFH0STAT
from zperf.formats.cics.dfhstup import DFHSTUP
from zperf.formats.driver.iwl import DRIVER_IWL
from zperf.formats.driver.jmeter_csv import JMETER_CSV
from zperf.formats.driver.jmeter_xml import JMETER_XML
from zperf.formats.driver.request_csv import DRIVER_CSV
from zperf.formats.ims.pa_csv import IMS_PA_CSV
from zperf.formats.ims.pa_report import IMS_PA_REPORT
from zperf.formats.kinds import TextKind
from zperf.formats.listing import expanded_text, listing_encoding, text_encoding
from zperf.formats.parsed import PARSED_CSV
from zperf.formats.rmf.cpu import CPU_ACTIVITY
from zperf.formats.rmf.wlmgl import WLMGL
from zperf.formats.rmf.xml import RMF_XML
from zperf.formats.smf.record_decoder import DecoderSpec
from zperf.formats.smf.type30_decoder import TYPE30
from zperf.formats.smf.type70_decoder import TYPE70_1
from zperf.formats.smf.type72_decoder import TYPE72_3
from zperf.formats.smf.type110 import TYPE110_2
from zperf.formats.smf.type110_1 import TYPE110_1
from zperf.formats.smf.type120_11 import TYPE120_11
from zperf.formats.smf.type123 import TYPE123

#: SMF record decoders, in the order their tables are listed.
SMF_DECODERS: tuple[DecoderSpec, ...] = (
    TYPE72_3,
    TYPE70_1,
    TYPE110_2,
    TYPE110_1,
    TYPE123,
    TYPE120_11,
    TYPE30,
)

#: Text input kinds, tried in this order when sniffing.
TEXT_KINDS: tuple[TextKind, ...] = (
    PARSED_CSV,
    DFHSTUP,
    DFH0STAT,
    CPU_ACTIVITY,
    WLMGL,
    RMF_XML,
    IMS_PA_REPORT,
    IMS_PA_CSV,
    DRIVER_IWL,  # the driver logs: IWL engine output, JMeter XML, JMeter CSV,
    JMETER_XML,  # then the generic request CSV
    JMETER_CSV,
    DRIVER_CSV,
)

#: Text kinds by name.
TEXT_KIND: dict[str, TextKind] = {k.name: k for k in TEXT_KINDS}

#: Input kinds zperf reads, and what each is.
KINDS: dict[str, str] = {
    "smf": "binary SMF dump (RDW, BDW or VBS framing): "
           + "; ".join(f"type {d.smf_type}"
                       + (f" subtype {','.join(map(str, sorted(d.subtypes)))}"
                          if d.subtypes else "")
                       + f" {d.description}" for d in SMF_DECODERS),
    **{k.name: k.description for k in TEXT_KINDS},
    "zperf-table": "a table written by `zperf parse --to parquet` or `--to arrow`",
}

#: RMF Postprocessor reports that may share one SYSOUT, and their page titles.
RMF_REPORTS: dict[str, re.Pattern[str]] = {
    "rmf-cpu": re.compile(r"C P U\s+A C T I V I T Y"),
    "rmf-wlmgl": re.compile(r"W O R K L O A D\s+A C T I V I T Y"),
}
#: The text each title starts with: a title can be in a stretch of text only if
#: this is (a byte search, a hundred times as fast as decoding and searching).
RMF_TITLE_STARTS: dict[str, bytes] = {"rmf-cpu": b"C P U", "rmf-wlmgl": b"W O R K L O A D"}


#: The keys a run description (run.toml) starts with: said so when one is given as data.
RUN_DESCRIPTION = re.compile(r"^\s*(?:name|sources|transactions)\s*=", re.MULTILINE)


def sniff(head: bytes, file: str = "-") -> str:
    """Name the input kind from a file's first bytes.

    Text (UTF-8, UTF-16 with a byte order mark, EBCDIC) is offered to each
    text kind in turn; text none recognises is an InputError naming its first
    line and the kinds zperf reads.  Anything else goes to the SMF reader,
    which explains what is wrong with a file that is not a usable dump (text
    transfer, no RDWs).
    """
    encoding = text_encoding(head)
    if encoding is None:
        return "smf"
    text = head.decode(encoding, errors="replace").removeprefix("\ufeff")
    listing = expanded_text(text)  # a printed report is recognised as its reader sees it
    for kind in TEXT_KINDS:
        if kind.sniff(listing if kind.listing else text):
            return kind.name
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    shown = first if len(first) <= 80 else first[:77] + "..."
    hint = ""
    if RUN_DESCRIPTION.search(text):
        hint = ("; it looks like a run description (run.toml), not data: give it to zperf "
                "analyze with --spec FILE (or give its folder)")
    raise InputError(file, f"not a recognised report or log: the first line is {shown!r}; "
                           f"zperf reads {', '.join(k.name for k in TEXT_KINDS)} and binary "
                           f"SMF (see `zperf parse --help`; --from names the kind){hint}",
                     line=1, offset=0)


def recognised_at(kind: str, head: bytes) -> tuple[int, str] | None:
    """The first line (number, text) by which ``kind`` recognises a file's first bytes,
    the text up to it being enough for its ``sniff``; None when it does not (the
    kind was given with --from)."""
    encoding = text_encoding(head)
    if encoding is None or kind not in TEXT_KIND:
        return None
    text = head.decode(encoding, errors="replace").removeprefix("\ufeff")
    sniff = TEXT_KIND[kind].sniff
    lines = (expanded_text(text) if TEXT_KIND[kind].listing else text).split("\n")
    if not sniff("\n".join(lines)):
        return None
    low, high = 1, len(lines)  # the fewest lines that are enough
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if sniff("\n".join(lines[:middle])) else (middle + 1, high)
    return low, " ".join(lines[low - 1].split())


def companions(data: bytes, chosen: str) -> list[str]:
    """Other RMF reports printed in the same listing (each reader skips the others)."""
    text = data.decode(listing_encoding(data), errors="replace")
    return [k for k, title in RMF_REPORTS.items() if k != chosen and title.search(text)]


def smf_tables() -> tuple[str, ...]:
    """Names of every table an SMF dump can fill."""
    return tuple(name for spec in SMF_DECODERS for name in spec.tables)


def kind_tables(kind: str) -> tuple[str, ...]:
    """The tables an input kind fills (an SMF dump: every SMF table)."""
    if kind == "smf":
        return smf_tables()
    return TEXT_KIND[kind].tables if kind in TEXT_KIND else ()


def table_group(table: str) -> tuple[str, ...]:
    """The tables the readers of ``table`` fill together with it (workload and
    distribution, driver and driver_intervals...): every table of a decoder or text
    kind that fills ``table``."""
    groups = [spec.tables for spec in SMF_DECODERS] + [kind.tables for kind in TEXT_KINDS]
    together = [name for group in groups if table in group for name in group]
    return tuple(dict.fromkeys([table, *together]))


def table_names() -> tuple[str, ...]:
    """Every table a reader can fill, in registry order."""
    names = list(smf_tables())
    for kind in TEXT_KINDS:
        names += [t for t in kind.tables if t not in names]
    return tuple(names)
