"""Regression tests for crashes the family-field fuzz (tests/test_cli_fuzz.py,
``test_mutated_family_fields``) found: each bad value in a family's ``extra`` fields must end
``mlopt run`` with exit 2 and one ``mlopt: error:`` line naming the field and the value, not an
internal error (exit 3) or a hang."""
from __future__ import annotations

import json

import pytest

from mlopt import limits
from mlopt.cli import main


def _set(doc, path, value):
    *head, last = path
    for p in head:
        doc = doc[p]
    doc[last] = value


CASES = [
    # (family, algorithm, path in the workload, bad value, field named in the message)
    # dict/list type names: were "unhashable type" in the slot-table lookups
    ("edgecloud", "srtf", ("jobs", 0, "extra", "ps_type"), {"a": 1}, "jobs[0].extra.ps_type"),
    ("edgecloud", "srtf", ("jobs", 1, "extra", "worker_type"), ["w0"],
     "jobs[1].extra.worker_type"),
    # a billion worker slots of one type: one object per slot (a hang, then out of memory)
    ("edgecloud", "srtf", ("extra", "edgecloud", "servers", "e0", "workers", "w0"),
     limits.MAX_SERVERS + 1, "extra.edgecloud.servers.e0.workers.w0"),
    ("edgecloud", "srtf", ("jobs", 0, "extra", "delay", "e0"), 2**70, "jobs[0].extra.delay.e0"),
    ("edgecloud", "srtf", ("jobs", 0, "extra", "ps_update_seconds"), 1e308,
     "jobs[0].extra.ps_update_seconds"),
    # ints beyond 64 bits inside the speed model: np.isfinite raised TypeError
    ("harmony", "lb", ("extra", "speed_model", "models", "resnet", "sensitivity"), 2**70,
     "extra.speed_model.models.resnet.sensitivity"),
    ("harmony", "lb", ("extra", "speed_model", "models", "vgg16", "ps", "bandwidth_gbps"),
     -(2**70), "extra.speed_model.models.vgg16.ps.bandwidth_gbps"),
    # worker / PS counts beyond 64 bits: OverflowError in the placement arrays
    ("harmony", "lif_line", ("jobs", 0, "extra", "workers"), 2**70, "jobs[0].extra.workers"),
    ("harmony", "lb", ("jobs", 0, "extra", "ps"), 1e308, "jobs[0].extra.ps"),
    # integer fields beyond 64 bits (OverflowError) and work overflowing to inf (NaN -> int)
    ("pdors", "fifo", ("jobs", 1, "extra", "ps_ratio"), 2**70, "jobs[1].extra.ps_ratio"),
    ("pdors", "fifo", ("jobs", 0, "extra", "batch"), 1e308, "jobs[0].extra.batch"),
    ("pdors", "fifo", ("jobs", 0, "extra", "param_mb"), 1e308, "jobs[0].extra.param_mb"),
    # each field in range, their product not: 1e12 MB over 1e-300 Gbit/s
    ("pdors", "fifo", ("jobs", 0, "extra", "bw_external_gbps"), 1e-300, "jobs[0].extra.samples"),
    # a huge weight overflowed A_online's priorities to NaN (then int(NaN)); an int beyond
    # floats made math.isfinite raise OverflowError; a 1e-300 mini-batch time, infinite rates
    ("hetero", "a_online", ("jobs", 2, "extra", "weight"), 1e308, "jobs[2].extra.weight"),
    ("hetero", "fifo", ("jobs", 0, "extra", "weight"), 10**400, "jobs[0].extra.weight"),
    ("hetero", "a_online", ("jobs", 1, "extra", "minibatch_slots"), [1e-300, 0.5],
     "jobs[1].extra.minibatch_slots[0]"),
    ("hetero", "fifo", ("jobs", 0, "extra", "ps_update_ms"), [10**400, 1.0],
     "jobs[0].extra.ps_update_ms[0]"),
    ("hetero", "fifo", ("extra", "hetero", "worker_types", 0, "demand", "cpu"), 1e300,
     "extra.hetero.worker_types[0].demand.cpu"),
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad-extra")
    out = {}
    for fam in sorted({c[0] for c in CASES}):
        path = d / f"{fam}.json"
        assert main(["generate", fam, "--preset", "tiny", "--seed", "1", "-o", str(path)]) == 0
        out[fam] = json.loads(path.read_text())
    return d, out


@pytest.mark.parametrize("family,alg,path,value,field", CASES,
                         ids=[f"{c[0]}-{c[2][-1]}-{type(c[3]).__name__}" for c in CASES])
def test_bad_extra_value_is_an_input_error(tiny, capsys, family, alg, path, value, field):
    d, docs = tiny
    doc = json.loads(json.dumps(docs[family]))
    _set(doc, path, value)
    if field.endswith("samples"):  # the product case also needs a large parameter size
        doc["jobs"][0]["extra"]["param_mb"] = 1e12
    w = d / "bad.json"
    w.write_text(json.dumps(doc))
    capsys.readouterr()
    code = main(["run", alg, str(w), "--family", family])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("mlopt: error: "), err
    assert field in err, err
