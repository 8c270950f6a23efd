"""Pyomo formulations, one module per paper (importable as ``mlopt.models``)."""
