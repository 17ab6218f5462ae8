"""Importers for the published InteractBench and LiveOIBench releases.

Every fixture is built here, in the formats the releases use: JSONL records and ``*.tar.zst``
case archives for InteractBench; problem, test (one row group) and contest parquet files for
LiveOIBench. The imported folders must load, judge correctly, and re-import byte for byte.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from ibench.tasks.importers import interactbench, liveoibench
from ibench.tasks.importers.jsonstream import write_json_string, write_tests
from ibench.tasks.importers.parquet import PageStats, iter_byte_array_column

# --------------------------------------------------------------------------------------------
# Shared C++ sources (fixture tasks)

# Find x in [1, n]: "? y" answers 1 when x >= y, else 0; "! y" answers. Query budget LIMIT.
SECRET_INTERACTOR = r"""
#include "testlib.h"
#include <iostream>
#include <string>
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int n = inf.readInt();
    int x = inf.readInt();
    long long q = 0, lim = 20;
    auto log = [&]() { tout << "queries=" << q << "\nquery_limit=" << lim << std::endl; };
    log();
    std::cout << n << std::endl;
    while (true) {
        std::string op = ouf.readToken();
        if (op == "?") {
            int y = ouf.readInt(1, n);
            q++;
            std::cout << (x >= y ? 1 : 0) << std::endl;
        } else if (op == "!") {
            int y = ouf.readInt(1, n);
            log();
            if (y == x) quitf(_ok, "found %d", x);
            quitf(_wa, "expected %d, got %d", x, y);
        } else {
            log();
            quitf(_pe, "unknown operation");
        }
    }
}
"""

SECRET_OK = r"""
#include <iostream>
int main() {
    int n; std::cin >> n;
    int lo = 1, hi = n;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        std::cout << "? " << mid << std::endl;
        int r; std::cin >> r;
        if (r == 1) lo = mid; else hi = mid - 1;
    }
    std::cout << "! " << lo << std::endl;
}
"""

SECRET_WA = r"""
#include <iostream>
int main() { int n; std::cin >> n; std::cout << "! " << n << std::endl; }
"""

SUM_OK = r"""
#include <iostream>
int main() { int n; std::cin >> n; long long s = 0; for (int i = 0; i < n; i++) { long long a; std::cin >> a; s += a; } std::cout << s << "\n"; }
"""

SUM_INT = r"""
#include <iostream>
int main() { int n; std::cin >> n; int s = 0; for (int i = 0; i < n; i++) { int a; std::cin >> a; s += a; } std::cout << s << "\n"; }
"""


def _judge_available() -> bool:
    try:
        from ibench.judge import Judge, JudgeSettings  # noqa: F401
        from ibench.tasks.load import load_task  # noqa: F401
    except ImportError:
        return False
    return True


needs_judge = pytest.mark.skipif(not _judge_available(), reason="ibench.judge / ibench.tasks.load not available")


def _judge(task_dir: Path, source: str):
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    return Judge(JudgeSettings(all_cases=True)).judge(load_task(task_dir), source, language="cpp")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------------------------
# InteractBench fixture


def _tar_zst(path: Path, files: dict[str, str]) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(zstandard.ZstdCompressor().compress(buf.getvalue()))


@pytest.fixture()
def interactbench_release(tmp_path: Path) -> dict[str, Path]:
    rel = tmp_path / "release"
    (rel / "test_cases").mkdir(parents=True)
    base = {"difficulty": "Easy", "cate": ["Search", "Bit"], "cpu_time_limit_ms": 1000, "memory_limit_mb": 256,
            "description": "Find the hidden number x in [1, n] with at most 20 queries.\n"}
    records = [
        {**base, "problem_id": "secret", "interactor_mode": "non_adaptive",
         "interactor_non_adaptive": SECRET_INTERACTOR, "generator": "// generator\n"},
        {**base, "problem_id": "secret_both", "difficulty": "medium", "cate": ["Search", "Dynamic Programming"],
         "interactor_mode": "sometimes", "interactor_non_adaptive": SECRET_INTERACTOR,
         "interactor_adaptive": SECRET_INTERACTOR},
        {**base, "problem_id": "secret_limits", "interactor_mode": "non_adaptive", "cpu_time_limit_ms": "fast",
         "memory_limit_mb": None, "interactor_non_adaptive": SECRET_INTERACTOR},
        {**base, "problem_id": "no_statement", "interactor_mode": "non_adaptive", "description": "",
         "interactor_non_adaptive": SECRET_INTERACTOR},
    ]
    (rel / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + "{broken\n")
    ioi = [
        {**base, "problem_id": "ioi_secret", "interactor_files": {"interactor.cpp": SECRET_INTERACTOR,
                                                                  "testlib.h": "// bundled\n"},
         "problem_json": {"task_type": "Batch"},
         "materialization": {"file_patches": [{"path": "interactor/interactor.cpp", "replacements": [
             {"match": "long long q = 0, lim = 20;", "replace": "long long q = 0, lim = 12;"}]}]}},
        {**base, "problem_id": "ioi_manager", "interactor_files": {"manager.cpp": "int main() {}\n",
                                                                   "stub.cpp": "// stub\n", "task.h": "int f();\n"},
         "problem_json": "{\"task_type\": \"Communication\"}",
         "materialization": {"case_outputs": [{"mode": "input_token_slice", "input_glob": "cases/*",
                                               "output_suffix": ".out", "length_index": 0, "start_index": 1}]}},
        {**base, "problem_id": "ioi_badpatch", "interactor_files": {"interactor.cpp": SECRET_INTERACTOR},
         "materialization": {"file_patches": [{"path": "interactor/interactor.cpp", "replacements": [
             {"match": "std::endl", "replace": "'\\n'"}]}]}},
    ]
    (rel / "ioi.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ioi))
    _tar_zst(rel / "test_cases" / "000.tar.zst", {
        "secret/cases/001.in": "100 37\n", "secret/cases/002.in": "100 1\n",
        "secret/cases/3.in": "100 100\n", "secret/cases/005.in": "1000 500\n",  # 004 missing: a gap
        "secret/cases/README": "not a case\n",
        "secret_both/cases/001.in": "10 3\n", "secret_both/cases/101.in": "10 9\n",
        "ioi_secret/cases/a1.in": "50 20\n", "ioi_secret/cases/a2.in": "50 50\n",
        "ioi_manager/cases/x.in": "3 10 20 30\n",
        "ioi_badpatch/cases/1.in": "5 5\n",
        "stranger/cases/001.in": "1 1\n",
    })
    # An archive named after its task, holding cases/ at the top (also seen in the wild).
    _tar_zst(rel / "test_cases" / "secret_limits.tar.zst", {"cases/001.in": "7 7\n", "cases/002.in": "7 2\n"})
    _tar_zst(rel / "test_cases" / "001.tar.zst", {"no_statement/cases/001.in": "2 2\n"})
    return {"problems": rel / "problems.jsonl", "ioi": rel / "ioi.jsonl", "cases": rel / "test_cases",
            "out": tmp_path / "tasks"}


def _run_interactbench(rel: dict[str, Path], capsys=None) -> int:
    argv = ["--problems", str(rel["problems"]), "--ioi", str(rel["ioi"]), "--cases", str(rel["cases"]),
            "--out", str(rel["out"])]
    return interactbench.main(argv)


def test_interactbench_layout_defaults_and_warnings(interactbench_release, capsys):
    rel = interactbench_release
    assert _run_interactbench(rel) == 0
    printed = capsys.readouterr().out
    out = rel["out"]

    secret = out / "secret"
    assert sorted(p.name for p in (secret / "cases").iterdir()) == ["001.in", "002.in", "003.in", "005.in"]
    assert (secret / "interactor" / "non_adaptive.cpp").read_text() == SECRET_INTERACTOR
    assert (secret / "generator" / "gen_cases.cpp").is_file()
    meta = json.loads((secret / "meta.json").read_text())
    assert meta == {"problem_id": "secret", "kind": "interactive", "interactor_mode": "non_adaptive",
                    "cpu_time_limit_ms": 1000, "memory_limit_mb": 256, "difficulty": "Easy",
                    "categorization": ["Search", "Bit"], "source": "InteractBench"}

    both = json.loads((out / "secret_both" / "meta.json").read_text())
    assert both["interactor_mode"] == "both" and both["difficulty"] == "Medium"
    assert both["categorization"] == ["Search"] and both["tags"] == ["Dynamic Programming"]
    assert sorted(p.name for p in (out / "secret_both" / "cases").iterdir()) == ["001.in", "101.in"]

    limits = json.loads((out / "secret_limits" / "meta.json").read_text())
    assert (limits["cpu_time_limit_ms"], limits["memory_limit_mb"]) == (2000, 256)
    assert sorted(p.name for p in (out / "secret_limits" / "cases").iterdir()) == ["001.in", "002.in"]

    # IOI: a plain testlib interactor becomes an interactive task, patched, cases renumbered.
    ioi = out / "ioi_secret"
    assert "lim = 12;" in (ioi / "interactor" / "non_adaptive.cpp").read_text()
    assert not (ioi / "interactor" / "testlib.h").exists()
    ioi_meta = json.loads((ioi / "meta.json").read_text())
    assert ioi_meta["case_names"] == {"001": "a1.in", "002": "a2.in"}
    assert (ioi / "cases" / "002.in").read_text() == "50 50\n"
    # A manager task is kept for reference, materialised, where the loader does not look.
    mgr = out / "_unsupported" / "ioi_manager"
    assert (mgr / "cases" / "x.out").read_text() == "10 20 30\n"
    assert json.loads((mgr / "problem.json").read_text()) == {"task_type": "Communication"}
    assert not (out / "ioi_manager").exists()
    # A patch whose match is not unique, and a record without statement, are rejected.
    assert (out / "_rejected" / "ioi_badpatch" / "REJECTED.txt").read_text().count("occurs") == 1
    assert (out / "_rejected" / "no_statement").is_dir() and not (out / "no_statement").exists()

    summary = json.loads((out / interactbench.SUMMARY_FILE).read_text())
    warnings = "\n".join(f"{t}: {m}" for t, m in summary["warnings"])
    for expected in ("secret: gaps in non-adaptive case numbering: 004 missing",
                     "secret_both: interactor_mode 'sometimes' missing or invalid; using the default 'both'",
                     "secret_limits: cpu_time_limit_ms 'fast' missing or invalid; using 2000",
                     "secret_limits: memory_limit_mb None missing or invalid; using 256",
                     "secret: ignored 1 file(s) in cases/",
                     "stranger: 1 case file(s) in the archives for a problem with no record",
                     "problems.jsonl:5: invalid JSON"):
        assert expected in warnings, expected
    assert summary["counts"]["imported"] == 4
    assert "warning" in printed and "secret_limits" in printed


@needs_judge
def test_interactbench_imported_tasks_load_and_judge(interactbench_release):
    from ibench.tasks.load import load_tasks

    rel = interactbench_release
    assert _run_interactbench(rel) == 0
    tasks = {t.task_id: t for t in load_tasks(rel["out"])}
    assert set(tasks) == {"secret", "secret_both", "secret_limits", "ioi_secret"}
    assert [c.name for c in tasks["secret"].cases] == ["001", "002", "003", "005"]
    ok = _judge(rel["out"] / "secret", SECRET_OK)
    assert ok.verdict.value == "OK", ok.message
    wa = _judge(rel["out"] / "secret", SECRET_WA)
    assert wa.verdict.value == "WA"
    both = _judge(rel["out"] / "secret_both", SECRET_OK)
    assert both.verdict.value == "OK" and len(both.cases) == 2
    ioi = _judge(rel["out"] / "ioi_secret", SECRET_OK)
    assert ioi.verdict.value == "OK", ioi.message
    assert {c.query_limit for c in ioi.cases} == {12}  # the materialisation patch is in force


def test_interactbench_reimport_is_idempotent(interactbench_release):
    rel = interactbench_release
    assert _run_interactbench(rel) == 0
    (rel["out"] / "secret" / "solutions").mkdir()
    (rel["out"] / "secret" / "solutions" / "mine.cpp").write_text(SECRET_OK)
    (rel["out"] / "secret" / "cases" / "099.in").write_text("stale\n")  # not in the release
    before = _snapshot(rel["out"])
    assert _run_interactbench(rel) == 0
    after = _snapshot(rel["out"])
    assert "secret/cases/099.in" not in after  # the task folder was rebuilt from the release
    before.pop("secret/cases/099.in")
    assert after == before  # everything else identical, the hand-added solution kept


# --------------------------------------------------------------------------------------------
# LiveOIBench fixture

SUM_TESTS = {
    "01": {"input": "2\n1 2\n", "output": "3\n"},
    "02": {"input": "3\n1 2 3\n", "output": "6\n"},
    "03": {"input": "2\n2000000000 2000000000\n", "output": "4000000000\n"},
    "04": {"input": "1\n-5\n", "output": "-5\n"},
    "05": {"input": "4\n1 1 1 1\n", "output": "4\n"},
    "06": {"input": "1\n0\n", "output": "0\n"},  # in no subtask
}
SUM_SUBTASKS = {"1": {"score": 10, "testcases": ["01", "02"]},
                "2": {"score": 30, "testcases": ["03", "07"]},  # 07 does not exist
                "3": {"score": 60, "testcases": ["01", "02", "03", "04", "05"]}}
GUESS_TESTS = {"1": {"input": "100 37\n", "output": ""}, "2": {"input": "100 100\n", "output": ""},
               "10": {"input": "5 1\n", "output": ""}}
GUESS_SUBTASKS = {"1": {"score": 100, "testcases": ["1", "2", "10"]}}

# Ten contestants: task columns Sum/Guess/Robots (Robots is not held by the benchmark).
CONTESTANTS = [
    # name, sum, guess, robots, medal, CF rating
    ("A", 100, 100, 80, "Gold", 2000),
    ("B", 100, 100, 20, "Gold", 2100),
    ("C", 100, 40, 50, "Gold", None),
    ("D", 40, 100, 30, "Silver", 450),
    ("E", 10, 100, 30, "Silver", 1500),
    ("F", 40, 40, 40, "Silver", None),
    ("G", 10, 40, 60, "Bronze", 0),
    ("H", 0, 40, 30, "Bronze", -1000),
    ("I", 10, 0, 40, "Bronze", 1600),
    ("J", 0, 0, 10, "", 300),
]


def _ranking_json() -> str:
    rows = []
    for rank, (name, s, g, r, medal, cf) in enumerate(CONTESTANTS, start=1):
        rows.append({"Rank": rank, "Contestant": name, "Country": "XX", "Sum": s, "Guess": g, "Robots": r,
                     "Total": s + g + r, "Medal": medal, "CF_Rating": cf})
    return json.dumps(rows)


def write_liveoibench_release(root: Path, row_group_size: int | None = None) -> dict[str, Path]:
    root.mkdir(parents=True, exist_ok=True)
    common = {"competition": "IOI", "contest": "day1", "time_limit": 1.0, "memory_limit": 256,
              "setup_script": None, "evaluation_script": None, "starter_code": None}
    problems = [
        {**common, "id": 1, "problem_id": "IOI-2024-day1-sum", "task_name": "Sum", "task_type": "batch",
         "difficulty": 12, "algorithms": json.dumps(["implementation", "math"]),
         "problem_statement": "Print the sum of n integers.\n", "grader_code": None},
        {**common, "id": 2, "problem_id": "IOI-2024-day1-guess", "task_name": "Guess", "task_type": "interactive",
         "difficulty": 23, "algorithms": json.dumps(["binary search"]),
         "problem_statement": "Find the hidden number x in [1, n].\n",
         "grader_code": json.dumps({"interactor.cpp": SECRET_INTERACTOR, "testlib.h": "// bundled\n"})},
        {**common, "id": 3, "problem_id": "IOI-2024-day1-robots", "task_name": "Robots", "task_type": "batch",
         "difficulty": 20, "algorithms": "[]", "problem_statement": "Robots.\n",
         "grader_code": json.dumps({"grader.cpp": "int main() {}\n", "robots.h": "int solve();\n"})},
    ]
    pq.write_table(pa.Table.from_pylist(problems), root / "liveoibench_v1.parquet")
    tests = [
        {"problem_id": "IOI-2024-day1-sum", "tests": json.dumps(SUM_TESTS), "subtasks": json.dumps(SUM_SUBTASKS)},
        {"problem_id": "IOI-2024-day1-guess", "tests": json.dumps(GUESS_TESTS),
         "subtasks": json.dumps(GUESS_SUBTASKS)},
    ]
    (root / "tests").mkdir(exist_ok=True)
    table = pa.Table.from_pylist(tests)
    pq.write_table(table, root / "tests" / "IOI.parquet", row_group_size=row_group_size or table.num_rows)
    contests = [{"contest_id": "IOI-2024-day1", "gold_cutoff": 150.0, "silver_cutoff": 100.0,
                 "bronze_cutoff": 50.0, "division": 1, "date": "2024-09-03", "num_contestants": 10,
                 "problems": json.dumps(["IOI-2024-day1-sum", "IOI-2024-day1-guess", "IOI-2024-day1-robots"]),
                 "contestants_ranking": _ranking_json()}]
    pq.write_table(pa.Table.from_pylist(contests), root / "contest_results.parquet")
    return {"problems": root / "liveoibench_v1.parquet", "tests": root / "tests",
            "contests": root / "contest_results.parquet"}


@pytest.fixture()
def liveoibench_release(tmp_path: Path) -> dict[str, Path]:
    paths = write_liveoibench_release(tmp_path / "release")
    paths["out"] = tmp_path / "tasks"
    return paths


def _run_liveoibench(rel: dict[str, Path], *extra: str) -> int:
    return liveoibench.main(["--problems", str(rel["problems"]), "--tests", str(rel["tests"]),
                             "--contests", str(rel["contests"]), "--out", str(rel["out"]), *extra])


def test_liveoibench_tests_file_is_one_row_group(liveoibench_release):
    assert pq.ParquetFile(liveoibench_release["tests"] / "IOI.parquet").metadata.num_row_groups == 1


def test_liveoibench_layout(liveoibench_release, capsys):
    rel = liveoibench_release
    assert _run_liveoibench(rel) == 0
    printed = capsys.readouterr().out
    out = rel["out"]

    s = out / "IOI-2024-day1-sum"
    assert sorted(p.name for p in (s / "tests").iterdir()) == [
        f"{n}.{e}" for n in ("01", "02", "03", "04", "05") for e in ("in", "out")]  # 06: in no subtask
    for name, t in SUM_TESTS.items():
        if name != "06":
            assert (s / "tests" / f"{name}.in").read_text() == t["input"]
            assert (s / "tests" / f"{name}.out").read_text() == t["output"]
    assert json.loads((s / "subtasks.json").read_text()) == {
        "1": {"score": 10, "testcases": ["01", "02"]}, "2": {"score": 30, "testcases": ["03"]},
        "3": {"score": 60, "testcases": ["01", "02", "03", "04", "05"]}}
    meta = json.loads((s / "meta.json").read_text())
    assert meta["kind"] == "batch" and meta["cpu_time_limit_ms"] == 1000 and meta["memory_limit_mb"] == 256
    assert (meta["contest"], meta["competition"], meta["date"]) == ("IOI-2024-day1", "IOI", "2024-09-03")
    assert meta["difficulty"] == "Easy" and meta["difficulty_score"] == 12
    assert meta["categorization"] == ["Math"] and meta["max_score"] == 100

    g = out / "IOI-2024-day1-guess"
    gmeta = json.loads((g / "meta.json").read_text())
    assert gmeta["kind"] == "interactive" and gmeta["interactor_mode"] == "non_adaptive"
    assert gmeta["difficulty"] == "Hard"
    assert gmeta["case_names"] == {"001": "1", "002": "2", "003": "10"}  # natural order of test names
    assert (g / "cases" / "003.in").read_text() == "5 1\n"
    assert (g / "interactor" / "non_adaptive.cpp").read_text() == SECRET_INTERACTOR
    assert json.loads((g / "subtasks.json").read_text()) == {"1": {"score": 100, "testcases": ["001", "002", "003"]}}

    # The grader-linked batch task has no tests here; it is reported, not imported.
    assert not (out / "IOI-2024-day1-robots").exists()

    contests = json.loads((out / "contests.json").read_text())["contests"]
    assert [c["contest_id"] for c in contests] == ["IOI-2024-day1"]
    c = contests[0]
    assert c["held"] == ["IOI-2024-day1-sum", "IOI-2024-day1-guess"]
    assert c["task_columns"] == {"IOI-2024-day1-sum": "Sum", "IOI-2024-day1-guess": "Guess",
                                 "IOI-2024-day1-robots": "Robots"}
    assert c["max_scores"] == {"IOI-2024-day1-sum": 100.0, "IOI-2024-day1-guess": 100.0}
    assert len(c["contestants"]) == 10 and c["contestants"][0]["scores"] == {"Sum": 100, "Guess": 100, "Robots": 80}

    summary = json.loads((out / liveoibench.SUMMARY_FILE).read_text())
    warnings = "\n".join(f"{t}: {m}" for t, m in summary["warnings"])
    assert "IOI-2024-day1-sum: 1 test(s) in no subtask carry no points and are left out: 06" in warnings
    assert "IOI-2024-day1-sum: subtask 2 names 1 test(s) not in the tests: 07" in warnings
    assert "IOI-2024-day1-robots: no tests in the tests files" in warnings
    assert "peak memory: RSS" in printed and "largest tests page" in printed


def test_liveoibench_reimport_is_idempotent(liveoibench_release):
    rel = liveoibench_release
    assert _run_liveoibench(rel) == 0
    before = _snapshot(rel["out"])
    assert _run_liveoibench(rel) == 0
    assert _snapshot(rel["out"]) == before


def test_liveoibench_grader_and_script_tasks_are_set_aside(tmp_path):
    rel = write_liveoibench_release(tmp_path / "release")
    # Give the grader-linked task tests, and add a script-judged interactive task.
    problems = pq.read_table(rel["problems"]).to_pylist()
    problems.append({**problems[1], "id": 4, "problem_id": "IOI-2024-day1-talk", "task_name": "Talk",
                     "grader_code": json.dumps({"manager.cpp": "int main(){}\n", "stub.cpp": "\n"}),
                     "evaluation_script": "#!/bin/sh\n"})
    pq.write_table(pa.Table.from_pylist(problems), rel["problems"])
    tests = pq.read_table(rel["tests"] / "IOI.parquet").to_pylist()
    for pid in ("IOI-2024-day1-robots", "IOI-2024-day1-talk"):
        tests.append({"problem_id": pid, "tests": json.dumps({"1": {"input": "1\n", "output": "1\n"}}),
                      "subtasks": json.dumps({"1": {"score": 100, "testcases": ["1"]}})})
    pq.write_table(pa.Table.from_pylist(tests), rel["tests"] / "IOI.parquet", row_group_size=len(tests))
    out = tmp_path / "tasks"
    assert liveoibench.main(["--problems", str(rel["problems"]), "--tests", str(rel["tests"]),
                             "--contests", str(rel["contests"]), "--out", str(out)]) == 0
    robots = out / "_unsupported" / "IOI-2024-day1-robots"
    assert (robots / "grader" / "grader.cpp").is_file() and "robots.h" in (robots / "desc.md").read_text()
    assert (out / "_unsupported" / "IOI-2024-day1-talk" / "grader" / "evaluate.sh").is_file()
    held = json.loads((out / "contests.json").read_text())["contests"][0]["held"]
    assert held == ["IOI-2024-day1-sum", "IOI-2024-day1-guess"]
    # With --grader-batch import the grader-linked task is written as a batch task with grader/.
    assert liveoibench.main(["--problems", str(rel["problems"]), "--tests", str(rel["tests"]),
                             "--out", str(out), "--grader-batch", "import"]) == 0
    assert not robots.exists()
    meta = json.loads((out / "IOI-2024-day1-robots" / "meta.json").read_text())
    assert meta["grader_linked"] is True and (out / "IOI-2024-day1-robots" / "grader" / "robots.h").is_file()


@needs_judge
def test_liveoibench_imported_tasks_judge(liveoibench_release):
    rel = liveoibench_release
    assert _run_liveoibench(rel) == 0
    full = _judge(rel["out"] / "IOI-2024-day1-sum", SUM_OK)
    assert full.verdict.value == "OK" and full.score == 100
    partial = _judge(rel["out"] / "IOI-2024-day1-sum", SUM_INT)  # overflows on test 03
    assert partial.verdict.value == "WA"
    assert partial.score == 10 and partial.subtask_scores == {"1": 10, "2": 0, "3": 0}
    guess = _judge(rel["out"] / "IOI-2024-day1-guess", SECRET_OK)
    assert guess.verdict.value == "OK" and len(guess.cases) == 3
    assert _judge(rel["out"] / "IOI-2024-day1-guess", SECRET_WA).verdict.value == "WA"


# --------------------------------------------------------------------------------------------
# The page reader and the JSON writer on their own


@pytest.mark.parametrize("options", [
    {},  # pyarrow defaults: dictionary page holding every value, snappy
    {"use_dictionary": False, "write_batch_size": 1, "data_page_size": 1, "compression": "zstd"},  # page per value
    {"use_dictionary": False, "data_page_version": "2.0", "compression": "gzip"},
    {"use_dictionary": True, "write_batch_size": 1, "data_page_version": "2.0", "compression": "none"},
    {"use_dictionary": False, "compression": "lz4"},
])
def test_page_reader_matches_pyarrow(tmp_path, options):
    values = ["x" * 3000 + str(i) if i % 3 else None for i in range(40)] + ["", "é\u2603"]
    table = pa.table({"problem_id": [str(i) for i in range(len(values))], "tests": values})
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, row_group_size=len(values), **options)
    stats = PageStats()
    got = [None if v is None else bytes(v).decode() for v in iter_byte_array_column(path, "tests", 0, stats)]
    assert got == values
    assert stats.largest_value == 3002
    if options.get("data_page_size") == 1:
        assert stats.largest_page < 2 * 3100  # a page per value: memory bounded by one value


def test_page_reader_multiple_row_groups(tmp_path):
    values = [f"v{i}" * 100 for i in range(10)]
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"tests": values}), path, row_group_size=3)
    got = []
    for rg in range(pq.ParquetFile(path).num_row_groups):
        got += [bytes(v).decode() for v in iter_byte_array_column(path, "tests", rg)]
    assert got == values


TRICKY = {
    "a/b": {"input": 'quote " backslash \\ slash / tab \t cr \r nl \n end', "output": "\\\\n not a newline\\"},
    "uni": {"input": "caf\u00e9 \u2603 \U0001f600\n", "output": ""},
    "extra": {"input": "1\n", "output": "2\n", "score": 1.5, "meta": {"k": [1, 2, {"z": None}]}},
    "no_output": {"input": "x"},
    "spaces": {"input": "  \n\n", "output": "\\" * 7 + "n"},
}


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 20])
@pytest.mark.parametrize("indent", [None, 2])
def test_write_tests_streams_json_exactly(tmp_path, chunk, indent):
    blob = json.dumps(TRICKY, indent=indent).encode()
    parsed = write_tests(memoryview(blob), tmp_path, chunk=chunk)
    assert parsed.names == list(TRICKY)
    assert parsed.files["a/b"] == "a_b" and parsed.missing_output == ["no_output"]
    for name, t in TRICKY.items():
        stem = parsed.files[name]
        assert (tmp_path / f"{stem}.in").read_bytes() == t["input"].encode()
        assert (tmp_path / f"{stem}.out").read_bytes() == t.get("output", "").encode()


@pytest.mark.parametrize("chunk", [1, 2, 4, 7])
def test_write_json_string_chunk_boundaries(chunk):
    text = "a\\\\\\nb" + "\\" * 9 + "\"" + "\n\t" * 5 + "\\\\" * 4 + "end"
    raw = json.dumps(text).encode()[1:-1]
    buf = io.BytesIO()
    write_json_string(memoryview(raw), 0, len(raw), buf, chunk=chunk)
    assert buf.getvalue() == text.encode()


def test_write_tests_rejects_non_object(tmp_path):
    with pytest.raises(ValueError):
        write_tests(b'["not", "an", "object"]', tmp_path)


def test_liveoibench_contest_figures_from_the_import(liveoibench_release):
    """The imported contests.json scores the hand-worked example of tests/results/test_contest.py."""
    from ibench.results.contest import RatingOptions, load_contests, score_contests

    rel = liveoibench_release
    assert _run_liveoibench(rel) == 0
    contests = load_contests(rel["out"])
    [r] = score_contests(contests, {"IOI-2024-day1-sum": 40.0, "IOI-2024-day1-guess": 100.0},
                         rating=RatingOptions(min_rated=1, outlier_sigma=None))
    # Held tasks Sum + Guess; humans' totals on them: 200 200 140 140 110 80 50 40 10 0.
    assert (r.total, r.max_total, r.relative_score) == (140, 200, 70.0)
    assert r.percentile == 60.0 and r.medal == "Silver" and not r.complete
    # Rated (>= 500): 2000, 2100 (both above 140), 1500, 1600: m = 2, symmetric about 1800.
    assert (r.expected_rank, r.n_rated) == (2, 4) and r.rating == pytest.approx(1800, abs=1e-5)


def test_liveoibench_nested_tests_column_falls_back_to_pyarrow(tmp_path):
    rel = write_liveoibench_release(tmp_path / "release")
    entry = pa.struct([("input", pa.string()), ("output", pa.string())])
    table = pa.table({
        "problem_id": ["IOI-2024-day1-sum"],
        "tests": pa.array([list(SUM_TESTS.items())], type=pa.map_(pa.string(), entry)),
        "subtasks": [json.dumps(SUM_SUBTASKS)],
    })
    pq.write_table(table, rel["tests"] / "IOI.parquet")
    out = tmp_path / "tasks"
    log = liveoibench.import_liveoibench(rel["problems"], rel["tests"], out, contests=rel["contests"])
    assert log.stats["pyarrow_fallback"] is True
    assert any("falling back to pyarrow" in m for _, m in log.warnings)
    assert (out / "IOI-2024-day1-sum" / "tests" / "03.out").read_text() == "4000000000\n"


def test_liveoibench_partial_reimport_keeps_contest_holdings(liveoibench_release):
    rel = liveoibench_release
    assert _run_liveoibench(rel) == 0
    before = _snapshot(rel["out"])
    assert _run_liveoibench(rel, "--only", "IOI-2024-day1-sum") == 0
    after = _snapshot(rel["out"])
    assert after["contests.json"] == before["contests.json"]
    assert {k: v for k, v in after.items() if "import_" not in k} == {k: v for k, v in before.items() if "import_" not in k}
