"""``colgen_lb`` before and after its usable-capacity and clique rows, in one run, on one
instance.

    python benchmarks/hetero/usable_rows.py --instance hetero-open-1 --time-limit 240 \
        --priced -o benchmarks/hetero/data/usable_open1.json

Column generation (bound only, ``primal=False``) with the same budget per variant:
``without`` (``usable_rows`` off, ``cliques=0``: the bound as it was), ``usable`` (usable rows
only), ``with`` (the defaults: usable and clique rows), and with ``--priced`` also ``priced``
(the defaults plus ``priced_packing``); ``--variants without,with`` runs a subset.  Also
recorded: the pooled and the usable capacity per resource, and ``uptime``'s load average
before, between and after (the machine may be shared).  The instance comes from its set (``instances/<set>/``: the committed file or the manifest's
generator call, hash-checked).
"""
from __future__ import annotations

import argparse
import json
import os
import time

from mlopt.families.hetero.colgen import colgen_lb
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.usable import usable_capacity
from mlopt.instances import load_instance

KEYS = ("bound", "lp", "iterations", "converged", "lp_status", "columns", "slots", "seconds",
        "priced_packing")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", required=True)
    ap.add_argument("--time-limit", type=float, default=240.0)
    ap.add_argument("--priced", action="store_true", help="also the priced-packing variant")
    ap.add_argument("--variants", help="comma-separated subset of without,usable,with,priced")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    w = load_instance(a.instance)
    data = hetero_data(w)
    usable = usable_capacity(data)
    out = {"instance": a.instance, "time_limit_s": a.time_limit,
           "resources": list(data.resources),
           "pooled_capacity": data.cap.sum(axis=0).tolist(),
           "usable_capacity": usable.sum(axis=0).tolist(),
           "load": {"before": list(os.getloadavg())}}
    variants = {"without": {"usable_rows": False, "cliques": 0},
                "usable": {"cliques": 0}, "with": {}}
    if a.priced:
        variants["priced"] = {"priced_packing": True}
    if a.variants:
        variants = {k: v for k, v in variants.items() if k in a.variants.split(",")}
    for label, opts in variants.items():
        t0 = time.perf_counter()
        r = colgen_lb(w, time_limit=a.time_limit, primal=False, **opts)
        out[label] = {k: (None if isinstance(r[k], float) and r[k] != r[k] else r[k])
                      for k in KEYS}  # NaN (not evaluated) as null
        out[label]["wall_s"] = round(time.perf_counter() - t0, 1)
        out["load"][f"after_{label}"] = list(os.getloadavg())
    out["gain"] = out["with"]["bound"] / out["without"]["bound"]
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps({k: out[k] for k in ("instance", "gain")}),
          out["without"]["bound"], out["with"]["bound"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
