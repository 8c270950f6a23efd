"""Shared by the edge-cloud formulations: identical edge workers grouped by (server, type)."""
from __future__ import annotations

from collections import defaultdict

from mlopt.families.edgecloud.fields import EdgeCloud


def _groups(ec: EdgeCloud) -> dict[tuple[str, str], int]:
    """(server, type) -> number of identical edge workers."""
    g: dict[tuple[str, str], int] = defaultdict(int)
    for w in ec.workers:
        g[(w.server, w.type)] += 1
    return dict(g)
