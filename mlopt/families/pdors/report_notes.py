"""What the PD-ORS report says about its diagnostics (:mod:`.theory`, seed 004)."""
from mlopt.families.base import ReportNotes

NOTES = ReportNotes(
    theory=("Seed 004 states no competitive theorem, so no bound is claimed and `within` is "
            "empty. The diagnostics in `extra.theory` (the dual objective at the run's prices, "
            "OASiS's 2 alpha for reference, rounding statistics of the oracle) describe the "
            "run; none is a certificate."),
    bound="none (no theorem in seed 004)",
    checks="per-step checks (none stated)",
    algorithms={"pdors_no_internal": "ablation: PD-ORS without Alg. 4's co-location case"},
)
