"""Shared by the edge-cloud formulations: identical edge workers grouped by (server, type)."""
from __future__ import annotations

from collections import defaultdict

from mlopt.errors import InputError
from mlopt.families.edgecloud.fields import EdgeCloud

#: (job, worker or worker group, slot) cells of one time-indexed model, the size of its largest
#: variable family.  DECISION: far beyond what a MILP solver proves here (the Fig. 12-13 shapes
#: have < 6,000 cells; offline_reach's 250-job, 45-server flow bound 38,000) and low enough
#: that building takes seconds, not minutes (paper-sim's 300 jobs would need ~10^6); a larger
#: model is refused with InputError before anything is built.
MAX_MODEL_CELLS = 200_000


def _groups(ec: EdgeCloud) -> dict[tuple[str, str], int]:
    """(server, type) -> number of identical edge workers."""
    g: dict[tuple[str, str], int] = defaultdict(int)
    for w in ec.workers:
        g[(w.server, w.type)] += 1
    return dict(g)


def check_model_size(ec: EdgeCloud, units: dict, unit_of: dict, server_of: dict,
                     name: str) -> None:
    """Count the (job, unit, slot) cells of ``name`` without listing them; refuse above
    MAX_MODEL_CELLS.  ``unit_of[j]``: the units job j may use; ``server_of[u]``: a unit's
    server.  Slots run from the data's arrival r_j + Delta_js through H_j."""
    cells = 0
    for jv in ec.jobs:
        h = ec.horizon_bound(jv)
        for u in unit_of[jv.index]:
            cells += max(0, h - ec.start(jv, server_of[u]) + 1)
        if cells > MAX_MODEL_CELLS:
            raise InputError(f"the {name} model would have more than {MAX_MODEL_CELLS:,} "
                             "(job, worker, slot) cells (models.edgecloud.common."
                             "MAX_MODEL_CELLS): use the online algorithms and the bounds",
                             field="jobs", value=len(ec.jobs))
