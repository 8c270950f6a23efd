"""Independent schedule checkers, one module per family."""
from ..check import CheckResult, Violation

__all__ = ["CheckResult", "Violation"]
