"""The names each command takes, listed after its ``--help`` (argparse epilogs).

Every list is read from the registry (families, their presets, generator parameters,
algorithms with their declared options and defaults, formulations, bounds, solver backends),
never written by hand.  The functions are called only when a command's ``--help`` is printed
(:class:`mlopt.cli.OneLineParser` builds its epilog on demand), so this module imports nothing
at load time and ``mlopt --help`` loads no family.
"""
from __future__ import annotations

from typing import Callable


def _families():
    """(name, Family or the error that kept it from loading), by name."""
    from mlopt.families.base import family_names, get_family

    out = []
    for name in family_names():
        try:
            out.append((name, get_family(name)))
        except Exception as err:  # noqa: BLE001  (one broken plug-in does not hide the rest)
            out.append((name, err))
    return out


def _each_family(line: Callable) -> list[str]:
    lines = []
    for name, fam in _families():
        if isinstance(fam, Exception):
            lines.append(f"  {name}: (cannot be loaded: {type(fam).__name__}: {fam})")
        else:
            lines.extend(line(fam))
    return lines


def _generator_params(fam) -> list[str]:
    """Every parameter name some preset of ``fam`` takes (``-p KEY=VALUE``), first-seen order."""
    names: dict[str, None] = {}
    for preset in fam.preset_names:
        schema = fam.param_schema(preset)
        names.update(dict.fromkeys(schema or ()))
    return list(names)


def _named_family(args, attribute: str = "family"):
    """The family named on the command line before ``--help``, if it is a registered one."""
    from mlopt.families.base import family_names, get_family

    name = getattr(args, attribute, None)
    return get_family(name) if isinstance(name, str) and name in family_names() else None


def generate(args=None) -> str:
    """Every family's presets and parameter names; for ``mlopt generate FAMILY --help``, that
    family's presets, each with its parameters, their kinds, ranges and defaults."""
    from mlopt.cli.core import DEFAULT_PRESET
    from mlopt.params import describe

    fam = _named_family(args)
    if fam is not None:
        lines = [f"presets of {fam.name} ({fam.sense}imize; --preset, default "
                 f"{DEFAULT_PRESET}) and their parameters (-p KEY=VALUE):"]
        for preset in fam.preset_names:
            schema = fam.param_schema(preset)
            if schema is None:
                lines.append(f"  {preset}: parameters not declared")
                continue
            lines.append(f"  {preset}:" + ("" if schema else " no parameters"))
            lines.extend(f"    {name}: {text}" for name, text in describe(schema).items())
        return "\n".join(lines)

    def line(fam):
        params = _generator_params(fam)
        return [f"  {fam.name} ({fam.sense}imize): presets {', '.join(fam.preset_names)}",
                f"    -p parameters: {', '.join(params) if params else 'none declared'}"]

    return "\n".join([f"families and their presets (--preset; default {DEFAULT_PRESET}):",
                      *_each_family(line), "",
                      "A preset takes the parameters listed for its family that it uses "
                      "(an unknown one is an error); mlopt generate FAMILY --help lists each "
                      "preset's parameters with their ranges and defaults."])


def _options(fam, algorithm: str) -> list[str]:
    from mlopt.params import describe

    schema = fam.option_schema(algorithm)
    needs = fam.algorithm_presets.get(algorithm)
    head = f"    {algorithm}" + (f" (workloads like preset {needs})" if needs else "")
    if schema is None:
        return [head + ": options not declared"]
    if not schema:
        return [head + ": no options"]
    return [head + ":"] + [f"      {name}: {text}" for name, text in describe(schema).items()]


def run(args=None) -> str:
    """Every family's algorithms with their options; for ``mlopt run ALGORITHM --help``, only
    that algorithm (in every family that has one of that name)."""
    only = getattr(args, "algorithm", None)
    if not any(only in fam.algorithms_ for _, fam in _families()
               if not isinstance(fam, Exception)):
        only = None

    def line(fam):
        chosen = [a for a in sorted(fam.algorithms_) if only is None or a == only]
        out = [f"  {fam.name}:"] if chosen else []
        for algorithm in chosen:
            out.extend(_options(fam, algorithm))
        return out

    return "\n".join(["algorithms by family, with their options (--option KEY=VALUE) and "
                      "defaults:", *_each_family(line)])


def _solvers() -> list[str]:
    from mlopt.solvers import BACKENDS, available_backends

    here = set(available_backends())
    return ["solvers (--solver): " + ", ".join(
        name if name in here else f"{name} (not installed)" for name in sorted(BACKENDS))]


def _models() -> list[str]:
    from mlopt.params import describe

    def line(fam):
        models = [f"{m} (default)" if m == fam.default_model else m
                  for m in sorted(fam.formulations)]
        out = [f"  {fam.name}: {', '.join(models)}"]
        for m in sorted(fam.formulations):  # the declared options (--model-option KEY=VALUE)
            declared = fam.formulations[m].options
            if declared:
                out.append(f"    {m} options:")
                out.extend(f"      {n}: {text}" for n, text in describe(declared).items())
        return out

    return ["models by family (--model), with their declared options (--model-option, "
            "export --option):", *_each_family(line)]


def solve(args=None) -> str:
    """``solve --help`` epilog: the models by family and the solvers."""
    return "\n".join([*_models(), "", *_solvers()])


def export(args=None) -> str:
    """``export --help`` epilog: the models by family."""
    return "\n".join(_models())


def train(args=None) -> str:
    """``train --help`` epilog: what each family can train, with the ``-p`` parameter names a
    trainer declares (its ``params``: name -> Param); for ``mlopt train FAMILY --help``, that
    family's, each with its kind, range and default."""
    from mlopt.families.base import resolve
    from mlopt.params import describe

    named = _named_family(args)

    def line(fam):
        targets = list(fam.trainers_)
        if not targets or (named is not None and fam.name != named.name):
            return []
        out = [f"  {fam.name}: {', '.join(targets)} (default {targets[0]})"]
        for target in targets:
            declared = getattr(resolve(fam.trainers_[target]), "params", None)
            if not declared:
                continue
            if named is None:
                out.append(f"    {target} -p parameters: {', '.join(declared)}")
            else:
                out.append(f"    {target} (-p KEY=VALUE):")
                out.extend(f"      {n}: {text}" for n, text in describe(declared).items())
        return out

    tail = [] if named else ["", "mlopt train FAMILY --help lists each parameter with its "
                                 "range and default."]
    return "\n".join(["what can be trained, by family (--target):", *_each_family(line),
                      *tail])


def from_trace(args=None) -> str:
    """``instances from-trace --help`` epilog: families with a trace conversion."""
    def line(fam):
        return [f"  {fam.name}"] if fam.from_trace_ is not None else []

    return "\n".join(["families with a trace conversion (--family):", *_each_family(line)])


def bound(args=None) -> str:
    """``bound --help`` epilog: the bounds by family and the solvers."""
    def line(fam):
        side = "upper" if fam.sense == "max" else "lower"
        return [f"  {fam.name} ({side} bounds): "
                f"{', '.join(sorted(fam.bounds_) + ['lp_relaxation'])}"]

    return "\n".join(["bounds by family (--bound; lp_relaxation: the default model's LP "
                      "relaxation, for every family):", *_each_family(line), "", *_solvers()])


def bracket(args=None) -> str:
    """``bracket --help`` epilog: what a bracket runs by family, and the solvers."""
    def line(fam):
        default = [n for n in sorted(fam.bounds_) if fam.bounds_[n].bracket]
        extra = [n for n in sorted(fam.bounds_) if not fam.bounds_[n].bracket]
        return [f"  {fam.name}: algorithms {', '.join(sorted(fam.algorithms_))}; model "
                f"{fam.default_model}; bounds {', '.join(default + ['lp_relaxation'])}"
                + (f" (with --bound only: {', '.join(extra)})" if extra else "")]

    return "\n".join(["what a bracket runs, by family (--family only for a workload without "
                      "meta.family):", *_each_family(line), "", *_solvers()])


def bench(args=None) -> str:
    """``bench --help`` epilog: the packaged specs and the families a spec can name."""
    from mlopt.cli.quickstart import quick_specs
    from mlopt.families.base import family_names

    specs = [str(p) for p in quick_specs()]
    return "\n".join(["packaged specs (mlopt quickstart runs them; copy one to start):",
                      *(f"  {s}" for s in specs), "",
                      f"families a spec can name: {', '.join(family_names())}",
                      "the spec format: mlopt schema spec; its names: mlopt run --help, "
                      "mlopt generate --help, mlopt solve --help"])


def schema(args=None) -> str:
    """``schema --help`` epilog: the file formats with a JSON Schema."""
    from mlopt.formats import SCHEMAS

    return f"formats: {', '.join(sorted(SCHEMAS))}"
