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


def test_library_code_is_never_stopped_between_a_lock_and_its_release(tmp_path, monkeypatch):
    # a stand-in library whose function holds a lock for most of its run, acquire and release
    # without try/finally (as in the Pyomo code whose lock leaked when a signal's exception
    # landed inside: every later solve then waited for it); the block calls it in a loop, so
    # nearly every tick arrives inside the library, and the block must stop in its own code
    import sys

    from mlopt import alarm as alarm_module

    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "locky_lib.py").write_text(
        "import threading\nLOCK = threading.Lock()\n\ndef hold():\n    LOCK.acquire()\n"
        "    x = 0\n    for i in range(200000):\n        x += i\n    LOCK.release()\n")
    monkeypatch.syspath_prepend(str(lib))
    monkeypatch.setattr(alarm_module, "_LIBRARY", alarm_module._LIBRARY + (f"{lib}/",))
    alarm_module._own_file.cache_clear()
    import locky_lib

    t0 = time.perf_counter()
    try:
        with pytest.raises(Stop):
            with alarm(0.05, Stop):
                while time.perf_counter() - t0 < 10:
                    locky_lib.hold()
        assert time.perf_counter() - t0 < 3
        assert not locky_lib.LOCK.locked()
    finally:
        del sys.modules["locky_lib"]
        alarm_module._own_file.cache_clear()
