"""R723SCS values from RMF-level figures: the inverse of the parser's §5 formulas.

One formula, :func:`_scs_values`, is plain arithmetic on Python numbers or
numpy arrays alike: :func:`period_values` gives one period's values as Python
numbers (for a :class:`~zperf.sim.writers.smf72_class.ClassInterval`),
:func:`period_columns` a column per field for many periods (for
:func:`~zperf.sim.writers.smf72.build_many_type72_3`; a figure left at 0 stays
one number, which the builder writes into every record).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def _whole(value: Any) -> Any:
    """Rounded to whole units, half to even (as both Python and numpy round)."""
    return np.round(value) if isinstance(value, np.ndarray) else float(round(value))


def _scs_values(*, interval_seconds: float, adj: int, ended: Any, executed: Any,
                cpu_seconds: Any, srb_seconds: Any, iip_seconds: Any, iipcp_seconds: Any,
                aap_seconds: Any, aapcp_seconds: Any, su_ioc: Any, su_mso: Any, resp_ms: Any,
                trans_avg: Any, trans_mpl: Any, coefficient: float) -> dict[str, Any]:
    """Service units are rounded to whole units, as SRM accumulates them; the
    parser's derived seconds then match the figures to the SU resolution."""
    su_per_second = 16e6 / adj * coefficient

    def su(seconds: Any) -> Any:
        return _whole(seconds * su_per_second)

    cpu, srb = su(cpu_seconds), su(srb_seconds)
    return {
        "R723CRCP": ended, "R723CNCP": executed,
        "R723CCPU": cpu, "R723CSRB": srb, "R723CIOC": su_ioc, "R723CMSO": su_mso,
        "R723CSRV": cpu + srb + su_ioc + su_mso,
        "R723CSUP": su(iip_seconds), "R723CSUC": su(iipcp_seconds),
        "R723CIFA": su(aap_seconds), "R723CIFC": su(aapcp_seconds),
        "R723CTET": resp_ms * ended / 1.024, "R723CTETX": resp_ms * ended * 1000.0,
        "R723CTAT": trans_avg * interval_seconds / 1.024e-3,
        "R723CTRR": trans_mpl * interval_seconds / 1.024e-3,
    }


def period_values(*, interval_seconds: float, adj: int, ended: int = 0, executed: int = 0,
                  cpu_seconds: float = 0.0, srb_seconds: float = 0.0, iip_seconds: float = 0.0,
                  iipcp_seconds: float = 0.0, aap_seconds: float = 0.0,
                  aapcp_seconds: float = 0.0, su_ioc: float = 0.0, su_mso: float = 0.0,
                  resp_ms: float = 0.0, trans_avg: float = 0.0, trans_mpl: float = 0.0,
                  coefficient: float = 1.0) -> dict[str, object]:
    """Raw R723SCS values of one period for RMF-level figures."""
    return _scs_values(
        interval_seconds=interval_seconds, adj=adj, ended=ended, executed=executed,
        cpu_seconds=cpu_seconds, srb_seconds=srb_seconds, iip_seconds=iip_seconds,
        iipcp_seconds=iipcp_seconds, aap_seconds=aap_seconds, aapcp_seconds=aapcp_seconds,
        su_ioc=su_ioc, su_mso=su_mso, resp_ms=resp_ms, trans_avg=trans_avg,
        trans_mpl=trans_mpl, coefficient=coefficient)


def period_columns(*, interval_seconds: float, adj: int, ended: npt.ArrayLike,
                   cpu_seconds: npt.ArrayLike, iip_seconds: npt.ArrayLike,
                   resp_ms: npt.ArrayLike, iipcp_seconds: npt.ArrayLike = 0.0,
                   trans_avg: npt.ArrayLike = 0.0,
                   trans_mpl: npt.ArrayLike = 0.0) -> dict[str, Any]:
    """Raw R723SCS values of many periods (each period's transactions all complete).

    ``iipcp_seconds`` (zIIP-eligible time on CPs) and the average active and
    resident transactions (``trans_avg``, ``trans_mpl``) are 0 unless given; a
    figure given as one number is written into every record."""
    count = np.asarray(ended, dtype=np.int64)

    def column(value: npt.ArrayLike) -> Any:
        return value if np.ndim(value) == 0 else np.asarray(value, dtype=np.float64)

    return _scs_values(
        interval_seconds=interval_seconds, adj=adj, ended=count, executed=count,
        cpu_seconds=np.asarray(cpu_seconds, dtype=np.float64), srb_seconds=0.0,
        iip_seconds=np.asarray(iip_seconds, dtype=np.float64),
        iipcp_seconds=column(iipcp_seconds), aap_seconds=0.0, aapcp_seconds=0.0, su_ioc=0.0,
        su_mso=0.0, resp_ms=np.asarray(resp_ms, dtype=np.float64),
        trans_avg=column(trans_avg), trans_mpl=column(trans_mpl), coefficient=1.0)
