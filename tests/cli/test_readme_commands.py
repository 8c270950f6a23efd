"""The README's command blocks (and its Python example) run as written.

Every ```bash block of README.md is a real sequence: its lines run in order, as written, in a
fresh temporary directory that stands in for the repository root (the repository folders a line
reads, ``benchmarks/``, ``mlopt/specs/`` and ``tests/data/``, are linked into it; everything a
line writes stays in it), with the ``mlopt`` of the current interpreter's environment first on
PATH.  A line that cannot run in a test is in ``NOT_RUN`` with the reason; nothing else is
skipped.  Every command has a timeout, and a non-zero exit fails the test with the command and
its stderr unless ``EXPECTED_EXIT`` lists it and the README's own comment on that line says so.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: seconds allowed to one command: a hang guard, not a speed test (the slowest README line
#: takes about 10 s on 2 quiet cores, and ran past 120 s once at load 11 with the suite's other
#: workers beside it)
TIMEOUT_S = 300

#: repository folders that README lines read, linked into the temporary directory
REPO_INPUTS = ("benchmarks", "mlopt", "tests")

#: lines (the command without its comment, as shlex splits it, joined by one space) that are
#: shown but never run here, with the reason
NOT_RUN = {
    "pip install -e .[dev] && mlopt quickstart":
        "installs the package (the test runs in the installed environment) and runs every "
        "family's quick spec (tests/harness covers the quickstart)",
    "python -m pytest": "the test suite itself",
    "mlopt bench run benchmarks/oasis/fig5_ratio.toml -o results/fig5 --workers 2":
        "a paper experiment: 150 instances, minutes on 2 cores (the quick spec above runs)",
    "mlopt bench run benchmarks/oasis/fig5_ratio.toml -o results/fig5 --scheduler "
    "tcp://HOST:8786": "needs a Dask scheduler at HOST",
    "mlopt instances build oasis-tiny":
        "rewrites the committed files of instances/oasis-tiny in place (the instance tests "
        "regenerate every set and compare hashes)",
    "mlopt instances solve oasis-tiny --update-solu":
        "rewrites the repository's instances/solu.csv (the line before it solves and verifies "
        "the same set)",
}

#: lines that read the shared traces (../shared/traces beside the project, or
#: $MLOPT_SHARED_TRACES): run only where the traces are available
NEEDS_TRACES = {
    "mlopt instances from-trace philly --family oasis -p n_jobs=20 -p window_start_s=2592000 "
    "-p window_s=86400 -o wt.json",
    "mlopt instances from-trace philly --family harmony -p n_jobs=60 -p window=20 -o hmt.json",
}

#: lines whose non-zero exit is documented by the README comment on that line ("exit N")
EXPECTED_EXIT = {
    "mlopt run a_online_ra ht.json": 2,
}

#: words that mark a placeholder (a line with one must be in NOT_RUN)
PLACEHOLDER = re.compile(r"(?<![\w.-])(SPEC|DIR|FILE|W|HOST|PORT|SET|NAME|S|ALG|SCHEDULE|"
                         r"KEY|VALUE|OUT)(?![\w.-])|[\[\]<>]|\.\.\.")


def readme_blocks() -> list[tuple[int, list[tuple[str, str, list[str]]]]]:
    """(line number of the block, [(command key, comment, argv)]) for every ```bash block."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for m in re.finditer(r"^```bash\n(.*?)^```", text, re.S | re.M):
        first = text.count("\n", 0, m.start()) + 2
        lines = []
        for raw in m.group(1).splitlines():
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            argv = shlex.split(raw, comments=True)
            parts = re.split(r"\s#\s", raw, maxsplit=1)
            comment = parts[1].strip() if len(parts) == 2 else ""
            lines.append((" ".join(argv), comment, argv))
        blocks.append((first, lines))
    return blocks


BLOCKS = readme_blocks()


def traces_available() -> bool:
    from mlopt.traces.paths import shared_traces_dir

    return shared_traces_dir() is not None


def repository_files() -> dict[str, tuple[int, int]]:
    """(size, mtime in ns) of every file in the repository folders a README line could write."""
    out = {}
    for folder in ("instances", "benchmarks"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file():
                st = path.stat()
                out[str(path)] = (st.st_size, st.st_mtime_ns)
    return out


def mlopt_command() -> list[str]:
    exe = Path(sys.executable).parent / ("mlopt.exe" if os.name == "nt" else "mlopt")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mlopt"]


def test_readme_has_the_blocks_this_test_knows():
    keys = [key for _, lines in BLOCKS for key, _, _ in lines]
    assert len(BLOCKS) >= 5 and len(keys) >= 50, "README's command blocks not found"
    for key in [*NOT_RUN, *NEEDS_TRACES, *EXPECTED_EXIT]:
        assert key in keys, f"listed in this test but no longer a README line: {key!r}"
    assert not set(NOT_RUN) & set(EXPECTED_EXIT)


def test_runnable_readme_lines_are_real_mlopt_commands():
    """No placeholders, no shell syntax, no usage brackets in a line that runs."""
    bad = []
    for _, lines in BLOCKS:
        for key, _, argv in lines:
            if key in NOT_RUN:
                continue
            if argv[0] != "mlopt":
                bad.append(f"{key!r}: not an mlopt command")
            if any(tok in ("&&", "||", "|", ";", ">", "<") for tok in argv):
                bad.append(f"{key!r}: shell syntax")
            if PLACEHOLDER.search(" ".join(argv[1:])):
                bad.append(f"{key!r}: a placeholder or usage syntax")
    assert not bad, "\n".join(bad)


def test_documented_exit_codes_are_in_the_readme_comment():
    comments = {key: comment for _, lines in BLOCKS for key, comment, _ in lines}
    for key, code in EXPECTED_EXIT.items():
        assert f"exit {code}" in comments[key], (key, comments[key])


def run_block(first: int, lines, workdir: Path) -> list[str]:
    """Run one README block's lines in order in ``workdir``; the failures (empty: all ran as
    documented; ``["skip: ..."]``: nothing in the block could run here)."""
    for name in REPO_INPUTS:
        (workdir / name).symlink_to(ROOT / name, target_is_directory=True)
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["MPLBACKEND"] = "Agg"
    env.pop("MLOPT_DEBUG", None)
    traces = traces_available()
    ran = 0
    for key, _, argv in lines:
        if key in NOT_RUN or (key in NEEDS_TRACES and not traces):
            continue
        cmd = mlopt_command() + argv[1:]
        t0 = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True,
                                  timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return [f"README line {key!r} (block at line {first}) did not finish in "
                    f"{TIMEOUT_S} s"]
        took = time.monotonic() - t0
        want = EXPECTED_EXIT.get(key, 0)
        if proc.returncode != want:
            return [f"README line {key!r} (block at line {first}) exited {proc.returncode}, "
                    f"expected {want}, after {took:.1f} s\n--- stderr:\n{proc.stderr[-3000:]}"
                    f"\n--- stdout:\n{proc.stdout[-1500:]}"]
        if want == 2 and not (proc.stderr.startswith("mlopt: error:")
                              and proc.stderr.strip().count("\n") == 0):
            # the bad-input contract: one line on stderr, no traceback
            return [f"README line {key!r}: not one 'mlopt: error:' line:\n{proc.stderr}"]
        ran += 1
    return [] if ran else [f"skip: nothing runnable in the block at README line {first}"]


@pytest.fixture(scope="module")
def block_runs(request, tmp_path_factory):
    """The selected README blocks, started together on two workers when the first block test
    runs (each block's lines stay in order; the blocks are independent of one another, and
    one block at a time left a core idle for two minutes of the suite): {first line: future}."""
    from concurrent.futures import ThreadPoolExecutor

    wanted = {item.callspec.params["first"] for item in request.session.items
              if getattr(item, "originalname", "") == "test_readme_block_runs_as_written"}
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="readme-block")
    futures = {first: pool.submit(run_block, first, lines,
                                  tmp_path_factory.mktemp(f"readme-line{first}"))
               for first, lines in BLOCKS if first in wanted}
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="module")
def repository_before() -> dict[str, tuple[int, int]]:
    return repository_files()


@pytest.mark.slow
@pytest.mark.parametrize("first, lines", BLOCKS, ids=[f"line{first}" for first, _ in BLOCKS])
def test_readme_block_runs_as_written(first, lines, repository_before, block_runs):
    failures = block_runs[first].result()
    if failures and failures[0].startswith("skip: "):
        pytest.skip(failures[0][6:])
    assert not failures, failures[0]
    assert repository_files() == repository_before, "a README line changed files of the repository"


@pytest.mark.slow
def test_readme_python_blocks_run(tmp_path):
    """The README's ```python examples run too (in a fresh interpreter, bounded)."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert blocks, "README's Python example not found"
    for code in blocks:
        try:
            proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                                  text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f"README Python block did not finish in {TIMEOUT_S} s:\n{code}")
        assert proc.returncode == 0, f"README Python block failed:\n{code}\n{proc.stderr[-3000:]}"
