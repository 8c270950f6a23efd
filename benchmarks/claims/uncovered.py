"""Which lines of the write-ups quote numbers that no registered claim re-checks: the to-do list
of issue 23's "every number from committed data" (``python benchmarks/verify_claims.py
--uncovered [README ...]``).

A heuristic, line by line: a line counts as covered when it is a row of a registered table, or
when every number on it occurs in the filled-in text of registered sentences that share a
stretch of 30 characters with the line (a sentence often starts or ends mid-line); code blocks
are skipped, and a line is listed when it has a number with a decimal point, two or more
digits, or a percent.
Setup constants (seeds, sizes, ranges) are listed too: reading the list is the human part.
`frontier.md` files are left out (their registries list what they leave out).
"""
from __future__ import annotations

import importlib
import re

from .core import ROOT, Sentence, _flat, _read

_NUMBER = re.compile(r"\d+\.\d+|\d{2,}|\d+ ?%")


def _registered(modules) -> tuple[dict, dict]:
    sentences: dict[str, list[str]] = {}
    tables: dict[str, set[str]] = {}
    for fam in modules:
        for c in importlib.import_module(f"claims.{fam}").CLAIMS:
            if isinstance(c, Sentence):
                try:
                    text = c.template.format(*[str(v) for v in c.values()])
                except Exception:  # a broken claim is verify_claims' report, not this one's
                    continue
                sentences.setdefault(c.readme, []).append(_flat(text))
            else:
                tables.setdefault(c.readme, set()).add(c.header.strip())
    return sentences, tables


def uncovered(modules, readmes=None) -> dict[str, list[str]]:
    """README path -> its numeric lines ("LINE: text") that no registered claim covers."""
    sentences, tables = _registered(modules)
    paths = readmes or sorted(str(p.relative_to(ROOT))
                              for p in (ROOT / "benchmarks").glob("*/README.md"))
    out = {}
    for readme in paths:
        lines, in_table, in_code = [], False, False
        for i, line in enumerate(_read(readme).splitlines(), 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            if line.strip() in tables.get(readme, ()):
                in_table = True
                continue
            if in_table and line.startswith("|"):
                continue
            in_table = False
            if _NUMBER.search(line) and not _covered(_flat(line).strip(),
                                                     sentences.get(readme, ())):
                lines.append(f"{i}: {line.strip()}")
        out[readme] = lines
    return out


def _covered(line: str, sentences) -> bool:
    if any(line in s for s in sentences):
        return True
    k = 30
    chunks = {line[i:i + k] for i in range(0, max(1, len(line) - k + 1), 5)}
    near = [s for s in sentences if any(c in s for c in chunks)]
    nums = _NUMBER.findall(line)
    return bool(near) and all(any(n in s for s in near) for n in nums)
