"""Run a snippet in a fresh interpreter (import-isolation tests: what one import loads)."""
from __future__ import annotations

import subprocess
import sys


def assert_runs_fresh(code: str, timeout: float = 120) -> None:
    """``code`` exits 0 in a new ``python -c`` process; its stderr tail otherwise."""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=timeout)
    assert res.returncode == 0, res.stderr[-2000:]
