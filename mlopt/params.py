"""Declared parameters: one checker for every generator parameter and algorithm option.

A family declares what a user may pass -- each generator parameter (``-p KEY=VALUE``,
``[[instances]] params``) and each algorithm option (``--option KEY=VALUE``, ``[algorithms.X]``)
-- as a :class:`Param`: kind, default, inclusive range, choices and one line of help.
:func:`check_values` then does the same thing for all of them, before anything is built:

* an unknown name is an error listing the known ones;
* a value of the wrong type (a string for a number, ``2.0`` or ``true`` for an integer, a list
  for a scalar) is an error, never coerced;
* NaN and infinities are errors for every number;
* every number has a range: a declared ``high`` (sizes are capped by :mod:`mlopt.limits`), so
  ``n_jobs=2**62`` or ``alpha=1e308`` is refused at once instead of grinding;
* every error is one :class:`~mlopt.errors.InputError` naming the field and the value.

>>> SCHEMA = {"n_jobs": Param.int(10, low=1, high=100), "rate": Param.float(0.5, low=0.0)}
>>> check_values(SCHEMA, {"n_jobs": 3})
{'n_jobs': 3}
>>> check_values(SCHEMA, {"n_jobs": 3.0})
Traceback (most recent call last):
...
mlopt.errors.InputError: field 'n_jobs', value 3.0: must be an integer
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from mlopt import limits
from mlopt.errors import InputError

#: a real number's default upper end when a Param declares none
MAX_VALUE = limits.MAX_VALUE
#: an integer's default upper end when a Param declares none
MAX_INT = limits.MAX_COUNT
#: longest list a ``list`` parameter accepts
MAX_ITEMS = 10_000

KINDS = ("int", "float", "bool", "str", "choice", "range", "list", "path", "json")


@dataclass(frozen=True)
class Param:
    """One declared parameter or option.

    ``kind``: ``int`` / ``float`` (a number in [low, high]), ``bool``, ``str``, ``choice`` (one
    of ``choices``), ``range`` (a pair [a, b] with low <= a <= b <= high; ``integer`` for
    counts), ``list`` (of ``item``), ``path`` (a file name; ``must_exist`` checks it), ``json``
    (free-form data, checked by the owner; depth and size are capped by the loaders).
    ``nullable``: ``None`` (JSON null) is allowed and means "not set".
    ``low_open``: the low end is excluded (``rate > 0``); ``high_open``: the high end (a share
    below 1).
    """
    kind: str
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    nullable: bool = False
    low_open: bool = False
    high_open: bool = False
    integer: bool = False  # range / list items: integers
    item: "Param | None" = None  # list items
    min_items: int = 0
    max_items: int = MAX_ITEMS
    length: int | None = None  # list: exactly this many items
    must_exist: bool = False  # path
    doc: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown Param kind {self.kind!r}")

    # ---- constructors ------------------------------------------------------------------------
    @classmethod
    def int(cls, default=None, *, low: int | None = 0, high: int | None = None, doc: str = "",
            nullable: bool = False) -> "Param":
        """An integer parameter in [low, high]."""
        return cls("int", default, low=low, high=MAX_INT if high is None else high, doc=doc,
                   nullable=nullable)

    @classmethod
    def float(cls, default=None, *, low: float | None = 0.0, high: float | None = None,
              low_open: bool = False, high_open: bool = False, doc: str = "",
              nullable: bool = False) -> "Param":
        """A finite float parameter in [low, high] (``low_open`` / ``high_open``: that end
        excluded)."""
        return cls("float", default, low=low, high=MAX_VALUE if high is None else high,
                   low_open=low_open, high_open=high_open, doc=doc, nullable=nullable)

    @classmethod
    def bool(cls, default=False, *, doc: str = "", nullable: bool = False) -> "Param":
        """A boolean parameter."""
        return cls("bool", default, doc=doc, nullable=nullable)

    @classmethod
    def str(cls, default=None, *, doc: str = "", nullable: bool = False) -> "Param":
        """A free-text parameter."""
        return cls("str", default, doc=doc, nullable=nullable)

    @classmethod
    def choice(cls, default, choices: Iterable, *, doc: str = "", nullable: bool = False,
               ) -> "Param":
        """A parameter taking one of ``choices``."""
        return cls("choice", default, choices=tuple(choices), doc=doc, nullable=nullable)

    @classmethod
    def range(cls, default=None, *, low: float | None = 0.0, high: float | None = None,
              integer: bool = False, low_open: bool = False, doc: str = "",
              nullable: bool = False) -> "Param":
        """A [low, high] pair parameter, both ends within the bounds."""
        top = (MAX_INT if integer else MAX_VALUE) if high is None else high
        return cls("range", default, low=low, high=top, integer=integer, low_open=low_open,
                   doc=doc, nullable=nullable)

    @classmethod
    def list(cls, item: "Param", default=None, *, min_items: int = 0,
             max_items: int = MAX_ITEMS, length: int | None = None, doc: str = "",
             nullable: bool = False) -> "Param":
        """A list parameter whose items are each checked by ``item``."""
        return cls("list", default, item=item, min_items=min_items, max_items=max_items,
                   length=length, doc=doc, nullable=nullable)

    @classmethod
    def path(cls, default=None, *, must_exist: bool = True, doc: str = "",
             nullable: bool = True) -> "Param":
        """A file path parameter (``must_exist``: the file must exist)."""
        return cls("path", default, must_exist=must_exist, doc=doc, nullable=nullable)

    @classmethod
    def json(cls, default=None, *, doc: str = "", nullable: bool = True) -> "Param":
        """A parameter taking any JSON value."""
        return cls("json", default, doc=doc, nullable=nullable)

    def with_default(self, default) -> "Param":
        """The same parameter with another default."""
        return replace(self, default=default)

    # ---- checking ----------------------------------------------------------------------------
    def check(self, value: Any, name: str) -> Any:
        """``value`` if it is valid for this parameter, else an InputError naming ``name``."""
        if value is None:
            if self.nullable:
                return None
            raise InputError("must be set (null is not allowed here)", field=name, value=value)
        return getattr(self, f"_check_{self.kind}")(value, name)

    def _number(self, value, name, integer: bool):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (integer and not isinstance(value, int)):
            raise InputError("must be an integer" if integer else "must be a number",
                             field=name, value=value)
        if not integer and not math.isfinite(value):
            raise InputError("must be a finite number", field=name, value=value)
        low, high = self.low, self.high
        if low is not None and (value < low or (self.low_open and value == low)):
            raise InputError(f"must be {'>' if self.low_open else '>='} {low:g}", field=name,
                             value=value)
        if high is not None and (value > high or (self.high_open and value == high)):
            raise InputError(f"must be {'<' if self.high_open else '<='} {high:g}", field=name,
                             value=value)
        return value

    def _check_int(self, value, name):
        return self._number(value, name, True)

    def _check_float(self, value, name):
        return self._number(value, name, False)

    def _check_bool(self, value, name):
        if not isinstance(value, bool):
            raise InputError("must be true or false", field=name, value=value)
        return value

    def _check_str(self, value, name):
        if not isinstance(value, str) or not value or len(value) > limits.MAX_NAME:
            raise InputError(f"must be a non-empty string of at most {limits.MAX_NAME} "
                             "characters", field=name, value=value)
        return value

    def _check_choice(self, value, name):
        if isinstance(value, bool) or value not in self.choices:
            raise InputError(f"must be one of {', '.join(map(str, self.choices))}", field=name,
                             value=value)
        return value

    def _check_range(self, value, name):
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise InputError("must be a pair [low, high]", field=name, value=value)
        a = self._number(value[0], f"{name}[0]", self.integer)
        b = self._number(value[1], f"{name}[1]", self.integer)
        if a > b:
            raise InputError("low end above high end", field=name, value=value)
        return (a, b)

    def _check_list(self, value, name):
        if not isinstance(value, (list, tuple)):
            raise InputError("must be a list", field=name, value=value)
        n = len(value)
        if self.length is not None and n != self.length:
            raise InputError(f"must have exactly {self.length} items", field=name, value=value)
        if n < self.min_items or n > self.max_items:
            raise InputError(f"must have {self.min_items} to {self.max_items} items",
                             field=name, value=value)
        return tuple(self.item.check(v, f"{name}[{i}]") for i, v in enumerate(value))

    def _check_path(self, value, name):
        self._check_str(value, name)
        if self.must_exist and not os.path.isfile(value):
            raise InputError("no such file", field=name, value=value)
        return value

    def _check_json(self, value, name):
        return value

    def describe(self) -> str:
        """One line for ``--help`` and ``mlopt families --json``."""
        text = self.kind
        if self.kind == "choice":
            text = "|".join(map(str, self.choices))
        elif self.kind in ("int", "float", "range") and (self.low is not None
                                                          or self.high is not None):
            lo = "" if self.low is None else f"{self.low:g}"
            hi = "" if self.high is None else f"{self.high:g}"
            text += f" in {'(' if self.low_open else '['}{lo}, {hi}{')' if self.high_open else ']'}"
        if self.nullable:
            text += " or null"
        return f"{text} (default {self.default!r})" + (f": {self.doc}" if self.doc else "")


Schema = Mapping[str, Param]


def check_values(schema: Schema, values: Mapping[str, Any], *, where: str = "",
                 reserved: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every entry of ``values`` checked against ``schema`` (see the module docstring).

    ``where`` names the owner in the unknown-name message (``"algorithm 'fifo'"``);
    ``reserved`` maps names that are set elsewhere to a hint (``{"seed": "use --seed"}``).
    Returns the checked values (ranges as tuples); defaults are not filled in.
    """
    out: dict[str, Any] = {}
    for name, value in values.items():
        if not isinstance(name, str):
            raise InputError("parameter names must be strings", field=str(name))
        if reserved and name in reserved:
            raise InputError(f"is not an option here ({reserved[name]})", field=name,
                             value=value)
        if name not in schema:
            known = ", ".join(sorted(schema)) or "none"
            raise InputError(f"unknown name{' of ' + where if where else ''} (known: {known})",
                             field=name, value=value)
        out[name] = schema[name].check(value, name)
    return out


def defaults(schema: Schema) -> dict[str, Any]:
    """Every parameter's default, by name."""
    return {name: p.default for name, p in schema.items()}


def describe(schema: Schema) -> dict[str, str]:
    """The one-line description of every parameter, by name."""
    return {name: p.describe() for name, p in sorted(schema.items())}


@dataclass(frozen=True)
class Bad:
    """A value that must be refused, with why (the conformance suite feeds these)."""
    value: Any
    why: str


def bad_values(param: Param) -> list[Bad]:
    """Values every parameter of this kind must refuse: wrong type, NaN, negative (where the
    range starts at 0 or above), huge, and out of range."""
    out = [Bad("x-not-a-value" if param.kind not in ("str", "path", "choice", "json")
               else None, "wrong type or null")]
    if param.kind in ("str", "path", "json") or (param.kind == "choice" and param.nullable):
        out = [] if param.nullable or param.kind == "json" else [Bad(None, "null")]
        if param.kind in ("str", "path"):
            out.append(Bad(12345, "number for a string"))
        if param.kind == "path" and param.must_exist:
            out.append(Bad("/nonexistent/file.npz", "missing file"))
        return out
    if param.kind == "choice":
        return [Bad("not-a-choice", "not one of the choices"), Bad(True, "bool")]
    if param.kind == "bool":
        return [Bad("yes", "string for a bool"), Bad(1, "int for a bool")]
    if param.kind in ("int", "float"):
        out += [Bad(float("nan"), "NaN"), Bad(float("inf"), "infinity"), Bad(True, "bool")]
        if param.high is not None:
            out.append(Bad(2 ** 70 if param.kind == "int" else 1e308, "huge"))
        if param.low is not None and param.low >= 0:
            out.append(Bad(-1 if param.kind == "int" else -1.0, "negative"))
        if param.high_open:
            out.append(Bad(param.high, "the excluded high end"))
        if param.kind == "int":
            out.append(Bad(1.5, "fractional"))
        return out
    if param.kind == "range":
        out = [Bad(5, "scalar for a range"), Bad([1], "one end"),
               Bad([float("nan"), 1], "NaN end"), Bad([0, 1e308], "huge end")]
        if param.low is not None and param.low >= 0:
            out.append(Bad([-1, 1], "negative end"))
        lo = param.low if param.low is not None else 0
        if param.high is not None and param.high > lo:
            out.append(Bad([param.high, lo], "ends swapped"))
        return out
    if param.kind == "list":
        return [Bad("x", "string for a list"), Bad([None] * 2, "null items"),
                Bad(list(range(param.max_items + 1)), "too many items")]
    return out
