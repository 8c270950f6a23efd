"""Harmony (seed 002, Bao, Peng, Wu; INFOCOM'19): interference-aware placement of PS jobs.

The registration only: the workload fields (:mod:`.fields`), the ground-truth speed model
(:mod:`.speed`, parameters in ``speed_model.toml``), generator presets and their parameters
(:mod:`.generator`), the placement simulator (:mod:`.state`), the independent checker
(:mod:`.checker`), the DRL policy (:mod:`.agent`; its training: :mod:`.training`), the paper's
baselines (:mod:`.baselines`) and the placement MILPs (:mod:`mlopt.models.harmony`).
"""
from __future__ import annotations

from mlopt import limits
from mlopt.families.base import Algorithm, Bound, Family, Formulation
from mlopt.params import Param

P = "mlopt.families.harmony"

#: milp_greedy: at most this many queued jobs per interval enter the per-interval MILP (far
#: above the DRL's N' = 5; its size grows with it, a larger cap only slows HiGHS down)
MAX_NEW = 1_000
#: LIF profiling scenarios per model type (300 by default: ~0.04 s; 10,000: ~1.5 s)
MAX_PROFILE = 10_000

ALGORITHMS = ("harmony", "milp_greedy", "lb", "tetris", "lif_line", "lif_quad", "local_search",
              "lns")
LIF_OPTIONS = {"n_profile": Param.int(300, low=10, high=MAX_PROFILE,
                                      doc="profiling scenarios per model type for the fit")}

FAMILY = Family(
    name="harmony",
    paper="seeds/002 Harmony (Bao, Peng, Wu; INFOCOM'19)",
    sense="min",
    package=P,  # checker.py, fields.py, generator.py by convention
    formulations=[
        Formulation.exact(
            "placement_milp", "mlopt.models.harmony.placement",
            estimate="mlopt.models.harmony.estimate:estimate_placement_milp", options={
                "symmetry": Param.bool(True, doc="order identical servers by their first job "
                                       "(c_sym_servers)"),
                "run_rows": Param.bool(True, doc="each job runs at least its standalone "
                                       "intervals, in one block (c_run_total, c_run_length)"),
                "tight_bigm": Param.bool(True, doc="slowdown big-M's from what one server "
                                         "can hold (server_load_cap), not every other task"),
                "upper": Param.float(None, low=0.0, nullable=True,
                                     doc="the average JCT of a checked schedule: time windows "
                                         "(latest start / run) for every job"),
                "share_row": Param.bool(False, doc="the sum of JCTs at least the share "
                                        "bound's (c_share_cut; runs the bound)"),
                "rc_fix": Param.bool(False, doc="with upper: fix the starts and running "
                                     "intervals share's reduced costs exclude below upper "
                                     "(.share_fixing)"),
                "rc_runs": Param.bool(False, doc="with upper: one run (start, length) per "
                                      "job among share's, their reduced costs within the "
                                      "slack (.share_fixing)")}),
        # milp_greedy's per-interval model, for export (it has no full schedule)
        Formulation("interval_milp", "mlopt.models.harmony.interval:build_interval_milp_at",
                    role="export", options={
                        "interval": Param.int(None, low=1, high=limits.MAX_HORIZON,
                                              nullable=True,
                                              doc="the interval (default: the first arrival)"),
                        "replay": Param.choice("milp_greedy", ALGORITHMS,
                                               doc="the algorithm that placed the jobs before"),
                        "max_new": Param.int(5, low=1, high=MAX_NEW,
                                             doc="queued jobs (FIFO) in the MILP")}),
    ],
    default_model="placement_milp",
    algorithms_=[
        Algorithm("harmony", f"{P}.agent:run_harmony", options={
            "policy": Param.path(None, doc="a policy checkpoint (.npz, mlopt train harmony "
                                 "--target policy); default: the committed harmony_mini.npz")}),
        Algorithm("milp_greedy", f"{P}.milp_greedy:run_milp_greedy", role="reference",
                  options={
                      "max_new": Param.int(5, low=1, high=MAX_NEW,
                                           doc="queued jobs (FIFO) per interval in the MILP"),
                      "time_limit": Param.float(10.0, low=0.0, low_open=True, high=86_400.0,
                                                doc="HiGHS seconds per interval")}),
        # offline hill climbing on a start schedule, never worse than it (.local_search)
        Algorithm("local_search", f"{P}.local_search:run_local_search", role="reference",
                  budget_option="time_limit", start_option="start_schedule", options={
                      "start": Param.choice("insertion", ALGORITHMS[:-2] + ("insertion",),
                                            doc="the algorithm whose schedule is improved, or "
                                                "insertion (the search's own greedy start)"),
                      "time_limit": Param.float(30.0, low=0.0, low_open=True, high=86_400.0,
                                                doc="seconds of search (after the start), a cap"),
                      "rounds": Param.int(20, low=0, high=1_000_000,
                                          doc="stop after this many perturbation rounds in a "
                                              "row without improvement"),
                      "kick": Param.int(3, low=0, high=1_000,
                                        doc="jobs moved (perturb=kick) or ruined and "
                                            "re-inserted (perturb=ruin) per perturbation (0: "
                                            "one climb only)"),
                      "perturb": Param.choice("ruin", ("kick", "ruin"),
                                              doc="kick: move `kick` random jobs at random; "
                                                  "ruin: take `kick` related jobs out and "
                                                  "re-insert each at its best (.ruin)"),
                      "accept": Param.float(0.0, low=0.0, high=1.0,
                                            doc="perturb next from a result within this "
                                                "fraction of the best total (0: only "
                                                "from improvements)")}),
        # fix-and-resolve LNS over placement_milp's rows around a checked schedule (.lns)
        Algorithm("lns", f"{P}.lns:run_lns", role="reference", budget_option="time_limit",
                  start_option="start_schedule", options={
                      "start": Param.choice("local_search", ALGORITHMS[:-1],
                                            doc="the algorithm whose schedule is improved "
                                                "(local_search: a fifth of the budget)"),
                      "time_limit": Param.float(60.0, low=0.0, low_open=True, high=86_400.0,
                                                doc="seconds of search, the start's included"),
                      "window": Param.int(4, low=1, high=1_000,
                                          doc="jobs freed per window at first (adapts)"),
                      "window_time": Param.float(10.0, low=0.0, low_open=True,
                                                 high=86_400.0,
                                                 doc="HiGHS seconds per window MILP")}),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline", options={})
          for name in ("lb", "tetris")),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline",
                    options=LIF_OPTIONS) for name in ("lif_line", "lif_quad")),
    ],
    # a theorem bound (no solver): each job alone at its fastest from its arrival (.bounds)
    bounds_=[Bound("standalone", f"{P}.bounds:standalone_bound",
                   doc="average over jobs of the intervals each needs alone at its fastest"),
             # a theorem too: exact Lagrangian dual of the pooled-capacity LP (.volume_bound)
             Bound("volume", f"{P}.volume_bound:volume_bound",
                   doc="standalone intervals plus the waiting pooled capacity forces"),
             # a theorem too: the exclusive / shared-with-PS / shared-with-worker configuration
             # LP's Lagrangian, exact rationals (.share_bound)
             Bound("share", f"{P}.share_bound:share_bound",
                   doc="runs priced by mode: whole servers alone, or shared at the mildest "
                       "co-runner's slowdown"),
             # a theorem too: share's LP with shared modes split by the busiest server's
             # foreign-task count and a row charging shared servers' density (.crowd_bound)
             # DECISION: not a default source of bracket: equal to share (which it returns
             # at least) at uniform seeds 0-2 and on the 10-job instances, to 9 digits
             # (benchmarks/harmony/data/crowd_vs_share.jsonl), so its share of the budget would
             # only be taken from local_search and share; mlopt bound / bracket --bound run it
             Bound("crowd", f"{P}.crowd_bound:crowd_bound", bracket=False,
                   doc="share's runs with shared modes by crowding (foreign tasks on the "
                       "busiest server) and an attributed-servers row per interval"),
             # theorems too: share's LP with partner-type modes and rows requiring a shared
             # partner of that type (.pair_bound); per-server configurations with every job
             # slowed by its real co-runners, for instances whose configurations can be listed
             # (.config_bound).  DECISION: not default sources of bracket: both equal share at
             # uniform seeds 0-2 and on the 10-job instances (pair) / the 10-job ones
             # (config; it refuses at uniform), benchmarks/harmony/data/pair_vs_share.jsonl
             Bound("pair", f"{P}.pair_bound:pair_bound", bracket=False,
                   doc="share's runs with each shared mode naming a partner type that must "
                       "itself be shared then"),
             Bound("config", f"{P}.config_bound:config_bound", bracket=False,
                   doc="per-server configurations (every job slowed by its real co-runners) "
                       "against runs by slowdown level; small instances only"),
             # a MILP's dual bound (one solver's word): share's relaxation in integers, runs
             # within share's reduced-cost slack of a checked schedule (.share_ip).  It lifts
             # share at uniform seeds 0-1 (+1 and +2 JCT units) only from a good schedule's U
             # (start_schedule: benchmarks/harmony/data/share_ip_vs_share.jsonl); with its own
             # 22 s local_search U it stayed below share (150 s).  So a default source of
             # bracket as a late bound (start_option: it starts after LATE_AT of the budget
             # with the best schedule by then; mlopt.bracket, DECISION on late bounds).  A
             # lift above share is then asked of SCIP in the time left (``confirm``: the
             # source's verified_by names it; harmony-open-0: SCIP agrees on 190/65)
             Bound("share_ip", f"{P}.share_ip:share_ip_bound", solver=True,
                   start_option="start_schedule",
                   doc="share's runs and modes as a MILP with a partner per shared job and "
                       "pairwise / spreading losses")],
    trainers_={"policy": f"{P}.training:train_policy",
               "reward_model": f"{P}.reward_model:train_reward_model"},
    from_trace_=f"{P}.from_trace:harmony_from_trace",
)
