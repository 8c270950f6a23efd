"""benchmarks/verify_claims.py: every registered number of the write-ups matches the committed
data, and the checker itself catches the edits it exists for."""
from __future__ import annotations

import importlib.util
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def _verify():
    spec = importlib.util.spec_from_file_location("verify_claims",
                                                  ROOT / "benchmarks" / "verify_claims.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # puts benchmarks/ on sys.path for the ``claims`` package
    return mod


VERIFY = _verify()
from claims.core import Sentence, Table  # noqa: E402


def test_every_write_up_claim_matches_the_committed_data():
    n, bad = VERIFY.problems()
    assert n >= 50
    assert not bad, "\n".join(bad)


def test_every_family_write_up_has_a_registry():
    import claims
    fams = {p.parent.name for p in ROOT.glob("mlopt/families/*/family.py")}
    assert fams <= set(claims.MODULES)
    for mod in set(claims.MODULES) - {"summary"}:
        assert (ROOT / "benchmarks" / mod / "README.md").exists()
    assert VERIFY.main(["nosuchmodule"]) == 2


def _readme(tmp_path: Path, text: str) -> str:
    p = tmp_path / "README.md"
    p.write_text(text)
    return str(p)  # absolute: ROOT / absolute path is that path


def test_sentence_names_both_values_when_the_readme_drifts(tmp_path):
    # data: 3 of 4 -> 75%; the README was edited to 80%
    r = _readme(tmp_path, "It wins on 3 of\n4 seeds (80%).\n")
    c = Sentence(r, "wins on {} of {} seeds ({})", lambda: ["3", "4", "75%"], what="wins")
    [msg] = c.check()
    assert "README.md" in msg and "'wins'" in msg
    assert "['3', '4', '80%']" in msg and "['3', '4', '75%']" in msg
    assert Sentence(r, "wins on {} of {} seeds (80%)", lambda: ["3", "4"]).check() == []


def test_sentence_whose_text_is_gone_fails(tmp_path):
    r = _readme(tmp_path, "nothing here\n")
    [msg] = Sentence(r, "wins on {} seeds", lambda: ["3"]).check()
    assert "text not found" in msg and "wins on 3 seeds" in msg


TABLE = """intro
| x | a | b |
|---|---|---|
| 1 | 0.25 | **2.0** (1.9 before) |
| 2 | 1.5e+06 | yes |
"""


def test_table_compares_at_printed_precision(tmp_path):
    r = _readme(tmp_path, TABLE)
    # 0.2549 prints as 0.25 (half a unit of the last digit: 0.005); 1.54e6 as 1.5e+06
    ok = Table(r, "| x | a | b |", lambda: [["1", 0.2549, 2.04], ["2", 1.54e6, "yes"]])
    assert ok.check() == []
    bad = Table(r, "| x | a | b |", lambda: [["1", 0.256, 2.0], ["2", 1.56e6, "no"]],
                what="t")
    msgs = bad.check()
    assert len(msgs) == 3
    assert any("row ['1'] column 2: README says '0.25', data gives 0.256" in m for m in msgs)
    assert any("row ['2'] column 3" in m and "'no'" in m for m in msgs)


def test_table_flags_stray_and_missing_rows(tmp_path):
    r = _readme(tmp_path, TABLE)
    msgs = Table(r, "| x | a | b |", lambda: [["1", 0.25, 2.0], ["3", 1.0, "yes"]]).check()
    assert any("row ['2'] is not in the data" in m for m in msgs)
    assert any("data row ['3'] missing" in m for m in msgs)


def test_table_is_found_after_its_caption(tmp_path):
    r = _readme(tmp_path, "first:\n" + TABLE + "\nsecond:\n" + TABLE.replace("0.25", "0.75"))
    t = Table(r, "| x | a | b |", lambda: [["1", 0.75, 2.0], ["2", 1.5e6, "yes"]],
              after="second:")
    assert t.check() == []
    assert Table(r, "| x | a | b |", lambda: [], after="third:").check()[0].endswith(
        "preceding text 'third:' not found")


def test_a_claim_that_raises_is_reported_not_fatal(monkeypatch):
    import claims.hetero as h
    monkeypatch.setattr(h, "CLAIMS", [Sentence(h.README, "{}", lambda: 1 / 0, what="boom")])
    n, bad = VERIFY.problems(["hetero"])
    assert n == 1 and "ZeroDivisionError" in bad[0] and "'boom'" in bad[0]


def test_editing_a_number_in_a_real_write_up_fails(monkeypatch):
    """The committed hetero write-up with one quoted number changed (Theorem 5's alpha on
    `tiny`, 40-62 from the committed instances) fails, naming the file and both values."""
    import claims.core as core
    real = core._read

    def edited(rel):
        text = real(rel)
        return text.replace("is 40-62 on the committed `tiny`", "is 40-63 on the committed `tiny`")

    monkeypatch.setattr(core, "_read", edited)
    n, bad = VERIFY.problems(["hetero"])
    assert len(bad) == 1, bad
    assert bad[0].startswith("benchmarks/hetero/README.md: claim 'Theorem 5 alpha'")
    assert "'40', '63'" in bad[0] and "'40', '62'" in bad[0]


MARKED = """# write-up
| budget | value |
|---|---|
| 60 s | x |

It runs 60 s per seed on 12 servers. <!-- unchecked: setting -->
A_online is 1.23x the optimum on 17 of 18 instances.
The paper reports 62% fewer slots. <!-- unchecked: paper -->
<!-- unchecked-begin: setting -->
| servers | jobs |
|---|---|
| 12 | 60 |
<!-- unchecked-end -->
Took 3.5 s once. <!-- unchecked: setting, oneoff -->
See Fig. 12-13 and `mlopt solve --time-limit 600` (issue 23, JSAC'22).
"""


def test_uncovered_honours_markers_and_lists_unmarked_results(tmp_path):
    from claims.uncovered import uncovered
    r = _readme(tmp_path, MARKED)
    lines = uncovered([], [r])[r]
    # line 4: an unregistered table row; 7: a result line with no marker; 14: a typo in the
    # kind (oneoff) hides nothing; marked lines 6, 8 and the block 9-13 are not listed, nor is
    # line 15 (references and inline code only)
    assert [int(x.split(":")[0]) for x in lines] == [4, 7, 14], lines
    assert "17 of 18" in lines[1] and "unknown marker kind 'oneoff'" in lines[2]


def test_unclosed_marker_block_is_a_problem(tmp_path):
    from claims.uncovered import uncovered
    r = _readme(tmp_path, "<!-- unchecked-begin: setting -->\n12 servers\n")
    assert uncovered([], [r])[r] == ["1: unchecked-begin without an unchecked-end"]


def test_a_marker_does_not_split_a_registered_sentence(tmp_path):
    # the sentence wraps over a marked line: the marker is removed before matching
    r = _readme(tmp_path, "wins on 3 of 4 <!-- unchecked: setting -->\nseeds (75%)\n")
    assert Sentence(r, "wins on {} of 4 seeds ({})", lambda: ["3", "75%"]).check() == []


def test_a_wrapped_sentence_covers_only_its_own_numbers(tmp_path):
    from claims.uncovered import _covered
    s = ["A_online is 0-22% above the optimum where it is proven"]
    assert _covered("* **Edge-cloud**: A_online is 0-22% above the", s)
    assert _covered("optimum where it is proven, on 18 instances", s) is False
    assert _covered("optimum where it is proven.", s)


def test_inline_code_wrapping_onto_the_next_line_is_not_a_number(tmp_path):
    from claims.uncovered import uncovered
    r = _readme(tmp_path, "costs `a + 2 * 8 / (1000 *\nb)` seconds; 42 jobs\n")
    assert uncovered([], [r])[r] == ["2: b)` seconds; 42 jobs"]


def test_every_write_up_has_no_unchecked_numbers():
    """Every number of every write-up (the top-level README, each benchmarks/*/README.md and
    frontier.md) is a registered claim or marked as a setting, one-off, paper figure or
    reference: a new number there needs one or the other."""
    import claims
    from claims.uncovered import uncovered
    found = uncovered(claims.MODULES)  # default: every write-up (claims.uncovered.write_ups)
    assert len(found) >= 13
    assert {f: lines for f, lines in found.items() if lines} == {}


def test_a_marker_quoted_in_inline_code_marks_nothing(tmp_path):
    from claims.uncovered import uncovered
    r = _readme(tmp_path, "write `<!-- unchecked: setting -->` after 42 servers\n")
    assert uncovered([], [r])[r] == ["1: write `<!-- unchecked: setting -->` after 42 servers"]
