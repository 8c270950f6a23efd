"""The baselines of seed 003, Sec. 7 (one file each), in the paper's "ideal configuration"."""
from mlopt.families.hetero.baselines.antman import run_antman
from mlopt.families.hetero.baselines.drf import run_drf
from mlopt.families.hetero.baselines.fifo import run_fifo
from mlopt.families.hetero.baselines.tiresias import run_tiresias

BASELINES = {"fifo": run_fifo, "drf": run_drf, "antman": run_antman, "tiresias": run_tiresias}
