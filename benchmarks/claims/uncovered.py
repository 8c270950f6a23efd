"""Which lines of the write-ups quote numbers that no registered claim re-checks: the to-do list
of issue 23's "every number from committed data" (``python benchmarks/verify_claims.py
--uncovered [README ...]``; default: the top-level README, every `benchmarks/*/README.md` and
`benchmarks/*/frontier.md`).

Line by line: a line counts as covered when it is a row of a registered table, or when no
number is left on it once the text of registered sentences (filled in from the data) is cut
out of it (a sentence often starts or ends mid-line and wraps); code blocks are skipped, and a
line is listed when it has a number with a decimal point, two or more digits, or a percent.  Not numbers for this scan: inline code (commands, options, file names)
and references (``Fig. 12-13``, ``Alg. 4``, ``Theorem 5``, ``issue 23``, ``INFOCOM'18``, an
equation ``LP(14)``, a seed directory ``002``).

Numbers that no committed data file holds are marked in the write-up itself, with an HTML
comment (invisible on the rendered page) naming why they are not checked:

* ``<!-- unchecked: KIND -->`` anywhere on a line marks that line;
* ``<!-- unchecked-begin: KIND -->`` ... ``<!-- unchecked-end -->`` (each on its own line)
  marks the lines between, e.g. a table of settings.

KIND is one of :data:`KINDS`, or several separated by commas (``setting, paper``).  A marker with another kind, or a begin without an end, is
listed as a problem (a typo must not hide a line).  A marker never hides a registered claim:
the markers are removed before sentences are matched (`claims.core._flat`), and a number that
rests on committed data belongs in a claim, not under a marker.
"""
from __future__ import annotations

import importlib
import re

from .core import ROOT, Sentence, _flat, _read

KINDS = {
    "setting": "an input of the run: instance size, seed, budget, limit, option, command",
    "one-off": "a measurement (timing, count from a log) that no committed data file holds",
    "paper": "a number quoted from the paper being reproduced, not measured here",
    "reference": "a label, not a quantity: an equation or section number, a commit, a date",
}

_NUMBER = re.compile(r"\d+\.\d+|\d{2,}|\d+ ?%")
_CODE = re.compile(r"`[^`]*`")
_REF = re.compile(r"\b(?:Figs?|Tables?|Algs?|Algorithm|Theorems?|Lemmas?|Eqs?|Sections?|"
                  r"[Ii]ssues?|PR|Sec)\.?\s*\d+(?:\s*[-–,/]\s*\d+)*|§\s*\d+(?:\.\d+)*|"
                  r"(?:INFOCOM|JSAC|TCC|OSDI|NSDI|EuroSys|SoCC)'\d\d|"
                  # a paper's equation: "dual (19)-(20)", "LP(14)", "a MILP of (13)"
                  r"\b(?:LP|ILP|MILP|dual|of|constraints?|function|problem|exact|packing|or)"
                  r"\s*\(\d{1,2}\)"
                  r"(?:\s*[-–]\s*\(\d{1,2}\))?|"
                  r"(?<![\d.,])0\d\d(?!\d|\.\d)")  # a seed directory: "seed 002", "(000)"
_LINK = re.compile(r"\]\([^)]*\)")
_LINE = re.compile(r"<!--\s*unchecked:\s*([\w, -]+?)\s*-->")
_BEGIN = re.compile(r"^\s*<!--\s*unchecked-begin:\s*([\w, -]+?)\s*-->\s*$")
_END = re.compile(r"^\s*<!--\s*unchecked-end\s*-->\s*$")


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


def write_ups() -> list[str]:
    """Every write-up the scan reads by default, most-read first."""
    bench = ROOT / "benchmarks"
    return ["README.md"] + [str(p.relative_to(ROOT)) for name in ("README.md", "frontier.md")
                            for p in sorted(bench.glob(f"*/{name}"))]


def numbers(line: str) -> list[str]:
    """The numbers of a write-up line this scan asks a claim (or a marker) for."""
    for pat in (_CODE, _LINK, _REF):
        line = pat.sub(" ", line)
    return _NUMBER.findall(line)


def uncovered(modules, readmes=None) -> dict[str, list[str]]:
    """README path -> its numeric lines ("LINE: text") that no registered claim covers and no
    marker exempts, plus one line per malformed marker."""
    sentences, tables = _registered(modules)
    out = {}
    for readme in readmes or write_ups():
        lines, in_table, in_code, block, in_span = [], False, False, None, False
        for i, line in enumerate(_read(readme).splitlines(), 1):
            # an inline code span may wrap onto the next line: close it here, reopen there
            scan = ("`" if in_span else "") + line
            in_span = line.strip() != "" and scan.count("`") % 2 == 1
            scan += "`" if in_span else ""
            if line.startswith("```"):
                in_span = False
                in_code = not in_code
                continue
            if in_code:
                continue
            m = _BEGIN.match(line)
            if m:
                bad = [k for k in _kinds(m.group(1)) if k not in KINDS]
                if bad:
                    lines.append(f"{i}: unknown marker kind {bad[0]!r}: {line.strip()}")
                block = i
                continue
            if _END.match(line):
                if block is None:
                    lines.append(f"{i}: unchecked-end without a begin")
                block = None
                continue
            # a marker written inside inline code is documentation, not a marker
            marks = [k for m in _LINE.findall(_CODE.sub(" ", scan)) for k in _kinds(m)]
            bad = [k for k in marks if k not in KINDS]
            if bad:
                lines.append(f"{i}: unknown marker kind {bad[0]!r}: {line.strip()}")
            if block is not None or marks:
                continue
            if line.strip() in tables.get(readme, ()):
                in_table = True
                continue
            if in_table and line.startswith("|"):
                continue
            in_table = False
            if numbers(scan) and not _covered(_flat(line).strip(), sentences.get(readme, ()),
                                              scan.startswith("`") and not line.startswith("`")):
                lines.append(f"{i}: {line.strip()}")
        if block is not None:
            lines.append(f"{block}: unchecked-begin without an unchecked-end")
        out[readme] = lines
    return out


def _kinds(text: str) -> list[str]:
    return [k.strip() for k in text.split(",")]


def _covered(line: str, sentences, opens_in_code: bool = False) -> bool:
    """True when no number is left on the line once the parts that registered sentences fill
    in are cut out: a whole sentence inside the line, the line inside a sentence, or a sentence
    that starts (ends) on this line and wraps onto the next (from the previous) one.  Inline
    code left over is not a number (``opens_in_code``: the line starts inside a wrapped span)."""
    rest = line
    for s in sentences:
        if rest in s:
            return True
        if s in rest:
            rest = rest.replace(s, " ")
            continue
        n = _overlap(rest, s)  # the line's tail starts the sentence
        if n:
            rest = rest[:-n]
        n = _overlap(s, rest)  # the sentence's tail starts the line
        if n:
            rest = rest[n:]
    rest = ("`" if opens_in_code else "") + rest
    return not numbers(rest + ("`" if rest.count("`") % 2 else ""))


def _overlap(a: str, b: str, least: int = 8) -> int:
    """Length of the longest suffix of ``a`` that is a prefix of ``b`` (0 below ``least``)."""
    for n in range(min(len(a), len(b)), least - 1, -1):
        if a.endswith(b[:n]):
            return n
    return 0
