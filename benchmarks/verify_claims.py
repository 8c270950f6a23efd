"""Recompute every registered number of the write-ups (`benchmarks/*/README.md`) from the
committed data and report each one that drifted.

    python benchmarks/verify_claims.py [MODULE ...]    # exit 1 naming file, claim, both values
    python benchmarks/verify_claims.py --uncovered [README ...]   # numeric lines no claim checks

MODULE: a family (hetero, pdors, edgecloud, harmony, oasis) or ``summary`` (the top-level
README's one-line summaries); default all.

Reads only committed files (CSV/JSON results under `benchmarks/<family>/`, `instances/`); runs
no solver and no benchmark.

How to add a claim: in `benchmarks/claims/<family>.py` append to ``CLAIMS`` a
``Sentence(readme, "text with {} holes", fn)`` (``fn`` returns the holes' text, formatted as
the README prints it) or a ``Table(readme, "| exact | header |", fn, key=k)`` (``fn`` returns
every row's cells; see `benchmarks/claims/core.py` for how cells compare).  A new family:
a module with ``CLAIMS`` and its name in ``claims.MODULES``.

Rewording a registered sentence means editing its template too (the old text is reported as
"not found").  What is covered: every table of the hetero, pdors, edgecloud and harmony
write-ups that is computed from committed data, OASiS's Fig. 3 table and Fig. 5 counts, and
the prose numbers the registries list (the top-level README's summaries in ``summary``; the
bracket write-up's ladder, build estimates and solu.csv intervals in ``bracket``), the
"Baselines: what the paper says, what mlopt
does, and why" sections (edgecloud, pdors, hetero: `fair_baselines*.csv`), and the numbers of
the `frontier.md` files that rest on committed data (`instances/solu.csv`, bounds recomputed
on the committed tiny / small instances, `data/*.csv`; each registry lists what it leaves
out); a number in a write-up that no claim names (older prose, "before the fix"
values, timings copied from logs that are not committed) is not checked until registered.

What is not data: a line whose numbers are settings (sizes, seeds, budgets, commands), one-off
measurements no committed file holds, or the paper's own figures carries an HTML comment
``<!-- unchecked: setting -->`` (kinds ``setting``, ``one-off``, ``paper``, ``reference``;
several separated by commas), or sits between
``<!-- unchecked-begin: KIND -->`` and ``<!-- unchecked-end -->`` lines; ``--uncovered``
(default: the top-level README, every `benchmarks/*/README.md` and `frontier.md`) lists every
other numeric line no claim covers.  See `benchmarks/claims/uncovered.py`.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import claims  # noqa: E402


def problems(modules=None) -> tuple[int, list[str]]:
    """(number of claims checked, one line per claim that does not match the data)."""
    n, out = 0, []
    for fam in modules or claims.MODULES:
        mod = importlib.import_module(f"claims.{fam}")
        for c in mod.CLAIMS:
            n += 1
            try:
                out.extend(c.check())
            except Exception as e:  # a claim whose data cannot be read is a failure too
                out.append(f"{c.readme}: claim '{c.what}': {type(e).__name__}: {e}")
    return n, out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--uncovered"]:  # a to-do list, not a check: always exit 0
        from claims.uncovered import uncovered

        for readme, lines in uncovered(claims.MODULES, argv[1:] or None).items():
            print(f"== {readme}: {len(lines)} numeric lines not covered by a claim")
            print("\n".join(lines))
        return 0
    unknown = [a for a in argv if a not in claims.MODULES]
    if unknown:
        print(f"unknown claims module {unknown[0]!r}; known: {', '.join(claims.MODULES)}",
              file=sys.stderr)
        return 2
    n, bad = problems(argv or None)
    for line in bad:
        print(line)
    print(f"{n} claims checked, {len(bad)} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
