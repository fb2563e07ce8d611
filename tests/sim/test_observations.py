"""Paper 002's messages as XML documents of the published size and content density."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from zperf.sim.catalogue import load
from zperf.sim.observations import message, write_observations


def _content(data: bytes) -> int:
    """Attribute values and element text; namespace declarations are markup."""
    total = 0
    for element in ET.fromstring(data).iter():
        total += len((element.text or "").encode())
        total += sum(len(v.encode()) for k, v in element.attrib.items()
                     if not k.startswith("xmlns"))
    return total


@pytest.mark.parametrize(("size", "content"), [(578, 57), (35566, 3464), (300, 10)])
def test_a_message_has_exactly_its_size_and_content(size: int, content: int) -> None:
    data = message("OTA_TestRQ", size, content).encode()
    assert len(data) == size and _content(data) == content


def test_too_small_a_message_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be built"):
        message("OTA_TestRQ", 120, 100)


def test_the_ztpf_scenario(tmp_path: Path) -> None:
    scenario = load("ztpf-soap-provider")
    manifest = json.loads(write_observations(scenario, tmp_path).read_text())
    for item in scenario.messages:
        data = (tmp_path / item.name).read_bytes()
        assert len(data) == item.size_bytes
        density = _content(data) / len(data) * 100
        if item.name == "OTA_AirBookModifyRQ7.xml":  # 8.06 % of 5267 bytes: no integer
            assert round(density, 2) == 8.07 and "inconsistency" in manifest["files"][item.name]
        else:
            assert round(density, 2) == pytest.approx(item.content_density_pct)
    rows = list(csv.DictReader((tmp_path / "observations.csv").open()))
    assert len(rows) == 24
    first = rows[0]
    assert (first["message"], first["transport"], first["path_length"]) == (
        "OTA_AirFlifoRQ2.xml", "http", "109951")
