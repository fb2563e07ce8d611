"""zperf.formats.read: several files, compressed dumps, stdin-like streams."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import polars as pl
import pytest

from conftest import DATA, SAMPLES
from zperf.errors import InputError, UsageError
from zperf.formats import read

SAMPLE = SAMPLES / "smf" / "paper-figures.smf"


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress],
                         ids=["gzip", "bzip2", "xz"])
def test_compressed_dumps_read_like_plain_ones(tmp_path: Path, compress: object) -> None:
    packed = tmp_path / "dump.smf.z"
    packed.write_bytes(compress(SAMPLE.read_bytes()))  # type: ignore[operator]
    plain = read([str(SAMPLE)]).tables["workload"].drop("source")
    result = read([str(packed)])
    assert result.tables["workload"].drop("source").equals(plain)
    assert result.tallies[0].read == 11


def test_cut_compressed_file_is_an_input_error(tmp_path: Path) -> None:
    cut = tmp_path / "cut.gz"
    cut.write_bytes(gzip.compress(SAMPLE.read_bytes())[:200])
    with pytest.raises(InputError, match=r"cut.gz: cannot decompress: Compressed file ended"):
        read([str(cut)])


def test_several_files_and_a_copy_kept_once(tmp_path: Path) -> None:
    copy = tmp_path / "copy.smf"
    copy.write_bytes(SAMPLE.read_bytes())
    result = read([str(SAMPLE), str(copy)])
    work = result.tables["workload"]
    # the copy repeats every class period: kept once (tests/formats/test_repeats.py)
    assert work.height == 5 and work["source"].unique().to_list() == [str(SAMPLE)]
    assert [t.file for t in result.tallies] == [str(SAMPLE), str(copy)]
    assert result.tallies[1].warnings[0].startswith("5 class periods already read")


def test_bad_arguments() -> None:
    with pytest.raises(UsageError, match="on_error must be one of raise, skip, keep"):
        read([str(SAMPLE)], on_error="ignore")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="unknown input kind 'rmf'"):
        read([str(SAMPLE)], kind="rmf")


def test_a_sysout_with_cpu_and_workload_activity_fills_both_tables(tmp_path: Path) -> None:
    """RMF prints several reports to one SYSOUT: each reader takes its own pages."""
    rmf = DATA / "rmf"
    for first, second in (("cpu-v2r2-asa-sysout.txt", "v2r4-asa-sysout.txt"),
                          ("v2r4-asa-sysout.txt", "cpu-v2r2-asa-sysout.txt")):
        path = tmp_path / "sysout.txt"
        path.write_bytes((rmf / first).read_bytes() + (rmf / second).read_bytes())
        result = read([str(path)])
        for table in ("workload", "cpu"):
            alone = pl.concat([read([str(rmf / f)]).tables[table] for f in (first, second)])
            assert result.tables[table].drop("source").equals(alone.drop("source")), table
            assert result.tables[table].height > 0
        assert len(result.tallies) == 2 and all(t.balanced() for t in result.tallies)
        assert "(rmf-" in result.tallies[1].summary()


@pytest.mark.parametrize("compress", [gzip.compress, lzma.compress], ids=["gzip", "xz"])
def test_a_compressed_dump_larger_than_a_chunk_reads_like_the_plain_one(
        tmp_path: Path, compress: object) -> None:
    # Past the sniffed head the SMF reader reads chunks with readinto, through the
    # decompressor; a dump cut there is still "cannot decompress", not a traceback.
    plain_path = tmp_path / "many.smf"
    plain_path.write_bytes(SAMPLE.read_bytes() * 60)
    packed = tmp_path / "many.smf.z"
    packed.write_bytes(compress(plain_path.read_bytes()))  # type: ignore[operator]
    plain = read([str(plain_path)]).tables["workload"].drop("source")
    assert read([str(packed)]).tables["workload"].drop("source").equals(plain)
    cut = tmp_path / "cut.z"
    cut.write_bytes(packed.read_bytes()[: packed.stat().st_size * 3 // 4])
    with pytest.raises(InputError, match=r"cut.z: cannot decompress"):
        read([str(cut)])


def test_readinto_of_a_cut_compressed_stream_is_an_input_error() -> None:
    import io

    from zperf.formats import compressed

    data = gzip.compress(SAMPLE.read_bytes() * 60)
    guarded = compressed.Guarded(gzip.GzipFile(fileobj=io.BytesIO(data[: len(data) // 2])),
                                 "cut.gz")
    buffer = bytearray(1 << 20)
    with pytest.raises(InputError, match=r"cut.gz: cannot decompress"):
        while guarded.readinto(memoryview(buffer)):
            pass
    whole = compressed.Guarded(gzip.GzipFile(fileobj=io.BytesIO(data)), "whole.gz")
    got = whole.readinto(memoryview(buffer))
    assert bytes(buffer[:got]) == (SAMPLE.read_bytes() * 60)[:got] and got > 0


def test_every_entry_point_reads_one_way(tmp_path: Path) -> None:
    """read, read_each and read_batches take the same path (reading._parts): the same
    rows, settled across files the same way, the same tallies."""
    from zperf.formats.reading import read_batches, read_each

    copy = tmp_path / "copy.smf"
    copy.write_bytes(SAMPLE.read_bytes())
    paths = [str(SAMPLE), str(copy)]
    whole = read(paths)
    each = list(read_each(paths))
    parts = list(read_batches(paths))
    assert [len(r.tallies) for r in each] == [1, 1]  # one result per file, none held
    for got in (each, parts):
        frames = [g.tables["workload"] for g in got if "workload" in g.tables]
        assert pl.concat(frames).equals(whole.tables["workload"])
        tallies = [t for g in got for t in g.tallies]
        assert [t.summary() for t in tallies] == [t.summary() for t in whole.tallies]
        assert tallies[1].warnings == whole.tallies[1].warnings != []


def test_rows_held_for_a_later_file_come_last_with_no_tally(tmp_path: Path) -> None:
    """With on_conflict="last" a row waits for the files after it: read_each gives each
    file (without them), then the rows held, as read gives them."""
    from zperf.formats.reading import read_each

    copy = tmp_path / "copy.smf"
    copy.write_bytes(SAMPLE.read_bytes())
    paths = [str(SAMPLE), str(copy)]
    each = list(read_each(paths, on_conflict="last"))
    assert [len(r.tallies) for r in each] == [1, 1, 0]
    assert "workload" not in each[0].tables and "workload" not in each[1].tables
    assert each[2].tables["workload"].equals(read(paths, on_conflict="last").tables["workload"])


def test_the_options_are_one_value_checked_when_made() -> None:
    from zperf.formats import ReadOptions

    assert read([str(SAMPLE)], ReadOptions(tables=("workload",))).tables["workload"].equals(
        read([str(SAMPLE)], tables=["workload"]).tables["workload"])
    with pytest.raises(UsageError, match=r"^on_conflict must be one of error, first, last$"):
        ReadOptions(on_conflict="newest")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^smf files take no option columns$"):
        ReadOptions(options={"smf": {"columns": []}})
    with pytest.raises(UsageError, match="is not an EBCDIC code page"):
        ReadOptions().replace(encoding="utf-8")
    assert ReadOptions(encoding="IBM1047").encoding == "cp1047"  # checked, then canonical
    assert ReadOptions(tables=["cpu"], columns={"workload": ["cpu_seconds"]}).columns == {
        "workload": frozenset({"cpu_seconds"})}


def test_a_conflict_between_bytes_given_names_the_values_by_every_way() -> None:
    """An earlier input given as bytes is read again for a conflict's values, by read as
    by read_batches (read used to say only "other values": it recalled paths alone)."""
    import datetime as dt

    from zperf.errors import ConflictError
    from zperf.formats.reading import read_batches
    from zperf.sim.writers import smf as writer

    def dump(ended: int) -> bytes:
        return writer.frame_rdw(writer.build_type72_3(writer.ClassInterval(
            system="SYS1", sysplex="PLEX1", start=dt.datetime(2026, 3, 2, 9, 0),
            interval_seconds=900.0, class_name="CICSPROD",
            periods=[writer.period_values(interval_seconds=900.0, adj=213, ended=ended,
                                          cpu_seconds=20.0)])))

    said = ("<bytes 2>: class period SYS1 2026-03-02 09:00 service CICSPROD period 1 "
            "conflicts with <bytes 1>: trans_ended 1200 here, 1000 there; to keep one, give "
            "--on-conflict first or last (or leave one of the files out)")
    for way in (read, lambda given: list(read_batches(given))):
        with pytest.raises(ConflictError) as raised:
            way([dump(1000), dump(1200)])
        assert str(raised.value) == said
