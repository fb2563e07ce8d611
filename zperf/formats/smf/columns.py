"""What the SMF record decoders share when they turn fields into table columns.

EBCDIC names repeat across millions of rows (system, class, workload), so a
text field is decoded once per distinct value and spread back; the z/OS
release of the RMF product section is printed as RMF prints it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

Ints = npt.NDArray[Any]


def text_column(raw: npt.NDArray[Any], index: Ints, encoding: str,
                convert: Any = None) -> pl.Series:
    """Decode an EBCDIC column once per distinct value, then spread it by ``index``.

    Fields of 8 bytes or less are compared as integers (a fast sort); longer
    ones as byte strings.
    """
    width = raw.dtype.itemsize
    if width <= 8 and raw.size:
        padded = np.zeros((raw.size, 8), dtype=np.uint8)
        padded[:, :width] = np.ascontiguousarray(raw).view(np.uint8).reshape(raw.size, width)
        _, first, inverse = np.unique(padded.view(np.uint64).reshape(-1),
                                         return_index=True, return_inverse=True)
        uniq = raw[first]
    else:
        uniq, inverse = np.unique(raw, return_inverse=True)
    texts = [u.decode(encoding, errors="replace").strip(" \x00") or None
             for u in uniq.tolist()]  # a blank field is null, as in a listing
    if convert is not None:
        texts = [convert(t) for t in texts]
    return pl.Series(texts, dtype=pl.String).gather(inverse.reshape(-1)[index])


def zos_release(mvs: str | None) -> str | None:
    """'ZV020400' -> 'V2R4' (as RMF prints the release); anything else as it is."""
    # isascii: a damaged byte can decode to a digit int() refuses ('¹' of cp037 0xDA).
    if mvs and len(mvs) >= 6 and mvs.startswith("ZV") and mvs[2:6].isascii() \
            and mvs[2:6].isdigit():
        return f"V{int(mvs[2:4])}R{int(mvs[4:6])}"
    return mvs or None
