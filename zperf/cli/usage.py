"""A mistake on the command line said as every other error: one line, with a hint.

click says a bad option value, an unknown option or a missing argument with
a four-line block (usage, "Try ... --help", a blank line, "Error: ...").
Every other error of zperf is one line on standard error, ``zperf: error:
...``, which a script or a CI log greps; so is this one, naming the command,
what was wrong, the option meant when one is near, and where the help is::

    zperf: error: parse: no such option --tabel (did you mean --table?); see zperf parse --help

The exit status stays 2 (bad usage).
"""

from __future__ import annotations

import difflib
import re

import click

#: click's own "Did you mean ..." tail (our hint replaces it).
_CLICK_HINT = re.compile(r"\s*\(?Did you mean .*$", re.S)
#: The value a choice refused, as click's message starts: 'xls' is not one of ...
_GIVEN = re.compile(r"'([^']*)' is not one of ")


def usage_line(error: click.UsageError) -> str:
    """The one line (without ``zperf: error: ``) that says ``error``."""
    path = error.ctx.command_path if error.ctx is not None else "zperf"
    command = path.partition(" ")[2]
    return f"{command + ': ' if command else ''}{_what(error)}; see {path} --help"


def _what(error: click.UsageError) -> str:
    """What was wrong, in zperf's words: lower case, no final stop, names unquoted."""
    if isinstance(error, click.NoSuchOption):
        return f"no such option {error.option_name}{_hint(error.possibilities)}"
    no_such_command = getattr(click.exceptions, "NoSuchCommand", None)  # click 8.4 on
    if no_such_command is not None and isinstance(error, no_such_command):
        return f"no such command {error.command_name!r}{_hint(error.possibilities)}"
    if isinstance(error, click.MissingParameter) and error.param is not None:
        kind = error.param_type or error.param.param_type_name
        return f"missing {kind} {_name(error.param)}"
    if isinstance(error, click.BadParameter) and error.param is not None:
        return f"{_name(error.param)}: {_sentence(error.message)}{_choice_hint(error)}"
    return _sentence(_CLICK_HINT.sub("", error.format_message()))


def _hint(possibilities: list[str] | None) -> str:
    """' (did you mean --table?)' for the nearest of click's close matches (difflib's
    order: the nearest first), or ''."""
    return f" (did you mean {possibilities[0]}?)" if possibilities else ""


def _choice_hint(error: click.BadParameter) -> str:
    """' (did you mean capacity?)' when a value is not one of an option's choices and
    one is near (click's message starts with the value given, quoted)."""
    choices = getattr(error.param.type, "choices", None) if error.param else None
    given = _GIVEN.match(error.message)
    if not choices or given is None:
        return ""
    near = difflib.get_close_matches(given.group(1), [str(c) for c in choices], n=1)
    return f" (did you mean {near[0]}?)" if near else ""


def _name(param: click.Parameter) -> str:
    """An option by its long name (--jobs), an argument by its metavar (FILE...)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return param.human_readable_name


def _sentence(text: str) -> str:
    """click's sentence as the middle of ours: first letter small, no final stop."""
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() or len(text) < 2 else text
