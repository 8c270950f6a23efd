"""Pyomo formulations, one module per paper (importable as ``mlopt.models``)."""

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


# The formulations read their family's fields and each family registers its formulations, so
# the two import each other.  Loading the families here (after the helpers above, which the
# families use) makes ``import mlopt.models.<paper>`` work first thing in a fresh interpreter:
# the family then imports its formulation module while this package is initializing.
import mlopt.families._load_all  # noqa: E402,F401  (import order, see above)
