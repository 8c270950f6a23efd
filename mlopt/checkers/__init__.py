"""Independent schedule checkers, one module per family."""
from .base import CheckResult, Violation

__all__ = ["CheckResult", "Violation"]
