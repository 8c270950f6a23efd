"""``mlopt families``: the one place to discover every registered name (families, their
formulations, algorithms, generator presets and bounds)."""
from __future__ import annotations

import json

from mlopt.cli import command


#: the bound every family has (``mlopt bound --bound lp_relaxation``, spec ``bounds``)
LP = "lp_relaxation"


@command("families", "list every family with its paper, sense, models, algorithms, presets and "
         "bounds")
def _families_args(p):
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(handler=_families)


def _families(args) -> int:
    from mlopt.families.base import all_families

    described = {name: fam.describe() for name, fam in all_families().items()}
    for d in described.values():  # every family has the LP relaxation of its exact model
        d["bounds"] = list(d["bounds"]) + [LP]
    if args.json:
        print(json.dumps({"families": described}))
        return 0
    for d in described.values():
        print(f"{d['name']}  ({d['sense']}imize)  {d['paper']}")
        print(f"  models:     {', '.join(d['models'])}  (default {d['default_model']})")
        needs = d.get("algorithm_presets", {})  # algorithms for another kind of workload
        print("  algorithms: " + ", ".join(
            f"{a} (workloads like preset {needs[a]})" if a in needs else a
            for a in d["algorithms"]))
        print(f"  presets:    {', '.join(d['presets'])}")
        print(f"  bounds:     {', '.join(d['bounds'])}")
    return 0
