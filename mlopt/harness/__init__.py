"""The experiment harness: spec -> tasks -> checked results in SQLite -> reports.

>>> from mlopt.harness import run_spec, write_report                 # doctest: +SKIP
>>> summary = run_spec("benchmarks/specs/oasis-small.toml", "runs/oasis-small", workers=2)
>>> write_report("runs/oasis-small")                                  # -> runs/oasis-small/report.md

Modules: :mod:`.spec` (TOML format), :mod:`.tasks` (one task, bound hook), :mod:`.store`
(SQLite schema, resume), :mod:`.runner` (local / Dask execution), :mod:`.ratios` (ratio math),
:mod:`.report` (markdown + PNG).
"""
from __future__ import annotations

from mlopt.harness.ratios import OptBracket, opt_bracket, ratio_interval, ratio_point, shifted_geometric_mean
from mlopt.harness.report import report, write_report
from mlopt.harness.report_html import html_report, write_html
from mlopt.harness.runner import RunSummary, build_tasks, run_spec
from mlopt.harness.spec import Spec, load_spec, parse_spec
from mlopt.harness.store import ResultStore
from mlopt.harness.tasks import run_task

__all__ = ["OptBracket", "ResultStore", "RunSummary", "Spec", "build_tasks", "html_report",
           "load_spec", "opt_bracket", "parse_spec", "ratio_interval", "ratio_point", "report",
           "run_spec", "run_task", "shifted_geometric_mean", "write_html", "write_report"]
