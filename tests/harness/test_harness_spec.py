"""Spec parsing: the TOML format, the grid, and one InputError (file + field) per mistake."""
from __future__ import annotations

import pytest
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)

from mlopt.errors import InputError
from mlopt.harness.runner import build_tasks
from mlopt.harness.spec import load_spec, parse_spec

GOOD = """
name = "demo"
family = "harness_toy_max"

[[instances]]
preset = "small"
seeds = [0, 1, 2]
params = { target_ratio = 0.5 }
[instances.grid]
n_jobs = [4, 6]
capacity_ratio = [0.3, 0.6]

[[instances]]
preset = "small"
seeds = { start = 2, count = 2 }

[[algorithms]]
name = "greedy"
[[algorithms]]
name = "greedy"
label = "greedy-slow"
options = { sleep_s = 0.0 }
[[algorithms]]
name = "random"

[offline]
time_limit = 5
bounds = ["fractional", { name = "lp_relaxation" }]

[solver]
name = "highs"
threads = 1
"""


def write(tmp_path, text, name="spec.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_good_spec_grid_and_tasks(tmp_path):
    spec = load_spec(write(tmp_path, GOOD))
    assert spec.name == "demo" and spec.family == "harness_toy_max"
    assert [a.label for a in spec.algorithms] == ["greedy", "greedy-slow", "random"]
    assert spec.time_limit == 5.0 and spec.mip_gap == 0.0 and spec.model == "knapsack"
    assert [b.name for b in spec.bounds] == ["fractional", "lp_relaxation"]
    insts = spec.instances()
    # 2 x 2 grid x 3 seeds + 2 seeds of the default group
    assert len(insts) == 2 * 2 * 3 + 2
    assert {(i.params["n_jobs"], i.params["capacity_ratio"]) for i in insts[:12]} == {
        (4, 0.3), (4, 0.6), (6, 0.3), (6, 0.6)}
    assert all(i.params["target_ratio"] == 0.5 for i in insts[:12])
    assert insts[-1].params == {} and insts[-1].seed == 3
    tasks = build_tasks(spec)
    assert len({t["task_key"] for t in tasks}) == len(tasks)
    assert tasks[0]["family_module"] == "test_harness_toyfamily"
    # keys depend on the method configuration, not on the spec's name
    renamed = parse_spec(GOOD.replace('name = "demo"', 'name = "other"'))
    assert [t["task_key"] for t in build_tasks(renamed)] == [t["task_key"] for t in tasks]
    changed = parse_spec(GOOD.replace("time_limit = 5", "time_limit = 6"))
    assert changed.fingerprint() != spec.fingerprint()


def test_duplicate_instances_are_run_once():
    spec = parse_spec(GOOD + '\n[[instances]]\npreset = "small"\nseeds = [2, 3, 4]\n')
    assert len(spec.instances()) == 12 + 3  # seeds 2 and 3 of the default group repeat


@pytest.mark.parametrize("change, field", [
    (("family = \"harness_toy_max\"", "family = \"no_such_family\""), "family"),
    (("name = \"random\"", "name = \"no_such_alg\""), "algorithms[2].name"),
    (("name = \"highs\"", "name = \"no_such_solver\""), "solver.name"),
    (("n_jobs = [4, 6]", "n_jobs = []"), "instances[0].grid.n_jobs"),
    (("n_jobs = [4, 6]", "n_jobs = 4"), "instances[0].grid.n_jobs"),
    (("n_jobs = [4, 6]", "n_jobz = [4, 6]"), "instances[0].grid.n_jobz"),
    (("seeds = [0, 1, 2]", "seeds = []"), "instances[0].seeds"),
    (("seeds = [0, 1, 2]", "seeds = [0, 0]"), "instances[0].seeds"),
    (("seeds = [0, 1, 2]", "seeds = [0, \"1\"]"), "instances[0].seeds[1]"),
    (("seeds = [0, 1, 2]", "seeds = [-1]"), "instances[0].seeds[0]"),
    (("seeds = [0, 1, 2]", "seeds = true"), "instances[0].seeds"),
    (("time_limit = 5", "time_limit = \"5\""), "offline.time_limit"),
    (("time_limit = 5", "time_limit = -1"), "offline.time_limit"),
    (("time_limit = 5", "time_limit = 5\nmip_gap = 1.5"), "offline.mip_gap"),
    (("time_limit = 5", "time_limit = 5\nmethod = \"heuristic\""), "offline.method"),
    (("time_limit = 5", "time_limit = 5\nmodel = \"nope\""), "offline.model"),
    (("threads = 1", "threads = 0"), "solver.threads"),
    (("threads = 1", "threads = true"), "solver.threads"),
    (("\"fractional\",", "\"dual_certificate\","), "offline.bounds[0].name"),
    (("\"fractional\",", "\"fractional\", \"fractional\","), "offline.bounds[1].name"),
    (("options = { sleep_s = 0.0 }", "options = { sleeps = 0.0 }"),
     "algorithms[1].options.sleeps"),
    (("label = \"greedy-slow\"", "label = \"greedy\""), "algorithms[1].label"),
    (("preset = \"small\"", "preset = \"huge\""), "instances[0].preset"),
    (("[solver]", "[solvers]"), "solvers"),
    (("params = { target_ratio = 0.5 }", "params = { n_jobs = 3 }"),
     "instances[0].grid.n_jobs"),
    (("params = { target_ratio = 0.5 }", "params = 3"), "instances[0].params"),
    (("params = { target_ratio = 0.5 }", "params = { target_ratio = nan }"),
     "instances[0].params.target_ratio"),
])
def test_bad_specs_name_file_and_field(tmp_path, change, field):
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(InputError) as info:
        load_spec(path)
    assert info.value.file == str(path)
    assert info.value.field == field, str(info.value)
    line = str(info.value)
    assert "\n" not in line and str(path) in line


def test_malformed_toml_missing_file_and_missing_sections(tmp_path):
    path = write(tmp_path, "family = [1,\n")
    with pytest.raises(InputError, match="malformed TOML") as info:
        load_spec(path)
    assert info.value.file == str(path)
    with pytest.raises(InputError, match="cannot read"):
        load_spec(tmp_path / "absent.toml")
    with pytest.raises(InputError) as info:
        load_spec(write(tmp_path, 'family = "harness_toy_max"\n'))
    assert info.value.field == "instances"
    with pytest.raises(InputError) as info:
        load_spec(write(tmp_path, GOOD.replace('family = "harness_toy_max"', "")))
    assert info.value.field == "family"
    nothing = ('family = "harness_toy_max"\n[[instances]]\npreset = "small"\nseeds = [1]\n'
               '[offline]\nmethod = "none"\n')
    with pytest.raises(InputError, match="nothing to run"):
        load_spec(write(tmp_path, nothing))
