"""Window MILP sizes and solve times of harmony lns (one draw of 2, 4, 6, 8 freed jobs, 30 s
each): python benchmarks/harmony/lns_window_sizes.py WORKLOAD.json SCHEDULE.json"""
import time, sys, json
from mlopt.workload import Workload
from mlopt.schedule import Schedule
from mlopt.families import get_family
from mlopt.families.harmony.lns import lns_search, WindowLNS
from mlopt.families.harmony.local_search import _table
import numpy as np
w = Workload.load(sys.argv[1]); fam = get_family("harmony")
st = Schedule.load(sys.argv[2])
print("start", fam.check(w, st).objective, flush=True)
t=time.perf_counter(); eng = WindowLNS(w); print("init", time.perf_counter()-t, flush=True)
s,x=_table(w,st); eng.rp.total(s,x); done=eng.rp.done.copy()
print("tmax", done.max(), flush=True)
from mlopt.warmstart import solve_warm
rng=np.random.default_rng(0)
from mlopt.families.harmony.lns import _span
for k in (2,4,6,8):
    free=_span(eng,s,x,done,k,rng)
    t=time.perf_counter(); m=eng.build(s,x,done,free); tb=time.perf_counter()-t
    import pyomo.environ as pyo
    nv=sum(1 for _ in m.component_data_objects(pyo.Var)); nc=sum(1 for _ in m.component_data_objects(pyo.Constraint))
    r=solve_warm(m, eng.start(m,s,x,done), "highs", time_limit=30, threads=1)
    print(k, "build", round(tb,1), "vars", nv, "rows", nc, r.status.value, r.objective, r.bound, round(r.runtime_s,1), r.message, flush=True)
