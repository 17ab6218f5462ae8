"""Mutation probes of a task's judging (InteractBench's adversarial stress tests, automated).

``python -m ibench.tasks probe TASK...`` builds mutants of each accepted C++ solution and judges
them with :class:`ibench.judge.Judge`: Category A (:mod:`.source`, semantic bugs through a
tree-sitter parse) must be rejected, Category B (:mod:`.protocol`, one protocol or budget
violation, from the card's facts in :mod:`.facts`) must get its required label; optional LLM
mutants (:mod:`.llm`). See docs/PROBE.md.
"""

from .facts import FactError, Facts, parse_facts
from .run import Record, TaskProbe, accept_equivalent, plan_mutants, probe_tasks

__all__ = ["FactError", "Facts", "Record", "TaskProbe", "accept_equivalent", "parse_facts", "plan_mutants",
           "probe_tasks"]
