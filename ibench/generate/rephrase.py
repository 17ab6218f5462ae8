"""Rephrased statements (LiveOIBench Figure 4: do the scores survive a semantic rephrasing?).

``prompt.rephrase=true`` makes a model rephrase each task's statement once, before the run
generates anything; the run's prompts then hold the rephrased statements instead of the
originals, and ``python -m ibench.results study`` pairs the run with the same run on the original
statements (pass@1 per task, the paired difference with a bootstrap interval over tasks).

- **Who rephrases**: the run's own model (``prompt.rephrase_model=null``, the default), or
  another model config of ``conf/model/`` by name (``prompt.rephrase_model=openai-api``), with
  ``prompt.rephrase_with=[key=value,...]`` as overrides of that config (``base_url=...``,
  ``model=...``).
- **How**: one chat request per task — the instruction (``prompt.rephrase_instruction``) as the
  system message, the statement as the user message — greedy (temperature 0, one sample) within
  the run's ``sampling.max_tokens`` and reasoning settings. The answer's reasoning is left out
  (the backend's reasoning format) and a reply that is one fenced block is unwrapped. An empty
  answer, or a request that failed, stops the run before it generates (never a run on half its
  statements).
- **Once**: each rephrasing is cached on disk by what it depends on — the rephrasing model's
  identity, the instruction, the statement and the token limit (:func:`rephrase_key`) — under
  :func:`cache_dir` (``$IBENCH_REPHRASE_CACHE``, else ``rephrase/`` in ``$IBENCH_CACHE`` or
  ``~/.cache/ibench``) as ``<key>.json``, so another run (another language, prompt,
  a seed sweep, a resume) reuses the very same text; and stored with the run as
  ``<run>/rephrased.json`` (per task: the text, its SHA-256, the original's, the model, the key).
- **Keys**: the rephrased text enters each task's sample keys (through the prompt's per-task
  part, :meth:`ibench.generate.prompt.PromptTemplate.task_fingerprint`), so a rephrasing made
  again differently (a cache removed, another model) never reuses a sample made on the old one.
  ``prompt.rephrase`` itself is a measured setting: a rephrased run has a folder of its own.
- **The reference model cannot rephrase**: it replays known solutions and writes no text. With
  ``model=reference`` a rephrase needs another model to write it (``prompt.rephrase_model``); the
  preflight refuses ``prompt.rephrase=true`` without one (exit 2). A reference run on rephrased
  statements replays the same solutions, so its paired difference is exactly 0: a check of the
  pairing, not of a model.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from ibench.generate.base import Backend, GenerationRequest, SamplingSettings, stable_seed
from ibench.tasks.model import Task

REPHRASE_VERSION = 1  # how a rephrasing is asked for and cleaned; part of every cache key
RECORD_FILE = "rephrased.json"
CACHE_FOLDER = "rephrase"
DEFAULT_INSTRUCTION = (
    "Rephrase the competitive-programming problem statement the user gives you. Keep its meaning exactly: "
    "every rule, constraint, limit, number, formula, input and output format, the interaction protocol "
    "(what to print, what the judge answers, when to flush), the examples and their data must stay as they are. "
    "Change only the wording and the sentence structure; do not add hints, do not solve the problem, do not "
    "leave anything out. Keep Markdown and LaTeX formatting. Answer with the rephrased statement only.")


class RephraseError(RuntimeError):
    """The statements could not be rephrased (named: which tasks, and why)."""


@dataclass(frozen=True)
class Rephrased:
    """One task's rephrased statement, as cached and as the run records it."""

    task_id: str
    text: str
    text_sha256: str
    original_sha256: str
    rephrased_by: str  # the rephrasing model's name
    key: str  # :func:`rephrase_key`
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    cached: bool = False  # read from the cache by this run (not asked again)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rephrase_key(identity: Mapping[str, Any], instruction: str, statement: str, max_tokens: int) -> str:
    """What a rephrasing depends on: the rephrasing model, the instruction, the statement, the
    token limit (and :data:`REPHRASE_VERSION`)."""
    blob = json.dumps([REPHRASE_VERSION, dict(identity), instruction, statement, int(max_tokens)], sort_keys=True,
                      default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:20]


def request_messages(instruction: str, statement: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": instruction}, {"role": "user", "content": statement}]


def clean(response: str, reasoning_format: str = "think") -> str:
    """The rephrased statement in a model's answer: its reasoning left out, one fenced block
    around all of it unwrapped, surrounding blank space stripped."""
    from ibench.generate.extract import split_reasoning

    _, final = split_reasoning(response, reasoning_format)
    text = final.strip()
    lines = text.splitlines()
    inner = [ln for ln in lines[1:-1] if ln.lstrip().startswith("```")]
    if (len(lines) >= 2 and lines[0].strip().lower() in ("```", "```markdown", "```md", "```text", "```txt")
            and lines[-1].strip() == "```" and len(inner) % 2 == 0):  # the statement's own fences stay
        text = "\n".join(lines[1:-1]).strip()
    return text


def rephrase_sampling(run: SamplingSettings) -> SamplingSettings:
    """The rephrasing's decoding: greedy, one sample, the run's token limit and reasoning
    settings (a reasoning model needs its budget to answer at all)."""
    return replace(run, name="rephrase", n=1, temperature=0.0, top_p=1.0, top_k=None, seed=0, refine_rounds=1)


@contextmanager
def sampling_of(backend: Backend, sampling: SamplingSettings) -> Iterator[None]:
    """``backend`` decodes with ``sampling`` inside the block, with its own settings again after."""
    before = getattr(backend, "sampling", None)
    backend.sampling = sampling
    try:
        yield
    finally:
        if before is not None:
            backend.sampling = before


REFUSAL = ("model={name} replays each task's known solutions and writes no text: it cannot rephrase a statement. "
           "Name a model that can: prompt.rephrase_model=NAME (a config of conf/model/, e.g. openai-api, with "
           "prompt.rephrase_with=[base_url=...,model=...] for its endpoint)")


def cannot_rephrase(backend: Any) -> str | None:
    """Why ``backend`` cannot rephrase (None: it can): it writes no text of its own."""
    return None if getattr(backend, "writes_text", True) else REFUSAL.format(name=getattr(backend, "name", "?"))


def target_refusal(target: str, name: str) -> str | None:
    """:func:`cannot_rephrase` for the backend class a model config's ``_target_`` names, before
    it is built (the preflight); None where it can, or where the target does not import (the
    preflight names that problem on its own)."""
    from hydra.utils import get_class

    try:
        cls = get_class(target)
    except Exception:  # noqa: BLE001 - reported by the preflight as the target's own problem
        return None
    return None if getattr(cls, "writes_text", True) else REFUSAL.format(name=name)


def _read_cache(path: Path, statement_sha: str) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("original_sha256") != statement_sha or not str(data.get("text", "")).strip():
        return None
    return data


def _from_cache(task_id: str, data: Mapping[str, Any]) -> Rephrased:
    def count(k: str) -> int | None:
        return None if data.get(k) is None else int(data[k])

    return Rephrased(task_id=task_id, text=str(data["text"]), text_sha256=str(data.get("text_sha256") or ""),
                     original_sha256=str(data.get("original_sha256") or ""),
                     rephrased_by=str(data.get("rephrased_by") or ""), key=str(data.get("key") or ""),
                     prompt_tokens=count("prompt_tokens"), completion_tokens=count("completion_tokens"),
                     latency_s=float(data.get("latency_s") or 0.0), cached=True)


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def rephrase_tasks(tasks: Sequence[Task], backend: Backend, sampling: SamplingSettings, cache_dir: str | Path,
                   instruction: str = DEFAULT_INSTRUCTION, ready: Callable[[], None] | None = None) -> dict[str, Rephrased]:
    """Each task's statement rephrased by ``backend`` (``ready`` sets it up, called only when a
    statement is not in ``cache_dir`` yet; its own sampling comes back after).
    :class:`RephraseError` names every task that failed; nothing is cached for them."""
    why = cannot_rephrase(backend)
    if why:
        raise RephraseError(why)
    cache = Path(cache_dir)
    identity = backend.identity()
    settings = rephrase_sampling(sampling)
    out: dict[str, Rephrased] = {}
    wanted: dict[str, tuple[Task, str, str]] = {}  # task id -> (task, statement, key)
    for task in tasks:
        statement = task.statement().strip()
        key = rephrase_key(identity, instruction, statement, settings.max_tokens)
        hit = _read_cache(cache / f"{key}.json", sha256(statement))
        if hit is not None:
            out[task.task_id] = _from_cache(task.task_id, hit)
        else:
            wanted[task.task_id] = (task, statement, key)
    if wanted:
        if ready is not None:
            ready()
        requests = [GenerationRequest(task=t, messages=request_messages(instruction, st), indices=[0],
                                      seed=stable_seed("rephrase", t.task_id)) for t, st, _ in wanted.values()]
        failed: list[str] = []
        started = time.perf_counter()
        with sampling_of(backend, settings):
            for c in backend.generate(requests):
                task, statement, key = wanted[c.task_id]
                text = clean(c.response, getattr(backend, "reasoning_format", "think")) if not c.error else ""
                if not text:
                    why = c.error or (f"the answer was empty (finish_reason {c.finish_reason or '?'}; "
                                      f"{c.completion_tokens} token(s))")
                    failed.append(f"{c.task_id}: {why}")
                    continue
                r = Rephrased(task_id=c.task_id, text=text, text_sha256=sha256(text), original_sha256=sha256(statement),
                              rephrased_by=backend.name, key=key, prompt_tokens=c.prompt_tokens,
                              completion_tokens=c.completion_tokens, latency_s=float(c.latency_s or 0.0))
                record = {k: v for k, v in asdict(r).items() if k != "cached"}
                _write_atomic(cache / f"{key}.json", json.dumps({**record, "instruction_sha256": sha256(instruction),
                                                                 "created_at": time.time()}, indent=1,
                                                                ensure_ascii=False) + "\n")
                out[c.task_id] = r
        missing = sorted(set(wanted) - set(out) - {f.split(":", 1)[0] for f in failed})
        failed += [f"{t}: no answer came back" for t in missing]
        if failed:
            raise RephraseError(f"{len(failed)} of {len(wanted)} statement(s) could not be rephrased by {backend.name} "
                                f"(after {time.perf_counter() - started:.1f} s); the run did not start: " + "; ".join(failed))
    return {t.task_id: out[t.task_id] for t in tasks}


def write_record(run_dir: str | Path, rephrased: Mapping[str, Rephrased], instruction: str) -> Path:
    """``<run>/rephrased.json``: what the run's prompts were made of (the statements themselves)."""
    path = Path(run_dir) / RECORD_FILE
    body = {"version": REPHRASE_VERSION, "instruction": instruction,
            "tasks": {tid: asdict(r) for tid, r in sorted(rephrased.items())}}
    _write_atomic(path, json.dumps(body, indent=1, ensure_ascii=False) + "\n")
    return path


def read_record(run_dir: str | Path) -> dict[str, Any]:
    """``<run>/rephrased.json`` as written; {} for a run without one."""
    path = Path(run_dir) / RECORD_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def cache_dir() -> Path:
    """Where rephrasings are cached: ``$IBENCH_REPHRASE_CACHE``, else ``rephrase/`` in ibench's
    cache (``$IBENCH_CACHE`` or ``~/.cache/ibench``, as the judge's)."""
    env = os.environ.get("IBENCH_REPHRASE_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("IBENCH_CACHE") or Path.home() / ".cache" / "ibench") / CACHE_FOLDER


def prepare(prompt: Any, sampling: SamplingSettings, backend: Backend, tasks: Sequence[Task], run_dir: str | Path,
            cache_dir: str | Path, setup_own: Callable[[], None],
            build_model: Callable[[str, Sequence[str]], Backend] | None = None) -> dict[str, Rephrased]:
    """The run's rephrasing stage (``prompt.rephrase=true``), before it plans: each statement from
    the run's own ``rephrased.json`` (a resume), else the cache, else asked of the rephrasing
    model — the run's own ``backend`` (``setup_own`` sets it up, once, only if asked) or the one
    ``prompt.rephrase_model`` names (``build_model(name, prompt.rephrase_with)`` builds it, the
    run's :func:`ibench.run.config.build_model`; set up and closed here). Binds them to ``prompt``
    (:meth:`~ibench.generate.prompt.PromptTemplate.bind_rephrased`), writes ``rephrased.json``
    and returns them; {} when the run does not rephrase."""
    if not prompt.rephrase:
        return {}
    instruction = prompt.rephrase_instruction
    if prompt.rephrase_model and build_model is None:
        raise RephraseError(f"prompt.rephrase_model={prompt.rephrase_model}: no way to build it was given")
    other = build_model(prompt.rephrase_model, prompt.rephrase_with) if prompt.rephrase_model and build_model else None
    rephraser = other or backend
    why = cannot_rephrase(rephraser)
    if why:
        raise RephraseError(why)
    cache = Path(cache_dir)
    for r in (read_record(run_dir).get("tasks") or {}).values():  # the run's own texts come first
        if isinstance(r, dict) and r.get("key") and r.get("text") and not (cache / f"{r['key']}.json").is_file():
            _write_atomic(cache / f"{r['key']}.json", json.dumps({k: v for k, v in r.items() if k != "cached"},
                                                                 indent=1, ensure_ascii=False) + "\n")
    ready = setup_own if other is None else (lambda: other.setup(rephrase_sampling(sampling)))
    try:
        out = rephrase_tasks(tasks, rephraser, sampling, cache, instruction, ready)
    finally:
        if other is not None:
            other.close()
    prompt.bind_rephrased({tid: r.text for tid, r in out.items()})
    write_record(run_dir, out, instruction)
    return out
