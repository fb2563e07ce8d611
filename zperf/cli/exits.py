"""The exit statuses of every command, and what each means, written once.

Why a module of its own: ``zperf --help`` shows them, and it must start without
importing the readers (see zperf.cli.lazy); the --help epilog of every command and
the EXIT STATUS section of every man page (zperf.cli.manpage) are made from it.
"""

from __future__ import annotations

import textwrap

#: Exit statuses of every command (zperf.cli.main maps errors to EXIT_ERROR).
EXIT_OK, EXIT_ATTENTION, EXIT_ERROR = 0, 1, 2
#: The shell's status for a command ended by SIGINT (128 + 2).
EXIT_INTERRUPTED = 130
#: What each status means, written once: the --help epilog of every command and the
#: EXIT STATUS section of every man page (zperf.cli.manpage) are made from it.
EXIT_STATUSES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, "success"),
    (EXIT_ATTENTION, "done, but needs attention: input records were skipped (--on-error skip "
                     "or keep), the table asked for has no row, an input file is empty, a "
                     "check rule failed, or a reproduced figure differs; what was found is on "
                     "standard error"),
    (EXIT_ERROR, "bad input, bad usage, or an output that cannot be written (no such folder, "
                 "no permission, disk full, closed pipe): one line on standard error, "
                 "\"zperf: error: FILE: line N at offset 0x...: what was wrong\""),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C): \"zperf: interrupted\"; the workers of --jobs "
                       "stop too, and an output file (-o) is left as it was"),
)
EXIT_STATUS_EPILOG = "\b\nExit status:\n" + "\n".join(
    textwrap.fill(what, 86, initial_indent=f"  {code:>3}  ", subsequent_indent=" " * 7)
    for code, what in EXIT_STATUSES) + "\n"
