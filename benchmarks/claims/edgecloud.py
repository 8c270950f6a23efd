"""Edge-cloud (seed 001) write-up claims: `benchmarks/edgecloud/README.md` against
`benchmarks/edgecloud/data/` (sim.csv: Fig. 7-11 runs; fig12/13 ratios.csv: Fig. 12-13)."""
from __future__ import annotations

import json
from functools import cache

import pandas as pd

from .core import ROOT, solu, Sentence, Table, f2

README = "benchmarks/edgecloud/README.md"
DATA = ROOT / "benchmarks" / "edgecloud" / "data"
RUN = ["sweep", "n_jobs", "n_edge", "seed"]
POINT = ["sweep", "n_jobs", "n_edge"]
GANG = {"srtf", "tiresias_l"}  # job-level preemptions (README: Setup)
EPS = ["a_online-eps0", "a_online-eps0.2", "a_online-eps0.5"]


@cache
def _sim() -> pd.DataFrame:
    df = pd.read_csv(DATA / "sim.csv")
    assert df["feasible"].all()
    srtf = df[df["algorithm"] == "srtf"].set_index(RUN)["total_jct"]
    df["jct_rate"] = [t / srtf[k] for t, k in zip(df["total_jct"], df[RUN].itertuples(index=False))]
    df["preemptions"] = [r.job_preemptions if r.algorithm in GANG else r.chunk_preemptions
                         for r in df.itertuples()]
    return df


def _point_mean(value: str) -> pd.DataFrame:
    return _sim().pivot_table(index=POINT, columns="algorithm", values=value, aggfunc="mean")


def rate_rows(sweep: str, x: str):
    t = _point_mean("jct_rate").loc[sweep]
    return [[str(i[0 if x == "n_jobs" else 1])] + [float(r[a]) for a in
            ("a_online", "a_online_e", "batchsche", "tiresias_l")] for i, r in t.iterrows()]


def _per_run(value: str) -> pd.DataFrame:
    return _sim().pivot_table(index=RUN, columns="algorithm", values=value)


def gains():
    p = _per_run("total_jct")
    both = pd.concat([1 - p["a_online"] / p["srtf"], 1 - p["a_online"] / p["tiresias_l"]])
    rng = lambda s: f"{100 * s.min():.0f}-{100 * s.max():.0f}%"  # noqa: E731
    return [rng(both), f"{100 * both.median():.0f}%", rng(1 - p["a_online"] / p["a_online_e"]),
            rng(1 - p["a_online"] / p["batchsche"])]


def _sig2(x: float) -> str:
    return f"{float(f'{x:.2g}'):.0f}"


def makespans():
    m = _point_mean("makespan")
    base = pd.concat([m["srtf"], m["tiresias_l"]])
    cloud = _sim()[_sim()["algorithm"] == "a_online"].groupby(POINT)
    share = cloud["cloud_jobs"].mean() / cloud["n_jobs"].first()
    return [_sig2(base.min()), _sig2(base.max()), _sig2(m["a_online"].min()),
            _sig2(m["a_online"].max()), f"{100 * share.min():.0f}-{100 * share.max():.0f}%"]


def preemptions():
    t = _point_mean("preemptions")
    j, s = t.loc["jobs"], t.loc["servers"]
    arrow = lambda a, d=j: f"{d[a].iloc[0]:.0f} -> {d[a].iloc[-1]:.0f}"  # noqa: E731
    return [arrow("a_online"), arrow("a_online_e"), arrow("srtf"), arrow("tiresias_l"),
            arrow("a_online", s)]


def makespan_rate():
    p = _per_run("makespan").loc["jobs"]
    q = pd.concat([p["a_online"] / p["srtf"], p["a_online"] / p["tiresias_l"]])
    return [f"{q.min():.2f}", f"{q.max():.2f}", f"{q.mean():.2f}"]


@cache
def _ratios() -> pd.DataFrame:
    d = pd.concat([pd.read_csv(DATA / f / "ratios.csv")
                   for f in ("fig12_ratio_jobs", "fig13_ratio_servers")])
    return d.drop_duplicates(["instance", "algorithm"]).reset_index(drop=True)


def _cell(d: pd.DataFrame, col: str) -> str:
    parts = []
    for a in EPS:
        r = d[d["algorithm"] == a]
        if col == "opt":
            lo, hi = r["ratio_opt_low"].mean(), r["ratio_opt_high"].mean()
            parts.append(f2(lo) if f2(lo) == f2(hi) else f"{f2(lo)}-{f2(hi)}")
        else:
            parts.append(f2(r[col].mean()))
    return " / ".join(parts)


def ratio_rows(fixed: str, fixed_value: int, x: str):
    d = _ratios()
    d = d[d[fixed] == fixed_value]
    return [[str(v), "0 / 0.2 / 0.5", _cell(g, "opt"), _cell(g, "ratio_flow_lb"),
             _cell(g, "ratio_zeta1")] for v, g in d.groupby(x)]


def proven():
    e = _ratios()
    e = e[e["algorithm"] == "a_online-eps0"]
    p = e[e["opt_status"] == "optimal"]
    q = p["ratio_opt_low"]
    worst = p.loc[q.idxmax()]
    return [f"{100 * (q.min() - 1):.0f}-{100 * (q.max() - 1):.0f}%", str(len(p)), str(len(e)),
            f"{worst['alg_jct']:.0f} / {worst['opt']:.0f} = {q.max():.3f}",
            str(int(worst["n_jobs"])), str(int(worst["seed"])), f2(e["ratio_opt_high"].max())]


RATE_HEAD = "| A_online | A_online-E | BatchSche | Tiresias-L |"
RATIO_TAIL = "| eps | vs OPT | vs ILP (4) | vs zeta=1 |"

CLAIMS = [
    Table(README, "| jobs (30 servers) " + RATE_HEAD, lambda: rate_rows("jobs", "n_jobs"),
          what="Fig. 7"),
    Table(README, "| edge servers (100 jobs) " + RATE_HEAD, lambda: rate_rows("servers", "n_edge"),
          what="Fig. 8"),
    Table(README, "| jobs (5 servers) " + RATIO_TAIL, lambda: ratio_rows("n_edge", 5, "n_jobs"),
          what="Fig. 12"),
    Table(README, "| servers (10 jobs) " + RATIO_TAIL, lambda: ratio_rows("n_jobs", 10, "n_edge"),
          what="Fig. 13"),
    Sentence(README, "A_online's total JCT is {} below SRTF's and Tiresias-L's per run (median "
             "{}), {} below A_online-E's and {} below BatchSche's", gains, what="JCT gains"),
    Sentence(README, "(makespans of {}-{} slots vs A_online's {}-{}, means per point) while "
             "A_online spreads chunks over every eligible worker and offloads {} of the jobs",
             makespans, what="makespans, cloud share"),
    Sentence(README, "Mean preemptions (jobs sweep 50 -> 200): A_online {}, A_online-E {}, SRTF "
             "(job-level) {}, Tiresias-L (job-level) {}, BatchSche 0", lambda: preemptions()[:4],
             what="Fig. 9 preemptions"),
    Sentence(README, "With more servers A_online's preemptions rise ({} from 10 to 60 servers)",
             lambda: preemptions()[4:], what="Fig. 10 preemptions"),
    Sentence(README, "over Tiresias-L's: {}-{} (mean {}) on the jobs sweep", makespan_rate,
             what="Fig. 11 makespan rate"),
    Sentence(README, "A_online at speed 1 is {} above OPT on each of the {} of {} instances where "
             "OPT is proven (worst {}: {} jobs, seed {}); where it is not, its ratio to the best "
             "lower bound reaches {}", proven, what="Fig. 12-13 vs proven OPT"),
]


# --- performance JSONs and Fig. 11's utilisation ---------------------------------------------

def _json(name: str):
    import json
    return json.loads((DATA / name).read_text())


def _span(xs, fmt) -> str:
    return f"{fmt(min(xs))}-{fmt(max(xs))}"


def online_speed():
    d = _json("online_speed.json")
    full = d["full"]
    return [_span([r["whole_run_s"] for r in full], lambda x: f"{x:.1f}"),
            _span([r["decision_median_ms"] for r in full], lambda x: f"{x:.2f}"),
            _span([r["decision_p95_ms"] for r in full], lambda x: f"{x:.1f}"),
            _span([r["greedy_total_s"] for r in full], lambda x: f"{x:.1f}")]


def side_by_side():
    s = {r["jobs"]: r for r in _json("online_speed.json")["side_by_side"]}
    return [f"{s[50]['speedup']:.0f}", f"{s[100]['speedup']:.0f}", f"{s[300]['speedup']:.0f}",
            f"{s[300]['fast_greedy_s']:.2f}", f"{s[300]['reference_greedy_s']:.2f}"]


def reach():
    e = _json("offline_reach.json")["exact"]
    assert all(r["status"] == "optimal" for r in e)
    return [" / ".join(str(r["jobs"]) for r in e),
            " / ".join(f"{r['solve_s']:.1f}" if r["solve_s"] < 1 else f"{r['solve_s']:.0f}"
                       for r in e)]


def reach_600():
    e = _json("offline_reach_600.json")["exact"]
    proven = [r for r in e if r["status"] == "optimal"]
    [open_] = [r for r in e if r["status"] != "optimal"]
    return [" / ".join(str(r["jobs"]) for r in proven),
            " / ".join(f"{r['solve_s']:.0f}" for r in proven), str(open_["jobs"]),
            f"{open_['objective']:.0f}", f"{open_['bound']:.0f}", f"{100 * open_['gap']:.1f}%"]


def bound_times():
    b = {(r["jobs"], r["model"]): r for r in _json("offline_reach.json")["bounds"]}
    assert all(r["status"] == "optimal" for r in b.values())
    t = lambda k: f"{b[k]['build_s']:.1f} + {b[k]['solve_s']:.1f} s"  # noqa: E731
    first = b[(25, "flow_lb")]
    return [f"{first['build_s']:.1f} s build + {first['solve_s']:.1f} s solve",
            t((25, "flow_lb_zeta1")).removesuffix(" s"), t((250, "flow_lb")),
            t((250, "flow_lb_zeta1"))]


def utilisation():
    u = {k: json_list(v) for k, v in _json("utilisation.json").items()}
    return [f"{100 * max(u['a_online']):.0f}%",
            f"{round(len(u['srtf']), -2):.0f}"]


def utilisation_end():
    """A_online's last slot with a busy edge worker, and its last slot with any worker (the
    series runs from slot 1 to the schedule's last slot, `metrics.utilisation`)."""
    u = json_list(_json("utilisation.json")["a_online"])
    last = max(i for i, x in enumerate(u) if x > 0) + 1
    return [str(last), str(len(u))]


def json_list(v):
    import json
    return json.loads(v) if isinstance(v, str) else v


CLAIMS += [
    Sentence(README, "whole run (A_greedy + A_ps + the schedule table) {} s (target: under 10 s); "
             "A_greedy's decision per arriving job median {} ms, p95 {} ms, {} s for all 300 "
             "jobs", online_speed, what="A_online speed"),
    Sentence(README, "{}x faster at 50 jobs, {}x at 100, {}x at 300 ({} s vs {} s)",
             side_by_side, what="fast vs plain A_greedy"),
    Sentence(README, "proven at {} jobs in {} s", reach, what="exact reach, 300 s"),
    Sentence(README, "{} jobs proven in {} s; {} jobs not proven in 600 s (incumbent {}, bound "
             "{}, gap {})", reach_600, what="exact reach, 600 s"),
    Sentence(README, "flow_lb {}, flow_lb_zeta1 {} s (target: <= 60 s).  At 10x the jobs (250 "
             "jobs, 45 servers): flow_lb {}, flow_lb_zeta1 {},", bound_times,
             what="bound times"),
    Sentence(README, "A_online's edge utilisation reaches {} at its peak", lambda: utilisation()[:1],
             what="Fig. 11 peak"),
    Sentence(README, "peak near 80% and then decay over {} slots", lambda: utilisation()[1:],
             what="Fig. 11 baselines' decay"),
    Sentence(README, "drops to 0 after slot {} (its cloud workers run until slot {})",
             utilisation_end, what="Fig. 11 A_online's end"),
    Sentence(README, "each: {} of the {} distinct instances proven", lambda: proven()[1:3],
             what="Fig. 12-13 proven count"),
]


def paper_bound_ratios():
    g = _ratios().groupby(["n_jobs", "n_edge", "algorithm"])[["ratio_flow_lb", "ratio_zeta1"]].mean()
    cells = g.stack().groupby(level="algorithm")
    lo, hi = cells.min(), cells.max()
    weaker = g["ratio_zeta1"] / g["ratio_flow_lb"] - 1
    return [f2(lo["a_online-eps0"]), f2(hi["a_online-eps0"]), f2(lo["a_online-eps0.5"]),
            f2(hi["a_online-eps0.5"]), f"{100 * weaker.min():.0f}-{100 * weaker.max():.0f}%"]


CLAIMS += [
    Sentence(README, "the same runs read {}-{} at speed 1 (table means; {}-{} at eps = 0.5)",
             lambda: paper_bound_ratios()[:4], what="ratios against the paper's bounds"),
    Sentence(README, "The zeta = 1 bound is only {} weaker than ILP (4) here",
             lambda: paper_bound_ratios()[4:], what="zeta = 1 vs ILP (4)"),
]


# --- "Baselines: what the paper says, what mlopt does, and why" (issue 23) ---------------------
# data/fair_baselines.csv (50 jobs, 30 servers), fair_baselines_fig7.csv, fair_baselines_fig8.csv

FAIR_ALGS = ["a_online", "a_online_e", "srtf", "srtf_gang", "srtf_cloud", "tiresias_l",
             "tiresias_l_gang", "tiresias_l_cloud", "batchsche"]


@cache
def _fair(name: str) -> pd.DataFrame:
    df = pd.read_csv(DATA / f"{name}.csv")
    assert df["feasible"].all()
    return df


def fair_rows():
    g = _fair("fair_baselines").groupby("algorithm")
    out = []
    for a in FAIR_ALGS:
        r = g.get_group(a)
        out.append([a, float(r.total_jct.mean()), float(r.rate_vs_srtf.mean()),
                    float(r.rate_vs_srtf_gang.mean()), float(r.preemptions.mean()),
                    float(r.makespan.mean()), float(r.cloud_jobs.mean())])
    return out


def fair_sweep_rows(name: str, x: str):
    m = _fair(name).pivot_table(index=x, columns="algorithm", values="total_jct", aggfunc="mean")
    return [[str(i)] + [float(r[a]) for a in FAIR_ALGS] for i, r in m.iterrows()]


def _fair_per_seed(name: str, value: str) -> pd.DataFrame:
    return _fair(name).pivot_table(index=["n_jobs", "n_edge", "seed"], columns="algorithm",
                                   values=value)


def _pct_below(s: pd.Series) -> str:
    return f"{100 * (1 - s.max()):.0f}-{100 * (1 - s.min()):.0f}%"


def fair_edge_only():
    p = _fair_per_seed("fair_baselines", "total_jct")
    e_g, e_t = p.a_online_e / p.srtf_gang, p.a_online_e / p.tiresias_l_gang
    w_s, w_t = p.srtf_gang / p.srtf, p.tiresias_l_gang / p.tiresias_l
    return [_pct_below(e_g), f"{e_g.min():.3f}", f"{e_g.max():.3f}", _pct_below(e_t),
            f"{w_s.min():.2f}", f"{w_s.max():.2f}", f"{w_t.min():.2f}", f"{w_t.max():.2f}"]


def fair_cloud():
    p = _fair_per_seed("fair_baselines", "total_jct")
    c = _fair_per_seed("fair_baselines", "cloud_jobs")
    a_g = p.a_online / p.srtf_gang
    r_s, r_t = p.a_online / p.srtf_cloud, p.a_online / p.tiresias_l_cloud
    return [_pct_below(a_g), f"{c.a_online.min():.0f}", f"{c.a_online.max():.0f}",
            f"{100 * (r_s.min() - 1):.0f}-{100 * (r_s.max() - 1):.0f}%",
            *[f"{v:.3f}" for v in r_s], *[f"{v:.3f}" for v in r_t]]


def _rng(s: pd.Series, fmt: str = ".2f") -> str:
    return f"{s.min():{fmt}}-{s.max():{fmt}}"


def fair_fig7_gang():
    p = _fair_per_seed("fair_baselines_fig7", "total_jct")
    w = (p.srtf_gang / p.srtf).groupby(level="n_jobs")
    return [_rng(w.get_group(50)), _rng(w.get_group(200))]


def fair_fig7_edge():
    p = _fair_per_seed("fair_baselines_fig7", "total_jct")
    g = (p.a_online_e / p.srtf_gang).groupby(level="n_jobs")
    t = (p.a_online_e / p.tiresias_l_gang).groupby(level="n_jobs")
    jobs = sorted(g.groups)
    return ([_rng(g.get_group(j)) for j in jobs]
            + [_rng(t.get_group(jobs[0])), _rng(t.get_group(jobs[-1])),
               _pct_below(p.a_online_e / p.srtf_gang), _pct_below(p.a_online_e / p.tiresias_l_gang)])


def _worse(name: str):
    p = _fair_per_seed(name, "total_jct")
    r_s, r_t = p.a_online / p.srtf_cloud, p.a_online / p.tiresias_l_cloud
    n = int(((r_s > 1) & (r_t > 1)).sum())
    return n, len(p), r_s, r_t


def fair_fig7_cloud():
    n, tot, r_s, r_t = _worse("fair_baselines_fig7")
    c = _fair_per_seed("fair_baselines_fig7", "cloud_jobs")
    jobs = c.index.get_level_values("n_jobs")
    cs = c[["srtf_cloud", "tiresias_l_cloud"]].div(jobs, axis=0)
    ca = c.a_online / jobs
    pct = lambda s: f"{100 * (s.min() - 1):.1f}-{100 * (s.max() - 1):.1f}%"  # noqa: E731
    return [str(n), str(tot), pct(r_s), pct(r_t), f"{100 * cs.min().min():.0f}-"
            f"{100 * cs.max().max():.0f}%", f"{100 * ca.min():.0f}-{100 * ca.max():.0f}%"]


def fair_fig8_cloud():
    n, tot, r_s, r_t = _worse("fair_baselines_fig8")
    both = pd.concat([r_s, r_t])
    return [str(n), str(tot), f"{100 * (both.min() - 1):.1f}-{100 * (both.max() - 1):.1f}%"]


FAIR7 = "| jobs | " + " | ".join(FAIR_ALGS) + " |"
FAIR8 = "| edge servers | " + " | ".join(FAIR_ALGS) + " |"
CLAIMS += [
    Table(README, "| algorithm | mean total JCT | JCT / srtf (min-max) | JCT / srtf_gang | "
          "preemptions | makespan | cloud jobs |", fair_rows, what="fair baselines, 50 jobs"),
    Table(README, FAIR7, lambda: fair_sweep_rows("fair_baselines_fig7", "n_jobs"),
          what="fair baselines, Fig. 7 restated"),
    Table(README, FAIR8, lambda: fair_sweep_rows("fair_baselines_fig8", "n_edge"),
          what="fair baselines, Fig. 8 restated"),
    Sentence(README, "Against the gang readings A_online-E's total JCT is {} below srtf_gang's "
             "(per seed {}-{}) and {} below tiresias_l_gang's, not the 72-78% below the "
             "originals. Widening the jobs alone cuts SRTF's total JCT to {}-{} of the original, "
             "Tiresias-L's to {}-{}.", fair_edge_only, what="fair: edge-only category"),
    Sentence(README, "A_online is {} below srtf_gang (the cloud does most of it: A_online sends "
             "{}-{} of 50 jobs there); against the cloud-overflow readings it is **{} worse on "
             "every seed** (A_online / srtf_cloud = {}, {}, {} on seeds 0, 1, 2; against "
             "tiresias_l_cloud {}, {}, {})", fair_cloud, what="fair: A_online vs cloud readings"),
    Sentence(README, "(srtf_gang / srtf per seed {} at 50 jobs, {} at 200)", fair_fig7_gang,
             what="fair Fig. 7: gang width"),
    Sentence(README, "(A_online-E / srtf_gang per seed {}, {}, {}, {} at 50-200 jobs; / "
             "tiresias_l_gang {} down to {}): {} below srtf_gang and {} below tiresias_l_gang",
             fair_fig7_edge, what="fair Fig. 7: A_online-E"),
    Sentence(README, "A_online is **worse than both cloud-overflow readings on {} of {} "
             "instances**, by {} (srtf_cloud) and {} (tiresias_l_cloud), at every job count; "
             "they send {} of jobs to the cloud (A_online {})", fair_fig7_cloud,
             what="fair Fig. 7: cloud readings"),
    Sentence(README, "A_online is again worse than both cloud readings on {} of {} instances "
             "(by {})", fair_fig8_cloud, what="fair Fig. 8: cloud readings"),
]


def _point(name: str, value: str) -> pd.DataFrame:
    return _fair(name).pivot_table(index=["n_jobs", "n_edge"], columns="algorithm",
                                   values=value, aggfunc="mean")


def fair_fig9_11():
    pre = _point("fair_baselines_fig7", "preemptions")
    ms = _fair_per_seed("fair_baselines_fig7", "makespan")
    gang = pd.concat([ms.a_online / ms.srtf_gang, ms.a_online / ms.tiresias_l_gang])
    cloud = pd.concat([ms.a_online / ms.srtf_cloud, ms.a_online / ms.tiresias_l_cloud])
    r0 = lambda s: f"{s.min():.0f}-{s.max():.0f}"  # noqa: E731
    sc = pre.srtf_cloud
    return [r0(pre.a_online), r0(pre.srtf_gang), r0(sc) if sc.min().round() != sc.max().round()
            else f"{sc.min():.0f}", r0(pre.tiresias_l_gang), _rng(gang), _rng(cloud)]


def fair_fig8_rates():
    r = _point("fair_baselines_fig8", "rate_vs_srtf_gang")
    e = [f"{v:.2f}" for v in r.a_online_e]
    p = _fair_per_seed("fair_baselines_fig8", "total_jct")
    x = p.a_online_e / p.srtf_gang
    x10 = x[x.index.get_level_values("n_edge") == x.index.get_level_values("n_edge").min()]
    return [f"{r.a_online.iloc[0]:.3f}", f"{r.a_online.iloc[-1]:.3f}",
            f"{r.batchsche.iloc[0]:.2f}", f"{r.batchsche.iloc[-1]:.2f}",
            f"{r.tiresias_l_gang.iloc[0]:.2f}", f"{r.tiresias_l_gang.iloc[-1]:.2f}", *e,
            _pct_below(x), _pct_below(x10)]


def fair_fig10():
    pre = _point("fair_baselines_fig8", "preemptions")
    cl = pd.concat([pre.srtf_cloud, pre.tiresias_l_cloud])
    return [f"{pre.a_online.iloc[0]:.0f}", f"{pre.a_online.iloc[-1]:.0f}",
            f"{pre.srtf_gang.min():.0f}-{pre.srtf_gang.max():.0f}",
            f"{cl.min():.0f}-{cl.max():.0f}"]


CLAIMS += [
    Sentence(README, "A_online's {} chunk preemptions stay above srtf_gang's {} and srtf_cloud's "
             "{} job preemptions (the paper: more than SRTF, reproduced for every reading) and "
             "below tiresias_l_gang's {}. A_online's makespan is {} of the gang readings' and {} "
             "of the cloud readings'", fair_fig9_11, what="fair Fig. 9 / 11"),
    Sentence(README, "with more servers A_online's rate rises ({} -> {}) and BatchSche's ({} -> "
             "{}), while tiresias_l_gang's falls ({} -> {}) and A_online-E's falls then levels "
             "({}, {}, {}, {}). A_online-E is {} below srtf_gang per seed ({} at 10 servers).",
             fair_fig8_rates, what="fair Fig. 8: rates vs srtf_gang"),
    Sentence(README, "A_online {} -> {}, above srtf_gang's {} and the cloud readings' {} job "
             "preemptions at every server count", fair_fig10, what="fair Fig. 10"),
]


# --- frontier.md (issue 21): the numbers that rest on committed data ----------------------------
# instances/solu.csv (optima of edgecloud-tiny / -small; edgecloud-open-0 = paper-sim seed 0, its
# bracket [pool_lb, A_online]) and pool_lb / flow_lb recomputed on the committed tiny / small
# instances (< 1 s).  Not checked (one-off runs, nothing committed): paper-sim seeds 1-2,
# pool_greedy, all-cloud, the paper-ratio rows, timings.

FRONTIER = "benchmarks/edgecloud/frontier.md"


@cache
def _solu() -> dict:
    return solu("edgecloud")


@cache
def _small_bounds():
    from mlopt.families.edgecloud.bounds import flow_lb
    from mlopt.families.edgecloud.pool_bound import pool_lb
    from mlopt.workload import Workload
    out = {}
    for s in ("tiny", "small"):
        rows = []
        for p in sorted((ROOT / "instances" / f"edgecloud-{s}").glob("*.json")):
            w = Workload.load(p)
            opt, status, _ = _solu()[p.stem]
            assert status == "optimal", p.stem
            rows.append((len(w.jobs), flow_lb(w)["bound"], pool_lb(w)["bound"], opt))
        out[s] = rows
    return out


def frontier_small_rows():
    out = []
    for s, rows in _small_bounds().items():
        j = lambda i: ", ".join(f"{r[i]:.0f}" for r in rows)  # noqa: E731
        pool = [r[2] / r[3] for r in rows]
        flow = [r[1] / r[3] for r in rows]
        exact = sum(abs(r[2] - r[3]) < 1e-9 for r in rows)
        out.append([f"edgecloud-{s}-0..{len(rows) - 1}", str(rows[0][0]), j(1), j(2), j(3),
                    f"{min(pool):.2f}-{max(pool):.2f} ({exact} of {len(rows)} exact)",
                    f"{min(flow):.2f}-{max(flow):.2f}"])
    for n in (10, 15, 20, 25):
        out.append([f"paper-ratio {n} jobs, seed 0 / 1"] + [None] * 6)
    return out


def _bracket60() -> dict:
    """data/paper_sim_bracket60.json: `mlopt bracket` on paper-sim seed 0 at 60 s, after
    bracket ran the warm-start algorithms (pool_greedy) first."""
    d = json.loads((DATA / "paper_sim_bracket60.json").read_text())
    return {s["name"]: s["value"] for s in d["sources"] if s["status"] == "ok"} | {
        "low": d["low"], "high": d["high"]}


def frontier_paper_sim():
    hi, status, lo = _solu()["edgecloud-open-0"]  # since 2026-11-29: pool_greedy's 20,764
    assert status == "bound"
    a_online = _bracket60()["a_online"]
    seed0 = ["0", lo, None, hi, a_online, 100 * (hi - lo) / hi, 100 * (a_online - lo) / a_online]
    return [seed0] + [[s] + [None] * 6 for s in ("1", "2")]


def frontier_ratio():
    _, _, lo = _solu()["edgecloud-open-0"]
    a_online = _bracket60()["a_online"]
    return [f"{a_online:,.0f}", f"{lo:,.0f}", f"{a_online / lo:.3f}"]


def frontier_bracket60():
    b = _bracket60()
    return [f"{b['low']:,.0f}", f"{b['high']:,.0f}", f"{100 * (b['high'] - b['low']) / b['high']:.1f}%"]


CLAIMS += [
    Table(FRONTIER, "| instance | jobs | flow_lb | pool_lb | OPT | pool_lb / OPT | flow_lb / OPT |",
          frontier_small_rows, what="frontier: small instances"),
    Table(FRONTIER, "| seed | pool_lb | all-cloud (sum h_j) | pool_greedy | A_online (eps 0) | "
          "width vs best | width vs A_online |", frontier_paper_sim,
          what="frontier: paper-sim seed 0 (solu.csv)"),
    Sentence(FRONTIER, "(ratio <= {} / {} = {} at seed 0)", frontier_ratio,
             what="frontier: A_online / pool_lb, seed 0"),
    Sentence(FRONTIER, "60 s bracket gives [{}, {}] = {}", frontier_bracket60,
             what="frontier: paper-sim seed 0, 60 s bracket with pool_greedy first"),
]


# --- issue 23: Alg. 4's uniform shift against the work-conserving one (data/shift.csv) ---------

def _shift() -> pd.DataFrame:
    df = pd.read_csv(DATA / "shift.csv")
    assert df["feasible"].all()
    return df


def _pct(x: float) -> str:
    return f"{100 * x:+.3f}%".replace("+0.000%", "0.000%")


def shift_rows():
    df = _shift()
    out = []
    for (config, alg), g in df.groupby(["config", "algorithm"], sort=False):
        p = g.pivot_table(index=["n_jobs", "n_edge", "seed"], columns="shift",
                          values=["total_jct", "idle_waiting"])
        chg = p["total_jct"]["compact"] / p["total_jct"]["uniform"] - 1
        idle = p["idle_waiting"]
        def rng(s):
            return f"{s.min():.0f}-{s.max():.0f}" if s.min() != s.max() else f"{s.min():.0f}"
        out.append([config, alg, str(len(p)), rng(idle["uniform"]), rng(idle["compact"]),
                    f"{_pct(chg.min())} to {_pct(chg.max())}" if chg.min() != chg.max()
                    else _pct(chg.min()), str(int((chg < 0).sum())), str(int((chg > 0).sum()))])
    return out


CLAIMS += [
    Table(README, "| workloads | algorithm | runs | idle worker-slots, uniform | idle worker-slots, "
          "compact | total JCT, compact vs uniform | lower | higher |", shift_rows, key=2,
          what="issue 23: uniform vs work-conserving shift"),
]


# --- issue 21: jct_step's exact reach at 100 jobs on 5 edge servers (data/exact_reach*.json) ----

REACH_RUNS = ("exact_reach.json", "exact_reach_scip.json", "exact_reach_quiet.json")


def _reach() -> dict:
    import json
    runs = []
    for name in REACH_RUNS:  # each file: one 600 s run of seeds 0-2 (or some), labelled
        d = json.loads((DATA / name).read_text())
        runs += [{**r, "label": d["label"]} for r in d["runs"]]
    lp = json.loads((DATA / "exact_reach_lp.json").read_text())["runs"]
    lps = {(r["jobs"], r["seed"], r["model"]): r["lp"] for r in lp}
    return {"runs": runs, "lp": lps, "lp_rows": lp}


def reach_rows():
    d = _reach()
    out = []
    for r in d["runs"]:
        n, s = r["jobs"], r["seed"]
        assert r["checked"] == r["objective"] or abs(r["checked"] - r["objective"]) < 1e-6
        out.append([str(s), r["label"], str(n), f"{r['start']['objective']:.0f}",
                    f"{r['pool_lb']:.0f}",
                    f"{d['lp'][(n, s, 'jct_milp')]:.1f}", f"{d['lp'][(n, s, 'jct_step')]:.1f}",
                    f"{r['checked']:.0f}", f"{min(r['bound'], r['checked']):.1f}",
                    f"{100 * max(0.0, r['checked'] - r['bound']) / r['checked']:.2f}%",
                    f"optimal, {r['solve_s']:.0f} s" if r["status"] == "optimal" else "no"])
    return out


def reach_best() -> str:
    out = []
    for s in sorted({r["seed"] for r in _reach()["runs"]}):
        rs = [r for r in _reach()["runs"] if r["seed"] == s]
        hi = min(r["checked"] for r in rs)
        lo = min(hi, max(r["bound"] for r in rs))
        out.append(f"seed {s} [{lo:.1f}, {hi:.0f}] = {100 * (hi - lo) / hi:.2f}%")
    return "; ".join(out)


def reach_lp_rows():
    d = _reach()
    out = []
    for n in sorted({r["jobs"] for r in d["lp_rows"]}):
        rows = [r for r in d["lp_rows"] if r["jobs"] == n]
        seeds = sorted({r["seed"] for r in rows})
        milp = [d["lp"][(n, s, "jct_milp")] for s in seeds]
        step = [d["lp"][(n, s, "jct_step")] for s in seeds]
        start = {r["seed"]: r["best_start"] for r in rows}
        pool = {r["seed"]: r["pool_lb"] for r in rows}
        j = lambda xs, f="{:.0f}": " / ".join(f.format(x) for x in xs)  # noqa: E731
        out.append([str(n), j(start[s] for s in seeds), j(pool[s] for s in seeds),
                    j(milp, "{:.1f}"), j(step, "{:.1f}")])
    return out


CLAIMS += [
    Table(FRONTIER, "| seed | run | jobs | best start | pool_lb | jct_milp LP | jct_step LP | "
          "jct_step 600 s: schedule | dual bound | gap | proven |", reach_rows, key=2,
          what="frontier: jct_step at 100 jobs"),
    Sentence(FRONTIER, "Best interval per seed over both solvers (highest dual bound, best "
             "checked schedule): {}", lambda: [reach_best()], what="frontier: best intervals"),
    Table(FRONTIER, "| jobs | best start (seeds 0 / 1 / 2) | pool_lb | jct_milp LP | "
          "jct_step LP |", reach_lp_rows, what="frontier: LP relaxations"),
]


# --- prose beside the Fig. 12-13 tables and the exact reach (issue 23) ----------------------------

def _jobs_sweep() -> pd.DataFrame:
    d = _ratios()
    return d[d["n_edge"] == 5]


def open_top():
    """The largest table mean of an open interval's high end (A_online at speed 1)."""
    d = _jobs_sweep()
    d = d[d["algorithm"] == "a_online-eps0"]
    means = d.groupby("n_jobs").agg(hi=("ratio_opt_high", "mean"),
                                    open=("opt_status", lambda s: (s != "optimal").any()))
    return [f2(means.loc[means["open"], "hi"].max())]


def ilp4_over_17():
    """Jobs-sweep points whose ILP (4) ratio (table mean) exceeds 1.7, per eps."""
    d = _jobs_sweep()
    m = d.groupby(["algorithm", "n_jobs"])["ratio_flow_lb"].mean()
    over = {a: sorted(m[a][m[a] > 1.7].index) for a in EPS}
    assert over[EPS[2]] == [] and over[EPS[1]] == [20, 25]  # "at eps = 0 and 0.2" only
    e0 = m[EPS[0]]
    assert (e0 > 1.7).all()
    return [str(over[EPS[1]][0]), str(over[EPS[1]][-1]), f2(e0.min()), f2(e0.max())]


def fig12_open():
    d = _jobs_sweep()
    d = d[(d["algorithm"] == "a_online-eps0") & d["n_jobs"].between(15, 25)]
    return [str(int((d["opt_status"] != "optimal").sum())), str(len(d))]


def reach_monotone():
    rows = [r for r in _json("offline_reach_600.json")["exact"] if r["status"] == "optimal"]
    rows.sort(key=lambda r: r["jobs"])
    slow = max(rows[:-1], key=lambda r: r["solve_s"])
    faster = [str(r["jobs"]) for r in rows if r["jobs"] > slow["jobs"]
              and r["solve_s"] < slow["solve_s"]]
    return [str(rows[-1]["jobs"]), str(slow["jobs"]), ", ".join(faster[:-1]) + " and "
            + faster[-1]]


CLAIMS += [
    Sentence(README, "bound reaches {} (the table's means: at most {} at the top of an open "
             "interval)", lambda: proven()[6:] + open_top(), what="Fig. 12 open intervals"),
    Sentence(README, "At {}-{} jobs on 5 servers the ILP (4) ratios exceed 1.7 at eps = 0 and "
             "0.2; at eps = 0\nevery point of the jobs sweep does ({}-{}).", ilp4_over_17,
             what="Fig. 12 ILP (4) ratios above 1.7"),
    Sentence(README, "(60 s limit) {} of the {} instances with 15-25 jobs were left open.",
             fig12_open, what="Fig. 12 open instances"),
    Sentence(README, "So the largest size\nproven within 10 min on this seed is {} jobs on 5 edge "
             "servers (hardness is not monotone in\nthe job count: {} jobs took longer than {}).",
             reach_monotone, what="exact reach, monotonicity"),
]


def fair_fig7_originals():
    """A_online-E against the original (one-GPU-wide) SRTF and Tiresias-L, per seed."""
    p = _fair_per_seed("fair_baselines_fig7", "total_jct")
    return [_pct_below(pd.concat([p.a_online_e / p.srtf, p.a_online_e / p.tiresias_l]))]


CLAIMS += [
    Sentence(README, "below tiresias_l_gang, instead of {} below the original readings.",
             fair_fig7_originals, what="fair Fig. 7: A_online-E vs the originals"),
]


def step_reach():
    """jct_step at 100 jobs (frontier.md's runs, both passes): the seeds proven within 600 s and
    the best gap left on the others (highest dual bound, best checked schedule of any run)."""
    import json
    runs = _reach()["runs"] + [
        r for name in ("exact_reach_tight.json", "exact_reach_tight_scip.json",
                       "exact_reach_options.json")
        for r in json.loads((DATA / name).read_text())["runs"]]
    seeds = sorted({r["seed"] for r in runs})
    proven = [s for s in seeds if any(r["seed"] == s and r["status"] == "optimal" for r in runs)]
    open_ = [s for s in seeds if s not in proven]
    assert {r["jobs"] for r in runs} == {100} and len(open_) == 1
    rs = [r for r in runs if r["seed"] == open_[0]]
    hi = min(r["checked"] for r in rs)
    lo = min(hi, max(r["bound"] for r in rs))
    return [" and ".join(map(str, proven)), str(open_[0]), f"{100 * (hi - lo) / hi:.1f}%"]


CLAIMS += [
    # the seed jct_step left open is the one split_lb proves (fourth pass, below)
    Sentence(README, "proves 100 jobs on this shape for seeds {} within 10 minutes; seed {} ({}) "
             "is proven by", lambda: step_reach()[:2] + split_seed1()[:1],
             what="exact reach, jct_step at 100 jobs"),
]


def _gap(r) -> float:
    return 100 * max(0.0, r["checked"] - r["bound"]) / r["checked"]


def frontier_reach_prose():
    """jct_step at 100 jobs: the quiet run's proofs, the loaded runs' gaps, seed 1's LP."""
    d = _reach()
    by = {(r["label"], r["seed"]): r for r in d["runs"]}
    quiet = [r for r in d["runs"] if r["status"] == "optimal"]
    assert [r["seed"] for r in quiet] == [0, 2] and len({r["label"] for r in quiet}) == 1
    loaded = [by[("highs, load 20", s)] for s in (0, 2)]
    scip2 = by[("scip, load 20 to 8", 2)]
    s1 = [r for r in d["runs"] if r["seed"] == 1]
    best = min(r["checked"] for r in s1)
    lp = d["lp"][(100, 1, "jct_step")]
    gap1 = reach_best().split("; ")[1].split("= ")[1]
    return ([f"{quiet[0]['checked']:.0f}", f"{quiet[0]['solve_s']:.0f}",
             f"{quiet[1]['checked']:.0f}", f"{quiet[1]['solve_s']:.0f}"]
            + [f"{_gap(r):.2f}%" for r in loaded] + [f"{_gap(scip2):.2f}%",
               f"{float(gap1.rstrip('%')):.1f}%", f"{lp:.1f}", f"{100 * (best - lp) / best:.1f}%",
               f"{best:.0f}"])


def frontier_milp_reach():
    rows = _json("offline_reach_600.json")["exact"]
    proven = max(r["jobs"] for r in rows if r["status"] == "optimal")
    [open_] = [r for r in rows if r["status"] != "optimal"]
    return [str(proven), str(open_["jobs"]), f"{100 * open_['gap']:.1f}%"]


CLAIMS += [
    Sentence(FRONTIER, "(proven optimal, {} in {} s and {} in {} s, on the quieter machine; at load "
             "20 the same runs stopped at {} and {}, and SCIP reached {} on seed 2), **missed on "
             "seed 1** ({} at best: its LP, {}, is {} below the best schedule, {})",
             frontier_reach_prose, what="frontier: jct_step at 100 jobs"),
    Sentence(FRONTIER, "`jct_milp` proves {} jobs in 10 minutes and leaves\n{} at {}",
             frontier_milp_reach, what="frontier: jct_milp reach"),
]


def milp_lp_100():
    """jct_milp's root LP at 100 jobs against the best start schedules (the LP table's row)."""
    row = next(r for r in reach_lp_rows() if r[0] == "100")
    lp = [float(x) for x in row[3].split(" / ")]
    start = [float(x) for x in row[1].split(" / ")]
    return [f"{min(lp):.0f}", f"{max(lp):.0f}", f"{min(start):.0f}", f"{max(start):.0f}"]


CLAIMS += [
    Sentence(FRONTIER, "`jct_milp` was not rerun at 100 jobs: with a root LP of {}-{}\nagainst {}-{} "
             "it did not prove 60 jobs in 600 s", milp_lp_100, what="frontier: jct_milp LP at 100"),
]


# --- issue 21, second pass: jct_step's tight rows and the default model --------------------------
# data/exact_reach_tight.json: before (the committed jct_step: tight=0, pool_cut=1) and after (the
# new default) on seeds 0-2 in one run; data/exact_reach_tight_lp.json: their LPs (no pool cut);
# data/exact_reach_options.json: a HiGHS option on seed 1; data/default_model.json: jct_milp
# against jct_step on the committed proven optima.

BEFORE = "jct_step:tight=0,pool_cut=1"


def _tight() -> dict:
    import json
    d = json.loads((DATA / "exact_reach_tight.json").read_text())
    lp = json.loads((DATA / "exact_reach_tight_lp.json").read_text())["runs"]
    return {"runs": d["runs"], "lp": {(r["jobs"], r["seed"], r["model"]): r for r in lp}}


def _lp_of(run_model: str) -> str:
    return "jct_step:tight=0" if run_model == BEFORE else run_model


def tight_rows():
    d = _tight()
    out = []
    for r in d["runs"]:
        assert r["checked"] == r["objective"] or abs(r["checked"] - r["objective"]) < 1e-6
        lp = d["lp"][(r["jobs"], r["seed"], _lp_of(r["model"]))]["lp"]
        out.append([str(r["seed"]), "before" if r["model"] == BEFORE else "after",
                    f"{lp:.1f}", f"{r['start']['objective']:.0f}", f"{r['checked']:.0f}",
                    f"{min(r['bound'], r['checked']):.1f}", f"{_gap(r):.2f}%",
                    f"optimal, {r['solve_s']:.0f} s" if r["status"] == "optimal" else "no",
                    f"{r['load_1min']:.1f}"])
    return out


def tight_lp_rows():
    lp = _tight()["lp"]
    out = []
    for (n, s, model), r in sorted(lp.items()):
        if model != "jct_step":
            continue
        before = lp[(n, s, "jct_step:tight=0")]["lp"]
        out.append([str(n), str(s), f"{r['best_start']:.0f}", f"{r['pool_lb']:.0f}",
                    f"{before:.1f}", f"{r['lp']:.1f}",
                    f"{100 * (r['best_start'] - before) / r['best_start']:.1f}%",
                    f"{100 * (r['best_start'] - r['lp']) / r['best_start']:.1f}%"])
    return out


def options_rows():
    import json
    d = json.loads((DATA / "exact_reach_options.json").read_text())
    return [[str(r["solver_options"].get("mip_heuristic_effort", 0.05)), f"{r['checked']:.0f}",
             f"{r['bound']:.1f}", f"{_gap(r):.2f}%"] for r in d["runs"]]


def default_rows():
    import json
    d = json.loads((DATA / "default_model.json").read_text())
    return [[r["instance"], str(r["jobs"]), f"{r['optimum']:.0f}",
             f"{r['jct_milp']['median_s']:.2f}", f"{r['jct_step']['median_s']:.2f}",
             f"{r['jct_milp']['median_solve_s']:.3f}", f"{r['jct_step']['median_solve_s']:.3f}",
             "yes" if r["jct_milp"]["equal"] and r["jct_step"]["equal"] else "NO"]
            for r in d["rows"]]


def default_totals():
    import json
    s = json.loads((DATA / "default_model.json").read_text())["summary"]
    return [f"{s['jct_step']['total_median_s']:.1f}", f"{s['jct_milp']['total_median_s']:.1f}",
            str(s["step_not_slower_on"]), str(s["instances"])]


CLAIMS += [
    Table(FRONTIER, "| seed | jct_step | LP | start | 600 s: schedule | dual bound | gap | proven "
          "| load |", tight_rows, key=2, what="frontier: tight rows, before/after"),
    Table(FRONTIER, "| jobs | seed | best start | pool_lb | LP before | LP after | LP gap before "
          "| LP gap after |", tight_lp_rows, key=2, what="frontier: tight rows, LPs"),
    Table(FRONTIER, "| mip_heuristic_effort | schedule | dual bound | gap |", options_rows,
          what="frontier: HiGHS option on seed 1"),
    Table(FRONTIER, "| instance | jobs | optimum | jct_milp wall s | jct_step wall s | jct_milp "
          "HiGHS s | jct_step HiGHS s | same optimum |", default_rows,
          what="frontier: default model"),
    Sentence(FRONTIER, "{} s against {} s in all, faster on {} of the {} instances",
             default_totals, what="frontier: default model totals"),
]


def _tight_run(seed: int, which: str) -> dict:
    want = BEFORE if which == "before" else "jct_step"
    [r] = [r for r in _tight()["runs"] if r["seed"] == seed and r["model"] == want]
    return r


def tight_prose():
    """The before/after run's headline: seed 0's times, seed 2's old gap, seed 1's gaps and
    bounds."""
    b0, a0, b2 = _tight_run(0, "before"), _tight_run(0, "after"), _tight_run(2, "before")
    b1, a1 = _tight_run(1, "before"), _tight_run(1, "after")
    assert a0["status"] == b0["status"] == _tight_run(2, "after")["status"] == "optimal"
    return [f"{b0['solve_s'] / a0['solve_s']:.0f}", f"{a0['solve_s']:.0f}",
            f"{b0['solve_s']:.0f}", f"{_gap(b2):.2f}%", f"{_gap(b1):.2f}%", f"{_gap(a1):.2f}%",
            f"{b1['bound']:.1f}", f"{a1['bound']:.1f}"]


def seed1_best():
    """Seed 1's best committed interval after the tight rows: the highest dual bound of the
    runs with them, the best checked schedule of those runs and the option runs."""
    import json
    opt = json.loads((DATA / "exact_reach_options.json").read_text())["runs"]
    runs = [_tight_run(1, "after")] + [r for r in opt if r["seed"] == 1]
    lo = max(r["bound"] for r in runs)
    hi = min(r["checked"] for r in runs)
    return [f"{lo:.1f}", f"{hi:.0f}", f"{100 * (hi - lo) / hi:.2f}%"]


CLAIMS += [
    Sentence(FRONTIER, "Under the same load, the new rows prove seed 0 {}x faster ({} s against "
             "{} s), and they prove seed\n2, which the old model left at {}. Seed 1's gap halves ({} to "
             "{}): the bound goes from {}\nto {}.", tight_prose,
             what="frontier: before/after headline"),
    Sentence(FRONTIER, "Its best interval is [{}, {}] = {}", seed1_best,
             what="frontier: seed 1 best interval"),
]


def _scip_tight() -> list[dict]:
    import json
    return json.loads((DATA / "exact_reach_tight_scip.json").read_text())["runs"]


def scip_tight_rows():
    return [[str(r["seed"]), r["solver"], f"{r['checked']:.0f}",
             f"{min(r['bound'], r['checked']):.1f}", f"{_gap(r):.2f}%",
             f"optimal, {r['solve_s']:.0f} s" if r["status"] == "optimal" else "no"]
            for r in _scip_tight()]


def seed1_both():
    """Seed 1 over both solvers with the tight rows: highest dual bound, best checked schedule
    (the HiGHS runs of seed1_best and SCIP's)."""
    import json
    opt = json.loads((DATA / "exact_reach_options.json").read_text())["runs"]
    runs = [_tight_run(1, "after")] + [r for r in opt + _scip_tight() if r["seed"] == 1]
    lo = max(r["bound"] for r in runs)
    hi = min(r["checked"] for r in runs)
    return [f"{lo:.1f}", f"{hi:.0f}", f"{100 * (hi - lo) / hi:.2f}%"]


def scip_confirms():
    by = {r["seed"]: r for r in _scip_tight()}
    high = {s: _tight_run(s, "after") for s in (0, 2)}
    assert all(by[s]["status"] == "optimal" and by[s]["checked"] == high[s]["checked"]
               for s in (0, 2))
    return [f"{by[0]['checked']:.0f}", f"{by[2]['checked']:.0f}",
            f"{high[2]['solve_s'] / by[2]['solve_s']:.0f}", f"{by[2]['solve_s']:.0f}",
            f"{high[2]['solve_s']:.0f}"]


CLAIMS += [
    Table(FRONTIER, "| seed | solver | schedule | dual bound | gap | proven |", scip_tight_rows,
          what="frontier: SCIP on the tight rows"),
    Sentence(FRONTIER, "SCIP confirms both HiGHS optima ({} and {}), each in under two minutes. On "
             "seed 2 it is {}x\nfaster than HiGHS ({} s against {} s).", scip_confirms,
             what="frontier: SCIP confirms"),
    Sentence(FRONTIER, "Over both solvers, seed 1's best interval is [{}, {}] = {}.", seed1_both,
             what="frontier: seed 1 over both solvers"),
]


# --- issue 21, third pass: step_lns and which side of seed 1's interval is weak ------------------
# data/exact_reach_lns150.json and data/exact_reach_lns.json: one run each, before (jct_step from
# the best of A_online and pool_greedy, 600 s) and after (step_lns for 150 / 300 s of the same
# 600 s, then jct_step from its schedule) side by side; data/sides_seed1.json: benchmarks/
# edgecloud/sides.py (the LP and MILP with u fixed at a step_lns schedule's choice).

LNS_RUNS = ("exact_reach_lns150.json", "exact_reach_lns.json")


def _lns_runs() -> list:
    out = []
    for name in LNS_RUNS:
        d = _json(name)
        budget = max(r["lns_s"] for r in d["runs"])
        for r in d["runs"]:
            assert r["jobs"] == 100 and r["seed"] == 1 and r["model"] == "jct_step"
            assert abs(r["checked"] - r["objective"]) < 1e-6
            out.append({**r, "run": f"LNS {int(round(budget, -1))} s"})
    return out


def lns_rows():
    out = []
    for r in _lns_runs():
        out.append([r["run"], "after" if r["lns_s"] else "before", f"{r['lns_s']:.0f}",
                    f"{r['start']['algorithm']} {r['start']['objective']:.0f}",
                    f"{r['checked']:.0f}", f"{min(r['bound'], r['checked']):.1f}",
                    f"{_gap(r):.2f}%", f"{r['load_1min']:.1f}"])
    return out


def _lns_alone() -> list:
    """data/step_lns_seed1.json (lns_run.py, step_lns alone), its best schedule re-checked from
    data/step_lns_seed1_schedule.json on the regenerated instance."""
    from mlopt.families import get_family
    from mlopt.families.edgecloud.generator import generate
    from mlopt.schedule import Schedule
    runs = _json("step_lns_seed1.json")["runs"]
    assert all(r["jobs"] == 100 and r["seed"] == 1 for r in runs)
    w = generate("paper-ratio", 1, n_jobs=100, arrival_window=50)
    chk = get_family("edgecloud").check(w, Schedule.load(DATA / "step_lns_seed1_schedule.json"))
    assert chk.feasible and chk.objective == min(r["checked"] for r in runs)
    return runs


def lns_alone() -> list:
    runs = _lns_alone()
    vals = [f"{r['checked']:.0f}" for r in runs]
    loads = [x for r in runs for x in (r["load_start"][0], r["load_end"][0])]
    return [", ".join(vals[:-1]) + " and " + vals[-1], f"{min(loads):.1f}", f"{max(loads):.1f}"]


def seed1_third() -> list:
    """Seed 1's best interval over every committed run (all passes, both solvers)."""
    import json
    runs = [r for r in _reach()["runs"] if r["seed"] == 1] + _lns_runs() + _lns_alone() + [
        r for name in ("exact_reach_tight.json", "exact_reach_tight_scip.json",
                       "exact_reach_options.json")
        for r in json.loads((DATA / name).read_text())["runs"] if r["seed"] == 1]
    lo = max(r["bound"] for r in runs if "bound" in r)  # step_lns alone has no bound
    hi = min(r["checked"] for r in runs)
    return [f"{lo:.1f}", f"{hi:.0f}", f"{100 * (hi - lo) / hi:.2f}%"]


def seed1_integral() -> list:
    """seed1_third's interval with the bound rounded up (every total JCT is an integer)."""
    import math
    lo, hi = float(seed1_third()[0]), float(seed1_third()[1])
    lo = math.ceil(lo - 1e-6)
    return [str(lo), str(lo), f"{hi:.0f}", f"{100 * (hi - lo) / hi:.2f}%"]


def sides() -> list:
    d = _json("sides_seed1.json")
    m = d["milp_u_fixed"]
    assert m["status"] == "optimal" and m["checked"] == m["objective"]
    return [f"{d['schedule']['objective']:.0f}", str(d["cloud_jobs"]), f"{d['lp']:.1f}",
            str(d["lp_fractional_u"]), f"{d['lp_u_fixed']:.1f}", f"{m['checked']:.0f}",
            f"{m['solve_s']:.1f}"]


CLAIMS += [
    Table(FRONTIER, "| run | arm | step_lns s | MILP start | 600 s: schedule | dual bound | gap | "
          "load at end |",
          lns_rows, key=2, what="frontier: step_lns before/after"),
    Sentence(FRONTIER, "Over every committed run, seed 1's best interval is now [{}, {}] = {}.",
             seed1_third, what="frontier: seed 1 after step_lns"),
    Sentence(FRONTIER, "step_lns alone for 540 s (four runs, two side by side at a time, "
             "neighbourhood seeds 1-4) ended at {}, load {}-{} at their starts and ends", lns_alone,
             what="frontier: step_lns alone"),
    Sentence(FRONTIER, "Every total JCT is an integer, so OPT >= {} and the interval is [{}, {}] "
             "({})", seed1_integral, what="frontier: seed 1, integral bound"),
    Sentence(FRONTIER, "a step_lns schedule of {} ({} jobs in the cloud): the LP is {} with {} "
             "fractional u_j, {} with u fixed at the schedule's choice, and the MILP with u fixed "
             "is proven optimal at {} in {} s", sides, what="frontier: sides of seed 1"),
]


# --- issue 21, fourth pass: split_lb (jct_step per block of jobs) proves seed 1 ---------------
# data/split_reach_*.json: benchmarks/edgecloud/split_reach.py; data/split_seed1_schedule.json:
# the merged schedule of the seed-1 HiGHS run, re-checked here on the regenerated instance.

SPLIT_RUNS = ("split_reach_seed1.json", "split_reach_seeds02.json", "split_reach_seed1_scip.json")


def _split_runs() -> list:
    out = []
    for name in SPLIT_RUNS:
        for r in _json(name)["runs"]:
            assert r["jobs"] == 100 and r["start"] == "pool_greedy"
            assert r["bound"] == sum(b["bound"] for b in r["blocks"])
            out.append(r)
    return sorted(out, key=lambda r: (r["seed"], r["solver"] != "highs"))


def split_rows():
    rows = []
    for r in _split_runs():
        start = sum(b["start"] for b in r["blocks"])
        rows.append([str(r["seed"]), r["solver"], ", ".join(str(b["jobs"]) for b in r["blocks"]),
                     f"{start:.0f}", f"{r['bound']:.0f}", f"{r['upper']:.0f}", r["status"],
                     f"{r['wall_s']:.1f}", f"{r['load_start'][0]:.1f} / {r['load_end'][0]:.1f}"])
    return rows


def split_seed1() -> list:
    """The seed-1 HiGHS run: proven, its merged schedule re-checked from the committed file."""
    from mlopt.families import get_family
    from mlopt.families.edgecloud.generator import generate
    from mlopt.schedule import Schedule
    r = _json("split_reach_seed1.json")["runs"][0]
    assert r["seed"] == 1 and r["solver"] == "highs" and r["status"] == "optimal"
    w = generate("paper-ratio", 1, n_jobs=100, arrival_window=50)
    chk = get_family("edgecloud").check(w, Schedule.load(DATA / "split_seed1_schedule.json"))
    assert chk.feasible and chk.objective == r["upper"] == r["bound"]
    big, small = sorted(r["blocks"], key=lambda b: -b["jobs"])
    return [f"{chk.objective:.0f}", f"{r['wall_s']:.0f}", str(big["jobs"]), f"{big['bound']:.0f}",
            f"{big['solve_s']:.0f}", str(small["jobs"]), f"{small['bound']:.0f}",
            f"{small['solve_s']:.0f}"]


def u_first_lp() -> list:
    import json
    lines = (DATA / "u_first_lp_bnb.jsonl").read_text().splitlines()
    last = json.loads(lines[-1])
    assert last["method"] == "lp_bnb" and last["pruned"] == 0
    return [f"{last['root_bound']:.1f}", f"{last['raw_bound']:.1f}", str(last["nodes"])]


CLAIMS += [
    Table(FRONTIER, "| seed | solver | blocks (jobs) | pool_greedy | bound | schedule | status | "
          "wall s | load start / end |", split_rows, key=2, what="frontier: split_lb at 100 jobs"),
    Sentence(FRONTIER, "proves seed 1 optimal at {}, in {} s of wall time: the block of {} jobs at "
             "{} in {} s, the block of {} jobs at {} in {} s", split_seed1,
             what="frontier: seed 1 proven by split_lb"),
    Sentence(FRONTIER, "the bound went from the root LP, {}, to {} after 60 s and {} nodes",
             u_first_lp, what="frontier: LP branch-and-bound on u"),
]


def u_first_scip() -> list:
    import json
    d = json.loads((DATA / "u_first_scip_priority.jsonl").read_text().splitlines()[-1])
    assert d["method"] == "scip_priority" and d["status"] == "timelimit" and d["upper"] == 447
    return [f"{d['bound']:.1f}", f"{d['solve_s']:.0f}", str(d["nodes"])]


def split_scip() -> list:
    r = _json("split_reach_seed1_scip.json")["runs"][0]
    assert r["seed"] == 1 and r["solver"] == "scip"
    big, small = sorted(r["blocks"], key=lambda b: -b["jobs"])
    assert small["proven"] and not big["proven"]
    best = 447  # the third pass's step_lns schedule and split_lb's (re-checked above)
    return [f"{small['jobs']}", f"{small['bound']:.0f}", f"{small['solve_s']:.0f}",
            f"{big['jobs']}", f"{big['bound']:.0f}", f"{big['upper']:.0f}", f"{r['bound']:.0f}",
            f"{r['upper']:.0f}", str(best), f"{100 * (best - r['bound']) / best:.2f}%"]


CLAIMS += [
    Sentence(FRONTIER, "its bound was {} after {} s and {} nodes", u_first_scip,
             what="frontier: SCIP with priorities on u"),
    Sentence(FRONTIER, "for 600 s, confirms the {}-job block ({}, proven in {} s). It leaves the "
             "{}-job block at [{}, {}], so it gives [{}, {}] for seed 1. That is within 1% of "
             "the best schedule, {} ({})", split_scip, what="frontier: SCIP on the blocks"),
]


def split_scip_block() -> list:
    """SCIP on seed 1's 53-job block alone (900 s), and SCIP's bounds alone over both blocks."""
    r = _json("split_seed1_block0_scip.json")["runs"][0]
    two = _json("split_reach_seed1_scip.json")["runs"][0]
    small = min(two["blocks"], key=lambda b: b["jobs"])
    assert r["block_only"] == 0 and r["jobs"] == 53 and not r["proven"] and small["proven"]
    lo, hi = r["bound"] + small["bound"], 447
    return [f"{r['load_start'][0]:.1f}", f"{r['load_end'][0]:.1f}", f"{r['solver_bound']:.1f}",
            f"{r['bound']:.0f}", f"{lo:.0f}", str(hi), f"{100 * (hi - lo) / hi:.2f}%"]


CLAIMS += [
    Sentence(FRONTIER, "load {} rising to {}): bound {}, so {} rounded up, and not proven. So the "
             "optimum 447 is HiGHS's proof alone; SCIP's bounds alone give [{}, {}] = {}",
             split_scip_block, what="frontier: SCIP on seed 1's big block"),
]


def bracket_split() -> list:
    d = _json("bracket_seed1_split.json")
    src = {x["name"]: x for x in d["sources"]}
    assert d["low_source"] == "split_lb" and d["high_source"] == "split_lb schedule"
    assert src["split_lb"]["value"] == d["low"] and d["status"] == "interval"
    return [f"{d['load_start'][0]:.1f}", f"{d['load_end'][0]:.1f}", f"{d['low']:.0f}",
            f"{d['high']:.0f}", f"{100 * d['gap']:.2f}%", f"{d['elapsed_s']:.0f}"]


CLAIMS += [
    Sentence(FRONTIER, "load {} at the start, {} at the end, more than twice the load of the "
             "proving run) gives [{}, {}] = {} in {} s", bracket_split,
             what="frontier: bracket with split_lb"),
]
