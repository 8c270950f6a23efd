"""The two kinds of claim a write-up makes about committed data, and how each is checked.

* :class:`Sentence`: a piece of README prose with holes, ``"alpha ... is {}-{} on"``; its
  function recomputes the holes' text from the data.  The filled-in text must occur in the
  README verbatim, so editing a number in the README (or the data under it) fails the check.
  When it does not occur, the template is matched with each hole as a wildcard to report the
  README's value beside the data's.
* :class:`Table`: a markdown table, found by its exact header row (and, when a README has
  several tables with that header, by a text that precedes it, ``after``).  Its function
  recomputes every row; rows are matched by their first ``key`` cells.  A computed float is
  compared with the first number of the README's cell at the README's printed precision (half a
  unit of its last digit); a string must equal the cell; ``None`` skips the cell (a value not
  in the committed data, e.g. a bracketed "before the fix" number is never compared because
  only the first number of a cell is).  A README row without a computed row fails too (a stray
  row from another figure), and so does a computed row the README lacks.

Numbers are formatted by the claim's own function exactly as the README prints them (helpers
``f1``-``f3``, ``half_up`` below).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[2]


def solu(family: str) -> dict[str, tuple]:
    """``instances/solu.csv`` rows of one family: name -> (objective, status, bound)."""
    from mlopt.instances import read_solu

    return {name: (r["objective"], r["status"], r["bound"])
            for name, r in read_solu(ROOT / "instances" / "solu.csv").items()
            if r["family"] == family}
def bracket_ends(solver: str) -> tuple[str, str]:
    """The two sources named in an ``instances bracket`` row's solver field, ``"mlopt bracket
    600s (LOW / HIGH)"``: (the low end's source, the high end's)."""
    inner = solver.split("(", 1)[1]
    assert inner.endswith(")"), solver
    low, high = inner[:-1].split(" / ")  # one ")" only: a source may end in one ("... (highs)")
    return low, high


def load_script(relpath: str, name: str):
    """A benchmark script (``benchmarks/<dir>/<file>.py``, not a package module) loaded by
    path, so a claim recomputes a table with the script's own code."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?", re.I)


@dataclass(frozen=True)
class Sentence:
    readme: str                                  # path relative to the repository root
    template: str                                # README text, "{}" where a value goes
    values: Callable[[], Sequence[str]]          # the holes' text, recomputed from data
    what: str = ""                               # short name in reports

    def check(self) -> list[str]:
        text = _read(self.readme)
        got = [str(v) for v in self.values()]
        want = _flat(self.template.format(*got))
        if want in _flat(text):
            return []
        pattern = re.escape(_flat(self.template)).replace(r"\{\}", "(.{1,80}?)")
        m = re.search(pattern, _flat(text))
        name = self.what or self.template[:60]
        if not m:
            return [f"{self.readme}: claim '{name}': text not found; data gives: {want!r}"]
        return [f"{self.readme}: claim '{name}': README says {list(m.groups())}, "
                f"data gives {got}"]


@dataclass(frozen=True)
class Table:
    readme: str
    header: str                                  # the header row, exactly as in the README
    rows: Callable[[], list[list]]               # every row, cells in the README's order
    key: int = 1                                 # leading cells that identify a row
    after: str | None = None                     # text preceding the table (disambiguates)
    what: str = ""

    def check(self) -> list[str]:
        name = self.what or self.header[:60]
        try:
            readme_rows = _table_rows(_read(self.readme), self.header, self.after)
        except LookupError as e:
            return [f"{self.readme}: table '{name}': {e}"]
        computed = {tuple(str(c) for c in r[:self.key]): r for r in self.rows()}
        seen = {}
        out = []
        for cells in readme_rows:
            k = tuple(_plain(c) for c in cells[:self.key])
            if k not in computed:
                out.append(f"{self.readme}: table '{name}': row {list(k)} is not in the data")
                continue
            seen[k] = True
            row = computed[k]
            if len(row) != len(cells):
                out.append(f"{self.readme}: table '{name}': row {list(k)} has {len(cells)} "
                           f"cells, data {len(row)}")
                continue
            for i, (want, cell) in enumerate(zip(row, cells)):
                if i < self.key or want is None:
                    continue
                bad = _cell_differs(want, cell)
                if bad:
                    out.append(f"{self.readme}: table '{name}': row {list(k)} column {i + 1}: "
                               f"README says {cell!r}, data gives {bad}")
        for k in computed:
            if k not in seen:
                out.append(f"{self.readme}: table '{name}': data row {list(k)} missing")
        return out


def _read(rel: str) -> str:
    return (ROOT / rel).read_text()


_MARKER = re.compile(r"[ \t]*<!--\s*unchecked(?:-begin|-end)?\b[^>]*-->")


def _flat(text: str) -> str:
    """Prose with line breaks and runs of spaces made single spaces (sentences wrap), without
    the ``<!-- unchecked: ... -->`` markers of `claims.uncovered` (a marker never splits a
    registered sentence)."""
    return re.sub(r"\s+", " ", _MARKER.sub("", text))


def _plain(cell: str) -> str:
    return cell.replace("**", "").replace("`", "").strip()


def _table_rows(text: str, header: str, after: str | None) -> list[list[str]]:
    start = 0
    if after is not None:  # a text on one README line before the table
        start = text.find(after)
        if start < 0:
            raise LookupError(f"preceding text {after!r} not found")
    lines = text[start:].splitlines()
    for i, line in enumerate(lines):
        if line.strip() == header.strip():
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise LookupError("header row not found")


def _cell_differs(want, cell: str) -> str | None:
    """None when the README's cell shows ``want``; else the data's value as text."""
    plain = _plain(cell)
    if isinstance(want, str):
        return None if plain == want else repr(want)
    m = _NUM.search(plain)
    if not m:
        return repr(want)
    s = m.group(0).replace(",", "")
    shown = float(s)
    mant = s.lower().split("e")[0]
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    exp = int(s.lower().split("e")[1]) if "e" in s.lower() else 0
    half = 0.5 * 10.0 ** (exp - decimals)
    return None if abs(float(want) - shown) <= half * (1 + 1e-9) + 1e-12 else repr(want)


# formatting helpers: the README's conventions
def f1(x) -> str:
    return f"{x:.1f}"


def f2(x) -> str:
    return f"{x:.2f}"


def f3(x) -> str:
    return f"{x:.3f}"


def half_up(x, decimals: int) -> str:
    """x as written in the data file (its shortest repr), rounded half up: 42.65 -> '42.7'
    (format() rounds the binary value, 42.649999..., down)."""
    from decimal import ROUND_HALF_UP, Decimal
    q = Decimal(1).scaleb(-decimals)
    return str(Decimal(repr(float(x))).quantize(q, rounding=ROUND_HALF_UP))
