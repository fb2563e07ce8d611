"""Rebuild the bundled binary samples from their TOML descriptions.

    python samples/build_samples.py

Each ``samples/smf/NAME.toml`` becomes ``samples/smf/NAME.smf``: an
IFASMFDP-style dump (type 2 header, the 72.3 records, a few records of other
types, type 3 trailer) with RDWs, as `quote site rdw` delivers it.  The test
suite rebuilds them and fails if a committed sample drifts.
"""

from __future__ import annotations

import datetime as dt
import sys
import tomllib
from pathlib import Path
from typing import Any

from zperf.sim.writers import smf as writer

HERE = Path(__file__).resolve().parent / "smf"


def class_intervals(spec: dict[str, Any]) -> list[writer.ClassInterval]:
    """ClassInterval objects from a parsed samples TOML file."""
    out = []
    for item in spec["interval"]:
        periods = [dict(p.get("raw", {})) for p in item["period"]]
        rtds = [p.get("rtd") for p in item["period"]]
        for raw, rtd in zip(periods, rtds, strict=True):
            if rtd is None and any(rtds):
                raw.setdefault("R723CRTX", 0)
        activated = item.get("policy_activated")
        out.append(writer.ClassInterval(
            system=item["system"], sysplex=item["sysplex"],
            start=dt.datetime.fromisoformat(item["start"]),
            interval_seconds=item["interval_seconds"], class_name=item["class_name"],
            periods=periods, report_class=item["report_class"], policy=item["policy"],
            workload=item["workload"], description=item["description"],
            zos_level=item["zos_level"], adj=item["adj"], nffs=item["nffs"],
            resource_group=item.get("resource_group"),
            rtd=[r or [0] * 14 for r in rtds] if any(rtds) else None,
            policy_activated=dt.datetime.fromisoformat(activated) if activated else None,
        ))
    return out


def build(toml_path: Path) -> bytes:
    """The dump bytes for one samples TOML file."""
    spec = tomllib.loads(toml_path.read_text())
    intervals = class_intervals(spec)
    when = min(ci.start for ci in intervals)
    records = [writer.dump_header(when)]
    for ci in intervals:
        records += writer.build_type72_3(ci)
        records.append(writer.other_record(70, 1200, ci.start, sid=ci.system, subtype=2))
        records.append(writer.other_record(30, 800, ci.start, sid=ci.system, subtype=1))
    records.append(writer.dump_trailer(when))
    return writer.frame_rdw(records)


def main() -> int:
    for toml_path in sorted(HERE.glob("*.toml")):
        target = toml_path.with_suffix(".smf")
        target.write_bytes(build(toml_path))
        print(f"wrote {target.relative_to(HERE.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
