"""Documented upper limits on inputs: far above any real instance, low enough that an absurd
value is rejected with a clear error instead of hanging mlopt or exhausting memory.

Every loader (workload, schedule, spec, CSV import, generator parameters) checks against these
constants; an input beyond one raises :class:`~mlopt.errors.InputError` naming the file, the
field and the value.  They are module constants on purpose (read when :mod:`mlopt.formats` is
imported, which builds the file formats with them): a user with a genuinely larger instance can
raise one in a fork, and the tests refer to them by name.

Scale of real instances, for comparison: the OASiS paper uses T <= 300 slots, 100 servers and
a few hundred jobs; a three-month trace at 10-minute slots is about 13,000 slots.
"""
from __future__ import annotations

#: time slots in a horizon (T); also the largest slot a schedule may name
MAX_HORIZON = 100_000
#: jobs in one workload (and job ids a schedule may admit)
MAX_JOBS = 100_000
#: servers in one workload
MAX_SERVERS = 10_000
#: resource kinds in one workload
MAX_RESOURCES = 64
#: horizon x servers x resource kinds: the size of one dense capacity/usage table (160 MB of
#: float64), which online algorithms and checkers keep a few of
MAX_CELLS = 20_000_000
#: integer job quantities: epochs, chunks, mini-batches (fit in 64 bits with room for products)
MAX_COUNT = 1_000_000_000
#: real quantities: seconds, megabytes, resource amounts, bandwidths, utility parameters
MAX_VALUE = 1e12
#: allocation rows in one schedule file
MAX_SCHEDULE_ROWS = 20_000_000
#: nesting depth of free-form data (``meta``, ``extra``, options)
MAX_DEPTH = 32
#: bytes of one JSON file (workload, schedule) and of one spec / manifest (TOML)
MAX_JSON_BYTES = 1 << 30
MAX_TOML_BYTES = 16 << 20
#: tasks (instances x seeds) in one experiment spec
MAX_TASKS = 1_000_000
#: length of a name or id
MAX_NAME = 1_000


def describe() -> dict[str, float]:
    """All limits by name (for ``mlopt schema`` and the README)."""
    return {k: v for k, v in globals().items() if k.startswith("MAX_")}
