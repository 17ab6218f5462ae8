"""Problems found in a task package, and the error that carries them.

The loader never stops at the first problem: it collects every :class:`Problem` of a task (or
of a whole folder of tasks) and raises one :class:`TaskError`, so an author fixes a package in
one pass instead of one error per run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a task package.

    ``file`` is the file (or folder) at fault, ``field`` the key or item inside it ("" when the
    file itself is the problem, e.g. it is missing), ``message`` says what was wrong and what
    was expected.
    """

    file: Path
    field: str
    message: str

    def __str__(self) -> str:
        if self.field:
            return f"{self.file}: {self.field}: {self.message}"
        return f"{self.file}: {self.message}"


class TaskError(ValueError):
    """A task package (or several) failed validation; ``problems`` lists every issue found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: list[Problem] = list(problems)
        super().__init__(self._render())

    def _render(self) -> str:
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in task package"
        return "\n".join([head + ":"] + [f"  {p}" for p in self.problems])

    def __str__(self) -> str:
        return self._render()
