"""`python -m ibench.tasks gen-cases TASK`: generator/cases.txt -> cases/*.in (batch: tests/*.in and
.out), the generator compiled by the judge's compile flow; bad input names its file and line."""

from __future__ import annotations

import io
from pathlib import Path

from ibench.tasks import scaffold
from ibench.tasks.cli import cmd_gen_cases, main


def _gen(root: Path, *args, **kw) -> tuple[int, str]:
    out = io.StringIO()
    return cmd_gen_cases(root, *args, out=out, **kw), out.getvalue()


def _scaffold(tmp_path: Path, kind: str, mode: str = "both") -> tuple[Path, dict[str, bytes]]:
    """A scaffolded task (its cases computed in Python by replaying testlib's random numbers), and
    those cases, then removed: gen-cases must write the same bytes from the compiled generator."""
    root = scaffold.create_task("t", tmp_path, kind=kind, mode=mode).root
    folder = root / ("tests" if kind == "batch" else "cases")
    shipped = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    for p in folder.iterdir():
        p.unlink()
    return root, shipped


def test_interactive_cases_are_written_from_the_recipes(tmp_path):
    root, shipped = _scaffold(tmp_path, "interactive")
    rc, out = _gen(root)
    assert rc == 0, out
    assert {p.name: p.read_bytes() for p in (root / "cases").iterdir()} == shipped
    assert "wrote cases/001.in" in out and "wrote cases/101.in" in out
    rc, out = _gen(root)  # again: nothing to do
    assert rc == 0 and f"0 written, {len(shipped)} unchanged" in out, out


def test_batch_tests_and_their_answers(tmp_path):
    root, shipped = _scaffold(tmp_path, "batch")
    rc, out = _gen(root)
    assert rc == 0, out
    assert {p.name: p.read_bytes() for p in (root / "tests").iterdir()} == shipped  # .in and .out
    assert "expected outputs (tests/*.out) from" in out


def test_a_bad_recipe_line_names_the_file_and_line_and_writes_nothing(tmp_path):
    root, _ = _scaffold(tmp_path, "interactive", mode="non_adaptive")
    recipes = root / "generator" / "cases.txt"
    recipes.write_text(recipes.read_text() + "002\n")  # a case without generator arguments
    rc, out = _gen(root)
    assert rc == 1 and "nothing written" in out
    line = len(recipes.read_text().splitlines())
    assert f"{recipes}: line {line}: '002' has no generator arguments" in out, out
    assert not list((root / "cases").iterdir())

    recipes.write_text("7 1 --mode non\n")  # not a pool number
    rc, out = _gen(root)
    assert rc == 1 and f"{recipes}: line 1: case name '7'" in out and "001-100" in out, out


def test_a_failing_generator_is_reported_with_its_file(tmp_path):
    root, _ = _scaffold(tmp_path, "interactive", mode="non_adaptive")
    gen = root / "generator" / "gen_cases.cpp"
    gen.write_text(gen.read_text().replace("int main(", "int main(undeclared_thing, "))
    rc, out = _gen(root)
    assert rc == 1 and f"{gen}: does not compile" in out, out
    gen.write_text('#include "testlib.h"\nint main(int argc, char* argv[]) { registerGen(argc, argv, 1); return 4; }\n')
    rc, out = _gen(root)
    assert rc == 1 and "cases.txt: line" in out and "exited 4" in out, out


def test_a_case_that_differs_is_kept_unless_forced(tmp_path):
    root, shipped = _scaffold(tmp_path, "interactive", mode="non_adaptive")
    (root / "cases" / "001.in").write_bytes(b"hand edited\n")
    rc, out = _gen(root)
    assert rc == 1 and "cases/001.in: exists and differs" in out and "--force" in out, out
    assert (root / "cases" / "001.in").read_bytes() == b"hand edited\n"
    assert main(["gen-cases", str(root), "--force", "--case", "001"]) == 0
    assert (root / "cases" / "001.in").read_bytes() == shipped["001.in"]
