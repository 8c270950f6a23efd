"""The baselines of seed 003, Sec. 7 (one file each), in the paper's "ideal configuration"."""
from mlopt.families.hetero.baselines.antman import run_antman
from mlopt.families.hetero.baselines.drf import run_drf
from mlopt.families.hetero.baselines.fifo import run_fifo
from mlopt.families.hetero.baselines.tiresias import run_tiresias

from mlopt.limits import MAX_HORIZON
from mlopt.params import Param

BASELINES = {"fifo": run_fifo, "drf": run_drf, "antman": run_antman, "tiresias": run_tiresias}

#: fifo draws N_j ~ U{1..max_workers}, capped at D_j (and at what fits: the loop that shrinks
#: it runs at most D_j times); the cap on max_workers is far above any D_j a workload can have
MAX_FIFO_WORKERS = 100_000

#: every option each baseline takes (Family.run checks them before the baseline runs)
OPTIONS: dict[str, dict[str, Param]] = {
    "fifo": {"max_workers": Param.int(30, low=1, high=MAX_FIFO_WORKERS,
                                      doc="N_j ~ U{1..max_workers}, capped at D_j")},
    "drf": {},
    "antman": {"patience": Param.int(5, low=0, high=MAX_HORIZON,
                                     doc="slots a guarantee job waits before it is demoted")},
    "tiresias": {},
}
