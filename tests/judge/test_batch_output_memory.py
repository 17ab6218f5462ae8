"""Checker-less batch tasks compare output inside the judge process (issue 21, item 7): the output
is read a chunk at a time, size-capped as it is read, and compared token by token, so the judge's
own memory stays small whatever a program writes (a 63 MB output took the judge to 1.27 GB when
the comparison split both files whole).

- The judge, in a process of its own, judges programs that write about 63 MB (the right answer
  then 63 MB of tokens: WA; the answer then 63 MB of blanks: OK; one 63 MB token: WA) and one
  that ignores SIGXFSZ and writes past the 64 MB output limit (RE, "output limit exceeded", as
  a program killed by SIGXFSZ): the verdicts are right and the judging process's peak RSS grows by
  less than 64 MB over judging a small program (``resource.getrusage``; the supervisor and the
  compiler are other processes).
- ``compare_tokens`` against the old whole-file comparison on random inputs cut into tiny reads
  (tokens across read boundaries, long tokens reduced to their digest).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path


from ibench.judge import batch
from ibench.judge.verdict import Verdict

REPO = Path(__file__).resolve().parents[2]
MB = 1 << 20

PROGRAMS = {
    "small": ("OK", "#include <cstdio>\nint main(){int x;scanf(\"%d\",&x);printf(\"%d\\n\",x);}\n"),
    # the right answer, then 63 MB of further tokens ("12 ": 22 million of them)
    "tokens": ("WA", "#include <cstdio>\n#include <cstring>\nint main(){static char b[3<<18];"
                     "for(int i=0;i<(3<<18);i+=3){b[i]='1';b[i+1]='2';b[i+2]=' ';}printf(\"1\\n\");fflush(stdout);"
                     "for(int k=0;k<84;k++)fwrite(b,1,sizeof b,stdout);}\n"),
    # the right answer, then 63 MB of blanks: still the right answer
    "blanks": ("OK", "#include <cstdio>\n#include <cstring>\nint main(){static char b[1<<20];"
                     "memset(b,' ',sizeof b);printf(\"1\");fflush(stdout);"
                     "for(int k=0;k<63;k++)fwrite(b,1,sizeof b,stdout);printf(\"\\n\");}\n"),
    # one token of 63 MB that starts with the answer
    "one_token": ("WA", "#include <cstdio>\n#include <cstring>\nint main(){static char b[1<<20];"
                        "memset(b,'1',sizeof b);for(int k=0;k<63;k++)fwrite(b,1,sizeof b,stdout);}\n"),
    # ignores SIGXFSZ, so its writes past the limit fail and it exits 0 with the file at the cap
    "past_limit": ("RE", "#include <cstdio>\n#include <csignal>\n#include <cstring>\nint main(){"
                         "signal(SIGXFSZ,SIG_IGN);static char b[1<<20];memset(b,'1',sizeof b);printf(\"1 \");"
                         "for(int k=0;k<100;k++)fwrite(b,1,sizeof b,stdout);return 0;}\n"),
}

DRIVER = r"""
import json, resource, sys
from ibench.judge import Judge, JudgeSettings
from ibench.tasks.load import load_task
task = load_task(sys.argv[1])
programs = json.loads(sys.argv[2])
judge = Judge(JudgeSettings())
out = {}
def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
r = judge.judge(task, programs["small"])
out["small"] = {"verdict": r.verdict.value, "message": r.message}
out["baseline_mb"] = peak_mb()
for name, src in programs.items():
    if name == "small":
        continue
    r = judge.judge(task, src)
    out[name] = {"verdict": r.verdict.value, "message": r.message, "peak_mb": peak_mb()}
print(json.dumps(out))
"""


def make_task(root: Path) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "meta.json").write_text(json.dumps({
        "problem_id": root.name, "kind": "batch", "cpu_time_limit_ms": 2000, "memory_limit_mb": 256,
        "difficulty": "Easy", "categorization": ["Math"]}))
    (root / "desc.md").write_text("# Echo\nPrint the number you read.\n")
    (root / "tests" / "01.in").write_text("1\n")
    (root / "tests" / "01.out").write_text("1\n")
    return root


def test_huge_outputs_keep_the_judge_small_and_get_the_right_verdict(tmp_path):
    task = make_task(tmp_path / "echo-batch")
    proc = subprocess.run([sys.executable, "-c", DRIVER, str(task), json.dumps({k: v[1] for k, v in PROGRAMS.items()})],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    print(json.dumps(out, indent=1))
    for name, (want, _) in PROGRAMS.items():
        assert out[name]["verdict"] == want, (name, out[name])
    assert "expected 1 tokens, found" in out["tokens"]["message"]
    assert "token 1 differs" in out["one_token"]["message"]
    assert "output limit exceeded" in out["past_limit"]["message"]
    grown = max(out[n]["peak_mb"] for n in PROGRAMS if n != "small") - out["baseline_mb"]
    assert grown < 64, f"the judge's peak RSS grew by {grown:.0f} MB judging 63 MB outputs"


def old_compare(got: bytes, want: bytes) -> tuple:
    g, w = got.split(), want.split()
    for i, (a, b) in enumerate(zip(g, w)):
        if a != b:
            return "WA", f"token {i + 1} differs"
    if len(g) != len(w):
        return "WA", f"expected {len(w)} tokens, found {len(g)}"
    return "OK", "ok"


def test_streaming_comparison_agrees_with_whole_file_splitting(tmp_path, monkeypatch):
    rnd = random.Random(21)
    got_p, want_p = tmp_path / "got", tmp_path / "want"
    for _ in range(2000):
        monkeypatch.setattr(batch, "READ_CHUNK", rnd.choice([1, 2, 3, 5, 8, 64]))
        monkeypatch.setattr(batch, "LONG_TOKEN", rnd.choice([1, 2, 4, 100]))
        alpha = rnd.choice([b"ab \n", b"a \t\x0b\x0c\r", b"aab"])
        want = bytes(rnd.choice(alpha) for _ in range(rnd.randint(0, 30)))
        if rnd.random() < 0.5:
            got = want + bytes(rnd.choice(alpha) for _ in range(rnd.randint(0, 5)) if rnd.random() < 0.5)
        else:
            got = bytes(rnd.choice(alpha) for _ in range(rnd.randint(0, 30)))
        got_p.write_bytes(got)
        want_p.write_bytes(want)
        verdict, reason = old_compare(got, want)
        d = batch.compare_tokens(got_p, want_p, 1 << 20)
        assert d.verdict.value == verdict and d.reason.startswith(reason), (got, want, d)


def test_output_at_the_limit_is_not_read_past_it(tmp_path):
    got, want = tmp_path / "got", tmp_path / "want"
    got.write_bytes(b"1 " * 100)
    want.write_bytes(b"1 " * 100)
    assert batch.compare_tokens(got, want, 201).verdict is Verdict.OK
    d = batch.compare_tokens(got, want, 200)
    assert d.verdict is Verdict.RE and "output limit exceeded" in d.reason
