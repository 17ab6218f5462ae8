"""The task loader: valid packages load into typed Tasks; every broken one is reported with its
file, its field and what was expected, all problems at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ibench.tasks.errors import Problem, TaskError
from ibench.tasks.load import inspect_task, load_task, load_tasks, read_case_recipes
from ibench.tasks.model import InteractorMode, TaskKind
from task_builders import make_batch, make_interactive, write


def problems_of(root: Path) -> list[Problem]:
    report = inspect_task(root)
    assert report.task is None, "expected the task to be rejected"
    return report.problems


def only_problem(root: Path) -> Problem:
    problems = problems_of(root)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def edit_json(path: Path, **changes) -> None:
    data = json.loads(path.read_text())
    for k, v in changes.items():
        if v is ...:
            data.pop(k, None)
        else:
            data[k] = v
    path.write_text(json.dumps(data))


# ---------------------------------------------------------------------------------- valid tasks


def test_interactive_task_loads(tmp_path):
    root = make_interactive(tmp_path / "guess")
    task = load_task(root)
    assert task.task_id == "guess"
    assert task.kind is TaskKind.INTERACTIVE
    assert task.interactor_mode is InteractorMode.NON_ADAPTIVE
    assert (task.cpu_time_limit_ms, task.memory_limit_mb, task.difficulty) == (2000, 256, "Easy")
    assert task.categories == ("Search",)
    assert [c.name for c in task.cases] == ["001", "002"]
    assert all(c.interactor == "non_adaptive" and c.answer_path is None for c in task.cases)
    assert task.interactors == {"non_adaptive": root / "interactor" / "non_adaptive.cpp"}
    assert task.generator == root / "generator" / "gen_cases.cpp"
    assert {s.path.name: s.expected for s in task.solutions} == {"ok.cpp": "OK", "wa.cpp": "WA"}
    assert task.meta["difficulty"] == "Easy"


def test_both_mode_assigns_pools(tmp_path):
    root = make_interactive(tmp_path / "t", mode="both", cases=("001", "101", "102"))
    task = load_task(root)
    assert [(c.name, c.interactor) for c in task.cases] == [
        ("001", "non_adaptive"), ("101", "adaptive"), ("102", "adaptive")]
    assert set(task.interactors) == {"non_adaptive", "adaptive"}


def test_adaptive_only_task_serves_low_cases_adaptively(tmp_path):
    root = make_interactive(tmp_path / "t", mode="adaptive", cases=("001", "101"))
    assert {c.interactor for c in load_task(root).cases} == {"adaptive"}


def test_release_spelling_cate_and_no_problem_id(tmp_path):
    root = make_interactive(tmp_path / "cf123A", meta={"problem_id": ..., "categorization": ..., "cate": ["Math", "Bit"]})
    task = load_task(root)
    assert task.task_id == "cf123A"
    assert task.categories == ("Math", "Bit")


def test_verdict_aliases_are_normalised(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "solutions" / "expected.json", json.dumps({"ok.cpp": {"expected": "AC"}, "wa.cpp": {"expected": "wa"}}))
    assert {s.path.name: s.expected for s in load_task(root).solutions} == {"ok.cpp": "OK", "wa.cpp": "WA"}


def test_batch_task_loads(tmp_path):
    root = make_batch(tmp_path / "sum", tests=("1", "2", "10"))
    task = load_task(root)
    assert task.kind is TaskKind.BATCH and task.interactor_mode is None
    assert [c.name for c in task.cases] == ["1", "2", "10"]  # natural order
    assert all(c.answer_path == root / "tests" / f"{c.name}.out" for c in task.cases)
    assert [(s.id, s.score, s.tests, s.grading) for s in task.subtasks] == [
        ("1", 40, ("1",), "all"), ("2", 60, ("1", "2", "10"), "min-score")]
    assert {s.path.name: s.score for s in task.solutions} == {"ok.cpp": 100.0, "partial.cpp": 40.0}
    assert task.checker is None


def test_batch_checker_and_no_subtasks(tmp_path):
    root = make_batch(tmp_path / "sum", subtasks=None)
    write(root / "checker" / "checker.cpp", "// checker\n")
    task = load_task(root)
    assert task.checker == root / "checker" / "checker.cpp" and task.subtasks == ()


def test_grader_task_loads(tmp_path):
    root = make_interactive(tmp_path / "g", kind="grader")
    write(root / "grader" / "extra.cpp", "")
    task = load_task(root)
    assert task.kind is TaskKind.GRADER
    assert task.grader_files == (root / "grader" / "stub.cpp", root / "grader" / "extra.cpp")


def test_gaps_are_warnings_not_problems(tmp_path):
    root = make_interactive(tmp_path / "t", cases=("001", "002", "005", "009"))
    warnings: list[Problem] = []
    task = load_task(root, warnings=warnings)
    assert len(task.cases) == 4
    gap = [w for w in warnings if "gaps" in w.message]
    assert len(gap) == 1 and "003-004, 006-008" in gap[0].message
    assert gap[0].file == root / "cases"


def test_read_case_recipes(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "generator" / "cases.txt", "# comment\n\n001 1 --mode non\n002 2 --n 'a b'\n")
    recipes = read_case_recipes(load_task(root))
    assert [(r.case, r.args, r.line) for r in recipes] == [
        ("001", ("1", "--mode", "non"), 3), ("002", ("2", "--n", "a b"), 4)]


# ---------------------------------------------------------------------------------- meta.json


def test_missing_meta(tmp_path):
    root = make_interactive(tmp_path / "t")
    (root / "meta.json").unlink()
    p = only_problem(root)
    assert p.file == root / "meta.json" and "missing" in p.message


def test_invalid_json_names_line_and_column(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "meta.json", '{\n  "difficulty": "Easy",\n  oops\n}')
    p = only_problem(root)
    assert p.file == root / "meta.json" and "line 3 column 3" in p.message


def test_all_bad_meta_values_reported_together(tmp_path):
    root = make_interactive(tmp_path / "t", meta={
        "kind": "quiz", "cpu_time_limit_ms": -5, "memory_limit_mb": "256", "difficulty": "easy",
        "categorization": ["Search", "Geometry"], "date": "2024-13-01", "multi_test": "yes",
    })
    with pytest.raises(TaskError) as err:
        load_task(root)
    by_field = {p.field: p for p in err.value.problems}
    assert set(by_field) == {"kind", "cpu_time_limit_ms", "memory_limit_mb", "difficulty",
                             "categorization[1]", "date", "multi_test"}
    assert all(p.file == root / "meta.json" for p in err.value.problems)
    assert "expected one of interactive, batch, grader" in by_field["kind"].message
    assert "expected a positive integer" in by_field["cpu_time_limit_ms"].message
    assert "'easy'" in by_field["difficulty"].message and "Easy, Medium, Hard" in by_field["difficulty"].message
    assert "'Geometry'" in by_field["categorization[1]"].message
    # str() lists every problem as `path: field: message`
    text = str(err.value)
    assert f"{root / 'meta.json'}: difficulty: 'easy' is not a difficulty" in text
    assert "7 problems" in text


@pytest.mark.parametrize("value", [True, 2000.0, 0, "2000"])
def test_limits_must_be_positive_ints(tmp_path, value):
    root = make_interactive(tmp_path / "t", meta={"cpu_time_limit_ms": value})
    p = only_problem(root)
    assert (p.field, p.file.name) == ("cpu_time_limit_ms", "meta.json")


def test_bad_and_missing_interactor_mode(tmp_path):
    p = only_problem(make_interactive(tmp_path / "a", meta={"interactor_mode": "sometimes"}))
    assert p.field == "interactor_mode" and "non_adaptive, adaptive, both" in p.message
    p = only_problem(make_interactive(tmp_path / "b", meta={"interactor_mode": ...}))
    assert p.field == "interactor_mode" and "missing" in p.message


def test_problem_id_differing_from_folder_is_a_warning(tmp_path):
    """A task copied under another folder name still judges, keyed by its own id; two folders
    with one id in a folder of tasks are an error."""
    root = make_interactive(tmp_path / "tasks" / "folder", meta={"problem_id": "other"})
    report = inspect_task(root)
    assert report.problems == [] and report.task.task_id == "other"
    [w] = [w for w in report.warnings if w.field == "problem_id"]
    assert "'other'" in w.message and "'folder'" in w.message
    make_interactive(tmp_path / "tasks" / "other")
    with pytest.raises(TaskError) as e:
        load_tasks(tmp_path / "tasks")
    [p] = e.value.problems
    assert p.field == "problem_id" and "unique" in p.message and "folder" in p.message + str(p.file)
    numeric = make_interactive(tmp_path / "123", meta={"problem_id": 123})
    assert load_task(numeric).task_id == "123"


def test_missing_categories_and_conflicting_keys(tmp_path):
    p = only_problem(make_interactive(tmp_path / "a", meta={"categorization": ...}))
    assert p.field == "categorization" and "missing" in p.message
    p = only_problem(make_interactive(tmp_path / "b", meta={"cate": ["Math"]}))
    assert p.field == "cate" and "disagrees" in p.message


def test_meta_must_be_an_object(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "meta.json", "[1, 2]")
    assert "expected an object" in only_problem(root).message


# ---------------------------------------------------------------------------------- statement, interactors, cases


def test_desc_missing_or_empty(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "desc.md", "  \n")
    p = only_problem(root)
    assert p.file == root / "desc.md" and "empty" in p.message
    (root / "desc.md").unlink()
    assert "missing" in only_problem(root).message


def test_missing_interactor_for_mode(tmp_path):
    root = make_interactive(tmp_path / "t", mode="both", cases=("001", "101"))
    (root / "interactor" / "adaptive.cpp").unlink()
    p = only_problem(root)
    assert p.file == root / "interactor" / "adaptive.cpp"
    assert "interactor_mode 'both'" in p.message


def test_unused_interactor_is_a_warning(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "interactor" / "adaptive.cpp", "")
    report = inspect_task(root)
    assert report.ok and any(w.file.name == "adaptive.cpp" for w in report.warnings)


def test_no_cases(tmp_path):
    root = make_interactive(tmp_path / "t", cases=())
    (root / "generator" / "cases.txt").unlink()
    (root / "cases").mkdir()
    p = only_problem(root)
    assert p.file == root / "cases" and "at least one" in p.message
    (root / "cases").rmdir()
    assert "missing" in only_problem(root).message


def test_case_outside_pools(tmp_path):
    root = make_interactive(tmp_path / "t", mode="both", cases=("001", "101", "250"))
    p = only_problem(root)
    assert p.file == root / "cases" / "250.in"
    assert "001-100" in p.message and "101-200" in p.message


def test_adaptive_pool_case_in_non_adaptive_task(tmp_path):
    root = make_interactive(tmp_path / "t", cases=("001", "101"))
    p = only_problem(root)
    assert p.file == root / "cases" / "101.in" and "non_adaptive" in p.message


@pytest.mark.parametrize("name", ["01", "1", "abc", "0001"])
def test_case_names_are_three_digits(tmp_path, name):
    root = make_interactive(tmp_path / "t", cases=("001",))
    write(root / "cases" / f"{name}.in", "1\n")
    p = only_problem(root)
    assert p.file.name == f"{name}.in" and "3-digit" in p.message


def test_both_mode_needs_both_pools(tmp_path):
    p = only_problem(make_interactive(tmp_path / "t", mode="both", cases=("001", "002")))
    assert p.file.name == "cases" and "101-200" in p.message


# ---------------------------------------------------------------------------------- generator recipes


@pytest.mark.parametrize("line, needle", [
    ("007 1 --mode non", "names case '007'"),
    ("001", "no generator arguments"),
    ("001 'unterminated", "cannot be split"),
])
def test_bad_recipe_lines(tmp_path, line, needle):
    root = make_interactive(tmp_path / "t")
    write(root / "generator" / "cases.txt", f"001 1\n{line}\n" if not line.startswith("001") else f"{line}\n")
    problems = problems_of(root)
    assert any(p.file.name == "cases.txt" and p.field.startswith("line ") and needle in p.message
               for p in problems), "\n".join(map(str, problems))


def test_duplicate_recipe(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "generator" / "cases.txt", "001 1\n001 2\n")
    p = only_problem(root)
    assert p.field == "line 2" and "line 1" in p.message


def test_recipes_without_generator(tmp_path):
    root = make_interactive(tmp_path / "t")
    (root / "generator" / "gen_cases.cpp").unlink()
    p = only_problem(root)
    assert p.file.name == "cases.txt" and "gen_cases.cpp is missing" in p.message


def test_recipe_mode_mismatch_is_a_warning(tmp_path):
    root = make_interactive(tmp_path / "t", mode="both", cases=("001", "101"))
    report = inspect_task(root)  # the builder generates 101 with --mode non
    assert report.ok
    assert any(w.field == "line 2" and "--mode non" in w.message for w in report.warnings)


# ---------------------------------------------------------------------------------- solutions


def test_expected_names_missing_file(tmp_path):
    root = make_interactive(tmp_path / "t")
    edit_json(root / "solutions" / "expected.json", **{"ghost.cpp": {"expected": "WA"}})
    p = only_problem(root)
    assert (p.file, p.field) == (root / "solutions" / "expected.json", "ghost.cpp")
    assert "does not exist" in p.message


def test_unknown_verdict(tmp_path):
    root = make_interactive(tmp_path / "t")
    edit_json(root / "solutions" / "expected.json", **{"wa.cpp": {"expected": "WRONG"}})
    p = only_problem(root)
    assert p.field == "wa.cpp.expected" and "expected one of" in p.message


def test_unlisted_solution(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "solutions" / "extra.cpp", "")
    p = only_problem(root)
    assert p.file.name == "expected.json" and p.field == "extra.cpp" and "not listed" in p.message


def test_solutions_without_expected_json_take_verdicts_from_names(tmp_path):
    """A task folder from elsewhere (no expected.json) still loads: `ok.cpp`, `wa2.cpp`,
    `tle-spin.py` name their verdicts; `main.cpp` names none and is left out, with a warning."""
    root = make_interactive(tmp_path / "t")
    (root / "solutions" / "expected.json").unlink()
    write(root / "solutions" / "wa2.cpp", "")
    write(root / "solutions" / "tle-spin.py", "")
    write(root / "solutions" / "main.cpp", "")
    report = inspect_task(root)
    assert report.problems == []
    got = {s.path.name: s.expected for s in report.task.solutions}
    assert got == {"ok.cpp": "OK", "wa.cpp": "WA", "wa2.cpp": "WA", "tle-spin.py": "TLE"}
    assert any("main.cpp" in w.message and "not used" in w.message for w in report.warnings)


def test_bad_expected_entries(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "solutions" / "expected.json", json.dumps({
        "ok.cpp": "OK", "wa.cpp": {"expected": "WA", "score": -1, "note": 3}}))
    fields = {p.field for p in problems_of(root)}
    assert fields == {"ok.cpp", "wa.cpp.score", "wa.cpp.note"}


def test_no_solutions_folder_is_a_warning(tmp_path):
    root = make_interactive(tmp_path / "t")
    for p in (root / "solutions").iterdir():
        p.unlink()
    (root / "solutions").rmdir()
    report = inspect_task(root)
    assert report.ok and report.task.solutions == ()
    assert any(w.file.name == "solutions" for w in report.warnings)


# ---------------------------------------------------------------------------------- batch and grader


def test_batch_input_without_output(tmp_path):
    root = make_batch(tmp_path / "s", subtasks=None)
    (root / "tests" / "02.out").unlink()
    p = only_problem(root)
    assert p.file == root / "tests" / "02.in" and "02.out" in p.message


def test_batch_output_without_input(tmp_path):
    root = make_batch(tmp_path / "s", subtasks=None)
    write(root / "tests" / "09.out", "1\n")
    assert only_problem(root).file == root / "tests" / "09.out"


def test_subtask_problems(tmp_path):
    root = make_batch(tmp_path / "s", subtasks={
        "1": {"score": "40", "testcases": ["01", "07"], "grading": "max"},
        "2": {"score": 60, "testcases": "02"},
    })
    problems = problems_of(root)
    assert all(p.file == root / "subtasks.json" for p in problems)
    fields = {p.field for p in problems}
    assert fields == {"1.score", "1.testcases", "1.grading", "2.testcases", "testcases"}
    unreferenced = next(p for p in problems if p.field == "testcases")
    assert "'02', '03'" in unreferenced.message and "no subtask" in unreferenced.message


def test_checker_folder_without_checker(tmp_path):
    root = make_batch(tmp_path / "s")
    (root / "checker").mkdir()
    assert only_problem(root).file == root / "checker" / "checker.cpp"


def test_grader_needs_stub(tmp_path):
    root = make_interactive(tmp_path / "g", kind="grader")
    (root / "grader" / "stub.cpp").unlink()
    p = only_problem(root)
    assert p.file == root / "grader" / "stub.cpp" and "grader" in p.message


# ---------------------------------------------------------------------------------- folders of tasks


def test_load_tasks_sorted_and_filtered(tmp_path):
    make_interactive(tmp_path / "b-task", meta={"difficulty": "Hard", "categorization": ["Graph"]})
    make_interactive(tmp_path / "a-task")
    make_batch(tmp_path / "c-task")
    (tmp_path / ".hidden").mkdir()
    assert [t.task_id for t in load_tasks(tmp_path)] == ["a-task", "b-task", "c-task"]
    assert [t.task_id for t in load_tasks(tmp_path, difficulties=["hard"])] == ["b-task"]
    assert [t.task_id for t in load_tasks(tmp_path, categories=["Math", "Graph"])] == ["b-task", "c-task"]
    assert [t.task_id for t in load_tasks(tmp_path, ids=["c-task", "a-task"])] == ["a-task", "c-task"]
    # a folder that is itself a task
    assert [t.task_id for t in load_tasks(tmp_path / "a-task")] == ["a-task"]


def test_load_tasks_unknown_id_and_filter(tmp_path):
    make_interactive(tmp_path / "a")
    with pytest.raises(TaskError, match="unknown task id"):
        load_tasks(tmp_path, ids=["zzz"])
    with pytest.raises(ValueError, match="unknown difficulty"):
        load_tasks(tmp_path, difficulties=["Insane"])


def test_load_tasks_collects_problems_of_every_task(tmp_path):
    make_interactive(tmp_path / "a", meta={"difficulty": "easy"})
    make_interactive(tmp_path / "b", cases=("001", "250"))
    make_interactive(tmp_path / "c")
    with pytest.raises(TaskError) as err:
        load_tasks(tmp_path)
    assert sorted(str(p.file.relative_to(tmp_path)) for p in err.value.problems) == ["a/meta.json", "b/cases/250.in"]


def test_many_missing_subtask_tests_are_one_problem(tmp_path):
    root = make_batch(tmp_path / "s", tests=("01",), subtasks={
        "1": {"score": 100, "testcases": ["01"] + [f"{i:02d}" for i in range(2, 30)]}})
    p = only_problem(root)
    assert p.field == "1.testcases" and "'02', '03'" in p.message and "and 18 more" in p.message


def test_no_tests_at_all_is_reported_once(tmp_path):
    root = make_batch(tmp_path / "s", tests=())
    write(root / "subtasks.json", json.dumps({"1": {"score": 100, "testcases": ["01", "02"]}}))
    write(root / "generator" / "gen_cases.cpp", "")
    write(root / "generator" / "cases.txt", "01 1\n02 2\n")
    (root / "tests").mkdir()
    p = only_problem(root)
    assert p.file == root / "tests" and "no tests" in p.message


def test_a_solution_in_a_language_the_judge_does_not_run_is_left_out(tmp_path):
    root = make_interactive(tmp_path / "t")
    write(root / "solutions" / "main.rs", "fn main() {}\n")
    edit_json(root / "solutions" / "expected.json", **{"main.rs": {"expected": "OK"}})
    report = inspect_task(root)
    assert report.problems == []
    assert "main.rs" not in {s.path.name for s in report.task.solutions}
    assert any(w.field == "main.rs" and "left out" in w.message for w in report.warnings)
