"""The performance table: WLM's Performance Index per service class period and interval.

From the ``workload`` table (goals, velocity, response times) and the
``distribution`` table (ended transactions per response time bucket), with
:mod:`zperf.calc.pi`'s formulas:

* velocity goals: goal / achieved execution velocity (``ex_vel_pct``, from
  the using and delay samples of SMF 72.3 or the listing's EX VEL%);
* average response time goals: actual / goal;
* percentile goals: the first bucket, in order of its limit, where the
  cumulative share of ended transactions reaches the goal percentile gives
  the PI (its limit in % of the goal / 100; 5.5 above 400 %).  A listing
  prints only the buckets with transactions and their limits in time, so a
  bucket's limit is taken as printed (ms) over the goal when no % is known.

Report classes have no goal and are left out; discretionary and system
goals get a null PI, as do periods with nothing ended (response time goals)
or no samples (velocity).  ``perf_index_printed`` is RMF's own PERF INDX
where the input is a listing, to set beside zperf's.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from zperf.calc import formulas as f
from zperf.tables.performance import PERFORMANCE

_KEYS = ("sysplex", "system", "interval_start", "class_kind", "class_name", "period")


def performance_table(workload: pl.DataFrame | None,
                      distribution: pl.DataFrame | None) -> pl.DataFrame:
    """The performance table (see the module docstring)."""
    if workload is None or workload.height == 0:
        return PERFORMANCE.empty()
    work = workload.filter(pl.col("class_kind") == "service")
    if "perf_index_printed" not in work.columns:
        work = work.with_columns(pl.lit(None, pl.Float64).alias("perf_index_printed"))
    work = work.join(_reached(work, distribution), on=list(_KEYS), how="left",
                     nulls_equal=True)
    goal = pl.col("goal_type")
    pi = (pl.when((goal == "velocity") & (pl.col("ex_vel_pct") > 0)
                  & (pl.col("goal_velocity_pct") > 0))
          .then(f.pi_velocity(pl.col("goal_velocity_pct"), pl.col("ex_vel_pct")))
          .when((goal == "average_response") & (pl.col("trans_ended") > 0)
                & (pl.col("goal_response_ms") > 0))
          .then(f.pi_average_response(pl.col("resp_actual_ms"), pl.col("goal_response_ms")))
          .when(goal == "percentile_response").then(pl.col("_bucket_pi")))
    return PERFORMANCE.conform(work.with_columns(pi.alias("perf_index"))
                               .with_columns((pl.col("perf_index") > 1.0).alias("goal_missed"))
                               .sort("interval_start", "system", "class_name", "period",
                                     nulls_last=True))


def performance_from_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`performance_table` of a reader's tables by name."""
    return performance_table(tables.get("workload"), tables.get("distribution"))


def _reached(work: pl.DataFrame, distribution: pl.DataFrame | None) -> pl.DataFrame:
    """Per percentile-goal class period: the limit (% of the goal) of the bucket where
    the goal percentile is reached, and its PI."""
    schema = pl.Schema({**{k: work.schema[k] for k in _KEYS},
                        "percentile_reached_pct": pl.Float64(), "_bucket_pi": pl.Float64()})
    if distribution is None or distribution.height == 0:
        return pl.DataFrame(schema=schema)
    # each goal's rows told apart by a number, not by the six columns of its key (the
    # windows and the grouping over half a million buckets a day: a third of the time)
    goals = work.filter(pl.col("goal_type") == "percentile_response").select(
        *_KEYS, "goal_percentile", "goal_response_ms").with_row_index("_goal")
    rows = distribution.select(*_KEYS, "bucket", "bucket_limit_pct", "bucket_limit_ms",
                               "trans_ended").join(goals, on=list(_KEYS), how="inner",
                                                   nulls_equal=True).drop(_KEYS)
    limit_pct = pl.coalesce(pl.col("bucket_limit_pct").cast(pl.Float64),
                            pl.col("bucket_limit_ms") / pl.col("goal_response_ms") * 100)
    count = pl.col("trans_ended").fill_null(0)
    share = count.cum_sum().over("_goal") * 100 / count.sum().over("_goal")
    reached = (rows.sort("_goal", "bucket", maintain_order=True)
               .with_columns(limit_pct.alias("percentile_reached_pct"))
               .filter(share >= pl.col("goal_percentile") - 1e-9)
               .group_by("_goal", maintain_order=True)
               .agg(pl.col("percentile_reached_pct").first()))
    reached = goals.select("_goal", *_KEYS).join(reached, on="_goal", how="inner").drop("_goal")
    return reached.with_columns(
        pl.when(pl.col("percentile_reached_pct").is_null()).then(f.OPEN_BUCKET_PI)
        .otherwise(f.bucket_pi(pl.col("percentile_reached_pct"))).alias("_bucket_pi")
    ).cast(schema)
