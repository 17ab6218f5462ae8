"""Prompt rendering (SPEC §5). The wording lives in ``conf/prompt/*.yaml``; this module fills it.

Three prompt settings (``prompt=zero_shot|few_shot|io_template``), all one dataclass:

- ``zero_shot``: the statement inside fixed instructions.
- ``few_shot``: one solved example first — the statement and an accepted solution of a
  *different* task, in the language under test — as an earlier user/assistant turn. The example
  is chosen deterministically (:func:`choose_example`) and recorded with every sample.
- ``io_template``: the instructions hold an interactive skeleton in the language under test
  (``{io_template}``; one skeleton per language in ``io_templates``).

Placeholders available to a template: ``{statement}``, ``{language}`` (display name),
``{fence}`` (the code-fence tag), ``{flush}`` (the language's flush idiom), ``{task_id}`` (or ``{problem_id}``, the task card's
spelling),
``{time_limit_ms}``, ``{memory_limit_mb}``, ``{io_template}`` (the skeleton of the language);
in ``example_answer``: ``{code}`` and ``{fence}``.

The batch variant (``bench.variant=batch``, InteractBench C.1): a stdio-interactive task is shown
``interactive_upfront`` instead of ``interactive`` — the program first receives the complete
hidden test data on stdin, then interacts as the statement says. Its extra placeholders:
``{hidden_example}`` (the task's first case file by name, cut to ``HIDDEN_EXAMPLE_BYTES`` with a
visible marker) and ``{hidden_format}`` (meta.json ``hidden_input_format``, else a generic
sentence). Few-shot examples then come from the known solutions of the same variant.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from ibench import languages
from ibench.generate.rephrase import DEFAULT_INSTRUCTION as REPHRASE_INSTRUCTION
from ibench.roles import Keyed, keyed, left_out_of, short_hash
from ibench.tasks.model import Task, TaskKind
from ibench.variants import Variant
from ibench.roles import LABEL, MEASURED, role


@dataclass(frozen=True)
class LanguageInfo:
    name: str
    fence: str
    flush: str


# The prompt's view of ibench/languages.py: display name, fence tag, flush idiom per language (a
# language's I/O skeleton is in the prompt config, conf/prompt/io_template.yaml, `io_templates`).
LANGUAGES: dict[str, LanguageInfo] = {name: LanguageInfo(lang.title, lang.fence, lang.flush)
                                      for name, lang in languages.LANGUAGES.items()}

IO_PLACEHOLDER = "{io_template}"

HIDDEN_EXAMPLE_BYTES = 2000  # of the first case file shown by the batch variant's prompt
GENERIC_HIDDEN_FORMAT = ("the judge's own input file for this test, byte for byte: the hidden parameters and data "
                         "the statement says the judge holds, as whitespace-separated tokens (see the example)")


def language_info(language: str) -> LanguageInfo:
    return LANGUAGES.get(language, LanguageInfo(language, language, "flush stdout after every query"))


@dataclass(frozen=True)
class Example:
    """The solved example a few-shot prompt shows for one task (recorded with its samples)."""

    task_id: str  # the example's task, never the task under test
    solution: str  # the accepted solution's file name
    statement: str
    code: str
    task: Task = field(repr=False, compare=False)
    variant: str = "interactive"  # the known solutions it was drawn from

    def digest(self) -> str:
        """Its key (recorded with its samples; the prompt's per-task part)."""
        base, extra = keyed(self, EXAMPLE_RULE)
        return short_hash(base + list(extra.values()), 16, ascii_only=True)

    def record(self) -> dict:
        return {"task_id": self.task_id, "solution": self.solution, "digest": self.digest()}


EXAMPLE_RULE = Keyed(base=("task_id", "solution", "statement", "code"), left_out=("task",))  # not a settings record


class PromptError(ValueError):
    """A prompt setting that cannot be rendered for a task (names the field and the task)."""


@dataclass
class PromptTemplate:
    """Mirrored by ``conf/prompt/*.yaml``. ``interactive`` serves grader tasks too."""

    name: str = role(LABEL, "zero_shot")
    system: str = role(MEASURED, "")
    interactive: str = role(MEASURED, "{statement}")
    batch: str = role(MEASURED, "{statement}")
    # -- few-shot: solved examples shown before the task (0 = none; at most 1 is supported)
    examples: int = role(MEASURED, 0)
    example_answer: str = role(MEASURED, "```{fence}\n{code}\n```")  # the example's assistant turn
    example_ids: Optional[list[str]] = role(MEASURED, None)  # preferred example tasks, in order (null: by hash)
    example_pool: Optional[str] = role(MEASURED, None, hashed=False)  # folder of tasks to draw examples from (null: bench.tasks_dir)
    # -- I/O template: language -> interactive skeleton, filled into {io_template}
    io_templates: dict[str, str] = role(MEASURED, factory=dict)
    # -- the variant (InteractBench C.1): interactive | batch (conf: ${bench.variant}); under the
    # batch variant, stdio-interactive tasks get interactive_upfront (the hidden data comes first on stdin)
    variant: str = role(MEASURED, "interactive")
    interactive_upfront: str = role(MEASURED, "")
    # -- rephrased statements (LiveOIBench Fig. 4; ibench.generate.rephrase): a model rewrites each
    # statement once, the prompts hold the rephrased ones. rephrase_model: a config of conf/model/
    # (null: the run's own model); rephrase_with: key=value overrides of that config
    rephrase: bool = role(MEASURED, False)
    rephrase_model: Optional[str] = role(MEASURED, None)
    rephrase_with: list[str] = role(MEASURED, factory=list, hashed=False)
    rephrase_instruction: str = role(MEASURED, REPHRASE_INSTRUCTION)

    def __post_init__(self) -> None:
        self._pool: list[Task] = []
        self._rephrased: dict[str, str] = {}

    # -- examples -----------------------------------------------------------------------------------
    def bind_examples(self, pool: Iterable[Task]) -> "PromptTemplate":
        """The tasks few-shot examples are drawn from (the launch passes ``example_pool``)."""
        self._pool = sorted(pool, key=lambda t: t.task_id)
        return self

    def example_for(self, task: Task, language: str = "cpp") -> Example | None:
        """The example shown for ``task`` (None for a zero-shot prompt); :class:`PromptError`
        when a few-shot prompt has no other task to show."""
        if self.examples <= 0:
            return None
        variant = self.variant if self.upfront(task) else "interactive"
        ex = choose_example(task, getattr(self, "_pool", []), language, self.example_ids, variant=variant)
        if ex is None:
            of_variant = f" for the {variant} variant" if variant != "interactive" else ""
            raise PromptError(f"prompt.examples: no task other than {task.task_id!r} in the example pool has an "
                              f"accepted {language} solution{of_variant} of the same kind "
                              f"({'batch' if task.kind is TaskKind.BATCH else 'interactive'}) to show as the "
                              "solved example; add one, or set prompt.example_pool to a folder that has one")
        return ex

    def bind_rephrased(self, statements: dict[str, str]) -> "PromptTemplate":
        """Each task's rephrased statement by task id (``prompt.rephrase``; the run binds them
        before it plans): the prompts of those tasks hold it instead of ``desc.md``."""
        self._rephrased = dict(statements)
        return self

    def statement(self, task: Task) -> str:
        """The statement the prompt shows for the task under test: its rephrasing where the run
        bound one, else its own."""
        rephrased = getattr(self, "_rephrased", {}).get(task.task_id)
        return rephrased if rephrased is not None else task.statement().strip()

    # -- rendering ----------------------------------------------------------------------------------
    def upfront(self, task: Task) -> bool:
        """Does ``task`` get the batch variant's wording (hidden data first on stdin)? Only
        stdio-interactive tasks: batch tasks have no interaction, grader-linked ones no stdin."""
        return self.variant == Variant.BATCH and task.stdio_interactive

    def template_for(self, task: Task) -> str:
        if self.upfront(task):
            return self.interactive_upfront
        return self.batch if task.kind is TaskKind.BATCH else self.interactive

    def problems(self, language: str) -> list[str]:
        """Settings that cannot work for ``language`` (checked by the preflight)."""
        out = []
        if self.examples not in (0, 1):
            out.append(f"prompt.examples: {self.examples!r}; expected 0 (zero-shot) or 1 solved example")
        # the variant itself is checked once, as bench.variant (ibench.run.spec.RunSpec.from_config)
        if self.variant == Variant.BATCH and not self.interactive_upfront.strip():
            out.append(f"prompt.interactive_upfront: empty, but bench.variant=batch needs it (prompt={self.name}); "
                       "set it in conf/prompt/zero_shot.yaml or this prompt's config")
        uses_io = any(IO_PLACEHOLDER in t for t in (self.system, self.interactive, self.batch,
                                                    self.interactive_upfront if self.variant == Variant.BATCH else ""))
        if self.rephrase:
            out += self._rephrase_problems()
        if uses_io and not (self.io_templates.get(language) or "").strip():
            have = ", ".join(sorted(self.io_templates)) or "none"
            out.append(f"prompt.io_templates: no I/O template for bench.language={language} (prompt={self.name} "
                       f"has: {have}); add `io_templates.{language}` to conf/prompt/{self.name}.yaml")
        return out

    def _rephrase_problems(self) -> list[str]:
        from ibench.paths import CONF_DIR

        out = []
        if not self.rephrase_instruction.strip():
            out.append("prompt.rephrase_instruction: empty; the rephrasing model needs an instruction")
        if self.rephrase_model is not None and not (CONF_DIR / "model" / f"{self.rephrase_model}.yaml").is_file():
            have = ", ".join(sorted(p.stem for p in (CONF_DIR / "model").glob("*.yaml")))
            out.append(f"prompt.rephrase_model: {self.rephrase_model!r} is not a model config of conf/model/ "
                       f"(there: {have}); null rephrases with the run's own model")
        bad = [o for o in self.rephrase_with if "=" not in str(o)]
        if bad:
            out.append(f"prompt.rephrase_with: {', '.join(map(repr, bad))}; expected key=value overrides of the "
                       "rephrasing model's config (base_url=..., model=...)")
        if self.rephrase_with and self.rephrase_model is None:
            out.append("prompt.rephrase_with: overrides of the rephrasing model's config, but prompt.rephrase_model "
                       "is null (the run's own model rephrases); name the model config they apply to")
        return out

    def _values(self, task: Task, language: str, under_test: bool = True) -> dict:
        lang = language_info(language)
        extra = {}
        if self.upfront(task):
            extra = {"hidden_example": hidden_example(task), "hidden_format": hidden_format(task)}
        return {**extra,
            # a few-shot example's statement is shown as written; only the task under test is rephrased
            "statement": self.statement(task) if under_test else task.statement().strip(),
            "language": lang.name,
            "fence": lang.fence,
            "flush": lang.flush,
            "task_id": task.task_id,
            "problem_id": task.task_id,  # the task card's spelling, kept for existing templates
            "time_limit_ms": task.cpu_time_limit_ms,
            "memory_limit_mb": task.memory_limit_mb,
            "io_template": (self.io_templates.get(language) or "").strip("\n"),
        }

    def _turn(self, task: Task, language: str, under_test: bool = True) -> list[dict[str, str]]:
        values = self._values(task, language, under_test)
        return [{"role": "user", "content": _fill(self.template_for(task), values).strip()}]

    def render(self, task: Task, language: str = "cpp") -> list[dict[str, str]]:
        """Chat messages for ``task``: an optional system message, the solved example's turns
        (few-shot), then the user turn."""
        messages = []
        values = self._values(task, language)
        if self.system.strip():
            messages.append({"role": "system", "content": _fill(self.system, values).strip()})
        ex = self.example_for(task, language)
        if ex is not None:
            messages += self._turn(ex.task, language, under_test=False)
            answer = _fill(self.example_answer, {"code": ex.code.rstrip("\n"), "fence": values["fence"]})
            messages.append({"role": "assistant", "content": answer.strip()})
        messages += self._turn(task, language)
        return messages

    def record(self, task: Task, language: str = "cpp") -> dict:
        """What a sample records about its prompt: the setting's name, and the example shown."""
        ex = self.example_for(task, language)
        out = {"name": self.name, "example": ex.record() if ex else None}
        if task.task_id in getattr(self, "_rephrased", {}):
            out["rephrased_sha256"] = _sha256(self._rephrased[task.task_id])
        return out

    def task_fingerprint(self, task: Task, language: str = "cpp") -> str:
        """The per-task part of the sample key: the example shown ("" when none), so a changed
        example (another pool, an edited solution) never reuses samples made with the old one."""
        ex = self.example_for(task, language)
        fp = ex.digest() if ex else ""
        rephrased = getattr(self, "_rephrased", {}).get(task.task_id)
        if rephrased is not None:  # the rephrased statement itself: a new rephrasing never reuses old samples
            fp = f"{fp}~r{_sha256(rephrased)[:16]}" if fp else f"r{_sha256(rephrased)[:16]}"
        return fp

    def fingerprint(self) -> str:
        """A short hash of the wording (part of the gen key), by the prompt's rule (:func:`key_rule`)."""
        base, extra = keyed(self, key_rule())
        return short_hash(base + [extra] if extra else base, 12, ascii_only=False)


def hidden_example(task: Task, limit: int = HIDDEN_EXAMPLE_BYTES) -> str:
    """The batch variant's example of the hidden data: the task's first case file by name, as
    text, cut at a line end within ``limit`` bytes with a visible marker. Its content only: the
    prompt never names a path of the task folder."""
    cases = sorted(task.cases, key=lambda c: c.name)
    if not cases:
        return "(this task ships no case file)"
    path = cases[0].input_path
    size = path.stat().st_size
    with open(path, "rb") as fh:  # never more than the part shown (a case may be many MB)
        data = fh.read(limit + 1)
    if size <= limit:
        return data.decode("utf-8", "replace").rstrip("\n")
    cut = data[:limit]
    if b"\n" in cut:
        cut = cut[: cut.rindex(b"\n")]
    return (cut.decode("utf-8", "replace").rstrip("\n") +
            f"\n[... cut here: {size - len(cut)} more bytes of this test are not shown ...]")


def hidden_format(task: Task) -> str:
    """The layout of the hidden data: the task card's ``hidden_input_format``, else generic."""
    text = task.meta.get("hidden_input_format") if isinstance(task.meta, dict) else None
    return str(text).strip() if isinstance(text, str) and text.strip() else GENERIC_HIDDEN_FORMAT


def _accepted(task: Task, language: str, variant: str = "interactive") -> list:
    return sorted((s for s in task.solutions if s.accepted and languages.BY_EXTENSION.get(s.path.suffix) == language
                   and getattr(s, "variant", "interactive") == variant),
                  key=lambda s: s.path.name)


def choose_example(task: Task, pool: Iterable[Task], language: str,
                   prefer: Optional[Iterable[str]] = None, variant: str = "interactive") -> Example | None:
    """The solved example for ``task``: a task of the pool other than ``task`` (by id *and* by
    folder), of the same kind (a batch task for a batch task, a stdio-interactive one for
    interactive and grader tasks), with an accepted solution in ``language``. The first of ``prefer`` that qualifies,
    else the candidate picked by a hash of the task id over the sorted candidates; its first
    accepted solution by file name (of the known solutions of ``variant``: the batch variant's
    examples read the hidden data first). None when no task qualifies."""
    want_batch = task.kind is TaskKind.BATCH
    candidates: dict[str, Task] = {}
    for t in pool:
        if t.task_id == task.task_id or t.root.resolve() == task.root.resolve():
            continue
        if (t.kind is TaskKind.BATCH) != want_batch or t.kind is TaskKind.GRADER or t.grader_files:
            continue
        if _accepted(t, language, variant):
            candidates.setdefault(t.task_id, t)
    if not candidates:
        return None
    chosen = next((candidates[i] for i in (prefer or ()) if i in candidates), None)
    if chosen is None:
        ids = sorted(candidates)
        h = int.from_bytes(hashlib.sha256(task.task_id.encode()).digest()[:8], "big")
        chosen = candidates[ids[h % len(ids)]]
    sol = _accepted(chosen, language, variant)[0]
    return Example(task_id=chosen.task_id, solution=sol.path.name, statement=chosen.statement().strip(),
                   code=sol.path.read_text(encoding="utf-8", errors="replace"), task=chosen, variant=variant)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _fill(template: str, values: dict) -> str:
    # str.format_map would choke on literal braces; fill known names only, in one pass, so
    # that text inserted (a statement with "{n}" in it) is never substituted again.
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
                  template)


@functools.cache
def key_rule() -> Keyed:
    """How a prompt enters the gen key (:class:`ibench.roles.Keyed`): its wording always, the
    examples and the variant's wording when off their defaults; what it leaves out is derived from
    its fields' roles (the name is a label; the pool's folder enters through each task's example)."""
    return Keyed(base=("system", "interactive", "batch"), left_out=left_out_of(PromptTemplate),
                 groups={"examples": ("examples", "example_answer", "example_ids"),
                         "variant": ("variant", "interactive_upfront")},
                 constants={"variant": (HIDDEN_EXAMPLE_BYTES, GENERIC_HIDDEN_FORMAT)})
