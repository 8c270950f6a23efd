"""Generator presets of the hetero family (seed 003, Sec. 7)."""
from __future__ import annotations

import json

import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import PRESETS, generate


from conftest import needs_shared  # noqa: E402

# trace presets read the shared trace copies (skipped without ../shared)
ALL_PRESETS = [pytest.param(p, marks=needs_shared) if PRESETS[p].get("trace") else p
               for p in sorted(PRESETS)]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_presets_validate_and_are_reproducible(preset):
    a, b = generate(preset, seed=3), generate(preset, seed=3)
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    assert a.content_hash() != generate(preset, seed=4).content_hash()
    get_family("hetero").validate(a)
    d = hetero_data(a)
    assert d.architecture == ("ra" if preset.endswith("-ra") else "ps")


def test_paper_default_ranges():
    w = generate("paper-default", seed=0)
    d = hetero_data(w)
    assert w.horizon == 150 and len(w.servers) == 150
    assert d.e.shape[0] == 8 and d.z.shape[0] == 10
    assert ((d.weight >= 200) & (d.weight <= 5000)).all()
    assert ((d.v >= 0.001) & (d.v <= 0.05)).all()
    assert all(50 <= j.epochs <= 100 and 5 <= j.chunks <= 50 and 10 <= j.minibatches <= 50
               for j in w.jobs)
    assert (d.u_ps * 3600 * 1000 >= 10 - 1e-6).all() and (d.u_ps * 3600 * 1000 <= 100 + 1e-6).all()
    gpu = d.e[:, d.resources.index("gpu")]
    assert gpu.min() >= 1 and gpu.max() <= 4 and (d.z[:, d.resources.index("gpu")] == 0).all()


def test_bad_parameters():
    with pytest.raises(InputError) as err:
        generate("tiny", seed=0, epochs=(5, 1))
    assert err.value.field == "epochs"
    with pytest.raises(InputError) as err:
        generate("tiny", seed=0, bogus=1)
    assert err.value.field == "bogus"
    with pytest.raises(InputError):
        generate("nope")
