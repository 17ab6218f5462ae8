"""Adding a language is a row of ibench/languages.py, one executor file and known solutions
(docs/JUDGE.md, "Adding a language"): POSIX sh, added that way in a fresh process, is checked in
the real box (a syntax error is CE), judged (a binary search is OK on guess-the-number), loaded as
a task's known solution and replayed by the reference model — with nothing else edited."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# The one file: everything the compile flow does not already own.
EXECUTOR = '''
import os
import shutil
from pathlib import Path

from ibench.judge.executors.base import MESSAGE_TAIL, CompiledExecutor, is_elf
from ibench.judge.sandbox.run import tail


class ShExecutor(CompiledExecutor):
    language = "sh"
    key_tag = "sh"
    source_name = "solution.sh"
    what = "syntax check"

    def toolchain(self):
        self.sh = Path(os.path.realpath(shutil.which("dash") or "/bin/sh"))
        if not is_elf(self.sh):
            raise RuntimeError(f"judge.sh: {self.sh} is not a binary")
        self.runtime_binds = tuple((p, p) for p in ("/usr", "/bin") if os.path.lexists(p))
        return f"{self.sh} {os.stat(self.sh).st_mtime_ns}"

    def build(self, src, stage, extra_sources, include_dirs, out, stderr_file):
        report = self.box_run(self.sh, ["-n", self.sandbox.visible(src)],
                              [*self.runtime_binds, *self.sandbox.stage_binds(stage)], stderr_file,
                              argv0="sh", mem_kb=256 * 1024, nproc=4, fsize_kb=1024)
        message = tail(stderr_file, MESSAGE_TAIL).replace(self.sandbox.visible(src), "solution.sh")
        ok = report.solver.exit_code == 0
        why = None if ok else self.box_stop(report, message)
        if ok:
            shutil.copyfile(src, out)
        return ok, f"{why}\\n{message}" if why else message

    def program(self, script, info):
        return self.boxed_program(script, info, (str(self.sh),), "/prog/solution.sh", self.runtime_binds)

    def staged(self, key, built, source):
        return self.program_copy(key, ".sh", source.encode("utf-8"))
'''

SOLUTION = """\
read games budget
g=0
while [ "$g" -lt "$games" ]; do
  read n
  lo=1; hi=$n
  while :; do
    mid=$(( (lo + hi) / 2 ))
    echo "? $mid"
    read reply
    case "$reply" in
      "=") echo "! $mid"; break ;;
      "<") hi=$((mid - 1)) ;;
      ">") lo=$((mid + 1)) ;;
      *) exit 0 ;;
    esac
  done
  g=$((g + 1))
done
"""

SCRIPT = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from ibench import languages

# The row, as an edit of ibench/languages.py would add it (before anything else is imported).
row = languages.Language("sh", "POSIX sh", "nothing: `echo` writes at once", fence_tags=("sh", "shell"),
                         extensions=(".sh",), time_factor=2.0, aliases=("shell",), toolchain="sh",
                         executor="sh_executor:ShExecutor")
languages.LANGUAGES[row.name] = row
languages.ALIASES.update({a: row.name for a in row.aliases})
languages.BY_EXTENSION.update({e: row.name for e in row.extensions})

from ibench.generate.base import GenerationRequest
from ibench.generate.extract import extract_code
from ibench.generate.reference import ReferenceBackend
from ibench.judge import Judge, JudgeSettings
from ibench.tasks.load import load_task

task = load_task(Path(sys.argv[2]))
known = [s for s in task.solutions if s.path.suffix == ".sh"]
backend = ReferenceBackend(language="sh")
req = GenerationRequest(task=task, messages=[{"role": "user", "content": "x"}], indices=[0], seed=1)
code = extract_code(next(iter(backend.generate([req]))).response, "sh").code
judge = Judge(JudgeSettings())
ok = judge.judge(task, code, "shell", cases=task.cases[:3])
ce = judge.judge(task, "while do done\\n", "sh", cases=task.cases[:1])
print(json.dumps({"known": [[s.path.name, s.expected] for s in known], "ok": ok.verdict.value,
                  "ok_cases": [c.verdict.value for c in ok.cases], "ok_message": ok.message,
                  "ce": ce.verdict.value, "ce_message": ce.compile.message}))
"""


@pytest.mark.skipif(shutil.which("dash") is None and not Path("/bin/sh").exists(), reason="no POSIX sh")
def test_posix_sh_added_as_a_row_and_one_file(tmp_path):
    import json

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "sh_executor.py").write_text(EXECUTOR)
    task = tmp_path / "guess-the-number"
    shutil.copytree(REPO / "tasks" / "guess-the-number", task)
    (task / "solutions" / "ok_binary_search.sh").write_text(SOLUTION)
    expected = json.loads((task / "solutions" / "expected.json").read_text())
    expected["ok_binary_search.sh"] = {"expected": "OK", "note": "the binary search in POSIX sh"}
    (task / "solutions" / "expected.json").write_text(json.dumps(expected))
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "lib"), str(task)], capture_output=True,
                       text=True, cwd=REPO, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["known"] == [["ok_binary_search.sh", "OK"]]
    assert out["ok"] == "OK" and out["ok_cases"] == ["OK"] * 3, out
    assert out["ce"] == "CE" and "solution.sh" in out["ce_message"], out
