"""A click group whose subcommands are imported only when one is run.

Why: the subcommands read data with polars, pyarrow and numpy, which take
most of a second to import.  ``zperf --version`` and ``zperf --help`` need
none of that, so the group knows each subcommand by the module that defines
it and the one-line summary ``--help`` lists, and imports the module only
when the subcommand is run, asked for its own help, or listed in full
(``commands``: the man pages, the documentation tests).  A test checks that
every summary is the one the subcommand's own help gives, and that
``--version`` and ``--help`` import none of the heavy libraries.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class Lazy:
    """A subcommand: the function that imports it, and its one-line summary.

    ``load`` imports the subcommand's module with a plain ``from ... import``
    inside a function (never by a name in a string), so that the layering
    contracts see the dependency.
    """

    load: Callable[[], click.Command]
    summary: str


class LazyGroup(click.Group):
    """A group of subcommands imported on first use (see the module's docstring)."""

    def __init__(self, *args: object, lazy: dict[str, Lazy], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    @property
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every subcommand, imported (for the man pages and the documentation tests)."""
        for name in self.lazy:
            self._load(name)
        return self._loaded

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        self._loaded = dict(value)

    def _load(self, name: str) -> click.Command | None:
        if name not in self._loaded and name in self.lazy:
            self._loaded[name] = self.lazy[name].load()
        return self._loaded.get(name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._loaded, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The subcommands and their summaries, as click lists them, without importing
        the subcommands not yet loaded."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            loaded = self._loaded.get(name)
            if loaded is None:
                summary = click.Command(name, help=self.lazy[name].summary)  # click shortens it
                rows.append((name, summary.get_short_help_str(limit)))
            elif not loaded.hidden:
                rows.append((name, loaded.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
