"""``zperf calc`` for CPU per transaction: ITR, zIIP and CP time per transaction,
APPL% splits and combined LPARs (papers 000, 003 and 004)."""

from __future__ import annotations

import click

from zperf.calc import formulas as f
from zperf.cli.calc_commands.params import BUSY, COUNT, NON_NEGATIVE, POSITIVE, emit, to_option
from zperf.errors import UsageError
from zperf.report.values import Value


@click.command(name="itr")
@click.option("--etr", type=NON_NEGATIVE, required=True, help="ETR, transactions per second.")
@click.option("--busy", type=BUSY, required=True, help="CPU % busy of the LPAR's CPs.")
@click.option("--cps", type=COUNT, help="CPs of the LPAR: also total general CPU us/tran.")
@to_option
def itr_command(etr: float, busy: float, cps: int | None, fmt: str) -> None:
    """ITR = ETR / (busy / 100); with --cps, CPs x busy x 1e6 / ETR (004 Table 15)."""
    values = [Value("itr_per_sec", f.itr_per_sec(etr, busy), "tran/s")]
    if cps is not None:
        values.append(Value("general_cpu_us_per_tran",
                            f.general_cpu_us_per_tran(cps, busy, etr), "µs/tran"))
    emit(values, fmt)


@click.command(name="ziip-us")
@click.option("--etr", type=POSITIVE, required=True, help="ETR, transactions per second.")
@click.option("--ziips", type=COUNT, help="zIIPs of the LPAR (with --busy).")
@click.option("--busy", type=NON_NEGATIVE, help="zIIP % busy of the LPAR (with --ziips).")
@click.option("--avg-td", type=POSITIVE, default=1.0, show_default=True,
              help="Average thread density of zIIPs running SMT-2 (1: no SMT).")
@click.option("--iip-appl", type=NON_NEGATIVE, help="APPL% IIP of the workload's classes.")
@to_option
def ziip_command(etr: float, ziips: int | None, busy: float | None, avg_td: float,
                 iip_appl: float | None, fmt: str) -> None:
    """zIIP us/tran both ways of 004 Table 15: from zIIP busy, and IIP APPL% x 10000 / ETR."""
    if (ziips is None) != (busy is None):
        raise UsageError("--ziips and --busy go together")
    values = []
    if ziips is not None and busy is not None:
        values.append(Value("ziip_us_per_tran", f.ziip_us_per_tran(ziips, busy, etr, avg_td),
                            "µs/tran"))
    if iip_appl is not None:
        values.append(Value("ziip_us_per_tran_from_appl",
                            f.ziip_us_per_tran_from_appl(iip_appl, etr), "µs/tran"))
    if not values:
        raise UsageError("give --ziips and --busy, or --iip-appl, or both")
    emit(values, fmt)


def _rate(tps: float | None, transactions: float | None, interval: float | None) -> float:
    if (tps is None) == (transactions is None):
        raise UsageError("give the rate with --tps or the count with --transactions, not both")
    if tps is not None:
        return tps
    if interval is None:
        raise UsageError("--transactions needs --interval")
    return float(f.etr_per_sec(transactions, interval))


@click.command(name="ms-per-tran")
@click.option("--cpu-seconds", type=NON_NEGATIVE,
              help="SERVICE TIME CPU of the interval, s (zIIP time included, as RMF shows it).")
@click.option("--srb-seconds", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="SERVICE TIME SRB (add RCT, IIT and HST here if they matter), s.")
@click.option("--iip-seconds", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="SERVICE TIME IIP: the zIIP part, s.")
@click.option("--interval", "interval_seconds", type=POSITIVE, help="Interval length, s.")
@click.option("--appl-cp", type=NON_NEGATIVE, help="APPL% CP (instead of service seconds).")
@click.option("--appl-iip", type=NON_NEGATIVE, default=0.0, show_default=True,
              help="APPL% IIP (with --appl-cp).")
@click.option("--tps", type=POSITIVE, help="Transactions per second.")
@click.option("--transactions", type=POSITIVE, help="Transactions ended in the interval.")
@to_option
def ms_command(cpu_seconds: float | None, srb_seconds: float, iip_seconds: float,
               interval_seconds: float | None, appl_cp: float | None, appl_iip: float,
               tps: float | None, transactions: float | None, fmt: str) -> None:
    """CPU ms/tran = CPU seconds / interval / TPS x 1000, total, CP and zIIP (000 section 11).

    From service seconds (--cpu-seconds, --srb-seconds, --iip-seconds,
    --interval) or from APPL% (--appl-cp, --appl-iip): APPL% x 10 / TPS.
    """
    rate = _rate(tps, transactions, interval_seconds)
    if (cpu_seconds is None) == (appl_cp is None):
        raise UsageError("give the CPU as --cpu-seconds (with --interval) or as --appl-cp")
    if cpu_seconds is not None:
        if interval_seconds is None:
            raise UsageError("--cpu-seconds needs --interval")
        cp_seconds = f.general_cp_seconds(cpu_seconds, srb_seconds, iip_seconds)
        if cp_seconds < 0:
            raise UsageError("--iip-seconds is more than --cpu-seconds + --srb-seconds; "
                             "RMF's CPU service time includes the zIIP time")
        cp_ms = f.cpu_ms_per_tran(cp_seconds, interval_seconds, rate)
        ziip_ms = f.cpu_ms_per_tran(iip_seconds, interval_seconds, rate)
    else:
        cp_ms = f.cpu_ms_per_tran_from_appl(appl_cp, rate)
        ziip_ms = f.cpu_ms_per_tran_from_appl(appl_iip, rate)
    emit([Value("cpu_ms_per_tran", cp_ms + ziip_ms, "ms/tran"),
           Value("cp_ms_per_tran", cp_ms, "ms/tran"),
           Value("ziip_ms_per_tran", ziip_ms, "ms/tran")], fmt)


@click.command(name="service-time")
@click.option("--seconds", type=NON_NEGATIVE, required=True,
              help="CPU service time of the address space(s) in the interval, s.")
@click.option("--transactions", type=POSITIVE, required=True,
              help="Transactions processed in the same interval.")
@to_option
def service_command(seconds: float, transactions: float, fmt: str) -> None:
    """An address space's CPU service time per transaction, us (004 Table 15)."""
    emit([Value("service_us_per_tran", f.service_us_per_tran(seconds, transactions),
                 "µs/tran")], fmt)


@click.command(name="cpu-split")
@click.option("--cp", type=NON_NEGATIVE, required=True, help="APPL% CP.")
@click.option("--iipcp", type=NON_NEGATIVE, required=True, help="APPL% IIPCP.")
@click.option("--iip", type=NON_NEGATIVE, required=True, help="APPL% IIP.")
@to_option
def split_command(cp: float, iipcp: float, iip: float, fmt: str) -> None:
    """CPU %, zIIP-eligible, non-eligible (003's CP - (IIP + IIPCP)) and achieved offload.

    003 writes the non-eligible share as CP - (IIP + IIPCP) with CP meaning the
    total CPU (CP + IIP); that reading gives its Figure 4's 24.90 %.
    """
    split = f.cpu_split(cp, iipcp, iip)
    emit([Value("cpu_pct", split.cpu_pct, "% of one engine"),
           Value("ziip_eligible_pct", split.ziip_eligible_pct, "% of one engine"),
           Value("non_ziip_eligible_pct", split.non_ziip_eligible_pct, "% of one engine"),
           Value("achieved_offload_pct", split.achieved_offload_pct, "% of eligible")], fmt)


@click.command(name="combined")
@click.option("--etr", "etrs", type=NON_NEGATIVE, multiple=True, required=True,
              help="ETR of one LPAR; repeat for each LPAR.")
@click.option("--busy", "busies", type=BUSY, multiple=True, required=True,
              help="CPU % busy of the same LPAR; repeat.")
@click.option("--cps", "cps", type=COUNT, multiple=True, required=True,
              help="CPs of the same LPAR; repeat.")
@to_option
def combined_command(etrs: tuple[float, ...], busies: tuple[float, ...], cps: tuple[int, ...],
                     fmt: str) -> None:
    """Combined metrics of LPARs (004 Table 16): ETRs add up, busy is pooled.

    The busy is averaged over the LPARs' CPs, sum(CPs x busy) / sum(CPs), so that CPs x
    busy is the CP time used; Table 16's plain mean when they have as many CPs each."""
    c = f.combined(list(etrs), list(busies), list(cps))
    emit([Value("etr_per_sec", c.etr_per_sec, "tran/s"),
           Value("cp_busy_pct", c.cp_busy_pct, "%"),
           Value("itr_per_sec", c.itr_per_sec, "tran/s"),
           Value("general_cpu_us_per_tran", c.general_cpu_us_per_tran, "µs/tran")], fmt)


COMMANDS = (itr_command, ziip_command, ms_command, service_command, split_command,
            combined_command)
