"""Experiment specifications: a TOML file -> a validated :class:`Spec` of plain data.

Format (every table and key is checked; unknown keys are errors, so typos do not pass silently)::

    name = "oasis-small"            # optional, default: the file's stem
    family = "oasis"                # a registered family (mlopt.families)

    [[instances]]                   # one or more instance groups ([instances] also works)
    preset = "paper-fig5"           # a generator preset of the family
    seeds = [0, 1, 2]               # or seeds = { start = 0, count = 10 }
    params = { horizon = 10 }       # fixed generator parameters (optional)
    [instances.grid]                # cartesian product of these lists (optional)
    n_jobs = [4, 8]
    n_servers = [2, 4]

    [[algorithms]]                  # one entry per algorithm run; the same name twice needs
    name = "oasis"                  # distinct labels
    [[algorithms]]
    name = "oasis"
    label = "oasis-est"             # optional, unique; default: name (the results' method)
    options = { price_mode = "estimate", estimate_factor = 0.5 }   # keyword options

    [offline]
    method = "exact"                # "exact": the family's MILP via mlopt.solve; "bracket": the
                                    # best certified interval within time_limit (mlopt.bracket:
                                    # algorithms, bounds, the exact model, wall clock); "none"
    model = "utility_ilp"           # default: the family's default model
    model_options = {}              # keyword options for the model builder
    time_limit = 60.0               # seconds per MILP, or per bracket (default 60)
    mip_gap = 0.0                   # stop gap; 'optimal' is only reported when proven anyway
    bounds = ["lp_relaxation"]      # extra bounds on OPT, by name (strings or {name, options})
    verify = true                   # re-solve each optimum with a second solver (true: SCIP if
                                    # installed, else HiGHS with presolve off; or a solver name);
                                    # ratios are then point values only for verified optima

    [solver]
    name = "highs"                  # a registered solver backend (mlopt.solvers)
    threads = 1
    options = {}                    # passed verbatim to the backend

Generator parameters and algorithm / builder options are checked against the functions'
signatures (unless they take ``**kwargs``), so a misspelt name fails at parse time.
Bound methods are looked up first in the family's ``bounds`` dict (``getattr(family, "bounds",
{})``, name -> callable, see :mod:`mlopt.harness.tasks`) and then among the harness built-ins
(``lp_relaxation``: the LP relaxation of the offline model).

Every problem raises :class:`~mlopt.errors.InputError` naming the file and the field.
"""
from __future__ import annotations

import hashlib
import inspect
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mlopt import fileio, formats, limits
from mlopt.errors import InputError

OFFLINE_METHODS = ("exact", "bracket", "none")
MAX_TASKS = limits.MAX_TASKS


@dataclass(frozen=True)
class InstanceSpec:
    """One instance to generate: the family's ``preset(seed=seed, **params)``."""

    preset: str
    params: dict[str, Any]
    seed: int

    def params_json(self) -> str:
        return canonical_json(self.params)

    @property
    def instance_id(self) -> str:
        """Readable identity, e.g. ``small(capacity=0.5,n=6)#3``, or ``tiny#0`` without
        parameters."""
        inner = ",".join(f"{k}={json.dumps(v, sort_keys=True)}"
                         for k, v in sorted(self.params.items()))
        return f"{self.preset}({inner})#{self.seed}" if inner else f"{self.preset}#{self.seed}"


@dataclass(frozen=True)
class AlgorithmSpec:
    label: str  # unique within a spec; the ``method`` column of the results
    name: str  # registered algorithm name
    options: dict[str, Any]


@dataclass(frozen=True)
class BoundSpec:
    name: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Spec:
    name: str
    family: str
    groups: tuple[tuple[str, tuple[dict, ...], tuple[int, ...]], ...]  # (preset, params, seeds)
    algorithms: tuple[AlgorithmSpec, ...]
    offline_method: str
    model: str | None
    model_options: dict[str, Any]
    time_limit: float | None
    mip_gap: float
    bounds: tuple[BoundSpec, ...]
    solver: str
    threads: int | None
    solver_options: dict[str, Any]
    verify: str | None = None  # second solver for optima: None = off, "auto" or a backend name
    path: str | None = None
    source: str = field(default="", repr=False)

    def instances(self) -> list[InstanceSpec]:
        """All instances, in spec order, without duplicates."""
        seen, out = set(), []
        for preset, param_sets, seeds in self.groups:
            for params in param_sets:
                for seed in seeds:
                    inst = InstanceSpec(preset, dict(params), seed)
                    ident = (preset, inst.params_json(), seed)
                    if ident not in seen:
                        seen.add(ident)
                        out.append(inst)
        return out

    def method_config(self) -> dict[str, Any]:
        """Everything that determines the results of one instance (not which instances run)."""
        return {
            "family": self.family,
            "algorithms": [[a.label, a.name, a.options] for a in self.algorithms],
            "offline": {"method": self.offline_method, "model": self.model,
                        "model_options": self.model_options, "time_limit": self.time_limit,
                        "mip_gap": self.mip_gap,
                        # only when set, so that specs without it keep their fingerprints
                        **({"verify": self.verify} if self.verify else {})},
            "bounds": [[b.name, b.options] for b in self.bounds],
            "solver": {"name": self.solver, "threads": self.threads,
                       "options": self.solver_options},
        }

    def fingerprint(self) -> str:
        """Hash of :meth:`method_config`: results of two specs with equal fingerprints mix."""
        return hashlib.sha256(canonical_json(self.method_config()).encode()).hexdigest()[:16]


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


# ---- parsing ------------------------------------------------------------------------------------
def load_spec(path: str | Path) -> Spec:
    """Read and validate a TOML spec file."""
    return parse_spec(fileio.read_text(path, limits.MAX_TOML_BYTES), file=str(path))


def parse_spec(text: str, file: str | None = None) -> Spec:
    """Parse and validate spec text; errors name ``file`` and the field.

    Two passes with one error type: the declared format (:class:`mlopt.formats.SpecFile`:
    types, unknown keys, nesting), then the meaning (family, presets, every generator
    parameter and algorithm option by name and value, models, bounds, the solver and its
    options), all before anything runs."""
    data = fileio.parse_toml(text, file)
    family = data.get("family")
    if isinstance(family, str) and family:  # the most telling error first: an unknown family
        from mlopt.harness.tasks import resolve_family

        try:
            resolve_family(family)
        except InputError as err:
            raise InputError(err.message, file=file, field="family", value=family) from None
    formats.validate(formats.SpecFile, data, file)
    try:
        spec = _parse(data, default_name=Path(file).stem if file else "spec")
    except InputError as err:
        raise err.with_file(file) if file else err
    return Spec(**{**spec.__dict__, "path": file, "source": text})


def _unknown_keys(d: dict, allowed: tuple[str, ...], where: str) -> None:
    extra = sorted(set(d) - set(allowed))
    if extra:
        key = f"{where}.{extra[0]}" if where else extra[0]
        raise InputError(f"unknown key (allowed: {', '.join(allowed)})", field=key)


def _table(d: dict, key: str, where: str, required: bool = False) -> dict:
    full = f"{where}.{key}" if where else key
    if key not in d:
        if required:
            raise InputError("missing", field=full)
        return {}
    v = d[key]
    if not isinstance(v, dict):
        raise InputError("must be a table", field=full, value=v)
    return v


def _string(d: dict, key: str, where: str, default: Any = ..., ) -> Any:
    full = f"{where}.{key}" if where else key
    if key not in d:
        if default is ...:
            raise InputError("missing", field=full)
        return default
    v = d[key]
    if not isinstance(v, str) or not v:
        raise InputError("must be a non-empty string", field=full, value=v)
    return v


def _int(v: Any, full: str, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError("must be an integer", field=full, value=v)
    if v < minimum:
        raise InputError(f"must be >= {minimum}", field=full, value=v)
    return v


def _float(v: Any, full: str, *, minimum: float = 0.0, strict: bool = False,
           below: float | None = None) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InputError("must be a number", field=full, value=v)
    x = float(v)
    if not math.isfinite(x):
        raise InputError("must be finite", field=full, value=v)
    if x < minimum or (strict and x <= minimum):
        raise InputError(f"must be {'>' if strict else '>='} {minimum:g}", field=full, value=v)
    if below is not None and x >= below:
        raise InputError(f"must be < {below:g}", field=full, value=v)
    return x


def _json_value(v: Any, full: str) -> Any:
    """Options and parameters must be JSON-representable (they are stored and hashed)."""
    try:
        canonical_json(v)
    except (TypeError, ValueError):
        raise InputError("must be plain data (numbers, strings, booleans, lists, tables; "
                         "no dates, no nan/inf)", field=full, value=v) from None
    return v


def _accepts(fn: Callable, name: str) -> bool | None:
    """Whether ``fn`` accepts keyword ``name`` (None when its signature cannot be read)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = sig.parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return True
    return any(p.name == name and p.kind in (inspect.Parameter.KEYWORD_ONLY,
                                             inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for p in params)


def _check_kwargs(fn: Callable, names, where: str, what: str) -> None:
    for name in names:
        if _accepts(fn, name) is False:
            raise InputError(f"{what} does not take this parameter",
                             field=f"{where}.{name}" if where else name)


def _solve_param(name: str, value: Any, full: str) -> None:
    """The solve layer's range for ``name`` (:data:`mlopt.solve.SOLVE_PARAMS`)."""
    from mlopt.params import check_values
    from mlopt.solve import SOLVE_PARAMS

    try:
        check_values({name: SOLVE_PARAMS[name]}, {name: value})
    except InputError as err:
        raise InputError(err.message, field=full, value=value) from None


def _check_model_options(family, model: str | None, builder: Callable, options: dict) -> None:
    """``[offline] model_options``: the formulation's declared options (kind and range);
    otherwise the builder's keyword names and, by building the model once on the family's
    small probe preset, the values (a wrong type or range is an InputError here, not an error
    row in every task)."""
    if not options:
        return
    formulation = None
    if hasattr(family, "formulation"):
        try:
            formulation = family.formulation(model)
        except InputError:
            formulation = None
    declared = getattr(formulation, "options", None)
    if declared:
        from mlopt.params import check_values

        try:
            check_values(declared, options, where=f"model {formulation.name!r}")
        except InputError as err:
            raise _within(err, "offline.model_options") from None
        return
    _check_kwargs(builder, options, "offline.model_options", "the model builder")
    preset = getattr(family, "probe_preset", None)
    if not preset or not hasattr(family, "generate") or \
            preset not in getattr(family, "preset_names", ()):
        return
    from mlopt.families.base import _probe

    workload = family.generate(preset, seed=0)
    try:
        _probe(lambda: builder(workload, **options),
               f"building the model with these options on preset {preset!r}")
    except InputError as err:
        raise InputError(err.message, field="offline.model_options", value=options) from None


def _within(err: InputError, prefix: str) -> InputError:
    """``err`` with its field placed inside ``prefix`` (``n_jobs`` -> ``instances[0].params.n_jobs``)."""
    field = f"{prefix}.{err.field}" if err.field else prefix
    return InputError(err.message, field=field, value=err.value)


def _validate_params(family, gen: Callable, preset: str, params: dict) -> None:
    if hasattr(family, "validate_params"):
        family.validate_params(preset, params)
    else:  # a family-like object without the hooks: names only
        _check_kwargs(gen, params, "", f"preset {preset!r}")


def _parse(data: dict, default_name: str) -> Spec:
    from mlopt.harness.tasks import BUILTIN_BOUNDS, resolve_family

    _unknown_keys(data, ("name", "family", "instances", "algorithms", "offline", "solver"), "")
    name = _string(data, "name", "", default_name)
    family_name = _string(data, "family", "")
    try:
        family = resolve_family(family_name)
    except InputError as err:
        raise InputError(err.message, field="family", value=family_name) from None

    # -- instances
    raw = data.get("instances")
    if raw is None:
        raise InputError("missing: at least one [[instances]] group", field="instances")
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise InputError("must be a table or a non-empty array of tables", field="instances",
                         value=raw)
    groups = []
    n_tasks = 0
    for n, g in enumerate(raw):
        where = f"instances[{n}]"
        if not isinstance(g, dict):
            raise InputError("must be a table", field=where, value=g)
        _unknown_keys(g, ("preset", "seeds", "params", "grid"), where)
        preset = _string(g, "preset", where)
        try:
            gen = family.preset(preset)
        except InputError as err:
            raise InputError(err.message, field=f"{where}.preset", value=preset) from None
        seeds = _seeds(g.get("seeds"), f"{where}.seeds")
        fixed = _table(g, "params", where)
        grid = _table(g, "grid", where)
        for key, v in fixed.items():
            _json_value(v, f"{where}.params.{key}")
        axes = []
        for key, values in grid.items():
            full = f"{where}.grid.{key}"
            if key in fixed:
                raise InputError("given both in params and in grid", field=full)
            if not isinstance(values, list):
                raise InputError("must be a list of values (use params for a fixed value)",
                                 field=full, value=values)
            if not values:
                raise InputError("empty grid axis: no instances", field=full)
            _json_value(values, full)
            axes.append((key, values))
        if _accepts(gen, "seed") is False:
            raise InputError("generator does not take seed=", field=f"{where}.preset",
                             value=preset)
        n_tasks += math.prod(len(vals) for _, vals in axes) * len(seeds)
        if n_tasks > MAX_TASKS:  # before building the product
            raise InputError(f"more than {MAX_TASKS} tasks; split the spec", field=where)
        param_sets = []
        for combo in itertools.product(*[vals for _, vals in axes]):
            p = dict(fixed)
            p.update({k: v for (k, _), v in zip(axes, combo)})
            param_sets.append(p)
        for p in param_sets:  # every parameter, by name and value, before any task runs
            try:
                _validate_params(family, gen, preset, p)
            except InputError as err:
                key = err.field.split(".")[0].split("[")[0] if err.field else None
                part = "grid" if key in grid else "params"
                raise _within(err, f"{where}.{part}") from None
        groups.append((preset, tuple(param_sets), seeds))

    # -- algorithms
    raw_alg = data.get("algorithms", [])
    if not isinstance(raw_alg, list):
        raise InputError("must be an array of tables ([[algorithms]])", field="algorithms",
                         value=raw_alg)
    algorithms, labels = [], set()
    for n, a in enumerate(raw_alg):
        where = f"algorithms[{n}]"
        if isinstance(a, str):
            a = {"name": a}
        if not isinstance(a, dict):
            raise InputError("must be a table or a name", field=where, value=a)
        _unknown_keys(a, ("name", "label", "options"), where)
        aname = _string(a, "name", where)
        try:
            fn = family.algorithm(aname)
        except InputError as err:
            raise InputError(err.message, field=f"{where}.name", value=aname) from None
        label = _string(a, "label", where, aname)
        if label in labels:
            raise InputError("duplicate algorithm label (set label = ...)",
                             field=f"{where}.label", value=label)
        labels.add(label)
        options = _table(a, "options", where)
        _json_value(options, f"{where}.options")
        try:
            if hasattr(family, "validate_options"):
                family.validate_options(aname, options)
            else:  # a family-like object without the hooks: names only
                _check_kwargs(fn, options, "", f"algorithm {aname!r}")
        except InputError as err:
            raise _within(err, f"{where}.options") from None
        algorithms.append(AlgorithmSpec(label, aname, options))

    # -- solver
    sv = _table(data, "solver", "")
    _unknown_keys(sv, ("name", "threads", "options"), "solver")
    solver = _string(sv, "name", "solver", "highs")
    threads = _int(sv["threads"], "solver.threads", 1) if "threads" in sv else 1
    _solve_param("threads", threads, "solver.threads")
    solver_options = _table(sv, "options", "solver")
    _json_value(solver_options, "solver.options")

    # -- offline
    off = _table(data, "offline", "")
    _unknown_keys(off, ("method", "model", "model_options", "time_limit", "mip_gap", "bounds",
                        "verify"), "offline")
    method = _string(off, "method", "offline", "exact")
    if method not in OFFLINE_METHODS:
        raise InputError(f"must be one of {', '.join(OFFLINE_METHODS)}", field="offline.method",
                         value=method)
    model = _string(off, "model", "offline", None)
    model_options = _table(off, "model_options", "offline")
    _json_value(model_options, "offline.model_options")
    time_limit = (_float(off["time_limit"], "offline.time_limit", strict=True)
                  if "time_limit" in off else 60.0)
    mip_gap = (_float(off["mip_gap"], "offline.mip_gap", below=1.0) if "mip_gap" in off
               else 0.0)
    _solve_param("time_limit", time_limit, "offline.time_limit")
    bounds = _bounds(off.get("bounds", []), family, BUILTIN_BOUNDS)
    verify = _verify(off.get("verify", False), method)

    needs_model = method in ("exact", "bracket") or any(b.name == "lp_relaxation" and
                                           b.name not in getattr(family, "bounds", {})
                                           for b in bounds)
    if needs_model:
        try:
            builder = family.model(model)
        except InputError as err:
            raise InputError(err.message, field="offline.model",
                             value=model or family.default_model) from None
        _check_model_options(family, model, builder, model_options)
        mname = model or family.default_model
        if method in ("exact", "bracket") and mname not in family.extract:
            raise InputError(f"family {family.name} has no schedule extractor for this model",
                             field="offline.model", value=mname)
        model = mname
    if method in ("exact", "bracket") or bounds or solver_options:  # options: still refused
        from mlopt.solvers import get_backend

        try:
            backend = get_backend(solver)
        except InputError as err:
            raise InputError(err.message, field="solver.name", value=solver) from None
        try:
            backend.check_options(solver_options)
        except InputError as err:
            raise _within(err, "solver.options") from None
    if not algorithms and method == "none" and not bounds:
        raise InputError("nothing to run: no algorithms, no offline method, no bounds",
                         field="algorithms")

    return Spec(name=name, family=family.name, groups=tuple(groups),
                algorithms=tuple(algorithms), offline_method=method, model=model,
                model_options=model_options, time_limit=time_limit, mip_gap=mip_gap,
                bounds=tuple(bounds), solver=solver, threads=threads,
                solver_options=solver_options, verify=verify)


def _verify(raw: Any, method: str) -> str | None:
    """``[offline] verify``: false (default), true (= "auto") or an installed solver's name."""
    if raw is False:
        return None
    if method == "bracket":  # a bracket verifies a solver's optimum itself
        raise InputError("a bracket verifies every optimum it reports (drop offline.verify)",
                         field="offline.verify", value=raw)
    if method != "exact":
        raise InputError("needs offline.method = \"exact\"", field="offline.verify", value=raw)
    if raw is True:
        return "auto"
    if not isinstance(raw, str) or not raw:
        raise InputError("must be true, false or a solver name", field="offline.verify",
                         value=raw)
    if raw != "auto":
        from mlopt.solvers import get_backend

        try:
            get_backend(raw)
        except InputError as err:
            raise InputError(err.message, field="offline.verify", value=raw) from None
    return raw


def _seeds(raw: Any, full: str) -> tuple[int, ...]:
    if raw is None:
        raise InputError("missing", field=full)
    if isinstance(raw, dict):
        _unknown_keys(raw, ("start", "count"), full)
        start = _int(raw.get("start", 0), f"{full}.start", 0)
        if "count" not in raw:
            raise InputError("missing", field=f"{full}.count")
        count = _int(raw["count"], f"{full}.count", 1)
        return tuple(range(start, start + count))
    if not isinstance(raw, list):
        raise InputError("must be a list of integers or {start, count}", field=full, value=raw)
    if not raw:
        raise InputError("empty list of seeds: no instances", field=full)
    seeds = tuple(_int(s, f"{full}[{i}]", 0) for i, s in enumerate(raw))
    if len(set(seeds)) != len(seeds):
        raise InputError("duplicate seed", field=full, value=raw)
    return seeds


def _bounds(raw: Any, family, builtin: dict) -> list[BoundSpec]:
    if not isinstance(raw, list):
        raise InputError("must be a list of bound method names", field="offline.bounds",
                         value=raw)
    known = {**builtin, **getattr(family, "bounds", {})}
    out, names = [], set()
    for n, b in enumerate(raw):
        where = f"offline.bounds[{n}]"
        if isinstance(b, str):
            b = {"name": b}
        if not isinstance(b, dict):
            raise InputError("must be a name or a table {name, options}", field=where, value=b)
        _unknown_keys(b, ("name", "options"), where)
        bname = _string(b, "name", where)
        if bname not in known:
            raise InputError(f"unknown bound method for family {family.name} (known: "
                             f"{', '.join(sorted(known)) or 'none'})", field=f"{where}.name",
                             value=bname)
        if bname in names:
            raise InputError("duplicate bound method", field=f"{where}.name", value=bname)
        names.add(bname)
        options = _table(b, "options", where)
        _json_value(options, f"{where}.options")
        out.append(BoundSpec(bname, options))
    return out
