"""Edge-cloud total-JCT formulations of seed 001 (Wang et al., JSAC 2022), Sec. III.

``build_jct_milp(workload, pin_chunks=True)`` - the exact total-JCT problem (2) as a MILP.
``build_flow_lb(workload, zeta_one=False)`` - the fractional-flow-time ILP (4), a lower bound.
``extract_schedule(model, workload)`` - the pinned MILP's solution as a schedule table.

Notation: jobs j (arrival r_j, D_j chunks), edge workers w (server s(w), type), p0_j / p1_j
whole slots per chunk at mode zeta_j = 0 / 1 (:mod:`mlopt.families.edgecloud.fields`),
Delta_js upload delays, H_j = r_j + Delta_jc + p1_j - 1 (the whole job in the cloud).

Storage extension (7)/(8): when the workload has ``storage_gb`` on edge servers, the pinned
model adds it (``c7b_storage``, see :func:`models.edgecloud.jct_milp._storage`); the unpinned
relaxation and the flow bounds leave it out (dropping constraints keeps them relaxations).

Exactness of ``jct_milp`` (pinned, the default):

* PS variables z are dropped: the cloud has unlimited PSs of every type, a cloud PS satisfies
  (2e)/(2f) and only an *edge* PS forces zeta_j = 0, so some optimum has every PS in the cloud.
* Chunks of one job are interchangeable.  On one worker, n_jw chunks of job j need p0_j n_jw
  worker-slots; any p0_j n_jw slots of that worker split into n_jw chunks of p0_j slots each
  (the first p0_j slots, the next p0_j...), all pinned to w.  So integer n_jw + binary
  y_jw(t) with sum_t y_jw(t) = p0_j n_jw is exactly "every chunk on one worker, never migrated".
* The cloud has unlimited workers and never preempts: a cloud chunk trains from r_j + Delta_jc
  for p0_j (zeta_j = 0) or p1_j (zeta_j = 1) consecutive slots, so only the count k_j of cloud
  chunks matters; u_j = [k_j >= 1].  (2g)/(2h) with the nonlinear rate become
  n_jw <= D_j (1 - zeta_j) and c_j >= L0_j u_j - (L0_j - L1_j) zeta_j, L_i the cloud finish
  at mode i.  zeta_j = 1 never hurts, so the minimization sets it whenever allowed.
* (2j) c_j = last active slot: c_j >= t y_jw(t); minimization makes it tight.
* Horizon: an optimal schedule finishes job j by H_j (running j entirely in the cloud finishes
  at H_j and frees edge capacity for everyone else), so y_jw(t) exists for
  t in [r_j + Delta_j,s(w), H_j] only and c_j <= H_j: no optimum is cut off.

DECISION (which model is the offline optimum).  The online problem never migrates a chunk's
data and the checker enforces it, so ``pin_chunks=True`` (above) is the offline optimum the
online algorithm is compared against.  ``pin_chunks=False`` is the literal (2): per (server,
type) integer worker counts Y_jg(t), a job's chunks may hop between workers of a group and
across groups.  Every pinned solution maps to it (Y_jg(t) = sum_{w in g} y_jw(t)), so it is a
relaxation (tested); its optimum is a lower bound, its solution has no chunk identity and is not
extracted.

``flow_lb`` (ILP (4) with whole-slot processing): a chunk's fractional flow time
f_jd = sum_t x_jd(t) (t - r_j) / (D_j p_j) with p_j the slots of the mode it runs in.  In any
feasible schedule a chunk's p_j slots all lie at or before c_jd, so f_jd <= (c_jd - r_j) / D_j
and sum_d f_jd <= c_j - r_j (Lemma 1; with fractional p the Lemma fails for over-processed whole
slots, hence p_j = ceil).  Aggregated over a (server, type) group with identical workers, with
the per-slot chunk cap (4e), capacity (4b) and coverage (4a) as sum x / p >= D_j.  zeta_j is
kept (cloud at p1 only when the whole job is there), or with ``zeta_one=True`` set to 1 for every
job: every worker, edge or cloud, at rate n1 (p1 slots a chunk) and no mode coupling - the
paper's bound for Fig. 12-13, a relaxation of (4).
Its optimum, or the solver's dual bound when stopped early, is a certified lower bound on OPT;
it is never a schedule.
"""
from mlopt.models.edgecloud.flow_lb import build_flow_lb, build_flow_lb_zeta1  # noqa: F401
from mlopt.models.edgecloud.jct_milp import build_jct_milp, extract_schedule  # noqa: F401
