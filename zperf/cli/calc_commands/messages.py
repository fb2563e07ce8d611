"""``zperf calc`` for messages: XML content density (002), SOAP message size and
code page conversion cost in CICS (001)."""

from __future__ import annotations

import click

from zperf.calc import formulas as f
from zperf.cli.calc_commands.params import NON_NEGATIVE, POSITIVE, Number, emit, to_option
from zperf.errors import UsageError
from zperf.report.values import Value


@click.command(name="density")
@click.argument("paths", metavar="FILE.xml...", nargs=-1, required=True)
@click.option("--count-whitespace", is_flag=True,
              help="Count white-space-only text between tags as content (layout by default).")
@to_option
def density_command(paths: tuple[str, ...], count_whitespace: bool, fmt: str) -> None:
    """XML content density: attribute values + element text over the size (002).

    xmlns attributes are markup. Files of any size are streamed; '-' reads
    standard input.
    """
    values = []
    for path in paths:
        d = f.content_density_of_file(path, count_whitespace=count_whitespace)
        values += [Value("size_bytes", d.size_bytes, "bytes", path),
                   Value("content_bytes", d.content_bytes, "bytes", path),
                   Value("content_density_pct", d.content_density_pct, "%", path)]
    emit(values, fmt)


@click.command(name="soap-size")
@click.option("--elements", type=Number(at_least=0, integer=True), required=True,
              help="Data elements in the message.")
@click.option("--avg-name", type=POSITIVE, required=True,
              help="Average element name length, bytes.")
@click.option("--avg-data", type=NON_NEGATIVE, required=True,
              help="Average element data length, bytes.")
@click.option("--program-name-length", type=Number(at_least=1, at_most=8, integer=True),
              default=8, show_default=True, help="Length of the CICS program name.")
@to_option
def soap_command(elements: int, avg_name: float, avg_data: float, program_name_length: int,
                 fmt: str) -> None:
    """SOAP message size of a CICS web service (001 'Sizing SOAP message').

    278 + (2 x program name length + 23) + elements x (2 x average element name
    length + average data length + 5) bytes.
    """
    size = f.soap_size_bytes(elements, avg_name, avg_data, program_name_length)
    emit([Value("soap_size_bytes", size, "bytes")], fmt)


@click.command(name="codepage")
@click.option("--from", "source", help="CCSID converted from: 037, 437, 1208, 1200 or "
                                      "EBCDIC, ASCII, UTF-8, UTF-16.")
@click.option("--into", "target", help="CCSID converted into (the same choices).")
@click.option("--kchars", type=NON_NEGATIVE, default=1.0, show_default=True,
              help="Thousands of characters converted (001's unit, '1K characters').")
@to_option
def codepage_command(source: str | None, target: str | None, kchars: float, fmt: str) -> None:
    """CPU ms to convert characters between code pages in CICS (001 'Codepage conversion').

    Without --from and --into, the whole measured table: CPU ms per 1K characters.
    """
    if source is None and target is None:
        names = f.CCSID_NAMES
        emit([Value("cpu_ms_per_1k_chars", ms, "ms", f"{names[a]} ({a}) -> {names[b]} ({b})")
               for (a, b), ms in f.CPU_MS_PER_1K_CHARS.items()], fmt)
        return
    if source is None or target is None:
        raise UsageError("give both --from and --into (or neither, for the whole table)")
    ms = f.codepage_cpu_ms(f.ccsid(source), f.ccsid(target), kchars)
    emit([Value("cpu_ms", ms, "ms")], fmt)


COMMANDS = (density_command, soap_command, codepage_command)
