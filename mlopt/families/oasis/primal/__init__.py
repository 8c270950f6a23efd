"""Primal heuristics on the OASiS schedule-based master (14): local search in the residual
cluster (:mod:`.local_search`) alternated with the restricted-master MIP
(:mod:`.price_and_branch`), run by column generation (:mod:`mlopt.families.oasis.bounds.colgen`);
the split of a class-merged schedule onto the real servers (:mod:`.disaggregate`), run by
the class relaxation (:mod:`mlopt.families.oasis.bounds.class_relaxation`); and fix-and-resolve
on the utility ILP (:mod:`.lns`), the registered algorithm ``lns``."""
