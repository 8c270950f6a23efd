"""What the heterogeneous-WCT report says about its theory checks (:mod:`.theory`, seed 003)."""
from mlopt.families.base import ReportNotes

NOTES = ReportNotes(
    theory=("Theorem 5 on every A_online run: `bound` is 4 alpha with the alpha the run used; "
            "`within` counts runs whose ALG / (best lower bound on OPT) is at most 4 alpha. "
            "`checks` is Theorem 3 on every A_maxweight call: the dual (9) at the call's final "
            "prices over the weight admitted must stay within 2 log lambda. The theorem needs "
            "assumptions A1 and A2, which the paper assumes and never enforces; a violation "
            "with both held contradicts the theorem (`maxweight_violations_assumptions_held` "
            "in `extra.theory`), the others are explained by a broken assumption."),
    bound="4 alpha (Theorem 5)",
    checks="A_maxweight calls above 2 log lambda / calls",
)
