"""The study's view of a run: :class:`StudyRun`, placed by the identity the run recorded (model
label, language, prompt setting, variant, refinement), never by its folder name; and the names
and cohorts the study tables group runs by (:func:`distinguish`, :func:`names`).

Runs are read through :class:`~ibench.results.runlog.RunLog`; this module adds only what the
study makes of them (pass@k computed from n and c where the launch did not store it, refine@k
over a subset of tasks, release years)."""

from __future__ import annotations

import datetime as _dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

from ibench.results.metrics import pass_at_k, refine_rounds
from ibench.results.runlog import RunIdentity, RunLog


class StudyError(ValueError):
    """Bad input to the study report (printed as one line, exit 2)."""


def year_of(value: Any) -> int | None:
    """The release year of a date given as a ``datetime.date``, ``"YYYY-MM-DD"`` or a year; None
    for no date."""
    return None if value is None else release_year(value)


def release_year(value: Any) -> int:
    """:func:`year_of` of a date that is there."""
    if isinstance(value, _dt.date):
        return value.year
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    try:
        return _dt.date.fromisoformat(text).year
    except ValueError:
        if text.isdigit() and len(text) == 4:
            return int(text)
    raise StudyError(f"{value!r} is not a release date; expected YYYY-MM-DD")


@dataclass
class StudyRun:
    """One run of a study. Mutable on purpose: :func:`distinguish` adds to ``label`` the settings
    that set it apart from other runs of its model."""

    run_dir: Path
    label: str  # the model (identity label)
    language: str
    prompt: str
    tasks: dict[str, dict[str, Any]]  # task id -> summary.json task (pass_at, date, ...)
    ks: list[int]
    undated: int = 0
    refine_rows: list[dict[str, Any]] = field(default_factory=list)  # per judged sample: task, chain, round, verdict
    variant: str = "interactive"  # interactive | batch (the batch variant, InteractBench C.1)
    other: dict[str, str] = field(default_factory=dict)  # what else the run was made with (n, budget, tasks, ...)
    settings: dict[str, Any] = field(default_factory=dict)  # its whole config, flattened: a value it did not override

    @cached_property
    def refine(self) -> list[dict[str, Any]]:
        """refine_rounds() rows over all its tasks; [] without rounds."""
        return refine_rounds(self.refine_rows)

    def refine_at(self, k: int, tasks: Sequence[str] | None = None) -> float | None:
        """refine@k over ``tasks`` (default: all); None when the run did not go to round k."""
        keep = None if tasks is None else set(tasks)
        rows = [r for r in self.refine_rows if keep is None or r["task_id"] in keep]
        at = [x for x in refine_rounds(rows) if x["round"] == k]
        return at[0]["refine@k"] if at else None

    @property
    def setting(self) -> str:
        return "refine" if self.refine else self.prompt

    def pass_at(self, task_id: str, k: int) -> float | None:
        """pass@k of a task: as the launch stored it, else computed from its stored samples (its
        n and c, the same unbiased estimator); None where the task has fewer than k samples."""
        t = self.tasks[task_id]
        stored = t.get("pass_at") or {}
        v = stored.get(str(k))
        if v is None and str(k) not in stored and t.get("n") is not None and t.get("c") is not None:
            v = pass_at_k(int(t["n"]), int(t["c"]), int(k))
        return None if v is None else float(v)

    @property
    def rounds(self) -> int:
        return max((int(r["round"]) for r in self.refine_rows), default=1)

    @classmethod
    def of(cls, log: RunLog) -> StudyRun:
        """The run as the study places it; :class:`StudyError` for a date that is not one or a
        store that cannot be read where the rounds are needed."""
        summary_path = log.run_dir / "summary.json"
        summary = log.summary
        ident = log.identity
        tasks = {t["task_id"]: dict(t) for t in summary.get("tasks", [])}
        if any(t.get("date") is None for t in tasks.values()):
            for tid, date in log.task_dates().items():
                tasks[tid]["date"] = tasks[tid].get("date") or date
        for tid, t in tasks.items():
            if t.get("date") is not None:
                try:
                    year_of(t["date"])
                except StudyError as e:
                    raise StudyError(f"{summary_path}: tasks[{tid}].date: {e}") from None
        try:
            rows = log.refine_rows()
        except Exception as exc:  # noqa: BLE001 - a run without a readable store still has its summary
            raise StudyError(f"{log.run_dir}: cannot read its results store ({exc})") from None
        return cls(log.run_dir, ident.label, ident.language, ident.prompt, tasks,
                   [int(k) for k in summary.get("ks", [1])],
                   undated=sum(1 for t in tasks.values() if t.get("date") is None),
                   refine_rows=rows, variant=ident.variant, other=other_settings(ident, tasks),
                   settings=_settings(log))


# Settings a study places runs by (language, prompt, variant, refinement) or that do not change
# what a run measures: not "other".
_PLACED = ("bench.language", "prompt", "bench.variant", "sampling.refine_rounds", "model", "resume", "metrics.",
           "paths.", "cluster", "wandb", "pipeline.", "hydra", "print_config", "feedback.", "report.")


def other_settings(ident: RunIdentity, tasks: dict[str, Any]) -> dict[str, str]:
    """What a run was made with besides its model, language, prompt, variant and refinement:
    its sampling values, its other overrides and its task set (a count), as short texts."""
    out: dict[str, str] = {}
    for k, v in ident.sampling.items():
        if k not in ("name", "refine_rounds"):
            out[f"sampling.{k}"] = str(v)
    from ibench.results.labels import labelled, short

    for key, value in labelled(ident.overrides).items():  # measured settings, normalised, no endpoint
        if key.startswith("sampling.") or any(key == p or (p.endswith(".") and key.startswith(p)) for p in _PLACED):
            continue
        out[key] = short(value)
    out["tasks"] = str(len(tasks))
    return out


def _settings(log: RunLog) -> dict[str, Any]:
    from ibench.results.sweep import _saved_config, flatten

    return flatten(log.config or _saved_config(log.run_dir))


def _value(r: StudyRun, key: str) -> str:
    """A setting of a run as a label shows it: its override, else its own config's value (a
    setting it did not override is never a bare "-"), booleans as the command line spells them."""
    v: Any = r.other[key] if key in r.other else r.settings.get(key, "-")
    return str(v).lower() if isinstance(v, bool) else str(v)


def distinguish(runs: Sequence[StudyRun]) -> list[str]:
    """Runs of one model that differ in more than language, prompt, variant and refinement (n,
    a budget, the task set, another override) are different cohorts: each run's label gets the
    settings that differ within its model, e.g. ``reference [sampling.n=7]``, so the tables group
    them apart instead of refusing them. Returns one line per model that was split."""
    notes = []
    for label, group in by_model(runs).items():
        if len(group) < 2:
            continue
        keys = sorted({k for r in group for k in r.other})
        vary = [k for k in keys if len({_value(r, k) for r in group}) > 1]
        if not vary:
            continue
        lasts = [k.rsplit(".", 1)[-1] for k in vary]
        shown = [k.rsplit(".", 1)[-1] if lasts.count(k.rsplit(".", 1)[-1]) == 1 else k for k in vary]
        for r in group:  # each setting by its last name where that is unambiguous (n=3, transcript_bytes=1024)
            short = [f"{name}={_value(r, k)}" for name, k in zip(shown, vary)]
            r.label = f"{label} [{', '.join(short)}]"
        notes.append(f"{label}: runs differ in {', '.join(vary)}; grouped apart by them")
    return notes


def names(runs: Sequence[StudyRun]) -> list[str]:
    """A short name per run: the model, plus language and prompt where the runs differ in them;
    the folder name where two are still alike."""
    vary_lang = len({r.language for r in runs}) > 1
    vary_prompt = len({r.setting for r in runs}) > 1
    vary_variant = len({r.variant for r in runs}) > 1
    out = []
    for r in runs:
        parts = [r.label] + ([r.language] if vary_lang else []) + ([r.setting] if vary_prompt else [])
        parts += [r.variant] if vary_variant else []
        out.append(" · ".join(parts))
    counts = Counter(out)
    return [f"{n} <{r.run_dir.name}>" if counts[n] > 1 else n for n, r in zip(out, runs)]


def by_model(runs: Sequence[StudyRun]) -> dict[str, list[StudyRun]]:
    """The runs of each model (label), in the order given."""
    g: dict[str, list[StudyRun]] = defaultdict(list)
    for r in runs:
        g[r.label].append(r)
    return g
