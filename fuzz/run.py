"""The long fuzzing run: many damaged inputs per reader, on several cores, with a time limit.

    python fuzz/run.py                          # 200,000 inputs for every reader
    python fuzz/run.py --inputs 2000 --readers jmeter-csv,rmf-wlmgl --seed 7
    python fuzz/run.py --minutes 60 --workers 1  # as many as an hour gives (all readers alike)

Input ``i`` of reader ``R`` in a run with seed ``S`` is the same every time
(``fuzz.harness.fuzzed_input``), so a crash is replayed with ``--replay R:i``.
Work is cut in chunks of inputs handed to worker processes (``--workers``,
2 by default); in each, an alarm stops an input that takes more than
``--time-limit`` seconds of CPU time (a hang, with the stack where it was: CPU
time, not wall time, so that a run at ``nice 19`` on a busy machine, starved
for seconds at a time, does not count hangs that are not), and the parent
kills a worker that does not come back from one within ``--stuck-after``
seconds of wall time (stuck outside Python, or waiting forever) and starts
another.  Every crashing or hanging input is saved under ``--crashes``
(``READER/INDEX.bin`` and ``.txt`` with what broke).  Progress goes to stderr
once a minute; the result, per reader, ends the output:
``READER: N inputs, C crashes, H hangs``, and the last line adds them up.  With
``--minutes`` (or Ctrl-C, or ``kill -TERM``) no new unit is started once the time is up; units go
out reader by reader in turn, so every reader has had about as many inputs.

With ``--ledger FILE`` a run goes on where the last one with that file stopped
(``fuzz.ledger``): 200,000 inputs per reader can be read in several sittings,
and the result is that of all of them, with the revisions that read them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import queue
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Inputs are a few KB: polars' thread pool only adds latency to each of the ~100
# small queries a read makes (measured 24 -> 16 ms per damaged 72.3 dump, 72 -> 46 ms
# per WLMGL listing), and --workers already keeps the cores busy.  Set before polars
# is imported here or in the workers (spawned: they inherit the environment).
os.environ.setdefault("POLARS_MAX_THREADS", "1")

from fuzz.corpus import readers  # noqa: E402
from fuzz.harness import Hang, check, fuzzed_input  # noqa: E402
from fuzz.ledger import Ledger, LedgerError, revision  # noqa: E402

CHUNK = 250  # inputs per unit of work
UNITS_PER_WORKER = 40  # a worker is replaced after this many units (memory stays flat)


@dataclass
class Totals:
    inputs: int = 0
    crashes: int = 0
    hangs: int = 0
    library: int = 0
    cli: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)


def _save(folder: Path, reader: str, index: int, data: bytes, what: str) -> None:
    target = folder / reader
    target.mkdir(parents=True, exist_ok=True)
    (target / f"{index}.bin").write_bytes(data)
    (target / f"{index}.txt").write_text(what + "\n")


def _interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt()


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang()


def _worker(tasks: Any, results: Any, state: Any, options: dict[str, Any]) -> None:
    """Take units (id, reader, first, end) until told to stop; report each unit's totals.

    ``state`` tells the parent what the worker is doing: the unit id, the
    input index and when it started on it (0 between inputs)."""
    signal.signal(signal.SIGPROF, _on_alarm)
    os.environ["COLUMNS"] = "100"
    workdir = Path(tempfile.mkdtemp(prefix="zperf-fuzz-", dir=options["tmp"]))
    crashes = Path(options["crashes"])
    limit = float(options["time_limit"])
    for _ in range(UNITS_PER_WORKER):
        unit = tasks.get()
        if unit is None:
            break
        uid, reader, first, end = unit
        totals: dict[str, Any] = {"inputs": 0, "crashes": 0, "hangs": 0, "library": 0,
                                  "cli": 0, "outcomes": Counter(), "kinds": Counter(),
                                  "crashed": []}
        state[0] = uid
        for index in range(first, end):
            data, rng = fuzzed_input(reader, options["seed"], index)
            state[1], state[2] = index, time.time()
            signal.setitimer(signal.ITIMER_PROF, limit)  # CPU time of this process
            try:
                verdict = check(reader, data, workdir, rng, skip=options["skip"],
                                library=options["library"], cli=options["cli"])
            except Hang:
                signal.setitimer(signal.ITIMER_PROF, 0)
                totals["hangs"] += 1
                where = "".join(traceback.format_exc())
                _save(crashes, reader, index, data, f"hang: over {limit} CPU s\n{where}")
                totals["kinds"][f"hang over {limit} CPU s"] += 1
                totals["crashed"].append(index)
                continue
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                state[2] = 0.0
            totals["inputs"] += 1
            totals["library"] += "library" in verdict.outcomes
            totals["cli"] += "cli" in verdict.outcomes
            totals["outcomes"][verdict.outcomes.get("reader", "?")] += 1
            if verdict.crashes:
                totals["crashes"] += 1
                totals["crashed"].append(index)
                _save(crashes, reader, index, data, "\n\n".join(verdict.crashes))
                for crash in verdict.crashes:
                    totals["kinds"][crash.splitlines()[0][:200]] += 1
        results.put(("unit", uid, totals))
    results.put(("retired", os.getpid(), None))


Unit = tuple[int, str, int, int]


class Runner:
    """Hands out units, watches the workers, adds up what they report."""

    def __init__(self, options: dict[str, Any], names: list[str], inputs: int,
                 workers: int, ledger: Ledger | None = None) -> None:
        self.options = options
        self.context = mp.get_context("spawn")
        self.tasks = self.context.Queue()
        self.results = self.context.Queue()
        self.totals = {name: Totals() for name in names}
        self.units: dict[int, Unit] = {}
        self.next_uid = 0
        self.ledger = ledger
        self.revision = revision(ROOT, ledger.path if ledger else None)
        for first in range(0, inputs, CHUNK):
            for name in names:
                end = min(first + CHUNK, inputs)
                for part in ledger.remaining(name, first, end) if ledger else [(first, end)]:
                    self._add_unit(name, *part)
        self.workers: list[tuple[Any, Any]] = []
        self.count = workers

    def _add_unit(self, reader: str, first: int, end: int) -> Unit:
        uid, self.next_uid = self.next_uid, self.next_uid + 1
        self.units[uid] = (uid, reader, first, end)
        return self.units[uid]

    def _start(self) -> tuple[Any, Any]:
        state = self.context.Array("d", 3, lock=False)
        state[2] = 0.0
        process = self.context.Process(target=_worker, args=(self.tasks, self.results, state,
                                                             self.options), daemon=True)
        process.start()
        return process, state

    def run(self) -> None:
        for unit in list(self.units.values()):
            self.tasks.put(unit)
        self.workers = [self._start() for _ in range(self.count)]
        last = time.time()
        deadline = self.options.get("deadline") or float("inf")
        while self.units:
            if time.time() > deadline:
                self._stop_early()
                break
            try:
                kind, key, got = self.results.get(timeout=1.0)
            except queue.Empty:
                kind = ""
            if kind == "unit":
                self._add(self.units.pop(key), got)
            elif kind == "retired":
                self._replace(key)
            self._watch()
            if time.time() - last > 60:
                last = time.time()
                done = sum(t.inputs + t.hangs for t in self.totals.values())
                crashes = sum(t.crashes for t in self.totals.values())
                print(f"progress: {done} inputs, {crashes} crashes, {len(self.units)} units "
                      "left", file=sys.stderr, flush=True)
        self.close()

    def close(self) -> None:
        """Tell the workers to stop, and never wait at exit for units no one will take."""
        for _ in self.workers:
            self.tasks.put(None)
        for process, _ in self.workers:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
        self.tasks.cancel_join_thread()

    def _stop_early(self) -> None:
        """Time is up: take back the units not started, wait for those under way."""
        with contextlib.suppress(queue.Empty):
            while True:
                unit = self.tasks.get(timeout=0.5)
                if unit is not None:
                    self.units.pop(unit[0], None)
        while self.units and any(p.is_alive() for p, _ in self.workers):
            try:
                kind, key, got = self.results.get(timeout=1.0)
            except queue.Empty:
                continue
            if kind == "unit":
                self._add(self.units.pop(key), got)

    def _replace(self, pid: int) -> None:
        for i, (process, _) in enumerate(self.workers):
            if process.pid == pid:
                process.join()
                if self.units:
                    self.workers[i] = self._start()
                else:
                    del self.workers[i]
                return

    def _add(self, unit: Unit, got: dict[str, Any]) -> None:
        if self.ledger is not None:
            self.ledger.record(unit[1], unit[2], unit[3], got, self.revision, got["crashed"])
            self.ledger.save()
        totals = self.totals[unit[1]]
        totals.inputs += got["inputs"]
        totals.crashes += got["crashes"]
        totals.hangs += got["hangs"]
        totals.library += got["library"]
        totals.cli += got["cli"]
        totals.outcomes.update(got["outcomes"])
        totals.kinds.update(got["kinds"])

    def _watch(self) -> None:
        """A worker stuck on one input beyond ``--stuck-after`` (outside Python), or dead: kill
        it, count a hang, and give the rest of its unit to a new worker."""
        for i, (process, state) in enumerate(self.workers):
            started = state[2]
            stuck = (process.is_alive() and started
                     and time.time() - started > self.options["stuck_after"])
            died = process.exitcode not in (0, None)
            if not (stuck or died):
                continue
            if stuck:
                process.kill()
            process.join()
            self.workers[i] = self._start()
            unit = self.units.pop(int(state[0]), None)
            if unit is None:
                continue
            _, reader, first, end = unit
            index = int(state[1])
            data, _ = fuzzed_input(reader, self.options["seed"], index)
            what = "hang: worker killed" if stuck else f"worker died (exit {process.exitcode})"
            _save(Path(self.options["crashes"]), reader, index, data, what)
            self._add((0, reader, index, index + 1),
                      {"inputs": 0, "crashes": int(not stuck), "hangs": int(stuck),
                       "library": 0, "cli": 0, "outcomes": {}, "kinds": {what: 1},
                       "crashed": [index]})
            for part in ((first, index), (index + 1, end)):  # what the worker took with it
                if part[0] < part[1]:
                    self.tasks.put(self._add_unit(reader, *part))


def replay(spec: str, seed: int) -> int:
    """Run one input (READER:INDEX) in this process and print what it gives."""
    reader, _, index = spec.partition(":")
    data, rng = fuzzed_input(reader, seed, int(index))
    with tempfile.TemporaryDirectory() as tmp:
        verdict = check(reader, data, Path(tmp), rng)
    print(json.dumps({"reader": reader, "index": int(index), "bytes": len(data),
                      "outcomes": verdict.outcomes}, indent=1))
    for crash in verdict.crashes:
        print(crash)
    return 1 if verdict.crashes else 0


def _read_crashed_again(ledger: Ledger, options: dict[str, Any]) -> None:
    """Inputs that crashed in an earlier sitting, read again by this code: those that pass
    now are fixed (and said so); the others are still crashes."""
    rev = revision(ROOT, ledger.path)
    with tempfile.TemporaryDirectory() as tmp:
        for reader, indices in list(ledger.crashed.items()):
            for index in list(indices):
                data, rng = fuzzed_input(reader, options["seed"], index)
                signal.signal(signal.SIGPROF, _on_alarm)
                signal.setitimer(signal.ITIMER_PROF, float(options["time_limit"]))
                try:
                    verdict = check(reader, data, Path(tmp), rng, skip=options["skip"],
                                    library=options["library"], cli=options["cli"])
                except Hang:
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                if not verdict.crashes:
                    ledger.passed_again(reader, index, rev)
    ledger.save()


def _report_ledger(ledger: Ledger, names: list[str]) -> int:
    """The totals of every sitting; the crashes are the inputs that crash still."""
    revisions = ", ".join(f"{rev} {count}" for rev, count in ledger.revisions.most_common())
    print(f"inputs read by revision: {revisions}")
    for name in names:
        totals = ledger.totals.get(name, {"inputs": 0, "hangs": 0, "kinds": {}})
        fixed = ledger.fixed.get(name, {})
        if fixed:
            print(f"{name}: {len(fixed)} crashes of earlier sittings fixed since: "
                  + ", ".join(f"{i} ({rev})" for i, rev in sorted(fixed.items())))
        for kind, count in Counter(totals["kinds"]).most_common(10):
            print(f"  {count} x {kind}")
    still = {name: len(ledger.crashed.get(name, [])) for name in names}
    for name in names:
        totals = ledger.totals.get(name, {"inputs": 0, "hangs": 0})
        print(f"{name}: {totals['inputs'] + totals['hangs']} inputs, {still[name]} crashes")
    counts = [ledger.totals.get(n, {"inputs": 0})["inputs"]
              + ledger.totals.get(n, {"hangs": 0})["hangs"] for n in names]
    print(f"all {len(counts)} readers ({ledger.sittings} sittings): {min(counts)} to "
          f"{max(counts)} inputs each, {sum(still.values())} crashes or hangs that "
          "still crash or hang", flush=True)
    return 1 if any(still.values()) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=200_000, help="inputs per reader")
    parser.add_argument("--readers", default=",".join(readers()),
                        help="comma-separated readers (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10,
                        help="CPU seconds per input (beyond: a hang)")
    parser.add_argument("--stuck-after", type=float, default=120,
                        help="wall seconds on one input before its worker is killed")
    parser.add_argument("--seed", default="0", help="any text (the tests use 'tests')")
    parser.add_argument("--skip", type=float, default=0.25,
                        help="share of inputs read with on_error=skip even when raise read them")
    parser.add_argument("--library", type=float, default=0.1,
                        help="share of inputs also read through zperf.formats.read")
    parser.add_argument("--cli", type=float, default=0.05,
                        help="share of inputs also run through `zperf parse`")
    parser.add_argument("--minutes", type=float, default=0,
                        help="stop starting new work after this long (0: no limit)")
    parser.add_argument("--crashes", default=str(ROOT / "fuzz" / "crashes"))
    parser.add_argument("--replay", help="READER:INDEX: run one input and show its verdict")
    parser.add_argument("--ledger", type=Path,
                        help="a JSON file of what was done: go on where the run that wrote it "
                             "stopped, and report the totals of every sitting")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.seed)
    names = [n.strip() for n in args.readers.split(",") if n.strip()]
    unknown = sorted(set(names) - set(readers()))
    if unknown:
        parser.error(f"unknown readers: {', '.join(unknown)}; known: {', '.join(readers())}")
    tmp = "/dev/shm" if Path("/dev/shm").is_dir() else None
    options = {"seed": args.seed, "time_limit": args.time_limit,
               "stuck_after": args.stuck_after, "skip": args.skip,
               "library": args.library, "cli": args.cli, "crashes": args.crashes, "tmp": tmp,
               "deadline": time.time() + 60 * args.minutes if args.minutes else 0}
    ledger = None
    if args.ledger:
        try:
            ledger = Ledger.open(args.ledger, options)
        except LedgerError as exc:
            parser.error(str(exc))
        _read_crashed_again(ledger, options)
    started = time.time()
    runner = Runner(options, names, args.inputs, args.workers, ledger)
    # Ctrl-C, and SIGTERM or SIGINT sent to a run started in the background (where
    # the shell has Python ignore SIGINT), stop it with what was done reported.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, _interrupted)
    try:
        runner.run()
    except KeyboardInterrupt:  # what was done so far is still reported
        runner.close()
    hours = (time.time() - started) / 3600
    print(f"seed {args.seed}, {args.workers} workers, time limit {args.time_limit} CPU s, "
          f"{hours:.2f} h")
    if ledger is not None:
        this = sum(t.inputs + t.hangs for t in runner.totals.values())
        print(f"this sitting: {this} inputs on {runner.revision}; the ledger {args.ledger} "
              f"(sitting {ledger.sittings}) adds up every sitting below")
        return _report_ledger(ledger, names)
    for name, totals in runner.totals.items():
        print(f"{name}: through zperf.formats.read {totals.library}, through the CLI "
              f"{totals.cli}; reader outcomes (raise/skip) {dict(totals.outcomes.most_common())}")
        for kind, count in totals.kinds.most_common(10):
            print(f"  {count} x {kind}")
    for name, totals in runner.totals.items():
        print(f"{name}: {totals.inputs + totals.hangs} inputs, {totals.crashes} crashes, "
              f"{totals.hangs} hangs")
    counts = [t.inputs + t.hangs for t in runner.totals.values()]
    print(f"all {len(counts)} readers: {min(counts)} to {max(counts)} inputs each, "
          f"{sum(t.crashes for t in runner.totals.values())} crashes, "
          f"{sum(t.hangs for t in runner.totals.values())} hangs", flush=True)
    return 1 if any(t.crashes or t.hangs for t in runner.totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
