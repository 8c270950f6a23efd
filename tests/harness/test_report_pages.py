"""The report as a reader meets it: each family's own diagnostics text, speed-augmented runs
labelled, the ratio ECDF (log axis, title, legend outside, interval ends only where they
exist), and the self-contained HTML page, checked in a real headless Chromium."""
from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)

from mlopt.harness import ResultStore, run_spec, write_html
from mlopt.harness.report import _family_section, _theory_section, family_notes
from mlopt.harness.report_figures import ecdf_curves, ecdf_figure, runtime_figure
from mlopt.harness.tasks import ROW_FIELDS


def frame(rows: list[dict]) -> pd.DataFrame:
    """Result rows with every column (None unless given), as ResultStore.to_frame has them."""
    base = {f: None for f in ROW_FIELDS}
    out = []
    for i, r in enumerate(rows):
        extra = r.pop("extra", {})
        out.append({**base, "key": f"k{i}", "task_key": f"t{r.get('seed', 0)}",
                    "preset": "tiny", "params": "{}", "method_kind": "algorithm",
                    "status": "feasible", "feasible": True, "proven": True, "runtime_s": 0.01,
                    "extra": json.dumps(extra), **r})
    return pd.DataFrame(out, columns=list(ROW_FIELDS))


def theory(bound, within, viol, checked):
    return {"theory": {"competitive_bound": bound, "within_bound": within,
                       "lemma_violations": viol, "lemma_checked": checked}}


# ---- per-family text ---------------------------------------------------------------------------
def test_each_family_explains_its_own_diagnostics():
    ec = frame([{"family": "edgecloud", "method": "a_online", "seed": s,
                 "extra": {"algorithm": "a_online", **theory(float("inf"), True, 10, 100)}}
                for s in (0, 1)])
    text = "\n".join(_theory_section(ec, "edgecloud"))
    assert "Theorem 3" in text and "D_max (1 + 1/eps)" in text and "dual (6)" in text
    assert "OASiS" not in text and "Lemma 2" not in text and "hetero" not in text
    # 2 runs x 10 / 100: the sums; bound inf at eps = 0; both runs within
    assert "| `a_online` | 2 | 0 | inf | inf | 2/2 | 20/200 |" in text
    oasis = frame([{"family": "oasis", "method": "oasis",
                    "extra": {"algorithm": "oasis", **theory(3.0, False, 0, 0)}}])
    text = "\n".join(_theory_section(oasis, "oasis"))
    assert "2 alpha (Theorem 4)" in text and "Lemma 2" in text and "Theorem 3" not in text
    assert "| `oasis` | 1 | 0 | 3 | 3 | 0/1 | – |" in text  # nothing checked: "–", not 0/0
    assert family_notes("pdors").theory.startswith("Seed 004 states no competitive theorem")


def test_a_family_without_notes_gets_generic_text_not_another_papers():
    df = frame([{"family": "harness_toy_max", "method": "greedy",
                 "extra": theory(2.0, True, 1, 4)}])
    text = "\n".join(_theory_section(df, "harness_toy_max"))
    assert "supplies no explanation" in text and "OASiS" not in text
    assert "| `greedy` | 1 | 0 | 2 | 2 | 1/1 | 1/4 |" in text
    assert "supplies no explanation" in "\n".join(_theory_section(df, "no_such_family"))


def test_speed_augmented_runs_are_labelled():
    df = frame([{"family": "edgecloud", "method": m, "seed": s, "ratio_low": r,
                 "ratio_high": r, "extra": {"algorithm": "a_online", **x}}
                for s in (0, 1) for m, r, x in (("a_online", 1.1, {}),
                                                ("fast", 0.8, {"speed": 1.5}))])
    text = "\n".join(_family_section("edgecloud", df))
    assert "| `fast` (speed-augmented: 1.5) | 2 |" in text
    assert "| `a_online` | 2 |" in text
    assert "checked at the speed shown" in text


def test_ratios_per_group_are_one_row_per_group_and_one_column_per_algorithm():
    rows = [{"family": "oasis", "method": m, "seed": s, "params": p, "ratio_low": r,
             "ratio_high": r + d}
            for p, base in (('{"n_servers":4,"priority":[1.0,10.0]}', 1.0),
                            ('{"n_servers":12,"priority":[1.0,10.0]}', 2.0))
            for s in (0, 1) for m, r, d in (("fifo", base * (1 + s), 0.0),
                                            ("oasis", base, 0.5 * s))]
    df = frame(rows)
    df["task_key"] = df.params + df.seed.astype(str)
    text = "\n".join(_family_section("oasis", df))
    # 4 servers before 12 (natural order); params as k=v; fifo 1, 2: median 1.5, max 2;
    # oasis 1 and [1, 1.5]: median 1 - 1.25, max 1 - 1.5
    assert ("| tiny `n_servers=4, priority=[1, 10]` | 2 | 1.5 (max 2) | 1 – 1.25 (max 1 – 1.5) |"
            in text)
    assert "| tiny `n_servers=12, priority=[1, 10]` | 2 | 3 (max 4) |" in text
    assert "| preset, params | instances | `fifo` | `oasis` |" in text


def test_speed_augmented_curves_and_plain_runtime_ticks():
    df = frame([{"family": "edgecloud", "method": m, "seed": s, "ratio_low": r,
                 "ratio_high": r, "runtime_s": 2.0 + s, "extra": x}
                for s in (0, 1) for m, r, x in (("a_online", 1.1, {}),
                                                ("fast", 0.8, {"speed": 1.5}))])
    assert [c[0] for c in ecdf_curves(df)] == ["a_online", "fast (speed-augmented: 1.5)"]
    open_fast = df.assign(ratio_low=df.ratio_low - 0.1)  # an interval: ends in one bracket
    assert "fast (speed-augmented: 1.5; upper end)" in [c[0] for c in ecdf_curves(open_fast)]
    fig = ecdf_figure(df, title="t", sense="min")
    widths = [line.get_linewidth() for line in fig.axes[0].get_lines()]
    assert widths[0] == widths[1]  # different curves: equal widths
    same = frame([{"family": "oasis", "method": m, "seed": s, "ratio_low": 1.0 + s,
                   "ratio_high": 1.0 + s} for m in ("a", "b", "c") for s in (0, 1)])
    widths = [line.get_linewidth() for line in
              ecdf_figure(same, title="t", sense="max").axes[0].get_lines()]
    assert widths[0] > widths[1] > widths[2]  # three identical curves nest, each visible
    # runtimes 2 and 3 s, less than a decade: plain tick labels, no "2 x 10^0"
    ax = runtime_figure(df, title="t").axes[0]
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.yaxis.get_ticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"[0-9.]+", t) for t in labels), labels


# ---- the ratio ECDF ----------------------------------------------------------------------------
def test_ecdf_legend_says_interval_ends_only_where_an_interval_exists():
    df = frame([{"family": "oasis", "method": "proven", "seed": 0, "ratio_low": 1.5,
                 "ratio_high": 1.5},
                {"family": "oasis", "method": "proven", "seed": 1, "ratio_low": 300.0,
                 "ratio_high": 300.0},
                {"family": "oasis", "method": "open", "seed": 0, "ratio_low": 1.2,
                 "ratio_high": 2.0},
                {"family": "oasis", "method": "open", "seed": 1, "ratio_low": 1.0,
                 "ratio_high": float("inf")}])
    curves = {c[0]: c for c in ecdf_curves(df)}
    assert set(curves) == {"open (upper end, 1 inf)", "open (lower end)", "proven"}
    label, style, _, x, y = curves["open (upper end, 1 inf)"]
    assert style == "-" and list(x) == [2.0, 2.0] and list(y) == [0.0, 0.5]  # 1 of 2 finite
    assert curves["open (lower end)"][1] == "--"
    assert list(curves["open (lower end)"][4]) == [0.0, 0.5, 1.0]
    assert list(curves["proven"][3]) == [1.5, 1.5, 300.0]
    # no bound on OPT anywhere: the upper end is inf on every run, drawn nowhere, said once
    nobound = df[df.method == "open"].assign(ratio_high=float("inf"))
    assert [c[0] for c in ecdf_curves(nobound)] == ["open (lower end, upper end inf on all 2)"]


def test_ecdf_is_log_scaled_titled_and_the_legend_is_outside_the_axes():
    df = frame([{"family": "oasis", "method": m, "seed": s, "ratio_low": r * (1 + s),
                 "ratio_high": r * (1 + s)}
                for m, r in (("fifo", 150.0), ("oasis", 1.01), ("drf", 1.2)) for s in range(5)])
    fig = ecdf_figure(df, title="family oasis, spec fig5", sense="max")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert ax.get_title() == "family oasis, spec fig5: ratio OPT / ALG (maximization)"
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the axes: covers no curve
    assert ecdf_figure(df.assign(ratio_high=np.nan), title="t", sense="min") is None


# ---- the HTML page -----------------------------------------------------------------------------
SPEC = """name = "html-toy"
family = "harness_toy_max"
[[instances]]
preset = "small"
seeds = [0, 1]
[[algorithms]]
name = "greedy"
[[algorithms]]
name = "random"
[offline]
time_limit = 20
bounds = ["fractional"]
[solver]
name = "highs"
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    (tmp / "s.toml").write_text(SPEC)
    assert run_spec(tmp / "s.toml", tmp / "run", workers=0, progress=False).ok
    return tmp, write_html(tmp / "run", tmp / "report.html")


def test_html_page_is_self_contained(page):
    tmp, path = page
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<title>Experiment report: html-toy</title>"
    assert text.count("<table>") >= 5  # offline, bounds, ratios, runtimes, hosts, versions
    images = re.findall(r'<img alt="[^"]*" src="data:image/png;base64,([^"]+)">', text)
    assert len(images) == 2  # the ratio ECDF and the runtimes
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert not re.search(r'src="(?!data:)', text) and "http" not in text  # nothing external
    assert '<h2 id="the-run">The run</h2>' in text and "highs" in text
    # a contents line links every section, the figures below long tables among them
    nav = re.search(r'<nav class="contents">(.*?)</nav>', text).group(1)
    assert '<a href="#figures">Figures</a>' in nav and '<a href="#the-run">' in nav
    assert "<figcaption>Competitive ratio ECDF per algorithm" in text
    with ResultStore(tmp / "run" / "results.sqlite") as store:
        host = json.loads(store.to_frame().timing.iloc[0])["host"]
    assert f"<code>{host}</code>" in text
    assert "<code>greedy</code>" in text  # inline code rendered, not left as backticks


def test_cli_writes_the_html_page(page, capsys):
    from mlopt.cli import main

    tmp, _ = page
    assert main(["bench", "report", str(tmp / "run"), "--html", str(tmp / "cli.html")]) == 0
    assert "<table>" in (tmp / "cli.html").read_text()
    assert capsys.readouterr().out.startswith("# Experiment report: html-toy")


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_html_page_in_headless_chromium(page, tmp_path):
    """A real browser loads the page: the tables and images are in its DOM, the screenshot is
    not blank.  Skipped without Chromium, except under CI (.ci/run installs it)."""
    exe = chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but chromium is missing (.ci/run installs the Debian "
                        "packages chromium and chromium-driver)")
        pytest.skip("chromium not installed (Debian: apt-get install chromium chromium-driver)")
    _, path = page
    shot = tmp_path / "shot.png"
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
             "--window-size=1200,2000"]
    url = path.resolve().as_uri()
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert dom.count("<table>") >= 5
    assert len(re.findall(r'<img [^>]*src="data:image/png;base64,', dom)) == 2
    subprocess.run(flags + [f"--screenshot={shot}", url], capture_output=True, timeout=120,
                   check=True)
    from matplotlib.image import imread

    pixels = imread(shot)[..., :3]
    assert pixels.shape[:2] == (2000, 1200)
    dark = (pixels.mean(axis=2) < 0.5).mean()  # text, table rules, plot lines
    assert 0.005 < dark < 0.5 and pixels.std() > 0.05  # neither blank nor one flat colour


# ---- the conformance check -------------------------------------------------------------------
def test_conformance_requires_notes_for_a_familys_diagnostics():
    import dataclasses

    from mlopt.families import ReportNotes, get_family
    from mlopt.testing import check_report_notes

    oasis = get_family("oasis")
    check_report_notes(oasis)
    silent = dataclasses.replace(oasis, report_notes_=ReportNotes(), module=oasis.module)
    with pytest.raises(AssertionError, match="no report notes explaining them"):
        check_report_notes(silent)
    typo = dataclasses.replace(oasis, report_notes_=ReportNotes(
        theory="t", algorithms={"oasiss": "a typo"}), module=oasis.module)
    with pytest.raises(AssertionError, match="oasiss"):
        check_report_notes(typo)
