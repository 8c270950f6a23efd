"""The file formats mlopt reads, declared once: workload and schedule JSON, experiment specs.

Each format is a pydantic model in strict mode.  Loading a file validates it against its model
first; every problem becomes one :class:`~mlopt.errors.InputError` naming the file, the field
(``jobs[3].epochs``) and the value.  What the models enforce, for every producer alike:

* **types exactly**: a number given as a string (``"5"``) or a boolean, ``null`` or a list where a
  name is expected, a fractional slot or count of epochs (2.5) are errors; an integral float
  (``3.0``) is accepted where an integer is expected (other tools write them);
* **no unknown keys**, except inside the free-form ``extra`` dicts (``Job.extra``,
  ``Workload.extra``: family-specific fields, checked by each family's ``validate``) and ``meta``;
* **limits** (:mod:`mlopt.limits`): horizon, numbers of jobs/servers/resources, counts and real
  quantities far above any real instance, so an absurd value fails here instead of hanging a
  solver or exhausting memory; free-form data nests at most ``MAX_DEPTH`` deep.

Rules that relate fields (resource names, arrival <= horizon, a worker fits some server...) are
checked after the model, in :mod:`mlopt.workload` and :mod:`mlopt.schedule`, with the same error.
``json_schema(name)`` publishes each model as JSON Schema (``mlopt schema workload``), so other
tools can validate mlopt's files.
"""
from __future__ import annotations

import copy
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field,
                      TypeAdapter, ValidationError, WithJsonSchema)

from mlopt import limits
from mlopt.errors import InputError
from mlopt.fileio import depth


# ---- value types --------------------------------------------------------------------------------
def _integral(v: Any) -> Any:
    """3.0 -> 3 (other tools write integral floats); 2.5, "3" and True stay and fail strictly."""
    if isinstance(v, float) and v.is_integer():
        if abs(v) > 2.0**53:  # no longer an exact integer: nonsense for a count or a slot
            raise ValueError("too large for an exact integer (see mlopt.limits)")
        return int(v)
    return v


def Int(ge: int, le: int) -> Any:  # noqa: N802 - a type factory
    """A strict integer type in [ge, le] that accepts integral floats (pydantic)."""
    return Annotated[Annotated[int, Field(ge=ge, le=le, strict=True)], BeforeValidator(_integral)]


def Num(*, ge: float | None = None, gt: float | None = None,
        le: float = limits.MAX_VALUE) -> Any:  # noqa: N802 - a type factory
    """A strict finite number type with the given bounds (pydantic)."""
    return Annotated[float, Field(ge=ge, gt=gt, le=le, strict=True, allow_inf_nan=False)]


def _shallow(v: Any) -> Any:
    if depth(v) > limits.MAX_DEPTH:
        raise ValueError(f"nested more than {limits.MAX_DEPTH} deep")
    return v


Name = Annotated[str, Field(min_length=1, max_length=limits.MAX_NAME, strict=True)]
Quantity = Num(ge=0.0, le=limits.MAX_VALUE)
Positive = Num(gt=0.0)
Slot = Int(1, limits.MAX_HORIZON)
Count = Int(1, limits.MAX_COUNT)
Seed = Int(0, 2**32 - 1)
FreeDict = Annotated[dict[str, Any], AfterValidator(_shallow)]
Resources = Annotated[dict[Name, Quantity], Field(max_length=limits.MAX_RESOURCES)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ---- workload -----------------------------------------------------------------------------------
class ServerFile(_Strict):
    id: Name
    role: Literal["worker", "ps", "any"] = Field(
        description="hosts workers, parameter servers, or any (co-location)")
    capacity: Resources = Field(description="one amount per declared resource")
    kind: Name | None = Field(None, description="instance type, informational")
    location: Name | None = Field(None, description="e.g. edge / cloud, for papers that need it")


class JobFile(_Strict):
    id: Name
    arrival: Slot = Field(description="a_i: slot in 1..horizon")
    epochs: Count = Field(description="E_i")
    chunks: Count = Field(description="N_i, data chunks (also the cap on concurrent workers)")
    minibatches: Count = Field(description="M_i, mini-batches per chunk")
    minibatch_seconds: Quantity = Field(description="tau_i, seconds of compute per mini-batch")
    gradient_mb: Quantity = Field(description="e_i, megabytes exchanged per mini-batch")
    worker_demand: Resources = Field(description="w_i^r per worker; bandwidth_gbps is b_i")
    ps_demand: Resources = Field(description="s_i^r per parameter server; bandwidth_gbps is B_i")
    utility: FreeDict = Field(description="f_i of the job's duration: {kind, parameters}")
    extra: FreeDict = Field(default_factory=dict,
                            description="family-specific fields, checked by the family")


class WorkloadFile(_Strict):
    schema_version: Literal[1]
    name: Name = "workload"
    horizon: Slot = Field(description="T, number of slots")
    slot_seconds: Positive = Field(description="length of one slot in seconds")
    resources: Annotated[list[Name], Field(min_length=1, max_length=limits.MAX_RESOURCES)]
    servers: Annotated[list[ServerFile], Field(min_length=1, max_length=limits.MAX_SERVERS)]
    jobs: Annotated[list[JobFile], Field(max_length=limits.MAX_JOBS)]
    meta: FreeDict = Field(default_factory=dict, description=(
        "provenance: generator, seed, parameters; family (a name) is the family to use"))
    extra: FreeDict = Field(default_factory=dict,
                            description="family-specific cluster-level data, in the content hash")


# ---- schedule -----------------------------------------------------------------------------------
class ScheduleFile(_Strict):
    schema_version: Literal[1]
    admitted: Annotated[list[Name], Field(max_length=limits.MAX_JOBS)]
    columns: Annotated[list[Name], Field(min_length=5, max_length=64, description=(
        "column names; must include job, slot, server, role, count (a family may add more)"))]
    rows: Annotated[list[list[Any]], Field(max_length=limits.MAX_SCHEDULE_ROWS, description=(
        "one list per row, in column order: job (string), slot (integer 1..MAX_HORIZON), "
        "server (string), role (string), count (number), then any extra columns"))]
    meta: FreeDict = Field(default_factory=dict, description=(
        "producer, parameters (no timings); family and workload (the workload's content hash), "
        "which mlopt check compares"))


#: per core column: the type of its values (extra columns hold any JSON value)
SCHEDULE_COLUMN_TYPES: dict[str, Any] = {
    "job": Name, "slot": Slot, "server": Name, "role": Name,
    # the checker, not the parser, decides whether a fractional or negative count is a violation
    "count": Num(ge=-limits.MAX_VALUE),
}
_COLUMN_ADAPTERS = {c: TypeAdapter(list[t]) for c, t in SCHEDULE_COLUMN_TYPES.items()}


def validate_columns(columns: list[str], rows: list[list[Any]]) -> None:
    """Check the core columns' values column by column (fast on millions of rows)."""
    for c, adapter in _COLUMN_ADAPTERS.items():
        i = columns.index(c)
        try:
            adapter.validate_python([r[i] for r in rows])
        except ValidationError as err:
            e = err.errors(include_url=False)[0]
            n = e["loc"][0] if e["loc"] else 0
            raise InputError(_message(e), field=f"rows[{n}].{c}", value=e.get("input")) from None


# ---- specs --------------------------------------------------------------------------------------
Plain = Annotated[Any, AfterValidator(_shallow)]
Options = Annotated[dict[Name, Plain], Field(description="keyword options, checked by name")]


TaskCount = Int(1, limits.MAX_TASKS)
Threads = Int(1, 1024)
TimeLimit = Num(gt=0.0, le=1e9)
Gap = Annotated[float, Field(ge=0.0, lt=1.0, strict=True, allow_inf_nan=False)]


class SeedRange(_Strict):
    start: Seed = 0
    count: TaskCount


class InstanceGroup(_Strict):
    preset: Name
    seeds: SeedRange | Annotated[list[Seed], Field(min_length=1)]
    params: Options = Field(default_factory=dict, description="fixed generator parameters")
    grid: dict[Name, Annotated[list[Plain], Field(min_length=1)]] = Field(
        default_factory=dict, description="cartesian product of these lists")


class AlgorithmEntry(_Strict):
    name: Name
    label: Name | None = None
    options: Options = Field(default_factory=dict)


class BoundEntry(_Strict):
    name: Name
    options: Options = Field(default_factory=dict)


class OfflineTable(_Strict):
    method: Literal["exact", "bracket", "none"] = "exact"
    model: Name | None = None
    model_options: Options = Field(default_factory=dict)
    time_limit: TimeLimit = 60.0
    mip_gap: Gap = 0.0
    bounds: list[Name | BoundEntry] = Field(default_factory=list)
    # checked with the solver registry in mlopt.harness.spec (its message names the choices)
    verify: Annotated[Any, WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "string"}]})] \
        = Field(False, description=(
            "re-solve each optimum with a second solver: true (SCIP if installed, else HiGHS "
            "without presolve) or a solver name"))


class SolverTable(_Strict):
    name: Name = "highs"
    threads: Threads = 1
    options: Options = Field(default_factory=dict, description="checked by name per backend")


class SpecFile(_Strict):
    name: Name | None = None
    family: Name
    instances: InstanceGroup | Annotated[list[InstanceGroup], Field(min_length=1)]
    algorithms: list[Name | AlgorithmEntry] = Field(default_factory=list)
    offline: OfflineTable = Field(default_factory=OfflineTable)
    solver: SolverTable = Field(default_factory=SolverTable)


# ---- validation and errors ----------------------------------------------------------------------
M = TypeVar("M", bound=BaseModel)


_TYPE_TAGS = {"str", "int", "float", "bool", "dict", "list", "none", "constrained-str",
              "constrained-int", "constrained-float", "literal"}


def _is_tag(part: str) -> bool:
    """pydantic names the branch of a union (``str``, ``SeedRange``, ``list[int]``) in an error's
    location; those are not fields."""
    return ("[" in part or part in _TYPE_TAGS
            or part in {m.__name__ for m in _Strict.__subclasses__()})


def _field(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _is_tag(str(part)):
            out += f".{part}" if out else str(part)
    return out


_MESSAGES = {
    "int_type": "must be an integer", "int_from_float": "must be an integer",
    "int_parsing": "must be an integer", "float_type": "must be a number",
    "float_parsing": "must be a number", "finite_number": "must be finite",
    "string_type": "must be a string", "dict_type": "must be an object",
    "list_type": "must be a list", "model_type": "must be an object",
    "bool_type": "must be true or false", "missing": "missing",
}


_KINDS = {"model_type": "an object", "dict_type": "an object", "list_type": "a list",
          "string_type": "a string", "int_type": "an integer", "float_type": "a number",
          "bool_type": "true or false"}


def _message(e: dict, allowed: list[str] | None = None) -> str:
    kind, ctx = e["type"], e.get("ctx") or {}
    if kind == "extra_forbidden":
        return f"unknown key (allowed: {', '.join(allowed)})" if allowed else "unknown key"
    if kind in ("less_than_equal", "less_than") and ("le" in ctx or "lt" in ctx):
        return f"above the limit {ctx.get('le', ctx.get('lt')):,} (see mlopt.limits)"
    if kind == "greater_than_equal":
        return f"must be >= {ctx['ge']:g}"
    if kind == "greater_than":
        return f"must be > {ctx['gt']:g}"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '')}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"longer than {ctx.get('max_length'):,} characters (see mlopt.limits)"
    if kind == "too_short":
        return f"must have at least {ctx.get('min_length')} item(s)"
    if kind == "too_long":
        return f"more than {ctx.get('max_length'):,} items (see mlopt.limits)"
    msg = _MESSAGES.get(kind)
    if msg is None:
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        msg = msg[0].lower() + msg[1:] if msg else kind
    return msg + " (got null)" if e.get("input", ...) is None and kind != "missing" else msg


def _allowed(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """The keys the object at ``loc`` may have (for an unknown-key error)."""
    for part in loc[:-1]:
        if isinstance(part, int) or _is_tag(str(part)):
            continue
        field = model.model_fields.get(part)
        if field is None:
            return None
        inner = [a for a in _walk(field.annotation) if isinstance(a, type)
                 and issubclass(a, BaseModel)]
        if not inner:
            return None
        model = inner[0]
    return list(model.model_fields)


def _walk(tp: Any):
    import typing

    yield tp
    for arg in typing.get_args(tp):
        yield from _walk(arg)


def _best_error(errors: list[dict]) -> dict:
    """For a union (a name or a table, a range or a list) pydantic reports every branch; the one
    that got deepest into the value is the one the user meant."""
    return max(errors, key=lambda e: (len(e["loc"]), not e["type"].endswith("_type")))


def _check_lengths(model: type[BaseModel], data: dict, file: str | None) -> None:
    """The declared list lengths (``max_length``: :data:`mlopt.limits.MAX_SERVERS`,
    ``MAX_JOBS``, ...) of the top-level fields, on the raw lists: a file with a million servers
    is refused at once instead of after building a million validated objects."""
    for name, info in model.model_fields.items():
        value = data.get(info.alias or name)
        if not isinstance(value, list):
            continue
        for m in info.metadata:
            top = getattr(m, "max_length", None)
            if top is not None and len(value) > top:
                raise InputError(f"more than {top:,} items (see mlopt.limits)", file=file,
                                 field=name, value=f"{len(value):,} items")


def _kind(model: type) -> str:
    return model.__name__.removesuffix("File").lower()


def _other_format(model: type, data: dict, file: str | None) -> None:
    """A whole file of the other JSON format where ``model`` is expected (``mlopt check
    SCHEDULE WORKLOAD``, ``mlopt solve SCHEDULE``, ``--start WORKLOAD``) is named as such, not
    as its first missing field ("field 'horizon': missing").  Only ``check`` adds its order
    (the other commands take one file of each kind in their own places)."""
    def has(m):
        return all(k in data for k, f in m.model_fields.items() if f.is_required())

    for other in (WorkloadFile, ScheduleFile):
        if other is not model and has(other) and not has(model):
            raise InputError(f"this is a {_kind(other)} file where a {_kind(model)} is expected",
                             file=file)


def validate(model: type[M], data: Any, file: str | None = None) -> M:
    """``model`` from plain data, or InputError naming file, field and value."""
    if not isinstance(data, dict):
        raise InputError(f"must be an object (a {_kind(model)} file)", file=file,
                         value=type(data).__name__)
    _other_format(model, data, file)
    _check_lengths(model, data, file)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        errors = err.errors(include_url=False)
        first = errors[0]["loc"][:1]  # the first field with a problem, its most telling error
        e = _best_error([x for x in errors if x["loc"][:1] == first])
        value = None if e["type"] == "missing" else e.get("input")
        if isinstance(value, (dict, list)) and e["type"] != "extra_forbidden":
            value = type(value).__name__ if len(repr(value)) > 80 else value
        allowed = _allowed(model, tuple(e["loc"])) if e["type"] == "extra_forbidden" else None
        field = _field(tuple(e["loc"]))
        message = _message(e, allowed)
        # a union (a table or a list, a name or a table): name every type that would do
        kinds = {_KINDS[x["type"]] for x in errors
                 if x["type"] in _KINDS and _field(tuple(x["loc"])) == field}
        if e["type"] in _KINDS and len(kinds) > 1:
            message = "must be " + " or ".join(sorted(kinds))
        raise InputError(message, file=file, field=field or None, value=value) from None
    except RecursionError:
        raise InputError("nested too deeply", file=file) from None


# ---- JSON Schema --------------------------------------------------------------------------------
SCHEMAS: dict[str, type[BaseModel]] = {"workload": WorkloadFile, "schedule": ScheduleFile,
                                       "spec": SpecFile}


def _utility_schema() -> dict:
    from mlopt.utility import _PARAMS

    branches = []
    for kind, params in _PARAMS.items():
        branches.append({
            "type": "object", "additionalProperties": False, "required": ["kind", *params],
            "properties": {"kind": {"const": kind},
                           **{p: {"type": "number", "minimum": 0, "maximum": limits.MAX_VALUE}
                              for p in params}}})
    return {"oneOf": branches, "description": "f_i of the job's duration (slots)"}


def json_schema(name: str) -> dict:
    """The JSON Schema of one file format: ``workload``, ``schedule`` or ``spec``."""
    if name not in SCHEMAS:
        raise InputError(f"unknown file format (known: {', '.join(SCHEMAS)})", field="format",
                         value=name)
    schema = copy.deepcopy(SCHEMAS[name].model_json_schema())
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"mlopt {name} file"
    if name == "workload":
        schema["$defs"]["JobFile"]["properties"]["utility"] = _utility_schema()
    return schema
