"""Field table of the RMF Postprocessor CPU Activity report.

The report's page header is ``LABEL value`` pairs (``SYSTEM ID SYSA``,
``CPU 3906``, ``HIPERDISPATCH=YES``); its processor table has one line per
logical processor under column headings that changed over the releases
(``ONLINE TIME PERCENTAGE`` before z/OS V2R1, ``TIME % ONLINE`` since).  The
table below lists, for every header label, the pattern that finds its value
and the ``cpu`` column it fills, and for every table column the heading
patterns of all known layouts, so the reader works by labels and headings and
the writer prints what the reader expects.
"""

from __future__ import annotations

import re

#: The report title, letters spaced out (pasted extracts squeeze the spaces).
TITLE = re.compile(r"C P U\s+A C T I V I T Y")
PARTITION_TITLE = re.compile(r"P A R T I T I O N\s+D A T A\s+R E P O R T")
#: A blank to Python's ``re`` (``\s``) and, spelt out, to polars' regex engine too
#: (whose ``\s`` leaves out X'1C' to X'1F').
_BLANK = r"[\s\x1c-\x1f]"
#: Any RMF report title: capital letters (or digits, '/') separated by single blanks.
#: The same pattern for ``re`` and for polars (``str.contains``).
ANY_TITLE = re.compile(rf"^{_BLANK}*(?:[A-Z0-9/&-][ \t]{{1,3}}){{3,}}[A-Z0-9/&-]{_BLANK}*$")

#: Page header items: cpu column (or a key part) -> pattern of its printed value.
HEADER: dict[str, re.Pattern[str]] = {
    "zos_release": re.compile(r"(?:z/OS|OS/390)\s+(V\d+R\d+)"),
    "system": re.compile(r"SYSTEM ID\s+(\S+)"),
    "date": re.compile(r"(?<![/\w])DATE\s+(\d\d/\d\d/\d{4})"),
    "time": re.compile(r"(?<![-/%\w])TIME\s+(\d\d\.\d\d\.\d\d)\b"),
    "interval": re.compile(r"INTERVAL\s+(\d+\.\d\d\.\d+)"),
    "cycle": re.compile(r"CYCLE\s+(\d+\.\d+)\s+SECONDS"),
    "machine_type": re.compile(r"(?<![-/\w])CPU\s+([0-9A-F]{4})\b"),
    "cpc_capacity_msu": re.compile(r"CPC CAPACITY\s+(\d+)"),
    "cpc_sequence_code": re.compile(r"SEQUENCE CODE\s+([0-9A-F]+)"),
    # (a blank MODEL is followed by the next item's CHANGE REASON, not a model)
    "model_capacity_id": re.compile(r"(?<!H/W )(?<![/\w])MODEL\s+(?!CHANGE\b)([0-9A-Z]+)"),
    "hardware_model": re.compile(r"H/W MODEL\s+([0-9A-Z]+)"),
    "hiperdispatch": re.compile(r"HIPERDISPATCH\s*=\s*(YES\*?|NO\*?)"),
}
#: Items of the Partition Data Report's header that belong to the cpu row.
PARTITION_HEADER: dict[str, re.Pattern[str]] = {
    "lpar_name": re.compile(r"MVS PARTITION NAME\s+(\S+)"),
    "image_capacity_msu": re.compile(r"IMAGE CAPACITY\s+(\d+)"),
}

#: Processor table columns: name -> heading pattern (every known layout).
#: The reader needs ONLINE, LPAR BUSY, MVS BUSY and PARKED; the others are
#: recognised so that their values are not taken for these.
COLUMNS: dict[str, re.Pattern[str]] = {
    "online": re.compile(r"ONLINE(?: TIME)?"),
    "lpar": re.compile(r"LPAR BUSY"),
    "mvs": re.compile(r"MVS BUSY"),
    "parked": re.compile(r"PARKED(?: TIME)?"),
    "prod": re.compile(r"\bPROD\b"),
    "util": re.compile(r"\bUTIL\b"),
    "serial": re.compile(r"SERIAL"),
    "share": re.compile(r"SHARE %"),
    "rate": re.compile(r"I/O TOTAL|INTERRUPT RATE|(?<![\w-])RATE\b"),
    "tpi": re.compile(r"(?:% )?VIA TPI"),
}
#: Printed names of the columns the reader needs (for messages).
NEEDED = {"online": "ONLINE", "lpar": "LPAR BUSY", "mvs": "MVS BUSY", "parked": "PARKED"}

#: Processor type as printed -> cpu column prefix (other types are not z/OS's).
TYPES = {"CP": "cp", "IIP": "ziip", "ZIIP": "ziip", "SUP": "ziip", "AAP": "zaap",
         "IFA": "zaap", "ZAAP": "zaap"}
#: A processor line: number (hex; the core id with MT) and type.
PROCESSOR = re.compile(r"^\s*([0-9A-F]{1,2})\s+(CP|IIP|ZIIP|SUP|AAP|IFA|ZAAP|ICF|IFL)(?=\s|$)")
#: A line of the second thread of a core (MT): no number, maybe the type.
THREAD = re.compile(r"^\s*(?:(CP|IIP|ZIIP|SUP|AAP|IFA|ZAAP)\s+)?(?=[-\d.])")
#: A type's summary line: TOTAL/AVERAGE, or (some releases) 'IIP AVERAGE'.
TOTAL = re.compile(r"^\s*(?:(CP|IIP|ZIIP|AAP|IFA|ZAAP)\s+)?(?:TOTAL/AVERAGE|AVERAGE|TOTAL)\b")
#: A printed value: a number, dashes (not applicable) or stars (overflow).
VALUE = re.compile(r"^(?:[-+]?\d[\d,]*(?:\.\d*)?|\.\d+|-{2,}|\*{2,}|N/A)$")
#: Words printed among the values (polarization of LOG PROC SHARE %).
WORD = re.compile(r"^[A-Z]+\*?$")
