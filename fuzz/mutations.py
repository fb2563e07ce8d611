"""Damage as real files get it: the mutation operators of zperf's fuzzing harness.

A mutated input is a fixture with one to four of these applied, drawn from a
``random.Random`` (so an input is reproducible from its seed).  The text
operators know what a report or a log is made of: lines (cut, swapped,
repeated), numbers (made huge, negative, fractional), dates and times (month
13, minute 98), the markers reports print instead of a value (``*****``,
``N/A``), characters outside ASCII, NULs, other encodings (EBCDIC, UTF-16)
and line ends, the records of a z/OS data set with no line ends.  The binary
operators know what an SMF dump is made of:
descriptor words (RDW, BDW, segment flags), halfwords, fullwords and
doublewords set to the values that break arithmetic (0, all ones, the sign
bit), and chunks deleted, repeated or truncated.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Operator = Callable[[bytearray, random.Random], bytearray]

#: What a report or a log prints where a value should be, and worse.
TOKENS = (b"*****", b"N/A", b"NULL", b"-", b"?", b"", b"0", b"-1", b"1e309", b"NaN", b"inf",
          b"-0", b"+5", b"1,000", b"3.", b".5", b"K", b"99999M", b"\x00", b"\xc3\xa9",
          b"\xe6\x97\xa5\xe6\x9c\xac", b"\xef\xbb\xbf", b"\xff\xfe", b"true", b"yes",
          b"'", b'"', b",", b";", b"\t", b"|", b"<", b">", b"&", b"=", b":", b". . . :")
#: Numbers that no counter or time should hold.
NUMBERS = (b"100000000000000000000", b"25100000000000000000000000", b"-1", b"-999999",
           b"0", b"00", b"9223372036854775807", b"9223372036854775808",
           b"18446744073709551616", b"1e400", b"0.000000001", b"123456789012345.678",
           b"-0.5", b"4294967296", b"65536", b"99999999999", b"1" * 60)
#: Characters outside printable ASCII that reach files: UTF-8, Latin-1, controls.
ODD = (b"\x00", b"\xa0", b"\xc2\xa0", b"\xe2\x80\x83", b"\xd0\x96", b"\xe2\x82\xac",
       b"\xff", b"\x85", b"\x1c", b"\x0c", b"\r", b"\t", b"\x1b[0m", b"\xed\xa0\x80",
       b"\xf0\x9f\x98\x80", b"\xef\xbb\xbf", b"\x15", b"\x25", b"\x40")
_NUMBER = re.compile(rb"\d+(?:[.,]\d+)*")
_DATE = re.compile(rb"\d{1,4}[/.:-]\d{1,2}[/.:-]\d{1,4}")
_BAD_DATE_PARTS = (b"91", b"13", b"00", b"32", b"99", b"0000", b"2", b"98", b"24", b"60",
                   b"-1", b"9999", b"10000", b"1", b"3")


def _pos(data: bytearray, rng: random.Random) -> int:
    return rng.randrange(len(data) + 1)


def _lines(data: bytearray) -> list[bytes]:
    return bytes(data).split(b"\n")


# ------------------------------------------------------------------ text


def flip_byte(data: bytearray, rng: random.Random) -> bytearray:
    if data:
        data[rng.randrange(len(data))] = rng.randrange(256)
    return data


def change_digit(data: bytearray, rng: random.Random) -> bytearray:
    digits = [i for i in _sample_positions(data, rng) if 0x30 <= data[i] <= 0x39]
    if digits:
        data[rng.choice(digits)] = rng.choice(b"0123456789")
    return data


def _sample_positions(data: bytearray, rng: random.Random, n: int = 64) -> list[int]:
    return [rng.randrange(len(data)) for _ in range(n)] if data else []


def _match_near(pattern: re.Pattern[bytes], data: bytearray,
                rng: random.Random) -> re.Match[bytes] | None:
    """A match of ``pattern`` at or after a random place (wrapping round)."""
    if not data:
        return None
    start = rng.randrange(len(data))
    return pattern.search(data, start) or pattern.search(data)


def replace_number(data: bytearray, rng: random.Random) -> bytearray:
    found = _match_near(_NUMBER, data, rng)
    if found:
        new = rng.choice(NUMBERS)
        if rng.random() < 0.3:  # keep the width, as a fixed-column report would
            new = new[: len(found.group())].rjust(len(found.group()))
        data[found.start():found.end()] = new
    return data


def negate_number(data: bytearray, rng: random.Random) -> bytearray:
    found = _match_near(_NUMBER, data, rng)
    if found:
        data[found.start():found.start()] = b"-"
    return data


def bad_date(data: bytearray, rng: random.Random) -> bytearray:
    found = _match_near(_DATE, data, rng)
    if found is None:
        return replace_number(data, rng)
    text = found.group()
    parts = re.split(rb"([/.:-])", text)
    numbers = list(range(0, len(parts), 2))
    parts[rng.choice(numbers)] = rng.choice(_BAD_DATE_PARTS)
    data[found.start():found.end()] = b"".join(parts)
    return data


def token(data: bytearray, rng: random.Random) -> bytearray:
    """A report's placeholder in place of a word, or inserted."""
    new = rng.choice(TOKENS)
    base = rng.randrange(max(1, len(data) - 400 + 1))
    words = list(re.finditer(rb"[^\s,;|\t]+", bytes(data[base:base + 400])))
    if words and rng.random() < 0.7:
        w = rng.choice(words)
        data[base + w.start():base + w.end()] = new
    else:
        at = _pos(data, rng)
        data[at:at] = new
    return data


def odd_character(data: bytearray, rng: random.Random) -> bytearray:
    at = _pos(data, rng)
    data[at:at] = rng.choice(ODD)
    return data


def cut_line(data: bytearray, rng: random.Random) -> bytearray:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return bytearray(b"\n".join(lines))


def swap_lines(data: bytearray, rng: random.Random) -> bytearray:
    lines = _lines(data)
    if len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        j = i + 1 if rng.random() < 0.6 else rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return bytearray(b"\n".join(lines))


def repeat_line(data: bytearray, rng: random.Random) -> bytearray:
    lines = _lines(data)
    line = rng.choice(lines)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return bytearray(b"\n".join(lines))


def squeeze_spaces(data: bytearray, rng: random.Random) -> bytearray:
    """Runs of blanks as one (a report pasted from a web page), or tabs."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i] = re.sub(rb"  +", rng.choice((b" ", b"\t", b"   ")), lines[i])
    if rng.random() < 0.3:
        lines = [re.sub(rb"  +", b" ", line) for line in lines]
    return bytearray(b"\n".join(lines))


def truncate(data: bytearray, rng: random.Random) -> bytearray:
    return data[: _pos(data, rng)]


def delete_run(data: bytearray, rng: random.Random) -> bytearray:
    at = _pos(data, rng)
    del data[at: at + rng.randint(1, 64)]
    return data


def insert_run(data: bytearray, rng: random.Random) -> bytearray:
    at = _pos(data, rng)
    data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return data


def reencode(data: bytearray, rng: random.Random) -> bytearray:
    """The whole file in another encoding or with other line ends."""
    text = bytes(data).decode("utf-8", errors="replace")
    choice = rng.randrange(5)
    if choice == 0:
        return bytearray(text.replace("\n", "\x85").encode("cp037", errors="replace"))
    if choice == 1:
        return bytearray(text.encode("utf-16"))
    if choice == 2:
        return bytearray(text.replace("\n", "\r\n").encode())
    if choice == 3:
        return bytearray(b"\xef\xbb\xbf" + text.encode())
    return bytearray(text.replace("\n", "\n\f", 1).encode())


def as_records(data: bytearray, rng: random.Random) -> bytearray:
    """The whole file as z/OS records in EBCDIC with no line ends, as a binary transfer
    of a SYSOUT data set gives it: fixed (FBA, 133 bytes or the longest line) or
    variable with record descriptor words (VBA)."""
    lines = [line.rstrip(b"\r").decode("utf-8", errors="replace").encode("cp037", errors="replace")
             for line in bytes(data).split(b"\n")]
    if rng.random() < 0.5:
        width = max(133, *(len(line) for line in lines))
        return bytearray(b"".join(line.ljust(width, b"\x40") for line in lines))
    kept = [line[:32000] or b"\x40" for line in lines]
    return bytearray(b"".join((len(line) + 4).to_bytes(2, "big") + b"\0\0" + line
                              for line in kept))


TEXT_OPERATORS: tuple[tuple[Operator, float], ...] = (
    (flip_byte, 1.0), (change_digit, 1.5), (replace_number, 2.0), (negate_number, 0.7),
    (bad_date, 1.5), (token, 2.0), (odd_character, 1.2), (cut_line, 1.5), (swap_lines, 1.0),
    (repeat_line, 0.8), (squeeze_spaces, 0.6), (truncate, 0.8), (delete_run, 0.8),
    (insert_run, 0.4), (reencode, 0.25), (as_records, 0.25),
)

# ---------------------------------------------------------------- binary

_EXTREMES = {2: (0, 1, 3, 4, 0x7FFF, 0x8000, 0xFFFF), 4: (0, 1, 0x7FFFFFFF, 0x80000000,
                                                         0xFFFFFFFF, 0x0000FFFF),
             8: (0, 1, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF,
                 0x4110000000000000, 0x7FFFFFFF00000000)}


def set_word(data: bytearray, rng: random.Random) -> bytearray:
    """A halfword, fullword or doubleword (aligned) set to a value that breaks sums."""
    size = rng.choice((2, 2, 4, 4, 8))
    if len(data) < size:
        return data
    at = rng.randrange(0, len(data) - size + 1, size) if len(data) >= 2 * size else 0
    value = rng.choice(_EXTREMES[size])
    if rng.random() < 0.3:  # near the old value
        old = int.from_bytes(data[at:at + size], "big")
        value = max(0, min(old + rng.randint(-3, 3), (1 << (8 * size)) - 1))
    data[at:at + size] = value.to_bytes(size, "big")
    return data


def set_byte(data: bytearray, rng: random.Random) -> bytearray:
    if data:
        data[rng.randrange(len(data))] = rng.choice((0x00, 0xFF, 0x40, 0x80, 0x7F, 0x01, 0x0F,
                                                     0xF0, 0x4B))
    return data


def descriptor(data: bytearray, rng: random.Random) -> bytearray:
    """A record, block or segment descriptor word changed: its length or its flags."""
    candidates = [i for i in range(0, max(0, len(data) - 4))
                  if data[i + 3] == 0 and data[i + 2] in (0, 1, 2, 3)
                  and 4 <= int.from_bytes(data[i:i + 2], "big") <= len(data) + 4]
    if not candidates:
        return set_word(data, rng)
    at = rng.choice(candidates)
    if rng.random() < 0.3:
        data[at + 2] = rng.choice((0, 1, 2, 3, 0x80, 0xFF))
        return data
    old = int.from_bytes(data[at:at + 2], "big")
    new = rng.choice((0, 3, 4, 5, old - 1, old + 1, old - 4, old + 4, old * 2, 0x8000,
                      0xFFFF, len(data) - at, len(data) - at + 1))
    data[at:at + 2] = max(0, min(new, 0xFFFF)).to_bytes(2, "big")
    return data


def repeat_chunk(data: bytearray, rng: random.Random) -> bytearray:
    if not data:
        return data
    at = rng.randrange(len(data))
    chunk = data[at: at + rng.randint(1, 512)]
    to = _pos(data, rng)
    data[to:to] = chunk
    return data


def delete_chunk(data: bytearray, rng: random.Random) -> bytearray:
    at = _pos(data, rng)
    del data[at: at + rng.randint(1, 512)]
    return data


def ebcdic_text(data: bytearray, rng: random.Random) -> bytearray:
    """An EBCDIC name field overwritten (blanks, digits, low values, lower case)."""
    if len(data) <= 8:  # no room for a field that is not the whole input
        return data
    at = rng.randrange(len(data) - 8)
    data[at:at + 8] = rng.choice((b"\x40" * 8, b"\x00" * 8, b"\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8",
                                  b"\x81\x82\x83\x84\x85\x86\x87\x88", b"\xff" * 8))
    return data


BINARY_OPERATORS: tuple[tuple[Operator, float], ...] = (
    (flip_byte, 1.5), (set_byte, 1.0), (set_word, 2.5), (descriptor, 1.5),
    (repeat_chunk, 0.5), (delete_chunk, 0.5), (truncate, 0.7), (delete_run, 0.5),
    (insert_run, 0.5), (ebcdic_text, 0.5),
)


def mutate(base: bytes, rng: random.Random, *, binary: bool) -> bytes:
    """``base`` with one to four operators applied (binary or text ones)."""
    operators = BINARY_OPERATORS if binary else TEXT_OPERATORS
    funcs = [f for f, _ in operators]
    weights = [w for _, w in operators]
    data = bytearray(base)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        data = rng.choices(funcs, weights)[0](data, rng)
    return bytes(data)
