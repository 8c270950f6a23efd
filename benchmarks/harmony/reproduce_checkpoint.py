"""Train the committed policy checkpoint again from its seed and compare it array for array
(the network weights and batch-norm statistics; the metadata holds the training time and
differs). Exit status 1 when any array differs.

    python benchmarks/harmony/reproduce_checkpoint.py
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mlopt.families.harmony.agent import DEFAULT_CHECKPOINT
from mlopt.families.harmony.training import train_policy


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    args = ap.parse_args(argv)
    ref = np.load(args.checkpoint)
    cfg = json.loads(str(ref["meta"]))["config"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "again.npz"
        t0, c0 = time.perf_counter(), time.process_time()
        summary = train_policy(out, cfg)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        new = np.load(out)
        names = sorted(k for k in ref.files if k != "meta")
        differ = [k for k in names if k not in new.files or not np.array_equal(ref[k], new[k])]
    print(json.dumps({"checkpoint": Path(args.checkpoint).name, "arrays": len(names),
                      "differ": differ, "identical": not differ, "train_wall_s": round(wall, 1),
                      "train_cpu_s": round(cpu, 1), "summary": summary}))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
