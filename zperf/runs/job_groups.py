"""A run's address-space groups from SMF 30, and how they agree with the report classes.

The papers' groups are report classes, one per address space (IMSCTL, IMSCON,
DB2DIST); SMF 30 measures the same address spaces on their own.  A group may
name its address spaces by job name (``job:IMSCTL``, ``job:IMSIF*``): its CPU is
then their interval records' (subtypes 2 and 3), apportioned to the run's RMF
intervals by elapsed overlap (:func:`zperf.runs.jobs.apportioned`), in the very
columns a group of classes fills (``{group}_cpu_seconds`` as RMF's SERVICE
TIME: general-CP time plus zIIP time normalized to CP speed; and
``{group}_ziip_seconds``, raw), so compare, check and the reports read it as any
group.

Where both sources hold a group's CPU, :func:`agreement` sets them side by
side over the run's complete intervals:

* a group of classes against the address spaces whose SMF 30 records name
  those classes (SMF30RCN for a report class, SMF30SCN for a service class);
* a group of jobs against the report classes those jobs are in, when the
  report classes hold no other address space (else they are not the same
  work, and nothing is compared).

They measure one CPU twice, so they differ by SMF 30's rounding to the
hundredth of a second per record (half a hundredth each, at most) and by
what each charges where: SMF 30 charges an independent enclave's CPU (Db2
DDF's) to the address space that owns it, 72.3 to the enclave's own class;
an address space reset to another class mid-interval moves its CPU in 72.3 at
once.  A difference beyond :data:`AGREE_SHARE` and the rounding is a finding.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import polars as pl

from zperf.errors import UsageError
from zperf.runs.coverage import GROUP_FEEDS, Use, members
from zperf.runs.findings import Finding
from zperf.runs.jobs import apportioned
from zperf.runs.spec import ClassRef

#: The columns of an SMF 30 interval record a run keeps (the key of a record, so that
#: one an earlier file gave is read once, and what the groups need).
KEEP = ("system", "interval_start", "interval_seconds", "job_name", "job_id", "step_number",
        "asid", "source_format", "service_class", "report_class", "cp_seconds",
        "ziip_seconds", "ziip_nff")
#: How far the two sources of a group's CPU may differ, beyond SMF 30's rounding.
AGREE_SHARE = 0.02
#: SMF 30's rounding: half a hundredth of a second per record, at most.
ROUNDING_SECONDS = 0.005
SOURCE = "the SMF 30 interval records"
AGREEMENT_SCHEMA = pl.Schema({
    "group": pl.String(), "figures_from": pl.String(), "compared_with": pl.String(),
    "address_spaces": pl.Int64(), "class_cpu_seconds": pl.Float64(),
    "job_cpu_seconds": pl.Float64(), "cpu_difference_pct": pl.Float64(),
    "class_ziip_seconds": pl.Float64(), "job_ziip_seconds": pl.Float64(),
    "ziip_difference_pct": pl.Float64()})


def job_match(refs: Sequence[ClassRef]) -> pl.Expr:
    """The SMF 30 records of a group's jobs: each name whole, or as a prefix (``X*``)."""
    keep = pl.lit(False)
    for ref in refs:
        if ref.name.endswith("*"):
            keep = keep | pl.col("job_name").str.starts_with(ref.name[:-1])
        else:
            keep = keep | (pl.col("job_name") == ref.name)
    return keep


def wanted(groups: dict[str, tuple[ClassRef, ...]]) -> pl.Expr:
    """The SMF 30 records a run needs: its groups' jobs, and the address spaces of its
    groups' classes (for the agreement)."""
    jobs = [ref for refs in groups.values() for ref in refs if ref.job]
    names = sorted({ref.name for refs in groups.values() for ref in refs if not ref.job})
    classes = pl.col("report_class").is_in(names) | pl.col("service_class").is_in(names)
    return job_match(jobs) | classes if jobs else classes


def in_window(records: pl.DataFrame, start: dt.datetime | None,
              end: dt.datetime | None) -> pl.DataFrame:
    """The records that overlap the window [start, end)."""
    ends = pl.col("interval_start") + pl.duration(
        microseconds=(pl.col("interval_seconds").fill_null(0.0) * 1e6).cast(pl.Int64))
    if start is not None:
        records = records.filter(ends >= start)
    if end is not None:
        records = records.filter(pl.col("interval_start") < end)
    return records


def on_intervals(records: pl.DataFrame | None, bins: pl.DataFrame,
                 systems: Sequence[str]) -> pl.DataFrame:
    """The run's SMF 30 records apportioned to its RMF intervals (of each record's
    system): a row per record and interval it overlaps, ``interval_start`` the RMF
    interval's, the CPU the record's share of it; ``service_seconds`` is RMF's SERVICE
    TIME's measure (general CP + zIIP normalized to CP speed)."""
    schema = {"system": pl.String(), "interval_start": pl.Datetime("us"),
              "job_name": pl.String(), "job_id": pl.String(),
              "service_class": pl.String(), "report_class": pl.String(),
              "service_seconds": pl.Float64(), "cp_seconds": pl.Float64(),
              "ziip_seconds": pl.Float64()}
    if records is None or records.height == 0 or bins.height == 0:
        return pl.DataFrame(schema=schema)
    if systems:
        records = records.filter(pl.col("system").is_in(list(systems)))
    rows = apportioned(records, bins)
    nff = pl.col("ziip_nff").cast(pl.Float64).fill_null(256.0) / 256
    return rows.select(
        "system", pl.col("bin_start").alias("interval_start"), "job_name", "job_id",
        "service_class", "report_class",
        ((pl.col("cp_seconds") + pl.col("ziip_seconds") * nff) * pl.col("share"))
        .alias("service_seconds"),
        (pl.col("cp_seconds") * pl.col("share")).alias("cp_seconds"),
        (pl.col("ziip_seconds") * pl.col("share")).alias("ziip_seconds")).cast(
        schema)  # type: ignore[arg-type]


def _summed(column: str, alias: str) -> pl.Expr:
    """A sum that is unknown when any part is (a CPU time SMF marked not valid)."""
    return pl.when(pl.col(column).is_null().any()).then(None).otherwise(
        pl.col(column).sum()).alias(alias)


def group_seconds(rows: pl.DataFrame, refs: Sequence[ClassRef], prefix: str,
                  name: str) -> pl.DataFrame:
    """A group of jobs' ``{prefix}_cpu_seconds`` and ``{prefix}_ziip_seconds`` per RMF
    interval; a group none of whose jobs is in the records is an error naming the
    records' jobs."""
    mine = rows.filter(job_match(refs))
    if mine.height == 0:
        listed = ", ".join(refs_text(refs))
        if rows.height == 0:
            raise UsageError(f"group {name!r} names address spaces ({listed}), but the "
                             "sources hold no SMF 30 interval records in the window")
        known = sorted(set(rows["job_name"].drop_nulls().to_list()))
        hint = ", ".join(known[:20]) + (" ..." if len(known) > 20 else "")
        raise UsageError(f"group {name!r}: no address space {listed} in the SMF 30 interval "
                         f"records (jobs: {hint})")
    return mine.group_by("interval_start", maintain_order=True).agg(
        _summed("service_seconds", f"{prefix}_cpu_seconds"),
        _summed("ziip_seconds", f"{prefix}_ziip_seconds"))


def refs_text(refs: Sequence[ClassRef]) -> list[str]:
    return [str(ref) for ref in refs]


def group_use(rows: pl.DataFrame, refs: Sequence[ClassRef], prefix: str, name: str) -> Use:
    """A group of jobs as a source of the run's figures: each of its address spaces, on
    its system, in every interval (one that ends or starts inside the window leaves the
    intervals it missed incomplete)."""
    mine = rows.filter(job_match(refs))
    present = members(mine, pl.concat_str(pl.col("job_name"), pl.lit(" on "),
                                          pl.col("system")))
    return Use(SOURCE, present, tuple(sorted(set(present["member"].to_list()))),
               tuple(f"{prefix}_{kind}_{unit}" for kind in ("cpu", "ziip")
                     for unit in ("seconds", "us_per_tran")), f"{GROUP_FEEDS}{name!r}",
               "address space")


def agreement(work: pl.DataFrame, rows: pl.DataFrame, groups: dict[str, tuple[ClassRef, ...]],
              prefixes: dict[str, str], starts: Sequence[object],
              cpu_columns: Sequence[str]) -> tuple[pl.DataFrame, list[Finding]]:
    """Each group's CPU from both sources over the intervals ``starts`` (see the module
    docstring), and a finding per group whose two figures disagree.  ``cpu_columns``:
    the workload columns a class's CPU service time adds up (RMF's SERVICE TIME)."""
    out, findings = [], []
    rows = rows.filter(pl.col("interval_start").is_in(list(starts)))
    work = work.filter(pl.col("interval_start").is_in(list(starts)))
    if rows.height == 0 or work.height == 0:
        return pl.DataFrame(schema=AGREEMENT_SCHEMA), []
    for name, refs in groups.items():
        compared = _counterpart(work, rows, refs)
        if compared is None:
            continue
        classes, spaces, what = compared
        class_cpu = _class_seconds(classes, cpu_columns)
        job_cpu = spaces.select(pl.col("service_seconds").sum(), pl.col("ziip_seconds").sum(),
                                pl.len()).row(0)
        row = {"group": name,
               "figures_from": SOURCE if refs[0].job else "the classes (SMF 72.3)",
               "compared_with": what,
               "address_spaces": spaces.select(pl.struct("system", "job_name", "job_id")
                                               .n_unique()).item(),
               "class_cpu_seconds": class_cpu[0], "job_cpu_seconds": job_cpu[0],
               "cpu_difference_pct": _pct(job_cpu[0], class_cpu[0]),
               "class_ziip_seconds": class_cpu[1], "job_ziip_seconds": job_cpu[1],
               "ziip_difference_pct": _pct(job_cpu[1], class_cpu[1])}
        out.append(row)
        slack = AGREE_SHARE * (class_cpu[0] or 0.0) + ROUNDING_SECONDS * job_cpu[2]
        if class_cpu[0] is not None and job_cpu[0] is not None \
                and abs(job_cpu[0] - class_cpu[0]) > slack:
            prefix = prefixes[name]
            findings.append(Finding(
                "plausibility", "sources_disagree",
                f"group {name!r}: its classes hold {class_cpu[0]:.2f} s of CPU over the "
                f"window's complete intervals, its address spaces' SMF 30 interval records "
                f"{job_cpu[0]:.2f} s ({row['cpu_difference_pct']:+.1f} %): two measures of "
                "one CPU that disagree (SMF 30 charges an independent enclave to the address "
                "space that owns it, 72.3 to its own class; an address space moved to "
                "another class; records missing from one source)",
                (f"{prefix}_cpu_seconds", f"{prefix}_cpu_us_per_tran"), name,
                f"{row['cpu_difference_pct']:+.1f} % between sources"))
    return pl.DataFrame(out, schema=AGREEMENT_SCHEMA), findings


def _pct(value: float | None, reference: float | None) -> float | None:
    if value is None or not reference:
        return None
    return (value - reference) / reference * 100


def _kind(work: pl.DataFrame, ref: ClassRef) -> str | None:
    """The kind of the input's class a reference names ('report' or 'service')."""
    if ref.kind is not None:
        return ref.kind
    kinds = set(work.filter(pl.col("class_name") == ref.name)["class_kind"].to_list())
    return kinds.pop() if len(kinds) == 1 else None


def _class_seconds(rows: pl.DataFrame,
                   cpu_columns: Sequence[str]) -> tuple[float | None, float | None]:
    got = rows.select(
        pl.sum_horizontal(*(pl.col(c).fill_null(0.0) for c in cpu_columns)).sum(),
        pl.col("iip_seconds").fill_null(0.0).sum()).row(0)
    return got[0], got[1]


def _counterpart(work: pl.DataFrame, rows: pl.DataFrame, refs: Sequence[ClassRef],
                 ) -> tuple[pl.DataFrame, pl.DataFrame, str] | None:
    """(the class rows, the SMF 30 rows, what they are) of one group's CPU, when both
    sources hold it; None when they do not."""
    if refs[0].job:
        spaces = rows.filter(job_match(refs))
        names = sorted(set(spaces["report_class"].drop_nulls().to_list()))
        if not names or spaces["report_class"].null_count():
            return None
        everyone = rows.filter(pl.col("report_class").is_in(names))
        if everyone.height != spaces.height:  # the classes hold other address spaces too
            return None
        classes = work.filter((pl.col("class_kind") == "report")
                              & pl.col("class_name").is_in(names))
        if classes.select("class_name").n_unique() != len(names):
            return None
        return classes, spaces, f"report class {', '.join(names)} (SMF 72.3)"
    class_rows, space_rows = [], []
    for ref in refs:
        kind = _kind(work, ref)
        column = {"report": "report_class", "service": "service_class"}.get(kind or "")
        if column is None:
            return None
        class_rows.append(work.filter((pl.col("class_name") == ref.name)
                                      & (pl.col("class_kind") == kind)))
        space_rows.append(rows.filter(pl.col(column) == ref.name))
    spaces = pl.concat(space_rows).unique(maintain_order=True)
    if spaces.height == 0:
        return None
    return pl.concat(class_rows), spaces, f"{SOURCE} of their address spaces"
