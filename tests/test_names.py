"""zperf.names (what --help lists without importing the readers) is what the registry
builds from the readers: a new reader or table must be named in both."""

from __future__ import annotations

from zperf import names
from zperf.formats import encodings, registry, tally


def test_kind_names_are_the_registry_s() -> None:
    assert tuple(registry.KINDS) == names.KIND_NAMES


def test_table_names_are_the_registry_s() -> None:
    assert registry.table_names() == names.TABLE_NAMES


def test_the_readers_take_their_defaults_from_here() -> None:
    assert encodings.DEFAULT_ENCODING is names.DEFAULT_ENCODING
    assert tally.ON_ERROR_CHOICES is names.ON_ERROR_CHOICES
