"""The report's figures (PNG, matplotlib's Agg canvas: no pyplot, no display).

* ``ratios[_<family>].png``: per algorithm, the ECDF of its competitive ratios over checked
  feasible runs, on a log x axis (one algorithm's ratio of 300 must not squeeze the others into
  a line at 1).  Where OPT is only bracketed a ratio is an interval: the upper end is drawn
  solid and the lower end dashed, and the legend says "upper/lower end" only for algorithms
  with at least one open interval; where every OPT is proven the two ends coincide and one
  solid curve is drawn.  Infinite ratios cannot be drawn: the legend counts them.  A curve
  identical to later ones is drawn wider, so coinciding ECDFs stay visible as nested lines.
* ``runtimes[_<family>].png``: runtime box plot per method (log axis).

One figure of each per family (a store normally holds one); the legend sits to the right of
the axes, outside them, so it never covers a curve.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

#: what each figure shows, by file stem (its alt text in the report, its caption in HTML)
CAPTIONS = {
    "ratios": "Competitive ratio ECDF per algorithm: the fraction of instances whose ratio "
              "is at most x (log x axis; a curve further left and higher is better)",
    "runtimes": "Runtime per method (box: quartiles, whiskers: 1.5 IQR, circles: outliers; "
                "log scale)",
}


def caption(path: Path) -> str:
    """The caption of a figure written by :func:`write_figures` (its stem names the kind and,
    in a store of several families, the family)."""
    kind, _, family = path.stem.partition("_")
    text = CAPTIONS.get(kind, path.stem)
    return f"{text}, family {family}" if family else text


#: the ratio sense per family sense: what the x axis is
SENSE_RATIO = {"max": "OPT / ALG (maximization)", "min": "ALG / OPT (minimization)"}


def write_figures(df, figures_dir: str | Path, *, spec_name: str = "results") -> list[Path]:
    """Write the figures of a results frame into ``figures_dir``; return their paths."""
    from mlopt.harness.report import sense_of

    out = Path(figures_dir)
    out.mkdir(parents=True, exist_ok=True)
    families = sorted(df.family.dropna().unique())
    paths = []
    for family in families:
        fdf = df[df.family == family]
        suffix = "" if len(families) == 1 else f"_{family}"
        title = f"family {family}, spec {spec_name}"
        p = ratio_ecdf(fdf, out / f"ratios{suffix}.png", title=title, sense=sense_of(fdf))
        paths += [p] if p else []
        p = runtime_boxes(fdf, out / f"runtimes{suffix}.png", title=title)
        paths += [p] if p else []
    return paths


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def ecdf_curves(algs) -> list[tuple[str, str, int, object, object]]:
    """The ECDF curves of the algorithm rows ``algs``: ``(legend label, line style, colour
    index, x, y)`` per curve, ``x`` the sorted finite positive ratios and ``y`` the fraction of
    that algorithm's runs at or below each (starting at 0)."""
    import numpy as np

    from mlopt.harness.report import speeds_of

    curves = []
    for n, (label, g) in enumerate(algs.groupby("method", sort=True)):
        lo, hi = (g[c].to_numpy(dtype=float) for c in ("ratio_low", "ratio_high"))
        ok = ~np.isnan(hi)
        lo, hi = lo[ok], hi[ok]
        if len(hi) == 0:
            continue
        # an interval exists where the two ends differ (a NaN lower end counts as open)
        interval = bool(np.any(~np.isclose(np.nan_to_num(lo, nan=-1.0), hi, rtol=1e-12,
                                           atol=0.0)))
        speeds = speeds_of(g)
        speed = f"speed-augmented: {', '.join(f'{v:g}' for v in speeds)}" if speeds else ""
        ends = (("upper end", hi, "-"), ("lower end", lo, "--")) if interval else (
            ("", hi, "-"),)
        # an end with no finite ratio draws no curve: the legend of the other end says so
        undrawn = [f"{end} inf on all {len(v)}" for end, v, _ in ends
                   if not np.any(np.isfinite(v) & (v > 0))]
        for end, v, style in ends:
            fin = np.sort(v[np.isfinite(v) & (v > 0)])
            if len(fin) == 0:
                continue
            inf = len(v) - len(fin)
            tag = "; ".join(t for t in (speed, ", ".join(
                t for t in (end, f"{inf} inf" if inf else "", *undrawn) if t)) if t)
            # start each curve at 0 so a single run is a visible step, not a lone corner
            x = np.concatenate([[fin[0]], fin])
            y = np.concatenate([[0.0], np.arange(1, len(fin) + 1) / len(v)])
            curves.append((f"{label} ({tag})" if tag else label, style, n, x, y))
    return curves


def ecdf_figure(df, *, title: str, sense: str) -> Figure | None:
    """The ratio ECDF figure of a family's rows (None when no ratio can be drawn)."""
    algs = df[df.method_kind == "algorithm"]
    curves = ecdf_curves(algs)
    if not curves:
        return None
    # the legend sits outside, to the right: the figure grows with it, the axes do not shrink
    fig = _figure(5.8 + 0.065 * max(len(c[0]) for c in curves), 4.2)
    ax = fig.add_subplot()
    for (label, style, n, x, y), width in zip(curves, _widths(curves)):
        ax.step(x, y, where="post", linestyle=style, color=f"C{n % 10}", linewidth=width,
                label=label)
    ax.set_xscale("log")
    _log_ticks(ax, min(float(c[3][0]) for c in curves), max(float(c[3][-1]) for c in curves))
    ax.set_xlabel(f"competitive ratio {SENSE_RATIO[sense].split(' (')[0]} "
                  "(log scale; 1 = optimal, left is better)")
    ax.set_ylabel("fraction of instances with ratio <= x")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3, which="both")
    ax.set_title(f"{title}: ratio {SENSE_RATIO[sense]}", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    return fig


def _widths(curves, base: float = 1.6, step: float = 1.3) -> list[float]:
    """Line widths: a curve identical to k curves drawn after it is k steps wider, so the
    later, thinner ones sit inside it and every one stays visible (OASiS with estimated and
    with exact U/L drew the same ECDF, and the later hid the earlier)."""
    import numpy as np

    def same(a, b) -> bool:
        return (a[1] == b[1] and len(a[3]) == len(b[3]) and np.allclose(a[3], b[3])
                and np.allclose(a[4], b[4]))

    return [base + step * sum(same(c, d) for d in curves[i + 1:])
            for i, c in enumerate(curves)]


def ratio_ecdf(df, path: Path, *, title: str, sense: str) -> Path | None:
    """Write :func:`ecdf_figure` to ``path``; None when there is nothing to draw."""
    fig = ecdf_figure(df, title=title, sense=sense)
    if fig is None:
        return None
    fig.savefig(path, dpi=110)
    return path


def _log_ticks(ax, low: float, high: float) -> None:
    """Plain-number ticks on the ECDF's log x axis, a little room at both ends."""
    plain_log_ticks(ax.xaxis, low, high)
    span = high / low if low > 0 else 10.0
    pad = span ** 0.04 if span > 1 else 1.02
    ax.set_xlim(low / pad, high * pad)


def plain_log_ticks(axis, low: float, high: float) -> None:
    """Readable ticks on a log-scaled ``axis`` (``ax.xaxis`` or ``ax.yaxis``) whose data span
    [low, high]: plain numbers (1.5, 2, 50, not 2 x 10^0) at 1-2-5 steps, finer ones when
    the span is less than a factor 6, evenly spaced ones below a factor 2.5 (a ratio axis
    from 1 to 1.3)."""
    from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, MaxNLocator,
                                   NullFormatter)

    span = high / low if low > 0 else 10.0
    if span < 2.5:  # less than one 1-2-5 step: evenly spaced round numbers instead
        ticks = MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]).tick_values(low, high)
        axis.set_major_locator(FixedLocator([t for t in ticks if t > 0]))
    else:
        subs = (1.0, 2.0, 5.0) if span > 6 else (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0)
        axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    axis.set_minor_formatter(NullFormatter())


def runtime_boxes(df, path: Path, *, title: str) -> Path | None:
    """Write :func:`runtime_figure` to ``path``; None when nothing was timed."""
    fig = runtime_figure(df, title=title)
    if fig is None:
        return None
    fig.savefig(path, dpi=110)
    return path


def runtime_figure(df, *, title: str) -> Figure | None:
    """Box plot of the runtimes of every offline model, algorithm and bound."""
    import numpy as np

    timed = df[df.runtime_s.notna() & df.method_kind.isin(["offline", "algorithm", "bound"])]
    if timed.empty:
        return None
    groups = list(timed.groupby(["method_kind", "method"], sort=True))
    fig = _figure(max(6.5, 0.45 * len(groups) + 2.5), 4.2)
    ax = fig.add_subplot()
    data = [np.maximum(g.runtime_s.to_numpy(dtype=float), 1e-6) for _, g in groups]
    ax.boxplot(data)
    ax.set_xticks(range(1, len(groups) + 1),
                  [f"{k}: {m}" for (k, m), _ in groups], rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    # plain numbers (0.5, 2, 3), never "3 x 10^0" on a range narrower than a decade
    plain_log_ticks(ax.yaxis, min(float(d.min()) for d in data),
                    max(float(d.max()) for d in data))
    ax.set_ylabel("runtime (s, log scale)")
    ax.set_title(f"{title}: runtime per method", fontsize=10)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    return fig
