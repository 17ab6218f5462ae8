"""Task cards: an unknown field near a known one is refused with did-you-mean (another is a
warning, ignored); the interactor `tasks new` writes refuses output after the final answer, so
a fresh task passes the project's own probe (Category B 3/3)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ibench.tasks.load import inspect_task
from ibench.tasks.scaffold import create_task

REPO = Path(__file__).resolve().parents[2]
FIXTURE_TASK = REPO / "tests" / "fixtures" / "runs" / "tasks" / "fx-guess-a"


def _card(tmp_path: Path, **extra) -> Path:
    task = tmp_path / "fx-guess-a"
    shutil.copytree(FIXTURE_TASK, task)
    meta = json.loads((task / "meta.json").read_text())
    (task / "meta.json").write_text(json.dumps({**meta, **extra}))
    return task


def test_a_misspelt_card_field_is_refused_with_did_you_mean(tmp_path):
    report = inspect_task(_card(tmp_path, memory_limt_mb=64))
    assert not report.ok
    assert any("memory_limt_mb" in str(p) and "did you mean 'memory_limit_mb'" in str(p) for p in report.problems)


def test_an_unrelated_card_field_is_a_warning(tmp_path):
    report = inspect_task(_card(tmp_path, curator_comment="x"))
    assert report.ok, report.problems
    assert any("curator_comment" in str(w) and "ignored" in str(w) for w in report.warnings)
    assert inspect_task(_card(tmp_path / "b", algorithms=["binary search"])).warnings == []  # importers' notes


@pytest.mark.parametrize("mode", ["non_adaptive", "adaptive"])
def test_the_scaffold_interactor_refuses_output_after_the_final_answer(tmp_path, mode):
    root = create_task("fresh", tmp_path, kind="interactive", mode=mode).root
    source = (root / "interactor" / f"{mode}.cpp").read_text()
    assert source.count("expect_end();") == 1 and "output after the final answer" in source
    assert source.index("expect_end();") < source.index("finish(_ok")


def test_a_fresh_task_passes_the_probe_category_b(tmp_path):
    create_task("fresh", tmp_path, kind="interactive", mode="non_adaptive")
    out = tmp_path / "probe"
    proc = subprocess.run([sys.executable, "-m", "ibench.tasks", "probe", str(tmp_path / "fresh"), "--only", "B",
                           "--out", str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "3/3" in proc.stdout and "Category B compliance: 1/1 tasks" in proc.stdout, proc.stdout[-2000:]


def test_tasks_new_help_names_its_real_default_folder():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "ibench.tasks", "new", "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "$IBENCH_USER_TASKS, else ./my-tasks" in " ".join(out.split()), out
