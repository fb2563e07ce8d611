"""CPU cost of codepage conversion in CICS: paper 001's measured table.

Paper 001 ("Codepage conversion", "Results summary") measured z/OS Conversion
Services called by CICS between ``PUT CONTAINER FROMCCSID`` and ``GET CONTAINER
INTOCCSID``, and gives the CPU milliseconds to convert 1K characters for each
pair of four code pages.  Conversions between UTF-8 and EBCDIC or ASCII go
through UTF-16 (two stages), which is why they cost the most.  The numbers
below are the paper's; pairs it did not measure are not guessed.
"""

from __future__ import annotations

from zperf.calc.quantity import Quantity, non_negative
from zperf.errors import UsageError

#: The four code pages of 001's test, by CCSID.
CCSID_NAMES: dict[int, str] = {37: "EBCDIC", 437: "ASCII", 1208: "UTF-8", 1200: "UTF-16"}

#: CPU ms per 1K characters, (from CCSID, into CCSID) -> ms; 001 "Results summary", in the
#: paper's order (most expensive first).
CPU_MS_PER_1K_CHARS: dict[tuple[int, int], float] = {
    (1208, 437): 0.0094,
    (1208, 37): 0.0093,
    (1208, 1200): 0.0090,
    (437, 1208): 0.0087,
    (37, 1208): 0.0087,
    (1200, 1208): 0.0076,
    (37, 1200): 0.0031,
    (437, 1200): 0.0030,
    (1200, 37): 0.0021,
    (1200, 437): 0.0021,
    (37, 437): 0.0014,
    (437, 37): 0.0014,
}


def ccsid(name_or_number: str | int) -> int:
    """A CCSID from its number (``037``, ``1208``) or 001's name for it (``UTF-8``)."""
    text = str(name_or_number).strip()
    if text.isdigit():
        return int(text)
    for number, name in CCSID_NAMES.items():
        if name.lower() == text.lower().replace("_", "-"):
            return number
    known = ", ".join(f"{n} ({name})" for n, name in CCSID_NAMES.items())
    raise UsageError(f"unknown code page {text!r}; paper 001 measured {known}")


def codepage_cpu_ms_per_1k(from_ccsid: int, into_ccsid: int) -> float:
    """001's CPU ms per 1K characters converted from one CCSID into another."""
    cost = CPU_MS_PER_1K_CHARS.get((from_ccsid, into_ccsid))
    if cost is None:
        pairs = ", ".join(f"{a}->{b}" for a, b in CPU_MS_PER_1K_CHARS)
        raise UsageError(f"paper 001 measured no conversion from {from_ccsid} into "
                         f"{into_ccsid} (measured: {pairs})")
    return cost


def codepage_cpu_ms(from_ccsid: int, into_ccsid: int, k_chars: Quantity) -> Quantity:
    """CPU ms to convert ``k_chars`` thousand characters (001's unit, "1K characters").

    The cost is linear in the amount converted (001 varied it from 1K to 1M):
    UTF-8 into ASCII, 0.0094 ms per 1K, is 9.4 ms for 1000K characters.
    """
    return codepage_cpu_ms_per_1k(from_ccsid, into_ccsid) * non_negative("K characters",
                                                                         k_chars)
