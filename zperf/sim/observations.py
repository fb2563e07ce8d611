"""Scenarios that are observations, not RMF runs: paper 002's z/TPF SOAP messages.

z/TPF writes no SMF 70/72 records, so its paper publishes messages (size and
content density) and measured path lengths instead.  The simulator writes
each message as an OTA-like XML document of exactly the published size whose
content (attribute values and element text) is exactly the published share
of it, and the observations as a CSV that ``zperf calc fit`` and ``zperf calc
msg-rate`` take.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from zperf import __version__
from zperf.calc.formulas import Density
from zperf.sim.model import Scenario

_NAMESPACE = "http://www.opentravel.org/OTA/2003/05"
#: OTA-like fields: (element, attribute or None, value); values are content.
_FIELDS = (
    ("OriginLocation", "LocationCode", "JFK"),
    ("DestinationLocation", "LocationCode", "LHR"),
    ("DepartureDateTime", None, "2008-05-10T08:00:00"),
    ("MarketingAirline", "Code", "AA"),
    ("FlightNumber", None, "100"),
    ("PassengerTypeQuantity", "Quantity", "1"),
    ("TravelerName", None, "SMITH/JOHN MR"),
    ("RailwayStation", "Name", "Paris Gare de Lyon"),
)
_REMARK = ("<Remark>", "</Remark>")


def _field(element: str, attribute: str | None, value: str) -> tuple[str, int]:
    """An element and how many of its bytes are content."""
    if attribute:
        return f'<{element} {attribute}="{value}"/>', len(value)
    return f"<{element}>{value}</{element}>", len(value)


def message(root: str, size: int, content: int) -> str:
    """An OTA-like document of ``size`` bytes of which ``content`` bytes are content.

    The namespace declaration counts as markup; no whitespace between elements
    (it would be text of the root element).  A Remark element pads the content
    and an empty element of the right name length pads the markup, exactly.
    """
    head = f'<?xml version="1.0" encoding="UTF-8"?><{root} xmlns="{_NAMESPACE}" Version="1.0">'
    tail = f"</{root}>"
    parts, used_c, used_m = [head], 3, len(head) - 3
    used_m += len(tail)
    padding_markup = len(_REMARK[0]) + len(_REMARK[1]) + 4  # Remark, and <Pd/> at least
    i = 0
    while True:
        text, c = _field(*_FIELDS[i % len(_FIELDS)])
        if used_c + c > content or used_m + len(text) - c + padding_markup > size - content:
            break
        parts.append(text)
        used_c += c
        used_m += len(text) - c
        i += 1
    rest_c = content - used_c
    rest_m = size - content - used_m - len(_REMARK[0]) - len(_REMARK[1])
    if rest_c < 0 or rest_m < 4:
        raise ValueError(f"{root}: {size} bytes with {content} of content cannot be built")
    parts.append(f"{_REMARK[0]}{'x' * rest_c}{_REMARK[1]}")
    parts.append(f"<{'P' * (rest_m - 3)}/>")
    parts.append(tail)
    document = "".join(parts)
    assert len(document.encode()) == size
    return document


def _described(size: int, content: int, printed_density: str, density_pct: float) -> str:
    """What the manifest says of one message file."""
    written = Density(size, content).content_density_pct
    what = (f"{size} bytes, {content} of content = {written:.2f} % ({printed_density} "
            "published")
    if round(written, 2) != round(density_pct, 2):
        what += (f"; no whole number of bytes of {size} gives it: a published inconsistency, "
                 "the nearest is written")
    return what + ")"


def write_observations(scenario: Scenario, out: Path) -> Path:
    """Write the messages and ``observations.csv`` of an observations scenario."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for item in scenario.messages:
        size = item.size_bytes
        density = float(item.content_density_pct)
        content = round(size * density / 100)  # the whole bytes nearest the density
        root = item.name.removesuffix(".xml").rstrip("0123456789")
        (out / item.name).write_text(message(root, size, content))
        files[item.name] = _described(size, content, item.printed_density, density)
    buffer = io.StringIO()
    columns = ("message", "transport", "message_bytes", "path_length", "msg_per_sec")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    sizes = {m.name: m.size_bytes for m in scenario.messages}
    for obs in scenario.observations:
        writer.writerow([obs.message, obs.transport, sizes.get(obs.message, ""),
                         obs.path_length, obs.msg_per_sec])
    (out / "observations.csv").write_text(buffer.getvalue())
    files["observations.csv"] = "path length and msg/s at 100 % of one CPU, per message"
    manifest = {"scenario": scenario.id, "paper": scenario.paper,
                "kind": "observations", "zperf_version": __version__, "files": files}
    path = out / "manifest.json"
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path
