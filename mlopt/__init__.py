"""mlopt: optimization models, online algorithms and an independent checker for scheduling
distributed ML training jobs, built on five published scheduling systems."""
from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.solve import SolveResult, Status, Verification, solve, verify
from mlopt.workload import Job, Server, Workload

__version__ = "0.1.0"
__all__ = ["InputError", "Job", "Schedule", "Server", "SolveResult", "Status", "Verification",
           "Workload", "solve", "verify"]
