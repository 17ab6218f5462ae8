"""Every key a run's records carry, computed here and only here, by one rule.

A key is a short hash of what a record depends on, so that a resumed run finds what it made
before (nothing generated or judged twice) and a changed setting never reuses a record made
under the old one:

- ``gen_key``: the model's identity, the sampling settings, the prompt's wording, the language
  and the code-extraction setting (every sample of a run);
- ``judge_key``: the judge settings, case pools applied (every verdict and case);
- ``sample_id``: the gen key, the task, the task's own part (the reference model's solution
  files, a few-shot prompt's example) and the sample index;
- ``round_id``: a refinement round's sample: its parent, the round, the parent's judge key and
  the feedback's wording (:func:`feedback_key`).

The rule (:class:`Keyed`): each settings record names the fields its key held when that key was
first computed (``base``: always hashed) and the fields that say how or where rather than what
(``left_out``: never hashed, derived from each field's role, :func:`mark_of`). Every other field is hashed only when it differs from its default.
So adding a setting never changes an existing key, and a run that uses its default keeps its
keys; a run that sets it gets keys of its own. No key needs an "as before" branch.

``KEY_VERSION`` is recorded with the run's spec; it changes only if a base set ever has to.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ibench.run.spec import RunSpec
    from ibench.generate.base import Backend, SamplingSettings
    from ibench.generate.feedback import FeedbackSettings
    from ibench.generate.prompt import Example, PromptTemplate
    from ibench.judge.settings import JudgeSettings
    from ibench.tasks.model import Task

KEY_VERSION = 1


# -- hashes ---------------------------------------------------------------------------------------
def fingerprint(obj: Any, length: int = 16) -> str:
    """A stable short hash of a JSON-able object (dict keys sorted)."""
    blob = json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:length]


def _short_hash(parts: Any, length: int, ascii_only: bool) -> str:
    # How the prompt's (UTF-8), the example's and the feedback's (ASCII escapes) hashes were
    # first serialised: part of those keys, so kept.
    return hashlib.sha256(json.dumps(parts, ensure_ascii=ascii_only, sort_keys=True).encode()).hexdigest()[:length]


def sample_id(gen_key: str, task_id: str, index: int, task_fp: str = "") -> str:
    """The key of one sample: the run's generation key, the task (and its own part, if it has
    one) and the sample index."""
    return fingerprint([gen_key, task_id, index, task_fp] if task_fp else [gen_key, task_id, index])


def round_id(parent_id: str, round_: int, judge_key: str, feedback_fp: str) -> str:
    """The key of a refinement round's sample: its parent (the same sample's round before), the
    round, and what the feedback it answers depends on — the judge settings that gave the
    parent's verdict and the feedback's wording."""
    return fingerprint([parent_id, "round", round_, judge_key, feedback_fp])


# -- what a setting is: its role, marked once ----------------------------------------------------
# Every settings field carries one role (``field(metadata={"role": ...})``, see :func:`role`); the
# key rules below (``Keyed.left_out``), the run folder's name (``exclude_keys``,
# :func:`ibench.run.config.execution_keys`) and what a resume may change
# (:data:`ibench.run.resume.RESUME_ALLOWED`) are all derived from it.
MEASURED = "measured"  # changes what a run measures: hashed into its key, in its folder's name; resume refuses a change
EXECUTION = "execution"  # where or how it runs, or what its report shows: none of those; resume accepts a change
EXTENT = "extent"  # how far a run goes (refinement rounds: each round has keys of its own): in the folder's name,
#                    never hashed; a resume may raise it
LABEL = "label"  # a name for people (a preset's name): never hashed; names the folder; a resume keeps it
ROLES = (MEASURED, EXECUTION, EXTENT, LABEL)


def role(role_: str, default: Any = dataclasses.MISSING, *, factory: Any = dataclasses.MISSING,
         hashed: bool = True) -> Any:
    """A settings field with its role. ``hashed=False`` on a measured field: it enters the keys
    another way (say so where it is marked)."""
    if role_ not in ROLES:
        raise ValueError(f"unknown role {role_!r}; expected one of {', '.join(ROLES)}")
    meta = {"role": role_} if hashed else {"role": role_, "hashed": False}
    if factory is not dataclasses.MISSING:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def _measured(names: str) -> dict[str, Any]:
    return dict.fromkeys(names.split(), MEASURED)


# The marks of the settings classes that live in ibench.generate and ibench.judge, kept here until
# those modules carry them in their own fields' metadata: one entry per field, nothing defaulted
# (tests/results/test_roles.py fails on a field marked nowhere or twice). Some field names are a
# toolchain's (python, javac, go): one string, as JUDGE_BASE below.
MARKS_ELSEWHERE: dict[str, dict[str, Any]] = {
    "SamplingSettings": {**_measured("n temperature top_p top_k max_tokens seed reasoning_budget reasoning_effort"),
                         "name": LABEL, "refine_rounds": EXTENT},
    "PromptTemplate": {**_measured("system interactive batch examples example_answer example_ids io_templates "
                                   "variant interactive_upfront"),
                       "name": LABEL,
                       # the pool's folder enters through each task's example (its own key part)
                       "example_pool": (MEASURED, False),
                       # rephrased statements (ibench.generate.rephrase): the switch, the rephrasing
                       # model and its instruction are hashed off their defaults; the rephrased texts
                       # enter each task's own key part; rephrase_with (that model's endpoint and id)
                       # enters through them
                       **_measured("rephrase rephrase_model rephrase_instruction"),
                       "rephrase_with": (MEASURED, False)},
    "FeedbackSettings": {**_measured("template message_chars tail_chars max_chars judge_message judge_replies "
                                     "program_output program_stderr tails_from_hidden_input variant figures"),
                         "name": LABEL},
    "JudgeSettings": _measured("""compiler cxx_flags compile_timeout_s precompiled_header fast_linker static_link cache_dir
                                  testlib_header python javac go all_cases wall_factor wall_extra_s wall_hard_factor
                                  grace_ms max_processes output_limit_mb tail_bytes transcript_bytes interactor_cpu_s
                                  interactor_wall_s
                                  interactor_memory_mb pin_cpu isolation require_isolation variant
                                  non_adaptive_cases adaptive_cases"""),
}


class UnmarkedField(LookupError):
    """A settings field without a role."""


def mark_of(cls: type, name: str, strict: bool = False) -> tuple[str, bool]:
    """(the role of ``cls``'s field ``name``, whether it is hashed into the key). A field marked
    nowhere counts as measured (the safe side: its own folder, refused by a resume, hashed off its
    default, as every later field was before the marks); ``strict``: raise
    :class:`UnmarkedField` instead (tests/results/test_roles.py walks every field so)."""
    fields_ = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    meta = fields_[name].metadata if name in fields_ else {}
    if "role" in meta:
        return str(meta["role"]), bool(meta.get("hashed", True)) and meta["role"] == MEASURED
    for klass in getattr(cls, "__mro__", (cls,)):
        got = MARKS_ELSEWHERE.get(klass.__name__, {}).get(name)
        if got is not None:
            r, hashed = got if isinstance(got, tuple) else (got, True)
            return r, hashed and r == MEASURED
    if strict:
        raise UnmarkedField(f"{cls.__name__}.{name} has no role (mark it with ibench.run.keys.role: "
                            f"{', '.join(ROLES)})")
    return MEASURED, True


def left_out_of(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` never hashed into its key: every one not measured, or measured but
    entering the keys another way."""
    return tuple(f.name for f in dataclasses.fields(cls) if not mark_of(cls, f.name)[1])


# -- the rule -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Keyed:
    """How one settings record enters its key (see the module docstring)."""

    base: tuple[str, ...]  # hashed always, in this order where the key is a list
    left_out: tuple[str, ...] = ()  # never hashed
    # name -> fields hashed together, as one list under ``name``, when ``name`` is off its default
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    constants: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # appended to a group's list


def _defaults(obj: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(obj):
        out = {}
        for f in dataclasses.fields(obj):
            if f.default is not dataclasses.MISSING:
                out[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                out[f.name] = f.default_factory()
        return out
    return {name: p.default for name, p in inspect.signature(type(obj).__init__).parameters.items()
            if p.default is not inspect.Parameter.empty}


def _names(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    return [n for n in inspect.signature(type(obj).__init__).parameters if n != "self" and hasattr(obj, n)]


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str)) if isinstance(value, (dict, list, tuple)) else value


def keyed(obj: Any, rule: Keyed) -> tuple[list[Any], dict[str, Any]]:
    """(the base fields' values in order, every other field off its default by name)."""
    defaults = _defaults(obj)
    grouped = {f for fields_ in rule.groups.values() for f in fields_}
    base = [_plain(getattr(obj, name)) for name in rule.base]
    extra: dict[str, Any] = {}
    for name in _names(obj):
        if name in rule.base or name in rule.left_out or (name in grouped and name not in rule.groups):
            continue
        value = getattr(obj, name)
        if name in defaults and value == defaults[name]:
            continue
        if name in rule.groups:
            extra[name] = [_plain(getattr(obj, f)) for f in rule.groups[name]] + list(rule.constants.get(name, ()))
        else:
            extra[name] = _plain(value)
    return base, extra


def keyed_dict(obj: Any, rule: Keyed) -> dict[str, Any]:
    base, extra = keyed(obj, rule)
    return {**dict(zip(rule.base, base)), **extra}


# -- the settings records' rules ------------------------------------------------------------------
# What each key leaves out is derived from the fields' roles (:func:`left_out_of`); the base sets
# are history (what each key held when it was first computed) and stay as they are.
@functools.cache
def _sampling_rule() -> Keyed:
    from ibench.generate.base import SamplingSettings

    # a preset's name is not what it does (label); how many rounds a run goes to changes no one
    # round's sample (extent: later rounds carry their own keys, round_id)
    return Keyed(base=("n", "temperature", "top_p", "top_k", "max_tokens", "seed", "reasoning_budget",
                       "reasoning_effort"), left_out=left_out_of(SamplingSettings))


# JudgeSettings' fields in one string: some are named after a toolchain (python, javac, go), and a
# literal list of those names would read as a second list of languages (tests/test_languages.py).
JUDGE_BASE = tuple("""compiler cxx_flags compile_timeout_s precompiled_header fast_linker cache_dir
                      testlib_header python javac go all_cases wall_factor wall_extra_s wall_hard_factor
                      grace_ms max_processes output_limit_mb tail_bytes interactor_cpu_s interactor_wall_s
                      interactor_memory_mb
                      pin_cpu isolation require_isolation non_adaptive_cases adaptive_cases""".split())


@functools.cache
def _judge_rule() -> Keyed:
    from ibench.judge.settings import JudgeSettings

    return Keyed(base=JUDGE_BASE, left_out=left_out_of(JudgeSettings))


@functools.cache
def _prompt_rule() -> Keyed:
    from ibench.generate.prompt import GENERIC_HIDDEN_FORMAT, HIDDEN_EXAMPLE_BYTES, PromptTemplate

    return Keyed(base=("system", "interactive", "batch"),
                 # the name is a label; the pool's folder enters through each task's example
                 left_out=left_out_of(PromptTemplate),
                 groups={"examples": ("examples", "example_answer", "example_ids"),
                         "variant": ("variant", "interactive_upfront")},
                 constants={"variant": (HIDDEN_EXAMPLE_BYTES, GENERIC_HIDDEN_FORMAT)})


EXAMPLE = Keyed(base=("task_id", "solution", "statement", "code"), left_out=("task",))  # not a settings record


@functools.cache
def _feedback_rule() -> Keyed:
    from ibench.generate.feedback import FeedbackSettings

    return Keyed(base=("template", "message_chars", "tail_chars", "max_chars", "judge_message", "judge_replies",
                       "program_output", "program_stderr", "tails_from_hidden_input", "variant"),
                 left_out=left_out_of(FeedbackSettings))


@functools.cache
def _reference_rule() -> Keyed:
    from ibench.run.config import ReferenceModelConfig

    return Keyed(base=("language", "repeat_to_n"), left_out=left_out_of(ReferenceModelConfig))


def rules() -> dict[str, tuple[type, Keyed]]:
    """Each settings record's class and key rule (the roles test checks base ⊆ hashed)."""
    from ibench.run.config import ReferenceModelConfig
    from ibench.generate.base import SamplingSettings
    from ibench.generate.feedback import FeedbackSettings
    from ibench.generate.prompt import PromptTemplate
    from ibench.judge.settings import JudgeSettings

    return {"sampling": (SamplingSettings, _sampling_rule()), "judge": (JudgeSettings, _judge_rule()),
            "prompt": (PromptTemplate, _prompt_rule()), "feedback": (FeedbackSettings, _feedback_rule()),
            "reference": (ReferenceModelConfig, _reference_rule())}


# -- the keys -------------------------------------------------------------------------------------
def prompt_key(prompt: "PromptTemplate") -> str:
    """The prompt's wording (part of the gen key)."""
    base, extra = keyed(prompt, _prompt_rule())
    return _short_hash(base + [extra] if extra else base, 12, ascii_only=False)


def example_key(example: "Example") -> str:
    """A few-shot example (recorded with its samples; the prompt's per-task part)."""
    base, extra = keyed(example, EXAMPLE)
    return _short_hash(base + list(extra.values()), 16, ascii_only=True)


def feedback_key(feedback: "FeedbackSettings") -> str:
    """The feedback turn's wording and policy (part of every later round's sample keys)."""
    from ibench.generate.feedback import FORMAT_VERSION

    return _short_hash([FORMAT_VERSION, keyed_dict(feedback, _feedback_rule())], 12, ascii_only=True)


def reference_identity(backend: Any) -> dict[str, Any]:
    """The reference model's own part of its identity."""
    return keyed_dict(backend, _reference_rule())


def task_key(backend: "Backend", prompt: "PromptTemplate", task: "Task", language: str) -> str:
    """A task's own part of its sample keys: the backend's (the reference model's solution
    files) and the prompt's (a few-shot prompt's example); either changing re-keys the task."""
    parts = [backend.task_fingerprint(task), prompt.task_fingerprint(task, language)]
    return parts[0] if not parts[1] else "+".join(parts)


@dataclass(frozen=True)
class RunKeys:
    gen_key: str
    judge_key: str
    gen_identity: dict = field(hash=False, compare=False)
    judge_identity: dict = field(hash=False, compare=False)


def run_keys(backend: "Backend", sampling: "SamplingSettings", prompt: "PromptTemplate", language: str,
             accept_untagged: bool, judge: "JudgeSettings") -> RunKeys:
    gen = {"backend": backend.identity(), "sampling": keyed_dict(sampling, _sampling_rule()), "prompt": prompt.fingerprint(),
           "language": language, "accept_untagged": accept_untagged}
    jud = keyed_dict(judge, _judge_rule())
    return RunKeys(fingerprint(gen), fingerprint(jud), gen, jud)


# The spec's fields each key was first computed from (ibench.run.spec marks which key a field is of).
SPEC_BASE = {"gen": ("sampling", "prompt", "language", "accept_untagged"), "judge": ("judge",), "round": ("feedback",)}


def _later(spec: "RunSpec", part: str) -> dict[str, Any]:
    """The spec's fields of the ``part`` key beyond its base, off their defaults."""
    from ibench.run.spec import key_fields

    defaults = _defaults(spec)
    return {name: _plain(getattr(spec, name)) for name in key_fields(spec, part)
            if name not in SPEC_BASE[part] and (name not in defaults or getattr(spec, name) != defaults[name])}


def spec_keys(spec: "RunSpec", backend: "Backend") -> RunKeys:
    """The run's gen and judge keys: the built backend's identity and the spec."""
    keys = run_keys(backend, spec.sampling, spec.prompt, spec.language, spec.accept_untagged, spec.judge)
    gen, jud = {**keys.gen_identity, **_later(spec, "gen")}, {**keys.judge_identity, **_later(spec, "judge")}
    return RunKeys(fingerprint(gen), fingerprint(jud), gen, jud)


def spec_feedback_key(spec: "RunSpec") -> str:
    """What a refinement round's sample keys hold of the feedback (:func:`round_id`)."""
    later = _later(spec, "round")
    return feedback_key(spec.feedback) if not later else fingerprint([feedback_key(spec.feedback), later], 12)
