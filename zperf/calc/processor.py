"""A processor's engines: messages per second from a path length, and a cost on another CPU.

(``capacity`` alone names the capacity table, MSU and the rolling 4-hour
average: :mod:`zperf.calc.msu`.  Here an engine's speed is a rating, MIPS or
LSPR's PCI per engine, and ``capacity_ratio`` keeps LSPR's own name for a
ratio of two ratings.)

Paper 002 states a processor's speed in MIPS per engine and a message's cost
as its mean path length (instructions per message); one engine at 100 % then
processes MIPS x 1e6 / path length messages a second.

CPU time per transaction measured on one processor is projected to another by
the ratio of their capacity per engine: IBM's LSPR ratings (PCI, or ITRR, of
the model divided by its engine count), from the same LSPR table and workload
category.  zperf ships no LSPR table: ratings are the user's, or the few below
that a reference paper states.
"""

from __future__ import annotations

from dataclasses import dataclass

from zperf.calc.quantity import Quantity, positive
from zperf.errors import UsageError


def msg_per_sec_at_100pct(mips_per_engine: Quantity, instructions_per_msg: Quantity) -> Quantity:
    """Messages per second at 100 % of one engine: MIPS x 1e6 / path length (paper 002).

    002 raw data, HTTP, OTA_AirFlifoRQ2.xml: 298e6 / 109,951 = 2,710 msg/s.
    """
    return positive("MIPS", mips_per_engine) * 1e6 / positive("path length",
                                                             instructions_per_msg)


def instructions_per_msg(mips_per_engine: Quantity, msg_per_sec_at_100pct: Quantity) -> Quantity:
    """Mean path length from the rate one engine reaches at 100 %: MIPS x 1e6 / rate (002)."""
    return positive("MIPS", mips_per_engine) * 1e6 / positive("messages per second",
                                                             msg_per_sec_at_100pct)


def capacity_ratio(old_per_engine: Quantity, new_per_engine: Quantity) -> Quantity:
    """How much more one engine of the new processor does: new rating / old rating.

    The ratings are capacity per engine in one unit (PCI or MIPS per engine,
    ITRR per engine) from the same LSPR table and workload category.
    """
    return positive("new rating", new_per_engine) / positive("old rating", old_per_engine)


def project_ms_per_tran(ms_per_tran: Quantity, capacity_ratio: Quantity) -> Quantity:
    """CPU ms/tran on another processor: ms/tran / capacity ratio (new over old, per engine).

    A faster engine spends proportionally less time on the same instructions:
    at 298 MIPS (002) a 109,951-instruction message costs 1000 / 2710.3 = 0.3690
    ms; an engine rated twice that does it in 0.1845 ms.
    """
    return positive("ms per transaction", ms_per_tran) / positive("capacity ratio",
                                                                  capacity_ratio)


@dataclass(frozen=True)
class ProcessorRating:
    """A capacity per engine that a reference paper states, with where it says so."""

    name: str
    machine: str
    mips_per_engine: float
    source: str


#: Ratings the reference papers state.  Only cited figures belong here: IBM's
#: LSPR tables are not reproduced (give their ratings with --old/--new).
PROCESSOR_RATINGS: dict[str, ProcessorRating] = {
    "z9-ztpf": ProcessorRating(
        name="z9-ztpf", machine="IBM System z9 (the z/TPF SOAP test system)",
        mips_per_engine=298.0,
        source="paper 002, 'z/TPF SOAP performance testing configuration': "
               "IBM System z (z9), 298 MIPS per CPU"),
}


def processor_rating(name: str) -> ProcessorRating:
    """The cited rating called ``name`` (case-insensitive)."""
    rating = PROCESSOR_RATINGS.get(name.lower())
    if rating is None:
        known = ", ".join(PROCESSOR_RATINGS)
        raise UsageError(f"no cited rating {name!r} (known: {known}); give a number instead, "
                         f"e.g. the PCI or MIPS per engine from IBM's LSPR tables")
    return rating
