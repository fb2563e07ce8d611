"""The reference papers' formulas, one function each.

Every function is plain arithmetic on its arguments, so it takes Python
numbers, numpy arrays and polars expressions or series alike (``itr(pl.col(
"etr_per_sec"), pl.col("cp_busy_pct"))`` is an expression).  Arguments and
results carry their unit in their names; each docstring cites its source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zperf.errors import UsageError

# ---------------------------------------------------------------- CPU per transaction


def cpu_ms_per_tran(cpu_seconds: Any, interval_seconds: Any, tran_per_sec: Any) -> Any:
    """CPU cost per transaction, ms: CPU service time / interval seconds / TPS x 1000.

    Paper 000 §11 ("CPU cost per transaction").  ``cpu_seconds`` is the RMF
    SERVICE TIME of the class (CPU + SRB ..., zIIP time normalized included);
    give the general-CP part and the zIIP part separately for the split.
    """
    return cpu_seconds / interval_seconds / tran_per_sec * 1000


def etr_per_sec(transactions: Any, seconds: Any) -> Any:
    """External transaction rate: transactions / seconds (paper 004 Table 15)."""
    return transactions / seconds


def itr_per_sec(etr: Any, busy_pct: Any) -> Any:
    """Internal transaction rate: ETR / (CPU % busy / 100) (paper 004 Table 15).

    Table 18, IMS 15: 98733.87 / 0.8150 = 121145.85.
    """
    return etr / (busy_pct / 100)


def general_cpu_us_per_tran(cps: Any, busy_pct: Any, etr: Any) -> Any:
    """Total general CPU µs/tran: CPs x busy / 100 x 1e6 / ETR (paper 004 Table 15).

    Table 18, IMS 15: 7 x 0.8150 x 1e6 / 98733.87 = 57.782.
    """
    return cps * (busy_pct / 100) * 1e6 / etr


def ziip_us_per_tran(ziips: Any, ziip_busy_pct: Any, etr: Any, avg_td: Any = 1.0) -> Any:
    """Total zIIP µs/tran from zIIP busy: zIIPs x busy / 100 [x AVG TD] x 1e6 / ETR.

    Paper 004 Table 15 gives it with and without the average thread density
    (AVG TD) of SMT-2 zIIPs; ``avg_td`` = 1 is the first form.
    """
    return ziips * (ziip_busy_pct / 100) * avg_td * 1e6 / etr


def ziip_us_per_tran_from_appl(iip_appl_pct: Any, etr: Any) -> Any:
    """zIIP service time per transaction, µs: IIP APPL% x 10000 / ETR (paper 004 Table 15)."""
    return iip_appl_pct * 10000 / etr


def service_us_per_tran(service_seconds: Any, transactions: Any) -> Any:
    """An address space's CPU service time per transaction, µs (paper 004 Table 15)."""
    return service_seconds * 1e6 / transactions


@dataclass(frozen=True)
class Combined:
    """Paper 004 Table 16: metrics of LPARs taken together (shared queues, data sharing)."""

    etr_per_sec: float
    busy_pct: float
    itr_per_sec: float
    general_cpu_us_per_tran: float


def combined(etrs: list[float], busies_pct: list[float], cps: list[int]) -> Combined:
    """Sum of ETRs, average busy, ETR sum / average busy, all CPs x average busy / ETR sum.

    Table 20 from Table 21 (IMS 15): 2761.39 + 2767.91 = 5529.30; (79.40 + 77.15) / 2
    = 78.275 %; ITR 7063.94; 6 x 0.78275 x 1e6 / 5529.30 = 849.384 µs.
    """
    if not (len(etrs) == len(busies_pct) == len(cps)) or not etrs:
        raise UsageError("give one ETR, one busy and one CP count per LPAR")
    etr = float(sum(etrs))
    busy = float(sum(busies_pct)) / len(busies_pct)
    return Combined(etr, busy, itr_per_sec(etr, busy),
                    general_cpu_us_per_tran(sum(cps), busy, etr))


# ---------------------------------------------------------------- zIIP offload


@dataclass(frozen=True)
class CpuSplit:
    """Paper 003 "Performance metrics", from a class's APPL% (percent of one engine)."""

    cpu_pct: float
    ziip_eligible_pct: float
    non_ziip_eligible_pct: float
    offload_pct: float | None


def cpu_split(cp_pct: float, iipcp_pct: float, iip_pct: float) -> CpuSplit:
    """CPU % = CP + IIP; zIIP-eligible = IIP + IIPCP; non-eligible = CPU % - eligible.

    Paper 003 writes non-eligible as "CP - (IIP + IIPCP)" with CP meaning the
    total CPU (CP + IIP), which is the reading taken here: non-eligible =
    (CP + IIP) - (IIP + IIPCP) = CP - IIPCP.  Achieved offload = IIP / eligible.
    003 Figure 4: CP 31.66, IIPCP 6.76, IIP 75.53 give 24.90 % non-eligible;
    000 Figure 2: CP 19.94, IIPCP 19.52, IIP 0 give 0.42 %.
    """
    total = cp_pct + iip_pct
    eligible = iip_pct + iipcp_pct
    return CpuSplit(total, eligible, total - eligible,
                    iip_pct / eligible * 100 if eligible else None)


# ---------------------------------------------------------------- capacity


def msg_per_sec_at_100pct(mips: Any, path_length: Any) -> Any:
    """Throughput at 100 % of one engine: MIPS x 1e6 / path length (instructions per msg).

    Paper 002: 298 MIPS, 109,951 instructions -> 2,710 msg/s.
    """
    return mips * 1e6 / path_length


def path_length(mips: Any, msg_per_sec: Any) -> Any:
    """Instructions per message from the throughput at 100 % of one engine (002)."""
    return mips * 1e6 / msg_per_sec


def project_ms_per_tran(ms_per_tran: Any, capacity_ratio: Any) -> Any:
    """CPU ms/tran on another processor: ms / ratio, with ratio = new / old capacity per
    engine (PCI or ITRR per engine, which the user supplies from IBM's LSPR)."""
    return ms_per_tran / capacity_ratio


@dataclass(frozen=True)
class Fit:
    """Least squares y = fixed + per_unit x, and how well it fits."""

    fixed: float
    per_unit: float
    r_squared: float
    points: int


def fit_fixed_variable(x: npt.ArrayLike, y: npt.ArrayLike) -> Fit:
    """Fixed + variable cost: least squares of cost against size (paper 002's model).

    From 002's raw data the HTTP path lengths give about 20 instructions per
    byte and the MQ client ones about 16 (the paper's "multiplier").
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.size < 2 or np.ptp(xs) == 0:
        raise UsageError("a fit needs at least two points with different x")
    slope, intercept = np.polyfit(xs, ys, 1)
    residual = ys - (intercept + slope * xs)
    spread = ys - ys.mean()
    total = float((spread * spread).sum())
    r2 = 1.0 - float((residual * residual).sum()) / total if total else 1.0
    return Fit(float(intercept), float(slope), r2, int(xs.size))


# ---------------------------------------------------------------- comparing runs

EQUIVALENT_ITR_PCT = 1.0


def delta(base: Any, new: Any) -> Any:
    """Delta of a metric between runs: new - base (paper 004's results tables)."""
    return new - base


def delta_pct(base: Any, new: Any) -> Any:
    """Delta %: (new - base) / base x 100.  Table 20: busy 79.27 -> 78.28 is -1.25 %."""
    return (new - base) / base * 100


def equivalent_itr(base_itr: float, new_itr: float,
                   tolerance_pct: float = EQUIVALENT_ITR_PCT) -> bool:
    """Paper 004's verdict: two runs are equivalent when their ITRs are within ±1 %."""
    return bool(abs(delta_pct(base_itr, new_itr)) <= tolerance_pct)


# ---------------------------------------------------------------- web services sizing

SOAP_PREFIX_SUFFIX_BYTES = 278


def soap_size_bytes(elements: Any, avg_name_length: Any, avg_data_length: Any,
                    program_name_length: Any = 8) -> Any:
    """SOAP message size a CICS Web Services Assistant generates (paper 001).

    278 (prefix and suffix, namespace URIs included) + (2 x program name length
    + 23) (the operation: program name + 'Operation') + elements x (2 x average
    element name length + average data length + 5).  001's first sizing table:
    128 elements, 8-byte names, 32 bytes of data -> 7,101 bytes.
    """
    operation = 2 * program_name_length + 23
    return (SOAP_PREFIX_SUFFIX_BYTES + operation
            + elements * (2 * avg_name_length + avg_data_length + 5))


#: CPU ms to convert 1K characters with z/OS Conversion Services in CICS
#: (PUT CONTAINER FROMCCSID, GET CONTAINER INTOCCSID), paper 001 "Codepage
#: conversion", results summary.  CCSIDs: 037 EBCDIC, 437 ASCII, 1208 UTF-8,
#: 1200 UTF-16.
CODEPAGE_MS_PER_1K_CHARS: dict[tuple[int, int], float] = {
    (1208, 437): 0.0094, (1208, 37): 0.0093, (1208, 1200): 0.0090,
    (437, 1208): 0.0087, (37, 1208): 0.0087, (1200, 1208): 0.0076,
    (37, 1200): 0.0031, (437, 1200): 0.0030, (1200, 37): 0.0021,
    (1200, 437): 0.0021, (37, 437): 0.0014, (437, 37): 0.0014,
}
CODEPAGE_NAMES = {37: "EBCDIC", 437: "ASCII", 1208: "UTF-8", 1200: "UTF-16"}


def codepage_cpu_ms(source_ccsid: int, target_ccsid: int, characters: float) -> float:
    """CPU ms to convert ``characters`` from one CCSID to another (paper 001's table;
    1K = 1,024 characters, as the paper's 1K to 1M sizes and its 4K commarea count)."""
    key = (int(source_ccsid), int(target_ccsid))
    if key not in CODEPAGE_MS_PER_1K_CHARS:
        known = ", ".join(f"{a}->{b}" for a, b in CODEPAGE_MS_PER_1K_CHARS)
        raise UsageError(f"paper 001 measured no conversion {key[0]} -> {key[1]} "
                         f"(measured: {known})")
    return CODEPAGE_MS_PER_1K_CHARS[key] * characters / 1024
