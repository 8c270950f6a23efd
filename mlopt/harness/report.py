"""Markdown reports (with PNG figures) from a results store.

``report(store_or_dir, figures_dir=None) -> str`` and ``write_report(out_dir) -> Path``
(``out_dir/report.md`` plus ``out_dir/figures/*.png``).

Statistics per algorithm over its runs with a defined ratio (checked feasible schedules): min,
median, max and the shifted geometric mean ``exp(mean(log(r + s))) - s`` with shift
``s = RATIO_SHIFT = 1`` (ratios are >= 1, so the shift only damps nothing-vs-something noise near
1 and keeps the mean well defined; any +inf ratio makes the mean +inf and is counted apart).
Where OPT is not proven each ratio is an interval; the tables then show ``low – high`` computed
from the interval's lower ends and its upper ends separately.  Runtimes use the shift
``RUNTIME_SHIFT = 0.01`` s.  Reports are stamped with machine, date and versions.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import re
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlopt.fileio import write_text
from mlopt.harness.ratios import shifted_geometric_mean
from mlopt.harness.report_figures import caption, write_figures

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.families.base import ReportNotes
from mlopt.harness.store import ResultStore

RATIO_SHIFT = 1.0
RUNTIME_SHIFT = 0.01
REPORT_NAME = "report.md"
FIGURES = "figures"


# ---- loading -----------------------------------------------------------------------------------
def _frame(source):
    from mlopt.harness.runner import STORE_NAME

    if isinstance(source, ResultStore):
        _check_store(source)
        return source.to_frame(), {"spec_name": source.get_meta("spec_name")}
    path = Path(source)
    if path.is_dir():
        path = path / STORE_NAME
    if not path.exists():
        from mlopt.errors import InputError

        raise InputError("no results store here", file=str(path))
    with ResultStore(path) as store:
        _check_store(store)
        return store.to_frame(), {"spec_name": store.get_meta("spec_name")}


def _check_store(store: ResultStore) -> None:
    """Never report from a damaged store or from rows a task did not write."""
    from mlopt.errors import InputError

    store.check_integrity()
    bad = store.malformed()
    if bad:
        first = min(bad)
        raise InputError(f"{len(bad)} malformed result rows (row {first}: {bad[first][1]}); "
                         "resume the run (mlopt bench run SPEC -o DIR --resume) to re-run "
                         "their tasks", file=str(store.path))


# ---- formatting --------------------------------------------------------------------------------
def _fmt(x: Any, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float):
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{x:.{digits}g}"
    return str(x)


def _pair(lo: Any, hi: Any) -> str:
    a, b = _fmt(lo), _fmt(hi)
    return a if a == b else f"{a} – {b}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _stats(values) -> dict[str, float | None]:
    import numpy as np

    v = [float(x) for x in values if x is not None and not math.isnan(x)]
    if not v:
        return {"min": None, "median": None, "max": None, "sgm": None, "inf": 0}
    return {"min": min(v), "median": float(np.median(v)), "max": max(v),
            "sgm": shifted_geometric_mean(v, RATIO_SHIFT), "inf": sum(math.isinf(x) for x in v)}


def stamp() -> str:
    """Machine, date and versions of the process writing the report."""
    def ver(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "n/a"

    import mlopt
    from mlopt.machine import cpu_model

    cpu = cpu_model()

    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Generated {now} on `{platform.node()}` ({platform.platform()}, {cpu}, "
            f"{os.cpu_count()} CPUs). mlopt {mlopt.__version__}, Python "
            f"{platform.python_version()}, numpy {ver('numpy')}, pandas {ver('pandas')}, "
            f"pyomo {ver('pyomo')}, highspy {ver('highspy')}, matplotlib {ver('matplotlib')}.")


# ---- the report --------------------------------------------------------------------------------
def report(store_or_dir, figures_dir: str | Path | None = None) -> str:
    """Markdown summary of a store (a :class:`ResultStore`, its directory or its file); see
    :func:`_report`.  Aggregates over missing values (a method with no feasible run) are
    expected here and shown as "–": NumPy's RuntimeWarning about them is no error, even under
    the CLI (which makes it one for the input of a command)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _report(store_or_dir, figures_dir)


def _report(store_or_dir, figures_dir: str | Path | None = None) -> str:
    """Markdown summary of a store (a :class:`ResultStore`, its directory or its file).

    With ``figures_dir``, PNG figures are written there and linked (relative to its parent).
    """
    df, meta = _frame(store_or_dir)
    name = meta.get("spec_name") or "results"
    lines = [f"# Experiment report: {name}", "", stamp(), ""]
    if df.empty:
        return "\n".join(lines + ["No results yet.", ""])
    versions = sorted({f"mlopt {a}, Python {b}, numpy {c}" for a, b, c in
                       df[["mlopt_version", "python_version", "numpy_version"]].itertuples(
                           index=False)})
    solvers = sorted({f"{s} {v}" for s, v in df[["solver", "solver_version"]].dropna()
                      .itertuples(index=False)})
    lines += [f"Results produced with {'; '.join(versions)}"
              + (f"; solvers: {', '.join(solvers)}." if solvers else "."), ""]
    for family, fdf in df.groupby("family", sort=True):
        lines += _family_section(family, fdf)
    if figures_dir is not None:
        figs = write_figures(df, figures_dir, spec_name=name)
        if figs:
            lines += ["## Figures", ""]
            rel = Path(figures_dir).name
            lines += [f"![{caption(p)}]({rel}/{p.name})" for p in figs] + [""]
    return "\n".join(lines)


def _family_section(family: str, df) -> list[str]:
    algs = df[df.method_kind == "algorithm"]
    off = df[df.method_kind == "offline"]
    bnd = df[df.method_kind == "bound"]
    inst = df[df.method_kind == "instance"]
    n_tasks = df.task_key.nunique()
    sense = sense_of(df)
    what = "OPT / ALG (maximization)" if sense == "max" else "ALG / OPT (minimization)"
    lines = [f"## Family `{family}`", "",
             f"{n_tasks} instances ({', '.join(sorted(df.preset.dropna().unique()))}); "
             f"competitive ratio = {what}.", ""]
    proven_tasks = set(df.loc[df.proven.fillna(False).astype(bool), "task_key"])

    if not off.empty:
        rows = []
        # verification columns only where a spec asked for it (older results have none)
        verify = "verified" in off and off.verified.notna().any()
        for model, g in off.groupby("method", sort=True):
            gaps = [json.loads(e).get("gap") for e in g.extra]
            gaps = [x for x in gaps if x is not None]
            rt = g.runtime_s.dropna()
            rows.append([
                f"`{model}`", str(len(g)),
                f"{int(g.proven.fillna(False).sum())}/{len(g)} "
                f"({100 * g.proven.fillna(False).mean():.0f}%)",
                f"{int(g.feasible.fillna(False).sum())}/{int(g.feasible.notna().sum())}",
                str(int((g.status == "no_solution").sum())),
                str(int((g.status == "error").sum())),
                _fmt(_median(gaps)), _fmt(_median(rt)),
                _fmt(shifted_geometric_mean(rt, RUNTIME_SHIFT))])
            if verify:
                rows[-1][3:3] = [f"{int(g.verified.fillna(False).sum())}/{len(g)}",
                                 str(int((g.status == "disputed").sum()))]
        head = ["model", "runs", "proven optimal", "checked feasible / checked",
                "no incumbent", "errors", "median gap", "median solve s",
                f"SGM solve s (shift {RUNTIME_SHIFT:g})"]
        if verify:
            by = sorted(off.verified_by.dropna().unique())
            head[3:3] = ["verified by a second solver", "disputed"]
        lines += ["### Offline optimum", ""]
        if verify:
            lines += ["Optima re-solved by a second solver (" + (", ".join(by) or "none agreed")
                      + "); only verified optima count as proven; `disputed`: the two "
                      "solvers disagree.", ""]
        lines += _table(head, rows) + [""]

    if not bnd.empty:
        rows = []
        for method, g in bnd.groupby("method", sort=True):
            counts = g.status.value_counts()
            rows.append([f"`{method}`", str(len(g))] +
                        [str(int(counts.get(s, 0))) for s in ("ok", "no_bound", "violated",
                                                              "error")] +
                        [_fmt(_median(g.runtime_s.dropna()))])
        lines += ["### Bounds on OPT", "",
                  "A bound contradicted by a checked feasible schedule is `violated` and "
                  "is not used.", ""]
        lines += _table(["method", "runs", "ok", "no bound", "violated", "errors",
                         "median s"], rows) + [""]

    if not algs.empty:
        notes = family_notes(family)
        speeds = {label: speeds_of(g) for label, g in algs.groupby("method", sort=True)}
        lines += ["### Competitive ratios", "",
                  f"Over checked-feasible runs. Shown as `low – high` where OPT is only "
                  f"bracketed (low: best known schedule, high: best bound). SGM: shifted "
                  f"geometric mean, shift {RATIO_SHIFT:g}. `inf`: runs with an infinite "
                  f"ratio (ALG earned 0 or no bound on OPT).", ""]
        if any(speeds.values()):
            lines += ["Runs marked *speed-augmented* were checked at the speed shown, an "
                      "easier problem than OPT's (speed 1): their ratio against OPT can be "
                      "below 1, and their schedules never enter OPT's bracket.", ""]
        rows = []
        for label, g in algs.groupby("method", sort=True):
            lo, hi = _stats(g.ratio_low), _stats(g.ratio_high)
            checked = int(g.feasible.notna().sum())
            rows.append([
                _label(label, speeds[label]), str(len(g)),
                f"{int(g.feasible.fillna(False).sum())}/{checked}",
                str(int((g.status == "error").sum())),
                f"{int(g.task_key.isin(proven_tasks).sum())}/{len(g)}",
                _pair(lo["min"], hi["min"]), _pair(lo["median"], hi["median"]),
                _pair(lo["max"], hi["max"]), _pair(lo["sgm"], hi["sgm"]),
                str(hi["inf"])])
        lines += _table(["algorithm", "runs", "feasible / checked", "errors", "OPT proven",
                         "ratio min", "median", "max", "SGM", "inf"], rows) + [""]
        named = sorted({(label, a) for label, a in zip(algs.method, algs.extra.map(_algorithm))
                        if a in notes.algorithms})
        lines += [f"- `{label}`: {notes.algorithms[a]}" for label, a in named]
        lines += [""] if named else []
        runtime_rows = [[f"`{label}`", _fmt(_median(g.runtime_s.dropna())),
                         _fmt(shifted_geometric_mean(g.runtime_s.dropna(), RUNTIME_SHIFT))]
                        for label, g in algs.groupby("method", sort=True)]
        lines += ["Algorithm runtimes (s):", ""]
        lines += _table(["algorithm", "median", f"SGM (shift {RUNTIME_SHIFT:g})"],
                        runtime_rows) + [""]

        lines += _group_table(algs, speeds)

    lines += _theory_section(algs, family)

    errs = df[df.status == "error"]
    if not errs.empty:
        lines += [f"### Errors ({len(errs)})", ""]
        for r in errs.head(20).itertuples(index=False):
            msg = json.loads(r.extra).get("error", "") if r.extra else ""
            lines.append(f"- `{r.instance_id}` {r.method_kind} `{r.method}`: {msg}")
        if len(errs) > 20:
            lines.append(f"- ... {len(errs) - 20} more")
        lines.append("")
    if not inst.empty:
        lines += [f"{len(inst)} instances could not be generated (see errors).", ""]
    return lines


def _group_table(algs, speeds: dict[str, list[float]]) -> list[str]:
    """Ratios per instance group: one row per (preset, params), one column per algorithm
    (median and max in one cell).  A long table with a row per group and algorithm repeated
    every group's params five times and pushed the figures out of sight."""
    groups = algs.groupby(["preset", "params"], sort=True)
    if groups.ngroups <= 1:
        return []
    labels = sorted(algs.method.unique())
    rows = []
    for (preset, params), g in sorted(groups, key=lambda kv: _natural(kv[0])):
        by = dict(tuple(g.groupby("method", sort=True)))
        row = [f"{preset} {_params_text(params)}", str(g.task_key.nunique())]
        for label in labels:
            if label not in by:
                row.append("–")
                continue
            lo, hi = _stats(by[label].ratio_low), _stats(by[label].ratio_high)
            row.append(f"{_pair(lo['median'], hi['median'])} "
                       f"(max {_pair(lo['max'], hi['max'])})")
        rows.append(row)
    return (["### Ratios per instance group", "",
             "Median ratio per algorithm over the group's instances (max in brackets).", ""]
            + _table(["preset, params", "instances"]
                     + [_label(label, speeds[label]) for label in labels], rows) + [""])


def _params_text(params: str) -> str:
    """``{"n_servers":4,"priority":[1.0,10.0]}`` as ``n_servers=4, priority=[1, 10]``."""
    try:
        parsed = json.loads(params)
    except (TypeError, ValueError):
        return f"`{params}`"
    if not isinstance(parsed, dict) or not parsed:
        return "(defaults)" if parsed == {} else f"`{params}`"

    def text(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(text(x) for x in v) + "]"
        return f"{v:g}" if isinstance(v, float) else str(v)

    return "`" + ", ".join(f"{k}={text(v)}" for k, v in parsed.items()) + "`"


def _theory_section(algs, family: str) -> list[str]:
    """Per algorithm, what the family's theory diagnostics said on every run (``extra.theory``):
    the competitive bound the paper proves, how many runs' ratio upper end stays within it, and
    how many per-step inequalities along the run were violated.  What each of these is for this
    family is the family's own text (:attr:`Family.report_notes`), never another paper's."""
    notes = family_notes(family)
    rows = []
    for label, g in algs.groupby("method", sort=True):
        th = [json.loads(e).get("theory") for e in g.extra if e]
        th = [t for t in th if t]
        if not th:
            continue
        ok = [t for t in th if "error" not in t]
        bounds = [t["competitive_bound"] for t in ok if t.get("competitive_bound") is not None]
        within = [t["within_bound"] for t in ok if t.get("within_bound") is not None]
        viol = sum(int(t.get("lemma_violations", 0)) for t in ok)
        steps = sum(int(t.get("lemma_checked", 0)) for t in ok)
        rows.append([_label(label, speeds_of(g)), str(len(th)), str(len(th) - len(ok)),
                     _fmt(_median(bounds)), _fmt(max(bounds) if bounds else None),
                     f"{sum(bool(w) for w in within)}/{len(within)}" if within else "–",
                     f"{viol}/{steps}" if steps else "–"])
    if not rows:
        return []
    text = notes.theory or ("The family supplies no explanation of its diagnostics "
                            "(Family.report_notes): the columns are its raw values.")
    return ["### Theory checks", "", text, "",
            f"`bound`: {notes.bound}; `within`: runs whose ratio upper end is at most the "
            f"bound / runs with a verdict; `checks`: {notes.checks} (`–`: none checked).",
            ""] + _table(["algorithm", "runs", "errors", "median bound", "max bound", "within",
                          "checks"], rows) + [""]


def family_notes(family: str) -> ReportNotes:
    """The family's :class:`~mlopt.families.base.ReportNotes` (generic ones for a family this
    process cannot load: a report never fails for want of its notes)."""
    from mlopt.families.base import ReportNotes
    from mlopt.harness.tasks import resolve_family

    try:
        return resolve_family(family).report_notes
    except Exception:  # noqa: BLE001  (an unknown family or an old family object)
        return ReportNotes()


def _algorithm(extra: str | None) -> str | None:
    """The registry name of the algorithm a row ran (its label may differ)."""
    return json.loads(extra).get("algorithm") if extra else None


def speeds_of(g) -> list[float]:
    """The speeds > 1 the rows of one algorithm were checked at (speed augmentation)."""
    return sorted({float(json.loads(e)["speed"]) for e in g.extra
                   if e and json.loads(e).get("speed") is not None})


def _label(label: str, speeds: list[float]) -> str:
    if not speeds:
        return f"`{label}`"
    return f"`{label}` (speed-augmented: {', '.join(f'{v:g}' for v in speeds)})"


def sense_of(df) -> str:
    """max when the bracket/ratio orientation says so (bound rows carry only high for max)."""
    from mlopt.harness.tasks import resolve_family

    fam = df.family.iloc[0]
    try:
        return resolve_family(fam).sense
    except Exception:  # family not importable here: infer from the bound rows
        b = df[df.method_kind == "bound"]
        return "min" if not b.empty and b.bound_high.isna().all() else "max"


def _natural(key) -> list:
    """Sort key that orders numbers inside strings numerically (n_jobs=6 before n_jobs=10)."""
    parts = []
    for text in key:
        parts += [(0, int(t), "") if t.isdigit() else (1, 0, t)
                  for t in re.split(r"(\d+)", str(text)) if t]
    return parts


def _median(values) -> float | None:
    import numpy as np

    v = [float(x) for x in values if x is not None and not math.isnan(float(x))]
    return float(np.median(v)) if v else None


def write_report(out_dir: str | Path) -> Path:
    """Write ``out_dir/report.md`` (and ``out_dir/figures/*.png``); return the report's path."""
    out = Path(out_dir)
    text = report(out, figures_dir=out / FIGURES)
    path = out / REPORT_NAME
    write_text(path, text)  # atomic: never a half-written report
    return path
