"""What the OASiS report says about its theory checks (:mod:`.theory`, seed 000 Sec. IV-D)."""
from mlopt.families.base import ReportNotes

NOTES = ReportNotes(
    theory=("Theorem 4 on every OASiS run: `bound` is 2 alpha with alpha = max_r(1, ln U_1^r / "
            "L_1, ln U_2^r / L_2) from the price parameters the run used (oracle or estimated); "
            "`within` counts runs whose OPT / ALG upper end is at most 2 alpha. `checks` is "
            "Lemma 2 along the run, P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha per arriving job "
            "(one check per job). Theorem 4 assumes w_i^r << c_h^r; a violation means that "
            "assumption or the code is broken and is listed with its jobs in the results "
            "store's `extra.theory`, never hidden."),
    bound="2 alpha (Theorem 4)",
    checks="Lemma 2 violations / jobs checked",
)
