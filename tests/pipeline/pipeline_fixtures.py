"""Small task folders for the pipeline tests (a module of its own: conftest names clash across test folders)."""

from __future__ import annotations

from pathlib import Path


def make_task_dir(root: Path, problem_id: str = "toy", statement: str = "Guess {n}.") -> Path:
    """A minimal task card + statement (enough for prompts; not a judgeable task)."""
    import json

    d = root / problem_id
    d.mkdir(parents=True, exist_ok=True)
    (d / "desc.md").write_text(statement)
    (d / "meta.json").write_text(json.dumps({"problem_id": problem_id}))
    return d


def toy_task(root: Path, problem_id: str = "toy"):
    from ibench.tasks.model import Task, TaskKind

    d = make_task_dir(root, problem_id)
    return Task(root=d, task_id=problem_id, kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                memory_limit_mb=256, difficulty="Easy", categories=("Search",), cases=())
