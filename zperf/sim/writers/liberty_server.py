"""What the Liberty-based writers share: the server that writes the records, and the
store-clock (TOD) value of a local time.

A z/OS Connect server writes both SMF 123 (its requests) and, as a Liberty server,
SMF 120.11 (request activity); a CICS JVM server writes 120.11 too. One description
of the server, so that both records of one server say the same job, system and UTC
offset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Server:
    """The Liberty server (a z/OS Connect server, a CICS JVM server) writing the records;
    ``version`` is the Liberty level its 120.11 records say."""

    system: str = "SYSA"
    sysplex: str = "PLEX1"
    job_name: str = "ZCSRV1"
    job_id: str = "STC01234"
    version: str = "24.0.0.6"
    config_dir: str = "/var/zosconnect/servers/zcsrv1/"
    utc_offset_seconds: float = 0.0


def tod_of(value: Any, offset_us: int) -> int:
    """A local time as the TOD value of its UTC moment (0: not set)."""
    if value is None:
        return 0
    micros = int((np.datetime64(value, "us") - np.datetime64("1900-01-01", "us"))
                 // np.timedelta64(1, "us")) - offset_us
    return micros << 12
