"""R723SCS values from RMF-level figures: the inverse of the parser's §5 formulas.

One definition serves a single period (:func:`period_values`, Python numbers
for a :class:`~zperf.sim.writers.smf72.ClassInterval`) and a column of
periods (:func:`period_columns`, numpy arrays for
:func:`~zperf.sim.writers.smf72.build_many_type72_3`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Number = npt.ArrayLike


def period_columns(*, interval_seconds: float, adj: int, ended: Number,
                   executed: Number | None = None, cpu_seconds: Number = 0.0,
                   srb_seconds: Number = 0.0, iip_seconds: Number = 0.0,
                   iipcp_seconds: Number = 0.0, aap_seconds: Number = 0.0,
                   aapcp_seconds: Number = 0.0, su_ioc: Number = 0.0, su_mso: Number = 0.0,
                   resp_ms: Number = 0.0, trans_avg: Number = 0.0, trans_mpl: Number = 0.0,
                   coefficient: float = 1.0) -> dict[str, npt.NDArray[Any]]:
    """Raw R723SCS values for RMF-level figures, one per period (arrays broadcast together).

    Service units are rounded to whole units, as SRM accumulates them; the
    parser's derived seconds then match the figures to the SU resolution.
    ``executed`` (R723CNCP) defaults to ``ended``.
    """
    su_per_second = 16e6 / adj * coefficient

    def su(seconds: Number) -> npt.NDArray[np.float64]:
        return np.round(np.asarray(seconds, dtype=np.float64) * su_per_second)

    def real(value: Number) -> npt.NDArray[np.float64]:
        return np.asarray(value, dtype=np.float64)

    count = np.asarray(ended, dtype=np.int64)
    done = count if executed is None else np.asarray(executed, dtype=np.int64)
    cpu, srb, ioc, mso = su(cpu_seconds), su(srb_seconds), real(su_ioc), real(su_mso)
    resp = real(resp_ms)
    columns = {
        "R723CRCP": count, "R723CNCP": done,
        "R723CCPU": cpu, "R723CSRB": srb, "R723CIOC": ioc, "R723CMSO": mso,
        "R723CSRV": cpu + srb + ioc + mso,
        "R723CSUP": su(iip_seconds), "R723CSUC": su(iipcp_seconds),
        "R723CIFA": su(aap_seconds), "R723CIFC": su(aapcp_seconds),
        "R723CTET": resp * count / 1.024, "R723CTETX": resp * count * 1000.0,
        "R723CTAT": real(trans_avg) * interval_seconds / 1.024e-3,
        "R723CTRR": real(trans_mpl) * interval_seconds / 1.024e-3,
    }
    shape = np.broadcast_shapes(*(v.shape for v in columns.values()))
    return {name: np.broadcast_to(v, shape) for name, v in columns.items()}


def period_values(*, interval_seconds: float, adj: int, ended: int = 0, executed: int = 0,
                  cpu_seconds: float = 0.0, srb_seconds: float = 0.0, iip_seconds: float = 0.0,
                  iipcp_seconds: float = 0.0, aap_seconds: float = 0.0,
                  aapcp_seconds: float = 0.0, su_ioc: float = 0.0, su_mso: float = 0.0,
                  resp_ms: float = 0.0, trans_avg: float = 0.0, trans_mpl: float = 0.0,
                  coefficient: float = 1.0) -> dict[str, object]:
    """Raw R723SCS values of one period, as Python numbers (see :func:`period_columns`)."""
    columns = period_columns(
        interval_seconds=interval_seconds, adj=adj, ended=ended, executed=executed,
        cpu_seconds=cpu_seconds, srb_seconds=srb_seconds, iip_seconds=iip_seconds,
        iipcp_seconds=iipcp_seconds, aap_seconds=aap_seconds, aapcp_seconds=aapcp_seconds,
        su_ioc=su_ioc, su_mso=su_mso, resp_ms=resp_ms, trans_avg=trans_avg,
        trans_mpl=trans_mpl, coefficient=coefficient)
    return {name: value.item() for name, value in columns.items()}
