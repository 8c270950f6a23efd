"""What the Harmony report says (seed 002 states no competitive theorem)."""
from mlopt.families.base import ReportNotes

NOTES = ReportNotes(
    theory=("Seed 002 is a learned scheduler and states no competitive theorem: no algorithm "
            "of this family has theory checks."),
    algorithms={"milp_greedy": ("reference, not the paper's: the per-interval MILP with the "
                                "known speed model")},
)
