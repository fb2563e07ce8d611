"""Percentiles that add up: a fixed histogram of log-spaced buckets per summary row.

A 95th percentile cannot be made of other 95th percentiles, and the PDB keeps no
task (millions a day) to compute one from.  So each transaction summary row keeps
how many tasks fell in each of :data:`BUCKETS` buckets of response time and of CPU
time; histograms add up bucket by bucket (a batch of tasks to an hour, hours to a
day, days to a month: :func:`summed`, by the summaries' one rollup), and a
percentile is read from the histogram (:func:`quantile`).

The buckets: bucket ``i`` holds the values from ``LOW_MS x 2^(i/3)`` up to
``LOW_MS x 2^((i+1)/3)`` (the first bucket also every value below, the last every
value above: 0.01 ms to 12 hours), three to a doubling.  A percentile is the
nearest-rank one (the value of the ``ceil(q x n)``-th task, in order), given as its
bucket's geometric middle, and never above the row's maximum: within
``2^(1/6) - 1`` = 12.25 % of the nearest-rank value (0.0113 ms for values below
0.01 ms).  (A t-digest or DDSketch would merge as well; a fixed histogram needs no
library and merges with a sum, exactly, in any order.)
"""

from __future__ import annotations

import math

import polars as pl

#: The lowest bucket's upper bound is LOW_MS x 2^(1/3).
LOW_MS = 0.01
#: Buckets to a doubling.
PER_DOUBLING = 3
#: Buckets: 0.01 ms x 2^32 is 11.9 hours.
BUCKETS = 96
#: The summaries' histogram columns (the values each counts: :data:`zperf.pdb.tasks.FEEDS`).
HISTOGRAMS = ("resp_histogram", "cpu_histogram")
#: The largest relative error of a percentile read from a histogram.
ERROR = 2 ** (1 / (2 * PER_DOUBLING)) - 1


def bucket_of(value_ms: pl.Expr) -> pl.Expr:
    """Each value's bucket (null stays null: not counted)."""
    steps = ((value_ms.clip(lower_bound=LOW_MS) / LOW_MS).log(2) * PER_DOUBLING).floor()
    return steps.clip(0, BUCKETS - 1).cast(pl.Int64)


def counted(rows: pl.DataFrame, by: list[str], value: str, name: str) -> pl.DataFrame:
    """Per ``by`` group of ``rows``, the histogram of ``value`` (a list of
    :data:`BUCKETS` counts) as ``name``."""
    counts = (rows.filter(pl.col(value).is_not_null())
              .group_by(*by, bucket_of(pl.col(value)).alias("_bucket")).len())
    return counts.group_by(by).agg(pl.concat_list([
        pl.col("len").filter(pl.col("_bucket") == i).sum().cast(pl.Int64)
        for i in range(BUCKETS)]).alias(name))


def summed(column: str) -> pl.Expr:
    """An aggregation: the histograms of a group added up bucket by bucket."""
    return pl.concat_list([pl.col(column).list.get(i, null_on_oob=True).sum()
                           for i in range(BUCKETS)]).alias(column)


def quantile(histogram: pl.Expr, q: float, highest: pl.Expr) -> pl.Expr:
    """The ``q`` quantile (nearest rank) of each row's histogram, at its bucket's
    geometric middle, at most ``highest`` (the row's maximum); null without a count."""
    total = histogram.list.sum()
    at = histogram.list.eval(
        (pl.element().cum_sum() >= (pl.element().sum() * q).ceil()).arg_max()).list.first()
    middle = LOW_MS * (2.0 ** ((at.cast(pl.Float64) + 0.5) / PER_DOUBLING))
    value = pl.when(highest.is_not_null()).then(pl.min_horizontal(middle, highest)) \
        .otherwise(middle)
    return pl.when(total > 0).then(value)


def bounds(index: int) -> tuple[float, float]:
    """A bucket's lower and upper bound, ms (the first from 0, the last to infinity)."""
    low = 0.0 if index == 0 else LOW_MS * 2 ** (index / PER_DOUBLING)
    high = math.inf if index == BUCKETS - 1 else LOW_MS * 2 ** ((index + 1) / PER_DOUBLING)
    return low, high
