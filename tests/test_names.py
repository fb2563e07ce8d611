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


def test_derived_table_names_are_the_builders_and_have_schemas() -> None:
    """``zperf parse --table`` lists the derived tables without importing the library;
    zperf.runs.derived makes each, and each has a declared schema."""
    from zperf.runs import derived
    from zperf.tables import SCHEMAS

    assert set(names.DERIVED_TABLES) == set(derived.BUILDERS)
    assert set(names.ALL_TABLES) <= set(SCHEMAS)
    for inputs in names.DERIVED_TABLES.values():
        assert set(inputs) <= set(names.TABLE_NAMES)
