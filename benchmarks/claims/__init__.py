"""Registries of the write-ups' claims (see ``benchmarks/verify_claims.py``): one module per
family write-up (`benchmarks/<family>/README.md`) and ``summary`` for the top-level README."""
MODULES = ("hetero", "pdors", "edgecloud", "harmony", "oasis", "bracket", "summary")
