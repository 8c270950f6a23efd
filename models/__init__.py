"""Pyomo formulations, one package per paper (importable as ``mlopt.models``)."""

INTEGRALITY_TOL = 1e-6  # a solved integer variable further than this from an integer is an error


def integral_value(value, name: str) -> int:
    """A solved integer variable's value as an int; an unsolved or fractional one is an error
    (extractors use it so a schedule is never read from an LP or unsolved model)."""
    if value is None:
        raise ValueError(f"{name} has no value: solve the model (and load a solution) first")
    n = round(value)
    if abs(value - n) > INTEGRALITY_TOL:
        raise ValueError(f"{name} = {value!r} is not integral within {INTEGRALITY_TOL}")
    return int(n)
