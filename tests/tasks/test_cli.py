"""`python -m ibench.tasks check / new`, the scaffold templates, the README table script, and the
repository's own tasks."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

from ibench.tasks.cli import cmd_check, main
from ibench.tasks.load import find_task_dirs, inspect_task
from ibench.tasks import scaffold
from task_builders import make_batch, make_interactive

REPO = Path(__file__).resolve().parents[2]


def run_check(path: Path, **kw) -> tuple[int, str]:
    out = io.StringIO()
    rc = cmd_check(path, out=out, **kw)
    return rc, out.getvalue()


# ---------------------------------------------------------------------------------- check


def test_check_ok_task(tmp_path):
    root = make_interactive(tmp_path / "guess")
    rc, out = run_check(root)
    assert rc == 0
    assert out.startswith("OK    guess  (interactive, non_adaptive, 2 cases, 2 known solutions)")


def test_check_folder_reports_each_task_and_fails_on_any_problem(tmp_path):
    make_interactive(tmp_path / "good")
    make_batch(tmp_path / "sum")
    make_interactive(tmp_path / "bad", meta={"difficulty": "Trivial"})
    rc, out = run_check(tmp_path)
    assert rc == 1
    lines = out.splitlines()
    assert lines[0].startswith("FAIL  bad  (1 problem)")
    assert f"{tmp_path / 'bad' / 'meta.json'}: difficulty: 'Trivial' is not a difficulty" in lines[1]
    assert lines[2].startswith("OK    good") and lines[3].startswith("OK    sum  (batch, 3 cases")
    assert lines[-1] == "3 tasks: 2 OK, 1 with problems"


def test_check_strict_fails_on_warnings(tmp_path):
    root = make_interactive(tmp_path / "t", cases=("001", "003"))  # a gap: a warning
    assert run_check(root)[0] == 0
    rc, out = run_check(root, strict=True)
    assert rc == 1 and "warning:" in out and "gaps" in out


def test_check_empty_folder(tmp_path):
    rc, out = run_check(tmp_path)
    assert rc == 1 and "no task folders" in out


def test_check_via_main_exit_code(tmp_path, capsys):
    make_interactive(tmp_path / "t", cases=())
    assert main(["check", str(tmp_path / "t")]) == 1
    assert "cases" in capsys.readouterr().out


# ---------------------------------------------------------------------------------- new


@pytest.mark.parametrize("kind, mode", [
    ("interactive", "non_adaptive"), ("interactive", "adaptive"), ("interactive", "both"),
    ("batch", "non_adaptive"), ("grader", "non_adaptive"), ("grader", "both"),
])
def test_new_scaffold_passes_check(tmp_path, capsys, kind, mode):
    assert main(["new", "my-task", "--dir", str(tmp_path), "--kind", kind, "--mode", mode]) == 0
    assert "created" in capsys.readouterr().out
    root = tmp_path / "my-task"
    report = inspect_task(root)
    assert report.ok, "\n".join(map(str, report.problems))
    # the only warning: desc.md still holds the scaffold's authoring note
    assert [(w.file.name, "template comment" in w.message) for w in report.warnings] == [("desc.md", True)]
    task = report.task
    assert task.task_id == "my-task" and task.kind.value == kind
    assert [s.path.name for s in task.solutions if s.accepted]
    assert main(["check", str(root)]) == 0
    desc = (root / "desc.md").read_text()
    assert "## Limits" in desc and ("Protocol" in desc or "Implementation" in desc or "## Input" in desc)
    if kind != "batch":
        for interactor in task.interactors.values():
            text = interactor.read_text()
            assert "queries=" in text and "query_limit=" in text and "registerInteraction" in text
    assert "registerGen" in task.generator.read_text()


def test_new_cases_match_the_generator_recipes(tmp_path):
    """The scaffold writes case 001 from a Python replay of testlib's rnd; check the replay
    against the generator's own arithmetic (the C++ comparison runs in test_validate)."""
    main(["new", "t", "--dir", str(tmp_path), "--mode", "both"])
    root = tmp_path / "t"
    assert (root / "generator" / "cases.txt").read_text().splitlines()[-2:] == ["001 1 --mode non", "101 1 --mode adp"]
    n, x = map(int, (root / "cases" / "001.in").read_text().split())
    assert n == 1000 and x == scaffold.TestlibRandom(["1", "--mode", "non"]).next(1, 1000)
    assert (root / "cases" / "101.in").read_text() == "1000\n"


def test_new_refuses_existing_folder_and_bad_names(tmp_path, capsys):
    assert main(["new", "t", "--dir", str(tmp_path)]) == 0
    assert main(["new", "t", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["new", "../escape", "--dir", str(tmp_path)]) == 2
    assert "not usable as a folder name" in capsys.readouterr().err


def test_testlib_random_matches_reference_values():
    # Reference sequences of rnd.next(1, 100) from testlib 0.9.45 (shared/TESTLIB_FACTS.md §4).
    for args, expected in ((["1"], [39, 52, 88, 78, 46]), ([], [22, 75, 26, 45, 72]),
                           (["abc", "42"], [95, 100, 74, 52, 7])):
        rnd = scaffold.TestlibRandom(args)
        assert [rnd.next(1, 100) for _ in range(5)] == expected
    assert scaffold.TestlibRandom(["1"]).seed == 86152843371467


# ---------------------------------------------------------------------------------- importers


@pytest.mark.parametrize("command, module", [("import-interactbench", "interactbench"),
                                             ("import-liveoibench", "liveoibench")])
def test_importer_subcommands_delegate(monkeypatch, command, module):
    import types

    seen = {}
    fake = types.ModuleType(f"ibench.tasks.importers.{module}")
    fake.main = lambda argv: seen.setdefault("argv", argv) and 0
    monkeypatch.setitem(sys.modules, f"ibench.tasks.importers.{module}", fake)
    assert main([command, "--out", "x", "src"]) == 0
    assert seen["argv"] == ["--out", "x", "src"]


def test_missing_importer_is_reported(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ibench.tasks.importers.liveoibench", None)  # as if not written
    assert main(["import-liveoibench"]) == 2
    assert "not available" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- README table


def _task_table():
    spec = importlib.util.spec_from_file_location("task_table", REPO / "scripts" / "task_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_task_table_check_and_write(tmp_path):
    tt = _task_table()
    tasks_dir = tmp_path / "tasks"
    make_interactive(tasks_dir / "b-guess", mode="both", cases=("001", "101", "102"),
                     meta={"title": "Guess | Again", "categorization": ["Search", "Math"], "difficulty": "Hard"})
    make_batch(tasks_dir / "a-sum")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n<!-- tasks:begin -->\nold\n<!-- tasks:end -->\n\nafter\n")
    args = ["--tasks", str(tasks_dir), "--readme", str(readme)]
    assert tt.main(args + ["--check"]) == 1
    assert tt.main(args + ["--write"]) == 0
    text = readme.read_text()
    assert text.startswith("# x\n\n<!-- tasks:begin -->\n2 tasks (1 Easy, 1 Hard).") and text.endswith("<!-- tasks:end -->\n\nafter\n")
    assert "| `a-sum` | Sum | Math | Easy | batch, subtasks | 3 |" in text  # title from desc.md's heading
    assert "| `b-guess` | Guess \\| Again | Search, Math | Hard | both | 3 |" in text
    assert tt.main(args + ["--check"]) == 0
    readme.write_text("no markers\n")
    assert tt.main(args + ["--check"]) == 1


# ---------------------------------------------------------------------------------- the repository's tasks


def _repo_task_dirs() -> list[Path]:
    root = REPO / "tasks"
    return find_task_dirs(root) if root.is_dir() else []


@pytest.mark.parametrize("task_dir", _repo_task_dirs() or [None], ids=lambda p: p.name if p else "none")
def test_repository_task_passes_check(task_dir):
    if task_dir is None:
        pytest.skip("tasks/ holds no task folders yet")
    report = inspect_task(task_dir)
    assert report.ok, "\n".join(map(str, report.problems))
