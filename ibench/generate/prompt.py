"""Prompt rendering (SPEC §5). The wording lives in ``conf/prompt/*.yaml``; this module fills it.

Placeholders available to a template: ``{statement}``, ``{language}`` (display name),
``{fence}`` (the code-fence tag), ``{flush}`` (the language's flush idiom), ``{problem_id}``,
``{time_limit_ms}``, ``{memory_limit_mb}``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from ibench.tasks.model import Task, TaskKind


@dataclass(frozen=True)
class LanguageInfo:
    name: str
    fence: str
    flush: str


LANGUAGES: dict[str, LanguageInfo] = {
    "cpp": LanguageInfo("C++17", "cpp", "`std::cout << std::flush` (or `std::endl`, or `fflush(stdout)` with printf)"),
    "python": LanguageInfo("Python 3", "python", "`print(..., flush=True)` or `sys.stdout.flush()`"),
    "java": LanguageInfo("Java", "java", "`System.out.flush()` (call it after every query)"),
    "go": LanguageInfo("Go", "go", "`w.Flush()` on your `bufio.Writer` after every query"),
}


@dataclass
class PromptTemplate:
    """Mirrored by ``conf/prompt/*.yaml``. ``interactive`` serves grader tasks too."""

    name: str = "zero_shot"
    system: str = ""
    interactive: str = "{statement}"
    batch: str = "{statement}"

    def template_for(self, task: Task) -> str:
        return self.batch if task.kind is TaskKind.BATCH else self.interactive

    def render(self, task: Task, language: str = "cpp") -> list[dict[str, str]]:
        """Chat messages for ``task``: an optional system message, then the user turn."""
        lang = LANGUAGES.get(language, LanguageInfo(language, language, "flush stdout after every query"))
        values = {
            "statement": task.statement().strip(),
            "language": lang.name,
            "fence": lang.fence,
            "flush": lang.flush,
            "problem_id": task.problem_id,
            "time_limit_ms": task.cpu_time_limit_ms,
            "memory_limit_mb": task.memory_limit_mb,
        }
        messages = []
        if self.system.strip():
            messages.append({"role": "system", "content": _fill(self.system, values).strip()})
        messages.append({"role": "user", "content": _fill(self.template_for(task), values).strip()})
        return messages

    def fingerprint(self) -> str:
        """A short hash of the wording (part of the resume key)."""
        blob = json.dumps([self.system, self.interactive, self.batch], ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _fill(template: str, values: dict) -> str:
    # str.format_map would choke on literal braces; fill known names only, in one pass, so
    # that text inserted (a statement with "{n}" in it) is never substituted again.
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
                  template)
