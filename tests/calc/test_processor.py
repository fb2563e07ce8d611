"""Paper 002: messages per second at 100 % of a 298-MIPS engine, all 24 observations."""

from __future__ import annotations

import pytest
from paper_data import read_rows, rounds_to, within_rounding

from zperf.calc import formulas as f
from zperf.errors import UsageError

OBSERVATIONS = read_rows("paper002-raw-data.csv")
MIPS = f.processor_rating("z9-ztpf").mips_per_engine


def test_the_cited_rating_is_the_papers() -> None:
    assert MIPS == 298.0 and "298 MIPS per CPU" in f.PROCESSOR_RATINGS["z9-ztpf"].source
    assert f.processor_rating("Z9-ZTPF") is f.PROCESSOR_RATINGS["z9-ztpf"]
    with pytest.raises(UsageError, match="no cited rating 'z14'"):
        f.processor_rating("z14")


@pytest.mark.parametrize("obs", OBSERVATIONS,
                         ids=[f"{o['transport']}-{o['message']}" for o in OBSERVATIONS])
def test_msg_per_sec_at_100pct_of_every_observation(obs: dict[str, str]) -> None:
    """MIPS x 1e6 / path length prints as the paper's Msg/Sec at 100 %; and back."""
    rate = f.msg_per_sec_at_100pct(MIPS, float(obs["path_length"]))
    assert rounds_to(rate, obs["msg_per_sec_at_100pct"])
    # the inverse from the printed (rounded) rate gives the path length to that rounding
    assert within_rounding(lambda r: float(f.instructions_per_msg(MIPS, r)),
                           obs["path_length"], obs["msg_per_sec_at_100pct"])
    assert f.instructions_per_msg(MIPS, rate) == pytest.approx(float(obs["path_length"]))


def test_all_24_observations_are_there() -> None:
    assert len(OBSERVATIONS) == 24
    assert {o["transport"] for o in OBSERVATIONS} == {"http", "mq-client", "mq-queue-manager"}
    assert round(f.msg_per_sec_at_100pct(298, 109951)) == 2710


def test_projection_by_capacity_ratio() -> None:
    """On an engine rated twice 002's, a message costs half the CPU time.

    The projection and the path-length model must agree: 1000 / rate is the
    ms per message at 100 % of one engine.
    """
    ms_on_z9 = 1000 / f.msg_per_sec_at_100pct(298, 109951)
    ratio = f.capacity_ratio(298, 596)
    assert ratio == 2.0
    assert f.project_ms_per_tran(ms_on_z9, ratio) == pytest.approx(
        1000 / f.msg_per_sec_at_100pct(596, 109951))
    assert round(ms_on_z9, 4) == 0.3690
    with pytest.raises(UsageError, match="capacity ratio must be greater than 0"):
        f.project_ms_per_tran(0.64, 0.0)
    with pytest.raises(UsageError, match="path length must be greater than 0"):
        f.msg_per_sec_at_100pct(298, 0)
