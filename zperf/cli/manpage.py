"""Generate the man pages from the click definitions.

    python -m zperf.cli.manpage man/

Each page is :func:`zperf.cli.pages.page` (the same help texts ``--help``
prints, plus the sections: formats, columns, exit status) rendered as roff
through the jinja2 template ``templates/manpage.1.j2``; ``docs/cli/`` is the
same page as markdown (:mod:`zperf.cli.reference`).  tests/test_docs.py
regenerates them and fails when a committed page differs, so the manual
cannot drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from jinja2 import Environment, PackageLoader

from zperf.cli.pages import Lines, Page, Part, Sub, Term, Terms, Text, page, page_names, write_pages

__all__ = ["page_names", "render", "write_all"]


def _roff(text: str) -> str:
    """Escape text for roff: backslashes, leading dots and quotes, dashes."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def _term(term: Term, bold: str) -> str:
    lines = [f".TP\n.B {_roff(bold)}\n{_roff(term.text)}"]
    if term.nested:
        lines.append(".RS\n" + "\n".join(_term(t, t.term) for t in term.nested) + "\n.RE")
    return "\n".join(lines)


def _part(part: Part) -> str:
    if isinstance(part, Text):
        return _roff(part.text)
    if isinstance(part, Lines):
        return ".nf\n" + _roff(part.text) + "\n.fi"
    if isinstance(part, Sub):
        return f".SS {_roff(part.text)}"
    assert isinstance(part, Terms)
    return "\n".join(_term(t, t.term) for t in part.items)


def _parts(parts: tuple[Part, ...]) -> str:
    """A paragraph's parts; a paragraph break between two runs of text or lines (a
    subcommand's paragraphs and examples), which roff would run together."""
    out: list[str] = []
    for before, part in zip((None, *parts), parts, strict=False):
        if isinstance(part, Text | Lines) and isinstance(before, Text | Lines):
            out.append(".PP")
        out.append(_part(part))
    return "\n".join(out)


def _see_also(name: str) -> str:
    return f".BR {_roff(name)} (1)"


def roff(doc: Page) -> str:
    """The roff text of a page."""
    env = Environment(loader=PackageLoader("zperf.templates", "."), autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    template = env.get_template("manpage.1.j2")
    commands = [{"name": _roff(c.name), "short": _roff(c.short),
                 "see": ("See SUBCOMMANDS below." if c.here
                         else f"See\n{_see_also(f'zperf-{c.name}')}.")}
                for c in doc.commands]
    return template.render(
        title=_roff(doc.name.upper()), name=_roff(doc.command_path), version=doc.version,
        short=_roff(doc.short), usage=_roff(doc.usage),
        description=[_part(p) for p in doc.description], commands=commands,
        options=[{"names": _roff(o.term), "metavar": _roff(o.metavar), "help": _roff(o.text)}
                 for o in doc.options],
        extra=[{"title": _roff(s.title), "paragraphs": [_parts(para) for para in s.paragraphs]}
               for s in doc.sections],
        see_also=",\n".join(_see_also(n) for n in doc.see_also))


def render(group: click.Group, name: str) -> str:
    """The roff text of the man page ``name`` ('zperf' or 'zperf-SUBCOMMAND')."""
    return roff(page(group, name))


def write_all(folder: Path) -> list[Path]:
    return write_pages(folder, ".1", render)


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "man")):
        print(f"wrote {written}")
