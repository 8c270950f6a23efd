"""mlopt.alarm: the wall-clock limit of a pure-Python block holds even when the first signal's
exception is swallowed (as Python does in a finalizer the garbage collector runs)."""
from __future__ import annotations

import time

import pytest

from mlopt.alarm import alarm


class Stop(Exception):
    pass


def test_alarm_fires_again_after_a_swallowed_signal():
    t0 = time.perf_counter()
    with pytest.raises(Stop):
        with alarm(0.2, Stop):
            try:
                while time.perf_counter() - t0 < 5:
                    pass
            except BaseException:  # noqa: BLE001  (swallowed, as in a finalizer)
                pass
            while time.perf_counter() - t0 < 10:
                pass
    assert time.perf_counter() - t0 < 3


def test_alarm_quiet_after_the_block_and_nested_deadlines_kept():
    t0 = time.perf_counter()
    with pytest.raises(Stop):
        with alarm(0.5, Stop):
            with alarm(5.0, RuntimeError):  # the inner one ends first: the outer still fires
                pass
            while time.perf_counter() - t0 < 10:
                pass
    assert time.perf_counter() - t0 < 3
    with alarm(0.05, Stop):
        pass
    time.sleep(0.4)  # no signal after the block has ended



def test_an_import_is_never_stopped_halfway(tmp_path, monkeypatch):
    # the module takes 0.6 s to import and the limit is 0.1 s: the block stops at the first
    # tick after the import has finished, and the module is whole (a module stopped halfway
    # would stay broken in sys.modules for the rest of the process)
    import sys

    (tmp_path / "slow_to_import_mod.py").write_text(
        "import time\nt0 = time.perf_counter()\nwhile time.perf_counter() - t0 < 0.6:\n"
        "    pass\nCOMPLETE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    t0 = time.perf_counter()
    with pytest.raises(Stop):
        with alarm(0.1, Stop):
            import slow_to_import_mod  # noqa: F401
            while time.perf_counter() - t0 < 10:
                pass
    assert 0.6 <= time.perf_counter() - t0 < 3
    assert sys.modules["slow_to_import_mod"].COMPLETE
    del sys.modules["slow_to_import_mod"]
