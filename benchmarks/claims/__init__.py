"""Registries of the write-ups' claims, one module per family (see ``benchmarks/verify_claims.py``)."""
FAMILIES = ("hetero", "pdors", "edgecloud", "harmony")
