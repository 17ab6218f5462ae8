"""`python -m ibench.tasks validate`: orchestration against a fake judge (fast), and one real
end-to-end run of a scaffolded task when the judge and its testlib header are available."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ibench.judge.outcome import CompileInfo, SampleResult
from ibench.judge.verdict import Verdict
from ibench.tasks import validate
from ibench.tasks.cli import main
from ibench.tasks.load import load_task
from task_builders import make_batch, make_interactive, write


class FakeJudge:
    """Reads the verdict a solution should get from a `VERDICT=X [SCORE=n]` comment in it."""

    def __init__(self, all_cases: bool, calls: list):
        self.all_cases = all_cases
        self.calls = calls

    def compile_tool(self, task, path):
        if "BROKEN" in path.read_text():
            raise RuntimeError(f"{path} does not compile: error: expected ';'")
        if path.name == "gen_cases.cpp":
            script = path.parent / "fake_gen.sh"
            script.write_text('#!/bin/sh\nprintf "10 3\\n"\n')  # what the builders ship in every case
            script.chmod(0o755)
            return script
        return path

    def judge(self, task, source, language="cpp", cases=None):
        self.calls.append({"source": source, "all_cases": self.all_cases,
                           "cases": None if cases is None else [c.name for c in cases]})
        words = dict(w.split("=") for w in source.split() if "=" in w)
        verdict = Verdict(words.get("VERDICT", "OK"))
        if "OK_ON" in words and cases is not None and all(c.name in words["OK_ON"].split(",") for c in cases):
            verdict = Verdict.OK  # a probe that only fails on cases outside a sample
        score = float(words["SCORE"]) if "SCORE" in words else None
        return SampleResult(verdict, [], CompileInfo(True, 1.0, False), "fake", score=score,
                            message="" if verdict is Verdict.OK else f"case 001: {verdict.value}: fake")

    def early_exit_view(self, task, result):
        """An `EARLY=X` word names the early-exit label; else it is the full run's."""
        source = self.calls[-1]["source"]
        self.calls.append({"source": source, "all_cases": False, "cases": "replayed"})
        words = dict(w.split("=") for w in source.split() if "=" in w)
        verdict = Verdict(words.get("EARLY", result.verdict.value))
        return SampleResult(verdict, [], result.compile, "fake", message=f"case 001: {verdict.value}: fake")


@pytest.fixture
def fake_judge(monkeypatch):
    calls: list = []
    judges = {flag: FakeJudge(flag, calls) for flag in (False, True)}
    monkeypatch.setattr(validate, "_judge", lambda settings, all_cases: judges[all_cases])
    return calls


def solutions(root: Path, entries: dict[str, tuple[str, str]]) -> None:
    """entries: file -> (expected, source text)."""
    sdir = root / "solutions"
    for p in sdir.iterdir():
        p.unlink()
    for name, (_, text) in entries.items():
        write(sdir / name, text)
    write(sdir / "expected.json", json.dumps({n: {"expected": e} for n, (e, _) in entries.items()}))


def interactive(root: Path, **kw) -> Path:
    """An interactive task whose solutions get their expected verdicts from the fake judge."""
    make_interactive(root, **kw)
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=OK"), "wa.cpp": ("WA", "// VERDICT=WA")})
    return root


def run(tasks, **kw):
    from ibench.judge import JudgeSettings

    return validate.validate_tasks(tasks, JudgeSettings(), **kw)


def test_all_good(tmp_path, fake_judge):
    root = make_interactive(tmp_path / "t")
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=OK"), "wa.cpp": ("WA", "// VERDICT=WA")})
    [result] = run([load_task(root)])
    assert result.ok, result.rows
    items = [r.item for r in result.rows]
    assert items == ["compile interactor/non_adaptive.cpp", "compile generator/gen_cases.cpp",
                     "regenerate 2 cases", "ok.cpp", "wa.cpp"]
    # every known solution runs every case (a probe's label is the most severe over all of them);
    # a probe's default (early-exit) label is read from that run's cases, not judged again,
    # and must match too
    assert [(c["source"], c["all_cases"], c["cases"]) for c in fake_judge] == [
        ("// VERDICT=OK", True, None), ("// VERDICT=WA", True, None), ("// VERDICT=WA", False, "replayed")]


def test_early_exit_label_must_match_the_card(tmp_path, fake_judge):
    root = make_interactive(tmp_path / "t")
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=OK"), "re.cpp": ("RE", "// VERDICT=RE EARLY=WA")})
    [result] = run([load_task(root)])
    rows = {r.item: r for r in result.rows}
    assert rows["re.cpp"].ok is False and rows["re.cpp"].got == "WA"
    assert "expected_early_exit" in rows["re.cpp"].detail


def test_mismatches_are_failures(tmp_path, fake_judge):
    root = make_interactive(tmp_path / "t")
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=WA"), "probe.cpp": ("QLE", "// VERDICT=OK"),
                     "pe.cpp": ("PE", "// VERDICT=WA"), "se.cpp": ("WA", "// VERDICT=SE")})
    [result] = run([load_task(root)])
    assert not result.ok
    rows = {r.item: r for r in result.rows}
    assert [rows[n].ok for n in ("ok.cpp", "pe.cpp", "probe.cpp", "se.cpp")] == [False, False, False, False]
    assert rows["pe.cpp"].got == "WA" and rows["pe.cpp"].expected == "PE"
    assert rows["se.cpp"].detail.startswith("JUDGE ERROR")


def test_regenerated_case_must_match(tmp_path, fake_judge):
    root = interactive(tmp_path / "t")
    write(root / "cases" / "002.in", "10 4\n")
    [result] = run([load_task(root)])
    bad = [r for r in result.rows if r.ok is False]
    assert [(r.item, r.got) for r in bad] == [("case 002", "differs")]
    assert "line 1: shipped '10 4\\n' vs generated '10 3\\n'" in bad[0].detail


def test_tool_that_does_not_compile(tmp_path, fake_judge):
    root = interactive(tmp_path / "t")
    write(root / "interactor" / "non_adaptive.cpp", "BROKEN")
    write(root / "generator" / "gen_cases.cpp", "BROKEN")
    [result] = run([load_task(root)])
    bad = {r.item: r for r in result.rows if r.ok is False}
    assert set(bad) == {"compile interactor/non_adaptive.cpp", "compile generator/gen_cases.cpp", "regenerate 2 cases"}
    assert "expected ';'" in bad["compile interactor/non_adaptive.cpp"].detail


def test_batch_scores_compared(tmp_path, fake_judge):
    root = make_batch(tmp_path / "s")
    write(root / "solutions" / "ok.cpp", "// VERDICT=OK SCORE=100")
    write(root / "solutions" / "partial.cpp", "// VERDICT=WA SCORE=60")  # expected 40
    [result] = run([load_task(root)])
    rows = {r.item: r for r in result.rows}
    assert rows["ok.cpp"].ok and rows["ok.cpp"].score == "100 / 100"
    assert rows["partial.cpp"].ok is False and "score 60, expected 40" in rows["partial.cpp"].detail


def test_sample_cases_is_deterministic_and_covers_pools(tmp_path):
    cases = [f"{i:03d}" for i in range(1, 41)] + [f"{i:03d}" for i in range(101, 111)]
    task = load_task(make_interactive(tmp_path / "t", mode="both", cases=cases))
    first = validate.sample_cases(task, 5)
    assert first == validate.sample_cases(task, 5) and len(first) == 5
    assert {c.interactor for c in first} == {"non_adaptive", "adaptive"}
    assert list(first) == sorted(first, key=lambda c: c.name)
    assert validate.sample_cases(task, 2) != () and len(validate.sample_cases(task, 2)) == 2
    assert validate.sample_cases(task, 100) == task.cases
    assert validate.sample_cases(task, None) == task.cases


def test_sampled_probe_that_passes_the_sample_gets_the_full_run(tmp_path, fake_judge):
    cases = [f"{i:03d}" for i in range(1, 11)]
    root = make_interactive(tmp_path / "t", cases=cases)
    task = load_task(root)
    sample = [c.name for c in validate.sample_cases(task, 3)]
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=OK"),
                     "wa.cpp": ("WA", f"// VERDICT=WA OK_ON={','.join(sample)}")})
    [result] = run([load_task(root)], cases=3)
    assert result.ok, result.rows
    probe_calls = [c for c in fake_judge if "OK_ON" in c["source"]]
    assert [c["cases"] for c in probe_calls] == [sample, None]
    assert next(r for r in result.rows if r.item == "regenerate 3 cases")
    assert result.cases == "3 of 10 cases sampled"
    # a probe whose label already shows on the sample, and any accepted solution, stop there
    assert [c["cases"] for c in fake_judge if "OK_ON" not in c["source"]] == [sample]


def test_sampled_probe_with_another_label_is_decided_by_the_full_run(tmp_path, fake_judge):
    root = interactive(tmp_path / "t", cases=[f"{i:03d}" for i in range(1, 11)])
    solutions(root, {"ok.cpp": ("OK", "// VERDICT=OK"), "pe.cpp": ("PE", "// VERDICT=WA")})
    [result] = run([load_task(root)], cases=2)
    assert [c["cases"] is None for c in fake_judge if "WA" in c["source"]] == [False, True]
    assert not result.ok


def test_sampled_batch_scores_are_not_compared(tmp_path, fake_judge):
    root = make_batch(tmp_path / "s")
    write(root / "solutions" / "ok.cpp", "// VERDICT=OK SCORE=40")
    write(root / "solutions" / "partial.cpp", "// VERDICT=WA SCORE=0")
    [result] = run([load_task(root)], cases=1)
    rows = {r.item: r for r in result.rows}
    assert result.ok and rows["ok.cpp"].score == "40 (sampled)"


def test_task_without_accepted_solution_gets_a_warning_row(tmp_path, fake_judge):
    root = make_interactive(tmp_path / "t")
    solutions(root, {"wa.cpp": ("WA", "// VERDICT=WA")})
    [result] = run([load_task(root)])
    assert result.ok and result.rows[-1].ok is None and "no accepted solution" in result.rows[-1].detail


def test_process_pool_gives_the_same_rows(tmp_path, fake_judge):
    interactive(tmp_path / "a")
    interactive(tmp_path / "b")
    from ibench.tasks.load import load_tasks

    tasks = load_tasks(tmp_path)
    inline = run(tasks)
    pooled = run(tasks, jobs=2)  # forked workers inherit the fake judge
    assert [(r.task, r.rows) for r in pooled] == [(r.task, r.rows) for r in inline]


def test_cli_exit_codes_and_table(tmp_path, fake_judge, capsys):
    root = interactive(tmp_path / "t")
    assert main(["validate", str(root), "--cases", "1"]) == 0
    out = capsys.readouterr().out
    assert "ok.cpp" in out and "✓" in out and "all 1 tasks validated" in out
    write(root / "solutions" / "ok.cpp", "// VERDICT=TLE")
    assert main(["validate", str(root)]) == 1
    assert "1 of 1 tasks failed validation" in capsys.readouterr().out
    write(root / "meta.json", "{")
    assert main(["validate", str(root)]) == 2


# ---------------------------------------------------------------------------------- real judge


def _real_judge_available() -> bool:
    try:
        from ibench.judge import Judge

        return shutil.which("g++") is not None and (Judge().testlib_dir / "testlib.h").is_file()
    except Exception:
        return False


@pytest.mark.skipif(not _real_judge_available(), reason="needs g++, ibench.judge.Judge and its testlib.h")
@pytest.mark.parametrize("kind", ["interactive", "batch"])
def test_scaffold_validates_with_the_real_judge(tmp_path, capsys, kind):
    """The templates compile, the generator reproduces the scaffolded case byte for byte, the
    reference is accepted and the probe gets its label."""
    assert main(["new", "demo", "--dir", str(tmp_path), "--kind", kind, "--mode", "both"]) == 0
    rc = main(["validate", str(tmp_path / "demo")])
    out = capsys.readouterr().out
    assert rc == 0, out
