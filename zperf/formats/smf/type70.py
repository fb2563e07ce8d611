"""Decode SMF 70.1 records into the cpu and cpu_lpar tables, as RMF reports them.

Per processor type of the system's own partition (the PR/SM partition whose
number is the product section's SMF70PTN):

* online count: logical processors with online time; online engines: their
  online time over the interval (ONLINE % / 100 summed);
* LPAR BUSY = total dispatch time / online time (summed over the type, so the
  TOTAL/AVERAGE line weighs processors by online time).  Dedicated processors
  are always dispatched, so for them it is (online - wait) / online; with
  multithreading the core's LPAR busy time replaces the dispatch time;
* MVS BUSY = (online - parked - wait) / (online - parked), summed over the
  image's CPUs of the type; null when all were parked.

IBM's V2R1 sample report checks both averages: CPs online 100, 100, 100 and
30.27 % with LPAR BUSY 4.46, 0.00, 0.19, 0.00 average to 1.41, and MVS BUSY
4.41 and 0.19 of the two unparked ones to 2.30 (tests/formats/smf).

A CPU data section gets the online time of the logical processor at its
address (its core's with multithreading); one without such a processor
counts as online for the whole interval.  A record without PR/SM data (basic
mode) counts the CPUs online at the end of the interval and has no LPAR BUSY.
All arithmetic is vectorized over the sections of a batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats import encodings as dec
from zperf.formats.smf import type70_fields as f70
from zperf.formats.smf.columns import text_column, zos_release
from zperf.formats.smf.in_order import OFFSET
from zperf.formats.smf.record_checks import Checks, interval_of, subset
from zperf.formats.smf.record_decoder import Batch
from zperf.formats.smf.type70_checks import (
    check_cores,
    check_layout,
    check_partitions,
    check_processors,
    flatten,
)
from zperf.formats.tally import Tally
from zperf.tables.cpu import CPU, CPU_LPAR, PROCESSOR_TYPES

F = npt.NDArray[Any]
SOURCE_FORMAT = "smf70.1"
_TYPES = 4  # CP, zAAP, zIIP, other
_TYPE_OF_PREFIX = {"cp": f70.TYPE_CP, "ziip": f70.TYPE_ZIIP, "zaap": f70.TYPE_ZAAP}


def _ratio(num: F, den: F, scale: float = 100.0) -> pl.Series:
    """num / den x scale, null where den is not positive (nothing to divide by)."""
    ok = den > 0
    return pl.Series(np.where(ok, num * scale / np.where(ok, den, 1.0), np.nan),
                     nan_to_null=True)


def _sums(keys: F, weights: F, groups: int) -> F:
    return np.bincount(keys, weights=np.asarray(weights, dtype=np.float64), minlength=groups)


def empty(schema: Any) -> pl.DataFrame:
    """An empty table with the ``_record`` column the reader sorts by."""
    return schema.empty().with_columns(pl.lit(None, pl.Int64).alias("_record"))  # type: ignore[no-any-return]


def _hex_type(mod: F) -> pl.Series:
    """SMF70MOD holds the machine type as hex digits: X'3906' is '3906' (0: unknown)."""
    uniq, inverse = np.unique(mod, return_inverse=True)
    names = [f"{m:04X}" if m else None for m in uniq.tolist()]
    return pl.Series(names, dtype=pl.String).gather(inverse.reshape(-1))


def _frame(schema: Any, columns: dict[str, Any]) -> pl.DataFrame:
    """Numpy arrays, lists and series as a frame conforming to ``schema``."""
    frame = pl.DataFrame([v.alias(k) if isinstance(v, pl.Series) else pl.Series(k, v, strict=False)
                          for k, v in columns.items()])
    return schema.conform(frame)  # type: ignore[no-any-return]


def _strings(raw: npt.NDArray[Any], encoding: str) -> npt.NDArray[Any]:
    """Decode a text field of every section (blank -> '')."""
    return dec.decode_text(raw, encoding) if raw.size else np.empty(0, dtype=object)


class _Sections:
    """The sections of the good records of a batch, flattened with their record index."""

    def __init__(self, batch: Batch, trip: dict[str, Any], encoding: str) -> None:
        self.cpus, self.c_rec, self.c_pos = flatten(batch, trip, "CP", f70.CPU)
        self.parts, self.p_rec, self.p_pos = flatten(batch, trip, "BC", f70.BCT)
        self.lps, self.v_rec, self.v_pos = flatten(batch, trip, "BV", f70.BPD)
        self.cis, self.n_rec, _ = flatten(batch, trip, "CN", f70.CIS)
        self.cores, self.o_rec, self.o_pos = flatten(batch, trip, "CO", f70.LCS)
        self.names = _strings(self.parts["SMF70LPM"], encoding)
        self.cin = _strings(self.cis["SMF70CIN"], encoding)


def decode_batch(batch: Batch, tally: Tally, source: str, encoding: str,
                 lpar: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Decode one batch of 70.1 records into (cpu rows, cpu_lpar rows), with ``_record``."""
    checks = Checks(batch)
    head, trip = check_layout(batch, checks)
    ok = checks.ok
    prod = f70.PRODUCT70.gather(batch.data, np.where(ok, batch.starts + trip["PRS"], batch.starts),
                                available=np.where(ok, f70.PRODUCT70.size, 0))
    date, tod, interval = interval_of(prod, "SMF70", checks)
    checks.fail(prod["SMF70RAN"] == 1, lambda i: "broken 70.1 record (RMF reassembly area "
                "present): putting 70.1 pieces together is not supported")
    ptn = prod["SMF70PTN"].astype(np.int64)
    for key in trip:
        if key.endswith("N"):
            trip[key] = np.where(checks.ok, trip[key], 0)
    sec = _Sections(batch, trip, encoding)
    check_partitions(sec.parts, sec.p_rec, sec.p_pos, sec.names, ptn, trip, checks)
    check_processors(sec.lps, sec.v_rec, sec.v_pos, trip, checks)
    check_cores(sec.cores, sec.o_rec, sec.o_pos, trip, checks)
    checks.report(tally)
    keep = checks.ok
    tally.settle(parsed=int(keep.sum()))
    if not keep.any():
        return empty(CPU), empty(CPU_LPAR)
    if not keep.all():  # decode the good records again, on their own
        batch = subset(batch, keep)
        head, prod, date, tod, interval = head[keep], prod[keep], date[keep], tod[keep], \
            interval[keep]
        trip = {k: v[keep] for k, v in trip.items()}
        sec = _Sections(batch, trip, encoding)
    safe = batch.starts + trip["CCS"]
    ctl = f70.CTL.gather(batch.data, safe, available=trip["CCL"])
    start = date.astype("datetime64[us]") + tod.astype("timedelta64[s]")
    decoder = _Decoder(batch, head, prod, ctl, trip, sec, interval, start, source, encoding)
    cpu = decoder.cpu_frame()
    return cpu, decoder.lpar_frame(cpu) if lpar else empty(CPU_LPAR)


class _Decoder:
    """The derivations of one batch of good records (see the module docstring)."""

    def __init__(self, batch: Batch, head: npt.NDArray[np.void], prod: npt.NDArray[np.void],
                 ctl: npt.NDArray[np.void], trip: dict[str, Any], sec: _Sections,
                 interval: F, start: npt.NDArray[Any], source: str, encoding: str) -> None:
        self.batch, self.head, self.prod, self.ctl, self.trip = batch, head, prod, ctl, trip
        self.sec, self.interval, self.start = sec, interval, start
        self.source, self.encoding = source, encoding
        self.n = len(batch.starts)
        self.ptn = prod["SMF70PTN"].astype(np.int64)
        s = sec
        # Partition of every logical processor section (-1: none claims it).
        bdn = s.parts["SMF70BDN"].astype(np.int64)
        v_first = np.cumsum(trip["BVN"]) - trip["BVN"]
        first = v_first[s.p_rec] + s.parts["SMF70BDS"].astype(np.int64)
        owned = np.repeat(first, bdn) + np.arange(bdn.sum()) - np.repeat(np.cumsum(bdn) - bdn,
                                                                           bdn)
        self.lp_part = np.full(len(s.v_rec), -1, dtype=np.int64)
        self.lp_part[owned] = np.repeat(np.arange(len(s.p_rec)), bdn)
        self.own_part = ((s.parts["SMF70LPN"].astype(np.int64) == self.ptn[s.p_rec])
                         & (s.names != "PHYSICAL"))
        self.has_own = np.bincount(s.p_rec[self.own_part], minlength=self.n) > 0
        # Type of every logical processor, from its CPU-identification section.
        self.cix = s.lps["SMF70CIX"].astype(np.int64)
        n_first = np.cumsum(trip["CNN"]) - trip["CNN"]
        self.lp_cis = np.where(self.cix > 0, n_first[s.v_rec] + self.cix - 1, -1)
        names, inverse = (np.unique(s.cin, return_inverse=True) if len(s.cin)
                          else (np.empty(0, dtype=object), np.zeros(0, dtype=np.int64)))
        codes = np.array([f70.CIN_TYPES.get(str(c), f70.TYPE_OTHER) for c in names.tolist()],
                         dtype=np.int64)
        cin_type = np.append(codes[inverse.reshape(-1)], f70.TYPE_OTHER)
        self.lp_type = cin_type[self.lp_cis]  # -1 picks the extra TYPE_OTHER
        secs = interval[s.v_rec] * 1e6
        self.ont = np.where(trip["BVL"][s.v_rec] >= f70.BPD_ONT_LENGTH,
                            s.lps["SMF70ONT"].astype(np.float64), secs)
        self.pdt = s.lps["SMF70PDT"].astype(np.float64)
        self.edt = s.lps["SMF70EDT"].astype(np.float64)
        self.lp_own = np.append(self.own_part, False)[self.lp_part]  # -1 (no partition): False
        self.c_first = np.cumsum(trip["CPN"]) - trip["CPN"]

    # ------------------------------------------------------------ cpu table

    def _own_online_us(self, rec: F, address: F) -> F:
        """Online time (us) of the own partition's logical processor at (record,
        address); the whole interval where there is none."""
        s = self.sec
        whole = self.interval[rec] * 1e6
        keys = (s.v_rec * 65536 + s.lps["SMF70VPA"].astype(np.int64))[self.lp_own]
        if not len(keys) or not len(rec):
            return whole
        onts = self.ont[self.lp_own]
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        want = rec * 65536 + address
        at = np.clip(np.searchsorted(ordered, want), 0, len(ordered) - 1)
        return np.where(ordered[at] == want, onts[order][at], whole)

    def _thread_cores(self) -> F:
        """Address to look each CPU data section up by: its own, or its core's (MT)."""
        s = self.sec
        address = s.cpus["SMF70CID"].astype(np.int64)
        if len(s.o_rec):
            num = s.cores["SMF70_CPU_NUM"].astype(np.int64)
            first = self.c_first[s.o_rec] + s.cores["SMF70_CPU_SKIP"].astype(np.int64)
            threads = (np.repeat(first, num) + np.arange(num.sum())
                       - np.repeat(np.cumsum(num) - num, num))
            address[threads] = np.repeat(s.cores["SMF70_CORE_ID"].astype(np.int64), num)
        return address

    def _per_type(self) -> dict[str, pl.Series | F]:
        s, n = self.sec, self.n
        groups = n * _TYPES
        key_lp = s.v_rec * _TYPES + np.maximum(self.lp_type, 0)
        own = self.lp_own.astype(np.float64)
        online = own * (self.ont > 0)
        ont = _sums(key_lp, own * self.ont, groups)
        pdt = _sums(key_lp, own * self.pdt, groups)
        count = _sums(key_lp, online, groups)
        lps = _sums(key_lp, own, groups)
        dedicated = _sums(key_lp, own * (s.lps["SMF70BPS"] == f70.DEDICATED), groups)
        cpu_type = s.cpus["SMF70TYP"].astype(np.int64)
        key_c = s.c_rec * _TYPES + np.minimum(cpu_type, _TYPES - 1)
        c_ont = self._own_online_us(s.c_rec, self._thread_cores())
        wat = s.cpus["SMF70WAT"].astype(np.float64) / 4096
        long_enough = self.trip["CPL"][s.c_rec] >= f70.CPU.end_of("SMF70PAT")
        pat = np.where(long_enough, s.cpus["SMF70PAT"].astype(np.float64) / 4096, 0.0)
        busy = _sums(key_c, c_ont - pat - wat, groups)
        unparked = _sums(key_c, c_ont - pat, groups)
        waits = _sums(key_c, wat, groups)
        at_end = _sums(key_c, (s.cpus["SMF70CNF"] & 0x01) > 0, groups)
        core_busy, core_ont = self._core_busy(groups)
        rec = np.arange(n)
        secs = self.interval * 1e6
        out: dict[str, pl.Series | F] = {}
        for prefix, _ in PROCESSOR_TYPES:
            k = rec * _TYPES + _TYPE_OF_PREFIX[prefix]
            pr_sm = self.has_own
            ded = (lps[k] > 0) & (dedicated[k] == lps[k])
            dispatched = np.where(ded, ont[k] - waits[k], pdt[k])
            mt = core_ont[k] > 0
            lpar_num = np.where(mt, core_busy[k], dispatched)
            lpar_den = np.where(mt, core_ont[k], ont[k])
            out[f"{prefix}_online"] = np.where(pr_sm, count[k], at_end[k]).astype(np.int64)
            out[f"{prefix}_online_engines"] = np.where(pr_sm, ont[k], at_end[k] * secs) / secs
            out[f"{prefix}_lpar_busy_pct"] = _ratio(lpar_num, np.where(pr_sm, lpar_den, 0.0))
            out[f"{prefix}_mvs_busy_pct"] = _ratio(busy[k], unparked[k])
        return out

    def _core_busy(self, groups: int) -> tuple[F, F]:
        """Core LPAR busy and online time (us) per (record, type), multithreading only."""
        s = self.sec
        if not len(s.o_rec):
            return np.zeros(groups), np.zeros(groups)
        valid = (s.cores["SMF70_CORE_FLG"] & 0x80) > 0
        first = self.c_first[s.o_rec] + s.cores["SMF70_CPU_SKIP"].astype(np.int64)
        core_type = s.cpus["SMF70TYP"].astype(np.int64)[first]
        key = s.o_rec * _TYPES + np.minimum(core_type, _TYPES - 1)
        ont = self._own_online_us(s.o_rec, s.cores["SMF70_CORE_ID"].astype(np.int64))
        busy_us = s.cores["SMF70_LPAR_BUSY"].astype(np.float64) * 1000
        return _sums(key, valid * busy_us, groups), _sums(key, valid * ont, groups)

    def cpu_frame(self) -> pl.DataFrame:
        head, prod, ctl, n, enc = self.head, self.prod, self.ctl, self.n, self.encoding
        rec = np.arange(n)
        ccl = self.trip["CCL"]

        def ctl_int(name: str) -> pl.Series:
            value = ctl[name].astype(np.float64)
            return pl.Series(np.where(ccl >= f70.CTL.end_of(name), value, np.nan),
                             nan_to_null=True).cast(pl.Int64)

        mod = ctl["SMF70MOD"].astype(np.int64)
        stf, hhf = ctl["SMF70STF"], ctl["SMF70HHF"]
        mdl = text_column(ctl["SMF70MDL"], rec, enc)
        hwm = text_column(ctl["SMF70HWM"], rec, enc)
        own_name = np.full(n, None, dtype=object)
        s = self.sec
        own_name[s.p_rec[self.own_part]] = s.names[self.own_part]
        cycle, _ = dec.packed_to_int(prod["SMF70CYC"])
        hd = pl.Series(["NO", "YES", "NO*", "YES*"]).gather(
            ((hhf & 0x40) > 0).astype(np.int64) + 2 * ((hhf & 0x20) > 0))
        columns: dict[str, Any] = {
            "source": [self.source] * n, "source_format": [SOURCE_FORMAT] * n,
            "sysplex": text_column(prod["SMF70XNM"], rec, enc),
            "system": text_column(head["SMFSID"], rec, enc),
            "zos_release": text_column(prod["SMF70MVS"], rec, enc, zos_release),
            "interval_start": self.start, "interval_seconds": self.interval,
            "cycle_seconds": cycle / 1000.0,
            "machine_type": _hex_type(mod),
            "model_capacity_id": mdl,
            "hardware_model": hwm.zip_with(pl.Series((stf & 0x08) > 0), mdl),
            "cpc_capacity_msu": ctl_int("SMF70MCR").replace(0, None),
            "cpc_sequence_code": text_column(ctl["SMF70CSC"], rec, enc),
            "hiperdispatch": hd,
            "lpar_name": own_name.tolist(),
            "lpar_number": pl.Series(self.ptn).zip_with(
                pl.Series(self.has_own), pl.Series([None] * n, dtype=pl.Int64)),
            **self._per_type(),
            "image_capacity_msu": ctl_int("SMF70WLA"), "msu_4h_avg": ctl_int("SMF70LAC"),
            **self._own_capacity(),
            "group_msu_4h_avg": ctl_int("SMF70GAU").zip_with(
                pl.Series((stf & 0x01) > 0), pl.Series([None] * n, dtype=pl.Int64)),
            "ziip_nff": ctl_int("SMF70NRM").replace(0, None),
            "cpa_actual": ctl_int("SMF70CPA_ACTUAL").replace(0, None),
            "cpa_scaling_factor": ctl_int("SMF70CPA_SCALING_FACTOR").replace(0, None),
        }
        return _frame(CPU, columns).with_columns(pl.Series("_record", self.batch.numbers),
                                                 pl.Series(OFFSET, self.batch.offsets))

    def _own_capacity(self) -> dict[str, pl.Series]:
        """Defined capacity and capacity group of each record's own partition (null
        where the section is too short to hold them, or none is set)."""
        s, n = self.sec, self.n
        part_len = self.trip["BCL"][s.p_rec]
        own = self.own_part

        def own_value(name: str, present: F) -> pl.Series:
            value = np.full(n, np.nan)
            pick = own & present & (part_len >= f70.BCT.end_of(name))
            value[s.p_rec[pick]] = s.parts[name][pick].astype(np.float64)
            return pl.Series(value, nan_to_null=True).cast(pl.Int64)

        member = (s.parts["SMF70PFL"].astype(np.int64) & 0x4000) > 0
        group = np.full(n, None, dtype=object)
        named = own & member & (part_len >= f70.BCT.end_of("SMF70GNM"))
        names = _strings(s.parts["SMF70GNM"], self.encoding)
        group[s.p_rec[named]] = names[named] if len(names) else []
        return {"defined_capacity_msu": own_value("SMF70MSU", np.ones(len(own), bool))
                .replace(0, None),
                "capacity_group": pl.Series(group.tolist(), dtype=pl.String)
                .replace("", None),
                "group_limit_msu": own_value("SMF70GMU", member)}

    # ------------------------------------------------------------ cpu_lpar table

    def _groups(self, part: F) -> dict[str, pl.Series]:
        """Capacity group name and limit of the partitions ``part`` (null where the
        partition is not a member or its section is too short to say)."""
        s = self.sec
        member = (((s.parts["SMF70PFL"][part].astype(np.int64) & 0x4000) > 0)
                  & (self.trip["BCL"][s.p_rec[part]] >= f70.BCT.end_of("SMF70GMU")))
        names = _strings(s.parts["SMF70GNM"], self.encoding)
        group = np.full(len(part), None, dtype=object)
        if len(names):
            group[member] = names[part][member]
        limit = np.where(member, s.parts["SMF70GMU"][part].astype(np.float64), np.nan)
        return {"capacity_group": pl.Series(group.tolist(), dtype=pl.String).replace("", None),
                "group_limit_msu": pl.Series(limit, nan_to_null=True).cast(pl.Int64)}

    def lpar_frame(self, cpu_rows: pl.DataFrame) -> pl.DataFrame:
        """One row per (record, partition, CPU-identification entry) with processors."""
        s = self.sec
        has = self.lp_part >= 0
        if not has.any():
            return empty(CPU_LPAR)
        part = self.lp_part[has]
        key = part * 65536 + self.cix[has]
        groups, inverse = np.unique(key, return_inverse=True)
        g = len(groups)
        g_part = groups // 65536
        g_cix = groups % 65536
        rec = s.p_rec[g_part]
        ont, pdt, edt = self.ont[has], self.pdt[has], self.edt[has]
        weight = s.lps["SMF70BPS"][has].astype(np.int64)
        sums = {name: _sums(inverse, v, g) for name, v in (
            ("ont", ont), ("pdt", pdt), ("edt", edt), ("lps", np.ones(len(key))),
            ("online", ont > 0), ("ded", weight == f70.DEDICATED))}
        low = np.full(g, np.iinfo(np.int64).max)
        high = np.full(g, -1)
        np.minimum.at(low, inverse, weight)
        np.maximum.at(high, inverse, weight)
        n_first = np.cumsum(self.trip["CNN"]) - self.trip["CNN"]
        cis_at = np.where(g_cix > 0, n_first[rec] + g_cix - 1, -1)
        cin = np.concatenate([s.cin, np.array([None], dtype=object)])[cis_at]
        ctn = np.append(s.cis["SMF70CTN"].astype(np.float64), 0.0)[cis_at]
        secs = self.interval[rec] * 1e6
        capacity = secs * ctn
        dedicated = sums["ded"] == sums["lps"]
        columns: dict[str, Any] = {
            "source": [self.source] * g, "source_format": [SOURCE_FORMAT] * g,
            "sysplex": cpu_rows["sysplex"].gather(rec),
            "system": cpu_rows["system"].gather(rec),
            "interval_start": self.start[rec], "interval_seconds": self.interval[rec],
            "cpc_sequence_code": cpu_rows["cpc_sequence_code"].gather(rec),
            "partition_name": s.names[g_part].tolist(),
            "partition_number": s.parts["SMF70LPN"][g_part].astype(np.int64),
            "own_partition": self.own_part[g_part],
            "processor_type": cin.tolist(),
            "logical_processors": sums["lps"].astype(np.int64),
            "online_logical_processors": sums["online"].astype(np.int64),
            "online_engines": sums["ont"] / secs,
            "dedicated": dedicated,
            "weight": pl.Series(np.where(~dedicated & (low == high), high, -1)).replace(-1, None),
            "msu_defined": s.parts["SMF70MSU"][g_part].astype(np.int64),
            **self._groups(g_part),
            "physical_processors": ctn.astype(np.int64),
            "effective_dispatch_seconds": sums["edt"] / 1e6,
            "total_dispatch_seconds": sums["pdt"] / 1e6,
            "logical_effective_pct": _ratio(sums["edt"], sums["ont"]),
            "logical_total_pct": _ratio(sums["pdt"], sums["ont"]),
            "physical_lpar_mgmt_pct": _ratio(sums["pdt"] - sums["edt"], capacity),
            "physical_effective_pct": _ratio(sums["edt"], capacity),
            "physical_total_pct": _ratio(sums["pdt"], capacity),
        }
        return _frame(CPU_LPAR, columns).with_columns(
            pl.Series("_record", self.batch.numbers[rec]))
