"""The paper's baselines (seed 001, Sec. V-A), one file each; A_online-E lives with A_online
(:func:`mlopt.families.edgecloud.online.run_a_online_e`).  SRTF and Tiresias-L come in three
readings each (:mod:`._gang`): the original (trace width, edge only), ``_gang`` and ``_cloud``."""
from mlopt.families.edgecloud.baselines.batchsche import run_batchsche
from mlopt.families.edgecloud.baselines.srtf import run_srtf, run_srtf_cloud, run_srtf_gang
from mlopt.families.edgecloud.baselines.tiresias import (run_tiresias_l, run_tiresias_l_cloud,
                                                         run_tiresias_l_gang)

BASELINES = {"srtf": run_srtf, "srtf_gang": run_srtf_gang, "srtf_cloud": run_srtf_cloud,
             "tiresias_l": run_tiresias_l, "tiresias_l_gang": run_tiresias_l_gang,
             "tiresias_l_cloud": run_tiresias_l_cloud, "batchsche": run_batchsche}
