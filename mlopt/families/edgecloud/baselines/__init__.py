"""The paper's baselines (seed 001, Sec. V-A), one file each; A_online-E lives with A_online
(:func:`mlopt.families.edgecloud.online.run_a_online_e`)."""
from mlopt.families.edgecloud.baselines.batchsche import run_batchsche
from mlopt.families.edgecloud.baselines.srtf import run_srtf
from mlopt.families.edgecloud.baselines.tiresias import run_tiresias_l

BASELINES = {"srtf": run_srtf, "tiresias_l": run_tiresias_l, "batchsche": run_batchsche}
