"""What the edge-cloud report says about its theory checks (:mod:`.theory`, seed 001
Sec. IV-E) and about speed augmentation."""
from mlopt.families.base import ReportNotes

NOTES = ReportNotes(
    theory=("Theorem 3 on every A_online run: `bound` is D_max (1 + 1/eps), the ratio the "
            "paper proves for A_online at speed 1 + eps against OPT at speed 1; at eps = 0 "
            "the theorem promises nothing and the bound is `inf`. `within` counts runs whose "
            "ALG / (best lower bound on OPT) is at most that bound. `checks` counts the dual "
            "constraints (6) of the proof, alpha_jd <= (t - r_j) / D_j + p_js beta'_w(t), per "
            "job, eligible edge worker and slot, that fail with the run's alpha and beta / "
            "(1 + eps): the proof's dual fitting, not the schedule, so a violation says the "
            "proof's dual point is infeasible on this instance (the schedule stays checked and "
            "its objective stays the checker's); at eps = 0 the proof claims nothing, so "
            "violations there are expected. Runs at eps > 0 are checked at speed 1 + eps and "
            "can beat OPT at speed 1 (ratio < 1)."),
    bound="D_max (1 + 1/eps) (Theorem 3; inf at eps = 0)",
    checks="dual (6) constraints violated / checked",
    algorithms={"a_online_e": "A_online on edge servers only (no cloud)"},
)
