"""The checks behind :func:`ibench.tasks.load.inspect_task`, one module per part of a package.

Every check takes the task root and a :class:`Collector`, records each problem it finds (file,
field, what was expected) and returns what it could parse, None or empty on failure, so that
the remaining checks still run and all problems are reported in one pass.
"""

from .cases import (
    check_batch_tests,
    check_checker,
    check_grader,
    check_interactive_cases,
    check_interactors,
    check_subtasks,
    kind_from_layout,
    shipped_case_names,
)
from .common import Collector
from .generator import CaseRecipe, check_generator, parse_recipes
from .meta import Meta, check_meta, check_statement
from .solutions import SOLUTION_LANGUAGES, check_solutions

__all__ = [
    "CaseRecipe", "Collector", "Meta", "SOLUTION_LANGUAGES", "check_batch_tests", "check_checker",
    "check_generator", "check_grader", "check_interactive_cases", "check_interactors", "check_meta",
    "check_solutions", "check_statement", "check_subtasks", "kind_from_layout", "parse_recipes",
    "shipped_case_names",
]
