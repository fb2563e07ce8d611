"""Printed values of RMF Postprocessor reports, and the label/value rows they sit in.

RMF prints numbers with K and M suffixes (``4876K``), ``N/A`` where a value
does not apply and ``*****`` where it does not fit its column; times as
HHH.MM.SS.TTT (or .FFFFFF, microseconds) with the leading parts left off; and
data rows as ``LABEL value`` pairs whose labels may hold spaces (``AVG ENC``).
"""

from __future__ import annotations

import re

from zperf.formats.rmf.wlmgl_fields import LABEL_ALIASES, TIME_MS

#: A printed value: number (maybe with K/M/G/T or %), time, N/A or an overflow.
VALUE = r"[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:\.\d+)*[KMGT]?%?|N/A|\*+"
VALUE_PATTERN = re.compile(rf"^(?:{VALUE})$")
KEY_PATTERN = re.compile(r"(REPORT CLASS|SERVICE CLASS|RESOURCE GROUP|I/O PRIORITY GROUP|POLICY|"
                  r"WORKLOAD|PERIOD|IMPORTANCE|CRITICAL|DESCRIPTION|HETEROGENEOUS|"
                  r"HOMOGENEOUS)\s*=\s*")
_SUFFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def number(text: str) -> float | None:
    """A printed number: '4876K' = 4876000, 'N/A' and '*****' (overflow) are unknown."""
    try:
        return float(text)
    except ValueError:
        pass
    if text == "N/A" or text.startswith("*"):
        return None
    text = text.rstrip("%").replace(",", "")
    scale = _SUFFIX.get(text[-1:], 1.0)
    return float(text[:-1] if scale != 1.0 else text) * scale


def convert(kind: str, text: str, micro: bool) -> float | None:
    if kind == TIME_MS:
        return time_ms(text, micro)
    try:
        return float(text)
    except ValueError:
        return number(text)


def time_ms(text: str, micro: bool) -> float | None:
    """A printed time HHH.MM.SS.TTT (or .FFFFFF) with leading parts left off, in ms."""
    if text == "N/A" or text.startswith("*"):
        return None
    parts = [int(p or 0) for p in text.split(".")]
    fraction = parts.pop() / (1000.0 if micro else 1.0)
    seconds = 0.0
    for weight, value in zip((1, 60, 3600), reversed(parts), strict=False):
        seconds += weight * value
    return seconds * 1000.0 + fraction


def interval_seconds(text: str) -> float:
    """'01.00.000' (mm.ss.ttt) -> 60.0; duration reports print 'hh.mm.ss'."""
    a, b, c = text.split(".")
    if len(c) == 3:
        return int(a) * 60 + int(b) + int(c) / 1000
    return int(a) * 3600 + int(b) * 60 + int(c)


def is_value(token: str) -> bool:
    first = token[0]
    if first.isdigit() or first == ".":
        return token not in LABEL_ALIASES
    if first in "-+" and len(token) > 1:
        return token[1].isdigit() or token[1] == "."
    return token == "N/A" or (first == "*" and token.strip("*") == "")


def pairs(text: str) -> list[tuple[str, list[str]]]:
    """Split a data row into (label, values); a bad number raises ValueError."""
    out: list[tuple[str, list[str]]] = []
    label: list[str] = []
    for token in text.split():
        if is_value(token):
            if not VALUE_PATTERN.match(token):
                raise ValueError(f"{token!r} is not a number")
            if label:
                out.append((" ".join(label), [token]))
                label = []
            elif out:
                out[-1][1].append(token)
        else:
            label.append(token)
    return out


def split_keys(text: str) -> dict[str, str]:
    keys: dict[str, str] = {}
    matches = list(KEY_PATTERN.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        value = text[m.end() : end].strip()
        if m.group(1) != "DESCRIPTION":
            value = value.split()[0] if value.split() else ""
        keys[m.group(1)] = value
    return keys
