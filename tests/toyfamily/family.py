"""The toy family's registration: everything by reference, as the built-in families do."""
from mlopt.families.base import Algorithm, Family, Formulation
from mlopt.params import Param

FAMILY = Family(
    name="toy",
    paper="none: unit jobs, one slot each, on GPU servers (a conformance-suite example)",
    sense="max",
    checker="toyfamily.checker:check",
    fields="toyfamily.fields:validate",
    generator="toyfamily.generator",
    formulations=[Formulation("unit_ilp", "toyfamily.model:build", "toyfamily.model:extract")],
    default_model="unit_ilp",
    algorithms_=[Algorithm("greedy", "toyfamily.greedy:run",
                           options={"order": Param.choice("value", ("value", "arrival"))}),
                 # an improvement search: bracket hands it the best schedule when it reruns
                 Algorithm("fill", "toyfamily.fill:run", role="reference",
                           options={"time_limit": Param.float(5.0, low=0.1, high=60.0)},
                           budget_option="time_limit", start_option="start")],
)
