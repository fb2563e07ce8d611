"""The names the command line offers before it reads anything: input kinds, tables
(read and derived), the on-error policies and the default code page.

Why a module of its own: ``zperf parse --help`` lists the kinds (``--from``)
and the tables (``--table``), and the registry that knows them imports every
reader, and with them polars, pyarrow and numpy (most of a second).  The
names are written here, without a library; ``zperf.formats.registry`` builds
the same lists from the readers, and a test (tests/formats/test_names.py)
fails when the two differ, so a new reader is listed in both.  The on-error
policies and the default code page are defined here only (the readers take
them from here).
"""

from __future__ import annotations

from typing import Literal

#: EBCDIC code page of text fields in binary records and EBCDIC listings.
DEFAULT_ENCODING = "cp037"

OnError = Literal["raise", "skip", "keep"]
#: What a reader does with a bad record: stop, skip it, or skip it and keep its bytes.
ON_ERROR_CHOICES: tuple[OnError, ...] = ("raise", "skip", "keep")

OnConflict = Literal["error", "first", "last"]
#: What to do with a row read twice with other values (the same class period or CPU
#: interval, other figures): stop, or keep the one read first, or the one read last.
ON_CONFLICT_CHOICES: tuple[OnConflict, ...] = ("error", "first", "last")

#: Every input kind, in the registry's order (``zperf.formats.registry.KINDS``).
KIND_NAMES: tuple[str, ...] = (
    "smf", "zperf-csv", "cics-dfhstup", "cics-dfh0stat", "rmf-cpu", "rmf-wlmgl", "rmf-xml",
    "ims-pa-report", "ims-pa-csv", "driver-iwl", "jmeter-xml", "jmeter-csv", "driver-csv",
    "zperf-table")

#: Every table a reader fills, in registry order (``zperf.formats.registry.table_names``).
TABLE_NAMES: tuple[str, ...] = (
    "workload", "distribution", "cpu", "cpu_lpar", "db2entry", "db2conn", "cics_transactions",
    "zosconnect_requests", "zosconnect_api_requests", "liberty_requests", "job_intervals",
    "job_steps", "ims_transit", "driver", "driver_intervals")
#: The tables made from the tables read (``zperf.runs.derived`` makes them): name -> the
#: tables read for it.
DERIVED_TABLES: dict[str, tuple[str, ...]] = {
    "capacity": ("cpu", "cpu_lpar"), "cec": ("cpu", "cpu_lpar"),
    "peaks": ("cpu", "cpu_lpar", "workload", "job_intervals"),
    "performance": ("workload", "distribution"),
    "offload": ("workload",), "transaction_summary": ("cics_transactions",),
    "api_cost": ("zosconnect_requests", "cics_transactions", "liberty_requests"),
    "api_callouts": ("zosconnect_api_requests", "cics_transactions", "liberty_requests"),
    "job_hours": ("job_intervals",), "job_days": ("job_intervals",),
    "job_capture": ("job_intervals", "workload", "cpu")}
#: Every table ``zperf parse --table`` shows and ``zperf.read`` gives: read, then derived.
ALL_TABLES: tuple[str, ...] = (*TABLE_NAMES, *DERIVED_TABLES)

#: What the PDB's summaries are rows of (``zperf pdb summary --by``): systems, class
#: periods, WLM workloads, address spaces (SMF 30), CICS transactions (SMF 110.1),
#: z/OS Connect APIs (SMF 123) and Liberty servers' applications (SMF 120.11).
SUMMARY_ENTITIES: tuple[str, ...] = ("system", "class", "workload", "job", "transaction",
                                     "api", "liberty")
