"""The contract between the SMF record walk and the record decoders.

One dump holds many record types (70.1 CPU activity, 72.3 workload activity,
110 CICS statistics...).  The walk (:mod:`zperf.formats.smf.physical`) goes
over the dump once and hands on the wanted records as :class:`Batch`\\ es;
:mod:`zperf.formats.smf.dump` gives each record to the decoder of its type
and subtype, as the routing table says (:class:`Routes`, made from the
:class:`DecoderSpec`\\ s: ``{(type, subtype): decoder}``), and the decoder
turns batches of records into the rows of its tables.  A decoder is made per
file (it may keep state, such as the pieces of broken records and the keys
already seen) and hands its rows on as they are ready (``take``, after each
batch; ``finish`` at the end): the tables of a file are what it handed on,
concatenated.

This module is the only thing the walk and the decoders share: the walk
imports no decoder and no decoder imports the walk (an import-linter
contract), so a new record type is a decoder and a line in the registry, and
nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
import polars as pl

from zperf.formats.tally import Tally

#: table -> the columns a caller needs of it (a table not named: all of them)
Columns = Mapping[str, frozenset[str]]
#: record type -> wanted subtypes (None: every subtype): what the walk picks out
Wanted = dict[int, frozenset[int] | None]


@dataclass
class Batch:
    """Wanted records of one chunk: positions into ``data`` in file order (each record
    with its RDW: its length at +0, its type at +5, its subtype at +22 when the flag
    byte at +4 has X'40'), with their record numbers and file offsets."""

    data: memoryview
    starts: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]
    numbers: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]

    @classmethod
    def of_records(cls, done: list[tuple[bytes, int, int]]) -> Batch:
        """A batch of whole records given as (bytes, record number, file offset)."""
        lengths = np.array([len(r) for r, _, _ in done], dtype=np.int64)
        return cls(memoryview(b"".join(r for r, _, _ in done)), starts_of(lengths), lengths,
                   np.array([n for _, n, _ in done], dtype=np.int64),
                   np.array([o for _, _, o in done], dtype=np.int64))

    def subset(self, mine: npt.NDArray[np.bool_]) -> Batch:
        """The records ``mine`` marks, in the same buffer."""
        return Batch(self.data, self.starts[mine], self.lengths[mine], self.numbers[mine],
                     self.offsets[mine])


def starts_of(lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Start offsets of records of these lengths laid end to end."""
    return np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)


class RecordDecoder(Protocol):
    """Decodes the records of one SMF type (and subtypes) for one file."""

    def decode(self, batch: Batch) -> None:
        """Decode a batch of records (file order); count each as parsed or skipped."""

    def take(self) -> dict[str, pl.DataFrame]:
        """Rows that may be handed on now (conforming to their schemas): in file order,
        none that a later batch could still precede or repeat; a table without such
        rows is left out.  Rows taken are not given again."""

    def finish(self) -> dict[str, pl.DataFrame]:
        """After the last batch: the rows not taken yet (as ``take``)."""


@runtime_checkable
class Threaded(Protocol):
    """A decoder that can spread its work over threads (told how many before the first
    batch; it hands its rows on in file order all the same, and stops its threads in
    ``finish``)."""

    def use_threads(self, threads: int) -> None:
        """Use up to ``threads`` threads from now on."""


@dataclass(frozen=True)
class DecoderSpec:
    """Which records a decoder takes, which tables it fills, and how to make one.

    ``smf_type`` and ``subtypes`` (None: every subtype of the type) are its keys in
    the routing table: two decoders may share a type if their subtypes differ (110.1
    and 110.2).  ``make(tally, file, encoding, tables, columns)`` builds the decoder
    for one file; ``tables`` is the subset of ``self.tables`` the caller wants (a
    decoder may skip building the others, which then come back empty); ``columns``
    maps a table to the columns the caller needs of it (a decoder may then decode
    only those, and give at least them; a table not in it is wanted whole).
    """

    smf_type: int
    subtypes: frozenset[int] | None
    tables: tuple[str, ...]
    description: str
    make: Callable[[Tally, str, str, frozenset[str], Columns], RecordDecoder]


class Routes:
    """The routing table: which of some decoders takes a record, by its type and subtype
    (``{(type, subtype): decoder}``; a decoder of every subtype is ``(type, None)``).

    The walk consults it as ``wanted`` (type -> subtypes, tested on all of a
    chunk's records at once); :meth:`split` hands each record of a batch to its
    decoder's index, in file order.  A record two decoders could take is a
    ``ValueError`` when the table is made.
    """

    def __init__(self, specs: Iterable[DecoderSpec]) -> None:
        self.specs = tuple(specs)
        self.by_key: dict[tuple[int, int | None], int] = {}
        by_type: dict[int, list[int]] = {}
        for index, spec in enumerate(self.specs):
            for subtype in sorted(spec.subtypes) if spec.subtypes is not None else (None,):
                taken = [k for k in self.by_key if k[0] == spec.smf_type
                         and (subtype is None or k[1] in (None, subtype))]
                if taken:
                    raise ValueError(f"two SMF decoders for record type {spec.smf_type}"
                                     + ("" if subtype is None else f" subtype {subtype}"))
                self.by_key[(spec.smf_type, subtype)] = index
            by_type.setdefault(spec.smf_type, []).append(index)
        #: type -> the decoders of its subtypes (one: every record of the type is its)
        self.by_type = by_type
        #: record type -> the subtypes some decoder takes (None: all of them)
        self.wanted: Wanted = {}
        for smf_type, indexes in by_type.items():
            subtypes = [self.specs[i].subtypes for i in indexes]
            self.wanted[smf_type] = None if None in subtypes else frozenset(
                subtype for given in subtypes for subtype in given or ())

    def split(self, batch: Batch) -> list[tuple[int, Batch]]:
        """The records of ``batch`` (each wanted by one decoder: the walk picked them with
        ``wanted``) as (decoder index, its records) in decoder order."""
        if len(self.specs) == 1:
            return [(0, batch)]
        raw = np.frombuffer(batch.data, dtype=np.uint8)
        types = raw[batch.starts + 5]
        out: list[tuple[int, Batch]] = []
        for smf_type, indexes in self.by_type.items():
            mine = types == smf_type
            if not mine.any():
                continue
            if len(indexes) == 1:
                out.append((indexes[0], batch if mine.all() else batch.subset(mine)))
                continue
            at = batch.starts[mine]  # (a record whose subtype a decoder wants has one)
            subtype = raw[at + 22].astype(np.int64) << 8 | raw[at + 23]
            for index in indexes:
                subtypes = self.specs[index].subtypes
                assert subtypes is not None
                theirs = np.zeros(mine.size, dtype=bool)
                theirs[mine] = np.isin(subtype, np.fromiter(subtypes, dtype=np.int64))
                if theirs.any():
                    out.append((index, batch.subset(theirs)))
        return sorted(out, key=lambda item: item[0])
