"""ICPC package details: how submissions become known solutions (submissions.yaml keys: braces,
``*``, a folder's key covering what it holds, every matching key counting) and submission
folders (one source beside data files, a Python entry with modules it does not import, several
sources kept under ``_unsupported/_submissions/`` with the reason), and problem.yaml constants
written into the validator."""

from __future__ import annotations

import json
from pathlib import Path

from ibench.tasks.cli import main
from ibench.tasks.importers.icpc import _expected, _glob
from ibench.tasks.importers.icpc_package import submission_source
from ibench.tasks.load import load_tasks


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_submission_globs():
    assert _glob("expansion/ac.{py, cpp}").match("expansion/ac.cpp")
    assert _glob("wa/ac*").match("wa/ac1.py") and not _glob("wa/ac*").match("wa/x/ac1.py")
    assert _glob("match").match("match/nested") and _glob("match/").match("match/a.py")
    assert not _glob("match/match_wa").match("match/match_wa.py")  # complete names only
    assert not _glob("match_wa.py").match("match/match_wa.py")  # from the start
    assert not _glob("*/nested_wa.py").match("match/nested")
    overrides = {"accepted": {"permitted": ["WA"]}, "ac_or_wa": {"permitted": ["AC", "WA"]},
                 "ac_or_wa/wa.py": {"permitted": ["WA"]}, "tle": {"sample": {"required": ["AC"]}}}
    assert _expected(overrides, "accepted", "x.py") == (("WA", "PE"), True)  # the folder's own key replaces the default
    assert _expected(overrides, "ac_or_wa", "wa.py") == (("WA", "PE"), True)  # both keys: their common verdicts
    assert _expected(overrides, "ac_or_wa", "ok.py") == (("OK", "WA", "PE"), True)
    assert _expected(overrides, "time_limit_exceeded", "s.py") == (("TLE", "IDLE"), False)
    assert _expected(overrides, "tle", "sleep.py") == (None, False)  # nothing permitted: not judged


def test_submission_folders(tmp_path):
    one = tmp_path / "one"
    write(one / "hello.cc", "int main(){}\n")
    write(one / "zz-random.txt", "data\n")
    found = submission_source(one)
    assert found.source == one / "hello.cc" and "zz-random.txt" in found.note
    py = tmp_path / "py"
    write(py / "main.py", "print(1)\n")
    write(py / "ac.py", "print(2)\n")
    assert submission_source(py).source == py / "main.py"
    uses = tmp_path / "uses"
    write(uses / "main.py", "from message import text\nprint(text)\n")
    write(uses / "message.py", "text = 'hi'\n")
    assert submission_source(uses).source is None and "imports message" in submission_source(uses).reason
    java = tmp_path / "java"
    write(java / "hello.java", "class Hello {}\n")
    write(java / "message.java", "class Message {}\n")
    assert submission_source(java).source is None and "several source files" in submission_source(java).reason


def test_import_keeps_unjudgeable_submissions_aside(tmp_path):
    p = tmp_path / "pkg"
    write(p / "problem.yaml", "name: Echo\nlimits:\n  time_limit: 1\n")
    write(p / "data" / "secret" / "1.in", "5\n")
    write(p / "data" / "secret" / "1.ans", "5\n")
    write(p / "submissions" / "accepted" / "extra" / "echo.py", "print(input())\n")
    write(p / "submissions" / "accepted" / "extra" / "notes.txt", "not a source\n")
    write(p / "submissions" / "accepted" / "split" / "main.cpp", "#include \"io.h\"\nint main(){ echo(); }\n")
    write(p / "submissions" / "accepted" / "split" / "io.h", "#include <cstdio>\nvoid echo();\n")
    write(p / "submissions" / "accepted" / "split" / "io.cpp", "#include \"io.h\"\nvoid echo(){ int x; "
                                                              "scanf(\"%d\", &x); printf(\"%d\\n\", x); }\n")
    write(p / "submissions" / "expansion" / "ac.py3", "print(input())\n")
    write(p / "submissions" / "submissions.yaml", "expansion/ac.{py3,cpp}:\n  permitted: [AC]\n")
    out = tmp_path / "out"
    assert main(["import-icpc", str(p), "--out", str(out)]) == 0
    task = load_tasks(out)[0]
    sols = {s.path.name: s for s in task.solutions}
    assert set(sols) == {"accepted-extra.py", "expansion-ac.py"}
    expected = json.loads((out / "pkg" / "solutions" / "expected.json").read_text())
    assert "notes.txt" in expected["accepted-extra.py"]["note"]
    aside = out / "_unsupported" / "_submissions" / "pkg"
    assert (aside / "accepted" / "split" / "io.cpp").is_file()
    assert "accepted/split: several source files (io.cpp, io.h, main.cpp)" in (aside / "UNSUPPORTED.txt").read_text()
    write(p / "submissions" / "accepted" / "split" / "io.cpp", "")  # a second import leaves nothing stale
    (p / "submissions" / "accepted" / "split" / "io.h").unlink()
    (p / "submissions" / "accepted" / "split" / "io.cpp").unlink()
    assert main(["import-icpc", str(p), "--out", str(out)]) == 0
    assert not aside.exists()
    assert "accepted-split.cpp" in {s.path.name for s in load_tasks(out)[0].solutions}


def test_constants_reach_the_validator(tmp_path):
    from ibench.tasks.importers.icpc import _constants, _substitute

    constants = _constants({"constants": {"FIVE": {"value": 5, "STRING": "5", "WORD": "five"}, "SIX": 6}})
    assert constants == {"FIVE.value": "5", "FIVE.STRING": "5", "FIVE.WORD": "five", "FIVE": "5", "SIX": "6"}
    src = write(tmp_path / "v" / "validator.cpp", "int lo = {{FIVE}}, hi = {{ SIX }}; auto w = \"{{FIVE.WORD}}\"; {{OTHER}}\n")
    _substitute(tmp_path / "v", constants)
    assert src.read_text() == "int lo = 5, hi = 6; auto w = \"five\"; {{OTHER}}\n"


def test_entrypoint_from_submissions_yaml(tmp_path):
    from ibench.tasks.importers.icpc import _entrypoint

    folder = tmp_path / "metadata"
    write(folder / "main.py", "import sys\nsys.exit(1)\n")
    write(folder / "ac.py", "print(input())\n")
    overrides = {"ac_or_wa/metadata": {"language": "python3", "entrypoint": "ac.py"}}
    assert _entrypoint(overrides, "ac_or_wa", "metadata") == "ac.py"
    assert submission_source(folder, "ac.py").source == folder / "ac.py"
    assert submission_source(folder).source == folder / "main.py"
