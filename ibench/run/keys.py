"""Every key a run's records carry, computed here from its settings records by one rule.

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

Every settings record enters its key by one rule (:class:`ibench.roles.Keyed`, the fields'
roles marked in their dataclasses): the sampling's and the judge's rules are here; the prompt's,
the few-shot example's, the feedback's and the reference model's are their own classes'
(:func:`ibench.generate.prompt.key_rule`, ...), so ``ibench.generate`` never needs this module.
No key needs an "as before" branch.

``KEY_VERSION`` is recorded with the run's spec; it changes only if a base set ever has to.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ibench.roles import Keyed, defaults_of, fingerprint, keyed_dict, left_out_of, plain

if TYPE_CHECKING:
    from ibench.run.spec import RunSpec
    from ibench.generate.base import Backend, SamplingSettings
    from ibench.generate.feedback import FeedbackSettings
    from ibench.generate.prompt import Example, PromptTemplate
    from ibench.judge.settings import JudgeSettings
    from ibench.tasks.model import Task

KEY_VERSION = 1


# -- the records' keys ------------------------------------------------------------------------
def sample_id(gen_key: str, task_id: str, index: int, task_fp: str = "") -> str:
    """The key of one sample: the run's generation key, the task (and its own part, if it has
    one) and the sample index."""
    return fingerprint([gen_key, task_id, index, task_fp] if task_fp else [gen_key, task_id, index])


def round_id(parent_id: str, round_: int, judge_key: str, feedback_fp: str) -> str:
    """The key of a refinement round's sample: its parent (the same sample's round before), the
    round, and what the feedback it answers depends on — the judge settings that gave the
    parent's verdict and the feedback's wording."""
    return fingerprint([parent_id, "round", round_, judge_key, feedback_fp])


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
                      grace_ms max_processes output_limit_mb tail_bytes interactor_cpu_s interactor_memory_mb
                      pin_cpu isolation require_isolation non_adaptive_cases adaptive_cases""".split())


@functools.cache
def _judge_rule() -> Keyed:
    from ibench.judge.settings import JudgeSettings

    return Keyed(base=JUDGE_BASE, left_out=left_out_of(JudgeSettings))


def rules() -> dict[str, tuple[type, Keyed]]:
    """Each settings record's class and key rule (the roles test checks base ⊆ hashed); the
    prompt's, the feedback's and the reference model's rules are their own classes'."""
    from ibench.generate import feedback, prompt, reference
    from ibench.generate.base import SamplingSettings
    from ibench.generate.configs import ReferenceModelConfig
    from ibench.judge.settings import JudgeSettings

    return {"sampling": (SamplingSettings, _sampling_rule()), "judge": (JudgeSettings, _judge_rule()),
            "prompt": (prompt.PromptTemplate, prompt.key_rule()),
            "feedback": (feedback.FeedbackSettings, feedback.key_rule()),
            "reference": (ReferenceModelConfig, reference.key_rule())}


# -- the keys -------------------------------------------------------------------------------------
def prompt_key(prompt: "PromptTemplate") -> str:
    """The prompt's wording (part of the gen key; its own rule, :meth:`PromptTemplate.fingerprint`)."""
    return prompt.fingerprint()


def example_key(example: "Example") -> str:
    """A few-shot example (recorded with its samples; the prompt's per-task part)."""
    return example.digest()


def feedback_key(feedback: "FeedbackSettings") -> str:
    """The feedback turn's wording and policy (part of every later round's sample keys)."""
    return feedback.fingerprint()


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
    gen = {"backend": backend.identity(), "sampling": keyed_dict(sampling, _sampling_rule()), "prompt": prompt_key(prompt),
           "language": language, "accept_untagged": accept_untagged}
    jud = keyed_dict(judge, _judge_rule())
    return RunKeys(fingerprint(gen), fingerprint(jud), gen, jud)


# The spec's fields each key was first computed from (ibench.run.spec marks which key a field is of).
SPEC_BASE = {"gen": ("sampling", "prompt", "language", "accept_untagged"), "judge": ("judge",), "round": ("feedback",)}


def _later(spec: "RunSpec", part: str) -> dict[str, Any]:
    """The spec's fields of the ``part`` key beyond its base, off their defaults."""
    from ibench.run.spec import key_fields

    defaults = defaults_of(spec)
    return {name: plain(getattr(spec, name)) for name in key_fields(spec, part)
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
