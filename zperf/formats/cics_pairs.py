"""What CICS statistics reports share: ``label . . . :  value`` pairs and the labels
of the Db2 connection statistics (DFH0STAT's DB2 Connection report, DFHSTUP's
DB2 connection statistics)."""

from __future__ import annotations

import re

#: A label, its dot leader and colon; the value runs to the next label or the line end.
PAIR = re.compile(r"([A-Za-z][\w/()%'-]*(?: [\w/()%'-]+)*?)\s*(?:\.\s?)*:\s*")
#: DB2 Connection report labels (IBM's sample report, CICS TS 3.1) -> db2conn column.
CONNECTION_LABELS: dict[str, str] = {
    "db2connectionname": "connection_name", "db2groupid": "db2_group_id",
    "resyncgroupmember": "resync_member", "db2sysid": "db2_sysid",
    "db2release": "db2_release", "db2connectionstatus": "connection_status",
    "currenttcblimit": "tcb_limit", "currentnumberofconnections": "tcb_current",
    "peaknumberofconnections": "tcb_hwm", "currentnumberoffreeconnections": "tcb_free",
    "currentnumberoftasksontcbreadyq": "tcb_readyq_current",
    "peaknumberoftasksontcbreadyq": "tcb_readyq_hwm",
}

#: The same statistics as DFHSTUP names them (its global DB2 connection statistics).
CONNECTION_LABELS.update({
    "db2groupid": "db2_group_id", "resyncmember": "resync_member",
    "tcblimit": "tcb_limit", "currenttcbs": "tcb_current", "peaktcbs": "tcb_hwm",
    "currentfreetcbs": "tcb_free", "currenttasksontcbreadyq": "tcb_readyq_current",
    "peaktasksontcbreadyq": "tcb_readyq_hwm",
})
TEXT_CONNECTION = frozenset({"connection_name", "db2_group_id", "db2_sysid", "db2_release",
                             "resync_member", "connection_status"})


def label_key(label: str) -> str:
    return re.sub(r"[^0-9a-z]", "", label.lower())


def pairs(text: str) -> list[tuple[str, str]]:
    """The ``label . . : value`` pairs of a line, left to right."""
    found = list(PAIR.finditer(text))
    out = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        out.append((m.group(1).strip(), text[m.end():end].strip()))
    return out
