"""A_online's ``shift`` option (issue 23): Alg. 4's uniform shift (the paper's, default) is not
work-conserving; ``shift="compact"`` is, and its schedules pass the checker."""
from __future__ import annotations

import dataclasses

import pytest
from edgecloud_tiny import tiny_job
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.checker import check_edgecloud
from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.metrics import idle_while_waiting
from mlopt.families.edgecloud.online import Chunk, a_online, compact_plan
from mlopt.workload import BANDWIDTH, Server, Workload, validate


def hand_workload() -> Workload:
    """One edge worker; chunk slots p0 = E B (1 s + 1 s exchange) / 1 s, cloud 30 slots away.
    A: r = 1, data on e0 at 1 + 9 = 10, E = 5 -> p0 = 10.  B: r = 2, data at 3, p0 = 2 (higher
    rate 1/2 > 1/10: A becomes B's A2).  A arrives first: planned [10, 20) (cloud Q 30 + 5 >
    edge Q 9 + 10).  B: t* = 3, [3, 5); the uniform shift postpones A's slots >= 3 by 2:
    [12, 22), so the worker idles in slots 10 and 11 although A's data is there.
    Uniform: c_A = 21, c_B = 4 -> JCT 20 + 2 = 22.  Compact: A back at [10, 20) -> 18 + 2 = 20."""
    a = dataclasses.replace(tiny_job("A", 1, {"e0": 9, "cloud": 30}, arrival=1), epochs=5)
    b = tiny_job("B", 1, {"e0": 1, "cloud": 30}, arrival=2)
    servers = (Server("e0", "any", {BANDWIDTH: 10.0}, location="edge"),
               Server("cloud", "any", {BANDWIDTH: 1e6}, location="cloud"))
    ex = {"edgecloud": {"cloud": "cloud", "servers": {
        "e0": {"workers": {"w0": 1}, "ps": {"p0": 1}}}}}
    return validate(Workload("shift-hand", 6, 1.0, (BANDWIDTH,), servers, (a, b),
                             {"family": "edgecloud"}, ex))


def test_hand_uniform_idles_compact_does_not():
    w = hand_workload()
    got = {}
    for shift in ("uniform", "compact"):
        s = a_online(w, shift=shift).schedule
        chk = check_edgecloud(w, s)
        assert chk.feasible, chk.summary()
        got[shift] = (chk.objective, idle_while_waiting(w, s))
    assert got["uniform"] == (22.0, [("e0", "w0#0", 10), ("e0", "w0#0", 11)])
    assert got["compact"] == (20.0, [])


def test_compact_plan_never_later_and_keeps_the_past():
    """A plan with a gap: c1 slots [5, 7) and [12, 14) (release 5), c2 [14, 16) (release 9).
    From now = 6: slot 5 stays, c1's rest goes to [6, 7) + [7, 9), c2 to [9, 11)."""
    c1 = Chunk(0, 0, 0.1, 1.0, [[5, 7], [12, 14]], release=5)
    c2 = Chunk(1, 0, 0.1, 1.0, [[14, 16]], release=9)
    compact_plan([c1, c2], 6)
    assert c1.iv == [[5, 9]] and c2.iv == [[9, 11]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 25),
       preset=st.sampled_from(["tiny", "paper-ratio"]), use_cloud=st.booleans())
def test_compact_is_checked_and_work_conserving(seed, n_jobs, preset, use_cloud):
    w = generate(preset, seed, n_jobs=n_jobs, arrival_window=max(1.0, n_jobs / 3))
    s = a_online(w, shift="compact", use_cloud=use_cloud).schedule
    chk = check_edgecloud(w, s)
    assert chk.feasible, chk.summary()
    assert idle_while_waiting(w, s) == []


def test_option_declared_default_uniform_and_checked():
    fam = get_family("edgecloud")
    w = hand_workload()
    assert fam.run("a_online", w, seed=0).allocations.equals(
        a_online(w, shift="uniform").schedule.allocations)
    assert fam.check(w, fam.run("a_online", w, seed=0, shift="compact")).objective == 20.0
    with pytest.raises(InputError) as err:
        fam.run("a_online", w, seed=0, shift="wrap")
    assert err.value.field == "shift"
