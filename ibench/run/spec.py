"""What a run is: one frozen, typed, versioned record (:class:`RunSpec`), built once from the config.

Modelled on Inspect AI's ``EvalSpec``: the model's identity, the sampling, the prompt, the
language, the variant, the refinement feedback, the judge settings and the task selection — what
decides a sample or a verdict, and nothing about where or how the run executes (Ray, W&B,
folders, in-flight bounds). The preflight builds it (:meth:`RunSpec.from_config`), it checks
itself once (:meth:`RunSpec.problems`, every message led by the field's name), and the pipeline,
the planner and the keys (:mod:`ibench.run.keys`) read it instead of loose arguments.

The variant is checked here only: the judge, prompt and feedback settings are given the checked
value, so their own checks never see a bad one (and never repeat the message).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ibench.tasks.model import CATEGORIES, DIFFICULTIES
from ibench.variants import Variant

if TYPE_CHECKING:
    from omegaconf import DictConfig

    from ibench.generate.base import SamplingSettings
    from ibench.generate.feedback import FeedbackSettings
    from ibench.generate.prompt import PromptTemplate
    from ibench.judge.settings import JudgeSettings

SPEC_VERSION = 1  # the record's layout; the keys' own version is ibench.run.keys.KEY_VERSION


@dataclass(frozen=True)
class Problem:
    """A setting that cannot work: the field (as the command line names it) and why."""

    field: str
    text: str

    def __str__(self) -> str:
        return f"{self.field}: {self.text}"

    @classmethod
    def parse(cls, line: str) -> "Problem":
        """A settings class's own message, worded "field: text" (the field leads every one)."""
        name, _, text = line.partition(": ")
        return cls(name, text)


@dataclass(frozen=True)
class ModelSpec:
    """The model as the config names it (its full identity, ``Backend.identity()``, is the
    built backend's: it goes into the gen key, :func:`ibench.run.keys.run_keys`)."""

    name: str
    target: str  # the backend class
    model_id: str | None = None  # the endpoint's or the weights' model id
    reasoning: bool = False


@dataclass(frozen=True)
class TaskSelection:
    """Which tasks a run evaluates (each task's own files enter its sample keys)."""

    tasks_dir: str
    ids: tuple[str, ...] | None = None
    difficulties: tuple[str, ...] | None = None
    categories: tuple[str, ...] | None = None
    limit: int | None = None

    def problems(self) -> list[Problem]:
        out = []
        if self.difficulties is not None:
            bad = [d for d in self.difficulties if d.capitalize() not in DIFFICULTIES]
            if bad:
                out.append(Problem("bench.difficulties", f"unknown {', '.join(map(repr, bad))}; expected any of "
                                   f"{', '.join(DIFFICULTIES)}"))
        if self.categories is not None:
            known = {c.lower() for c in CATEGORIES}
            bad = [c for c in self.categories if c.lower() not in known]
            if bad:
                out.append(Problem("bench.categories", f"unknown {', '.join(map(repr, bad))}; expected any of "
                                   f"{', '.join(CATEGORIES)}"))
        if self.limit is not None and self.limit < 1:
            out.append(Problem("bench.limit", f"{self.limit!r}; expected at least 1 task, or null for all"))
        return out


# Which key a field enters (ibench.run.keys: its base fields always, a later one only off its default).
GEN, JUDGE, ROUND = {"key": "gen"}, {"key": "judge"}, {"key": "round"}


@dataclass(frozen=True)
class RunSpec:
    model: ModelSpec
    sampling: SamplingSettings = field(metadata=GEN)
    prompt: PromptTemplate = field(metadata=GEN)  # few-shot examples bound by the preflight
    feedback: FeedbackSettings = field(metadata=ROUND)
    judge: JudgeSettings = field(metadata=JUDGE)  # case pools applied
    tasks: TaskSelection
    language: str = field(default="cpp", metadata=GEN)  # canonical (bench.language=Py is python)
    accept_untagged: bool = field(default=False, metadata=GEN)  # also take a ``` block without a language tag
    variant: Variant = Variant.INTERACTIVE  # enters the keys through the prompt, judge and model
    version: int = SPEC_VERSION

    @property
    def rounds(self) -> int:
        """Rounds per sample in all (1: no refinement)."""
        return max(1, int(self.sampling.refine_rounds or 1))

    # -- checks -----------------------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Everything wrong with the run's settings, each led by its field."""
        s = self.sampling
        out: list[Problem] = []
        if s.n is None or int(s.n) < 1:
            out.append(Problem("sampling.n", f"{s.n!r}; expected at least 1 sample per task"))
        if s.temperature is None or float(s.temperature) < 0:
            out.append(Problem("sampling.temperature", f"{s.temperature!r}; expected zero or more"))
        if s.top_p is None or not 0 < float(s.top_p) <= 1:
            out.append(Problem("sampling.top_p", f"{s.top_p!r}; expected a number in (0, 1]"))
        if s.top_k is not None and int(s.top_k) < 1 and int(s.top_k) != -1:
            out.append(Problem("sampling.top_k", f"{s.top_k!r}; expected at least 1 (or -1 / null for no limit)"))
        if s.max_tokens is None or int(s.max_tokens) < 1:
            out.append(Problem("sampling.max_tokens", f"{s.max_tokens!r}; expected at least 1"))
        if s.reasoning_budget is not None and int(s.reasoning_budget) < 0:
            out.append(Problem("sampling.reasoning_budget", f"{s.reasoning_budget!r}; expected zero or more, or null"))
        if s.reasoning_effort is not None and s.reasoning_effort not in ("low", "medium", "high"):
            out.append(Problem("sampling.reasoning_effort", f"{s.reasoning_effort!r}; expected low, medium, high or null"))
        if int(s.refine_rounds or 1) < 1:
            out.append(Problem("sampling.refine_rounds", f"{s.refine_rounds!r}; expected 1 (no refinement) or more "
                               "rounds in all, the first attempt included"))
        if self.rounds > 1:
            out += [Problem.parse(p) for p in self.feedback.problems()]
        out += self.tasks.problems()
        out += [Problem.parse(p) for p in self.judge.problems()]
        out += [Problem.parse(p) for p in self.prompt.problems(self.language)]
        if self.prompt.rephrase and self.prompt.rephrase_model is None:  # the run's own model rephrases
            from ibench.generate.rephrase import target_refusal

            if why := target_refusal(self.model.target, self.model.name):
                out.append(Problem("prompt.rephrase", why))
        return out

    # -- building ---------------------------------------------------------------------------------
    @classmethod
    def from_config(cls, cfg: DictConfig) -> tuple[RunSpec | None, list[Problem]]:
        """(the spec, or None when a part cannot be built; the problems met building it). The
        canonical language is written back to ``cfg.bench.language`` (the model's config
        interpolates it: the reference model replays that language's solutions)."""
        from omegaconf import OmegaConf

        from ibench.languages import lookup

        b = cfg.bench
        problems: list[Problem] = []
        try:  # one spelling from here on: prompts, code extraction and the reference model key on it
            cfg.bench.language = lookup(str(b.language)).name
        except ValueError as e:
            problems.append(Problem("bench.language", str(e)))
        try:
            variant = Variant(str(b.get("variant", "interactive")))
        except ValueError:
            problems.append(Problem("bench.variant", f"{b.get('variant')!r}; expected interactive (the tasks as "
                                    "stated) or batch (the batch variant, InteractBench C.1: each stdio-interactive "
                                    "task's hidden case on stdin first)"))
            variant = Variant.INTERACTIVE  # the parts below are checked as if it were the default
        parts: dict[str, Any] = {}
        for name in ("sampling", "prompt", "feedback", "judge"):
            try:
                parts[name] = OmegaConf.to_object(cfg[name])
            except Exception as exc:  # noqa: BLE001 - a setting of the wrong type
                problems.append(Problem(name, str(exc)))
        pools = {}
        for name in ("non_adaptive_cases", "adaptive_cases"):
            v = b.get(name)
            if v is not None and int(v) < 0:
                problems.append(Problem(f"bench.{name}", f"{v!r}; expected a count of cases (0 or more) or null for all"))
            elif v is not None:
                pools[name] = int(v)  # the case pools are judge settings, set as bench.*
        if len(parts) < 4:
            return None, problems
        for name in ("prompt", "feedback", "judge"):
            parts[name].variant = variant.value
        for name, v in pools.items():
            setattr(parts["judge"], name, v)

        def strings(v: Any) -> tuple[str, ...] | None:
            return None if v is None else tuple(str(x) for x in v)

        model = ModelSpec(name=str(cfg.model.name), target=str(cfg.model.get("_target_", "")),
                          model_id=None if cfg.model.get("model") is None else str(cfg.model.get("model")),
                          reasoning=bool(cfg.model.get("reasoning", False)))
        tasks = TaskSelection(str(b.tasks_dir), strings(b.ids), strings(b.difficulties), strings(b.categories),
                              None if b.limit is None else int(b.limit))
        spec = cls(model=model, sampling=parts["sampling"], prompt=parts["prompt"], language=str(cfg.bench.language),
                   accept_untagged=bool(b.accept_untagged_fence), variant=variant, feedback=parts["feedback"],
                   judge=parts["judge"], tasks=tasks)
        return spec, problems + spec.problems()

    # -- for people and reports -------------------------------------------------------------------
    def identity(self, backend_name: str, overrides: list[str] | None = None) -> dict[str, Any]:
        """What the run measures, for people and reports (``identity.json``; the sweep and
        compare reports label and group runs by it)."""
        from dataclasses import asdict

        label = backend_name if not self.model.model_id or self.model.model_id == backend_name else \
            f"{backend_name} ({self.model.model_id})"
        return {"model": backend_name, "model_id": self.model.model_id, "backend": self.model.target,
                "sampling": asdict(self.sampling), "language": self.language, "prompt": self.prompt.name,
                "variant": self.variant.value, "overrides": list(overrides or []), "label": label}


def key_fields(spec: RunSpec, part: str) -> list[str]:
    """The spec's fields that enter the ``part`` key ("gen", "judge" or "round"), in order."""
    return [f.name for f in fields(spec) if f.metadata.get("key") == part]
