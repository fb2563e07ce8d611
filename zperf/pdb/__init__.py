"""zperf's performance database (PDB): the history capacity planning needs.

A folder of Parquet files, partitioned Hive-style by table, system and date
(:mod:`zperf.pdb.layout`), that any Parquet reader reads as it is; a manifest of
the inputs loaded; changes made whole or not at all (:mod:`zperf.pdb.store`).
``zperf pdb add`` loads inputs (:mod:`zperf.pdb.load`), settling the rows it already
holds by the one rule of :mod:`zperf.formats.repeats`; summaries per hour, day,
week and month are kept up to date (:mod:`zperf.pdb.summaries`; the address spaces'
of SMF 30, :mod:`zperf.pdb.jobs`; CICS tasks kept as summaries only,
:mod:`zperf.pdb.tasks`); ``remove`` takes systems' days back out
(:mod:`zperf.pdb.remove`); ``prune`` and ``compact`` keep it small
(:mod:`zperf.pdb.upkeep`); ``query`` is SQL over it
(:mod:`zperf.pdb.query`); ``export`` writes OpenMetrics text and OTLP JSON
(:mod:`zperf.pdb.feeds`).

From Python::

    import zperf.pdb
    pdb = zperf.pdb.open("/data/pdb")
    busy = pdb.scan("system_day").filter(shift="prime").collect()
"""

from __future__ import annotations

import os

from zperf.pdb.store import Pdb

__all__ = ["Pdb", "open"]


def open(path: str | os.PathLike[str]) -> Pdb:
    """The PDB in the folder ``path`` (it must be one: ``zperf pdb add`` makes it)."""
    return Pdb(path).require()
