"""The reference backend replays each task's known solutions, deterministically."""

import shutil
from pathlib import Path

from ibench.generate.base import GenerationRequest
from ibench.generate.extract import extract_code
from ibench.generate.reference import ReferenceBackend
from ibench.tasks.load import load_task

REPO = Path(__file__).resolve().parents[2]


def test_replays_every_known_solution_once_and_rekeys_on_change(tmp_path):
    shutil.copytree(REPO / "tasks" / "rotated-array-minimum", tmp_path / "rotated-array-minimum")
    task = load_task(tmp_path / "rotated-array-minimum")
    backend = ReferenceBackend()
    n = backend.samples_per_task(task, 10)
    assert n == len([s for s in task.solutions if s.path.suffix == ".cpp"])
    req = GenerationRequest(task=task, messages=[{"role": "user", "content": "x"}], indices=list(range(n)), seed=7)
    first = list(backend.generate([req]))
    again = list(backend.generate([req]))
    assert [c.response for c in first] == [c.response for c in again]
    files = sorted(s.path.name for s in backend.solutions(task))
    assert [c.source for c in first] == files
    for c in first:
        assert extract_code(c.response).code == (tmp_path / "rotated-array-minimum" / "solutions" / c.source).read_text().rstrip() + "\n"

    fp = backend.task_fingerprint(task)
    sol = backend.solutions(task)[0].path
    sol.write_text(sol.read_text() + "\n// edited\n")
    assert backend.task_fingerprint(task) != fp
    assert ReferenceBackend(repeat_to_n=True).samples_per_task(task, 10) == 10
