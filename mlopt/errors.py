"""The one error type for bad user input.

Every malformed file, missing/negative/NaN field, unknown name or impossible instance raises
:class:`InputError`.  It names the file (when there is one), the field and the offending value,
so the CLI can print exactly one line and exit with status 2.
"""
from __future__ import annotations

from typing import Any


class InputError(ValueError):
    """Bad input: names the source file, the field and the value."""

    def __init__(self, message: str, *, file: str | None = None, field: str | None = None,
                 value: Any = None):
        self.file = file
        self.field = field
        self.value = value
        self.message = message
        super().__init__(self._render())

    def _render(self) -> str:
        parts = []
        if self.file:
            parts.append(str(self.file))
        if self.field:
            parts.append(f"field '{self.field}'")
        if self.value is not None:
            text = repr(self.value)
            # a long value keeps both ends: a path's file name is at its end (a long temporary
            # folder once hid which schedule file was meant)
            parts.append(f"value {text if len(text) <= 80 else text[:30] + '...' + text[-47:]}")
        where = ": ".join([", ".join(parts)]) if parts else ""
        return f"{where}: {self.message}" if where else self.message

    def with_file(self, file: str) -> "InputError":
        """The same error, attributed to ``file`` (used when a loader re-raises)."""
        if self.file:
            return self
        return InputError(self.message, file=file, field=self.field, value=self.value)
