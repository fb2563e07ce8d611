"""Runs measured on different configurations, said beside their comparison.

Paper 004 compares IMS 13, 14 and 15 on the same LPAR: same machine, same
engines, same z/OS.  An ITR delta between a run on 7 CPs and one on 3, or on
a z14 and a z13, measures the configuration as much as the software, and
the ±1 % verdict means nothing.  :func:`unlike_runs` names every difference
in what the CPU activity data say about the runs' systems (LPAR count, CPs,
zIIPs, machine type and model, z/OS release), so that ``compare``, ``check
--baseline`` and the comparison report can say it next to the delta.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from zperf.runs.analysis import Analysis
from zperf.runs.facts import SystemFacts
from zperf.runs.findings import Finding


def _machines(analysis: Analysis) -> str:
    return ", ".join(sorted({_machine(s) for s in analysis.facts.systems if _machine(s)}))


def _machine(system: SystemFacts) -> str:
    text = "-".join(p for p in (system.machine_type, system.model_capacity_id) if p)
    return f"{text} ({system.hardware_model})" if system.hardware_model else text


def _releases(analysis: Analysis) -> str:
    return ", ".join(sorted({s.zos_release for s in analysis.facts.systems if s.zos_release}))


def _window(column: str) -> Callable[[Analysis], str]:
    def value(analysis: Analysis) -> str:
        number = analysis.window[column][0] if analysis.window.height else None
        return "" if number is None else f"{float(number):g}"
    return value


#: What is compared: the words for it, and how to read it off a run.
ASPECTS: tuple[tuple[str, str, Callable[[Analysis], str]], ...] = (
    ("systems", "systems (LPARs)", _window("systems")),
    ("cps", "CPs", _window("cps")),
    ("ziips", "zIIPs", _window("ziips")),
    ("machine", "machine", _machines),
    ("zos_release", "z/OS release", _releases),
)


def unlike_runs(base: Analysis, new: Analysis, ignore: Collection[str] = ()) -> list[Finding]:
    """One finding naming every aspect (but those ``ignore`` names) in which ``new`` was
    measured on another configuration than ``base`` (nothing when they agree, or when
    either run's data do not say: a run without CPU activity data has no machine)."""
    differ = []
    for key, words, read in ASPECTS:
        if key in ignore:
            continue
        a, b = read(base), read(new)
        if a and b and a != b:
            differ.append((key, f"{words} {b} against {a}"))
    if not differ:
        return []
    said = "; ".join(text for _, text in differ)
    keys = ", ".join(key for key, _ in differ)
    return [Finding("configuration", "unlike_runs",
                    f"{new.spec.name} and {base.spec.name} were measured on different "
                    f"configurations ({said}): the deltas measure the configuration too, "
                    "not only the software", subject=f"{new.spec.name} vs {base.spec.name}",
                    brief=f"unlike runs: {keys}")]
