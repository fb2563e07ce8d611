"""Every SMF writer name the simulator, samples, benchmarks and tests use, in one import.

``from zperf.sim.writers import smf as writer`` gives the dump framing
(:mod:`~zperf.sim.writers.smf_framing`), the 72.3 builder
(:mod:`~zperf.sim.writers.smf72`) and the period values
(:mod:`~zperf.sim.writers.smf72_periods`).
"""

from __future__ import annotations

from zperf.sim.writers.smf72_class import ClassInterval, build_type72_3
from zperf.sim.writers.smf72_periods import period_values
from zperf.sim.writers.smf_framing import (
    dump_header,
    dump_trailer,
    frame_bdw,
    frame_rdw,
    frame_spanned_rdw,
    other_record,
    smf_header,
)

__all__ = ["ClassInterval", "build_type72_3", "dump_header", "dump_trailer", "frame_bdw",
           "frame_rdw", "frame_spanned_rdw", "other_record", "period_values", "smf_header"]
