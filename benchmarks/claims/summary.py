"""The top-level README's one-line summaries ("What the experiments found") that quote the
families' data: each reuses the family module's function, so both places are held to it."""
from __future__ import annotations

from . import edgecloud, harmony, hetero
from .core import Sentence

README = "README.md"


def _alpha_span():
    lo, _ = hetero.alpha_range("tiny")
    _, hi = hetero.alpha_range("small")
    return [lo, hi]


CLAIMS = [
    Sentence(README, "A_online is {} above the optimum on the Fig. 12-13 instances where it is "
             "proven", lambda: edgecloud.proven()[:1], what="edgecloud summary"),
    Sentence(README, "while the same runs read {}-{} at speed 1 against the paper's flow-time "
             "bounds", lambda: edgecloud.paper_bound_ratios()[:2], what="edgecloud bound slack"),
    Sentence(README, "the committed DRL policy is optimal on {} of {}", harmony.optimal_count,
             what="harmony summary"),
    Sentence(README, "Theorem 5's alpha is {}-{} on the committed `tiny`/`small` instances",
             _alpha_span, what="hetero summary"),
]
