"""A silent ``highspy.Highs``: the one place that makes HiGHS objects for code that drives
highspy directly (column generation, the PD-ORS oracle, warm starts, the HiGHS backend's
option checks).  HiGHS's constructor writes a banner to file descriptor 1 (once per process),
which would land in the middle of a command's output or its ``--json``; it is discarded, and
logging is off."""
from __future__ import annotations

import os
import sys


def quiet_highs():
    """A new ``highspy.Highs`` with ``output_flag`` off and no banner on stdout."""
    import highspy

    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        highs = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    highs.setOptionValue("output_flag", False)
    return highs


def run_highs(highs):
    """``highs.run()``, once more after resetting HiGHS's thread pool if the first run is
    refused: HiGHS keeps one pool per process and refuses a thread count other than its first
    run's (runs here are sequential, so a fresh pool with the caller's count is safe).  Without
    the retry a bound that needs an LP silently fell back to a weaker value."""
    import highspy

    status = highs.run()
    if status == highspy.HighsStatus.kError:
        highspy.Highs.resetGlobalScheduler(True)
        status = highs.run()
    return status
