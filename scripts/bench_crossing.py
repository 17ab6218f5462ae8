"""Two launches that measure what crosses between samples, as a run of a model would meet it
(issue 28's must-show): the reference model replays a small task's known solutions, each one a
sample, judged by the real pipeline (Ray, the judge, the store).

- stalls: one honest program and three stalled ones (two vfork() parents waiting for a sleeping
  child, one missing flush): expected 1 OK, 3 IDLE or TLE, no SE, in well under a minute;
- cache: one publisher, which finds the hidden number honestly and writes it into the page cache
  of a host file (pages read in or evicted), and three consumers, which read it back without a
  query and answer at once: pass@1 0.25 where nothing crosses (1.0 where the cache carries it).

    python scripts/bench_crossing.py            # prints each launch's verdicts, pass@1, wall time
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "judge")]

from judge_fixtures import build_guess_task, make_public, public_dir, solver  # noqa: E402

SHARED = "/usr/lib/x86_64-linux-gnu/libc.a"  # under /usr/lib, mapped by no process
PAGE = "static long page_of(int bit) { return (long)(100 + 7 * bit) * 4096; }\n"
PUBLISHER = solver().replace("#include <bits/stdc++.h>", "#include <bits/stdc++.h>\n#include <fcntl.h>\n#include <unistd.h>\n"
                             + PAGE).replace('cout << "! " << lo << endl;', f'''
    int fd = open("{SHARED}", O_RDONLY);
    char b[4096];
    for (int bit = 0; fd >= 0 && bit < 10; bit++) {{
        if (lo >> bit & 1) {{ if (pread(fd, b, sizeof b, page_of(bit)) < 0) {{}} }}
        else posix_fadvise(fd, page_of(bit), 4096, POSIX_FADV_DONTNEED);
    }}
    cout << "! " << lo << endl;''')
CONSUMER = ("#include <bits/stdc++.h>\n#include <fcntl.h>\n#include <sys/uio.h>\n#include <unistd.h>\n" + PAGE + f'''
int main() {{
    long x = 0;
    int fd = open("{SHARED}", O_RDONLY);
    char b[4096];
    for (int bit = 0; fd >= 0 && bit < 10; bit++) {{
        iovec v{{b, sizeof b}};
        if (preadv2(fd, &v, 1, page_of(bit), RWF_NOWAIT) > 0) x |= 1L << bit;
    }}
    if (x < 1 || x > 1000) x = 1;
    printf("! %ld\\n", x);  // no query: the answer came through the cache, or it is a guess
    fflush(stdout);
}}
''')
VFORK = "#include <unistd.h>\n" + solver().replace("int main() {", "int main() {\n    if (vfork() == 0) { sleep(1000); _exit(0); }\n")
NO_FLUSH = solver().replace("cout << \"? \" << m << endl;", "cout << \"? \" << m << '\\n';").replace(
    "int main() {", "int main() {\n    ios::sync_with_stdio(false);\n    cin.tie(nullptr);\n")


def build(base: Path, name: str, sols: dict[str, str], hidden: list[int]) -> Path:
    root = build_guess_task(base / name)
    for p in (root / "cases").iterdir():
        p.unlink()
    for i, v in enumerate(hidden, 1):
        (root / "cases" / f"{i:03d}.in").write_text(f"{v}\n")
    (root / "solutions" / "ok.cpp").unlink()
    for fname, src in sols.items():
        (root / "solutions" / fname).write_text(src)
    (root / "solutions" / "expected.json").write_text(json.dumps({f: {"expected": "OK"} for f in sols}))
    return root.parent


def launch(tasks_dir: Path, out: Path) -> tuple[float, dict]:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "ibench.launch", f"bench.tasks_dir={tasks_dir}", f"paths.output_dir={out}",
                        "wandb.mode=disabled", "pipeline.progress=false"], capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        print(r.stdout[-2000:], r.stderr[-3000:])
        raise SystemExit(f"launch failed ({r.returncode})")
    summary = json.loads(next(out.rglob("summary.json")).read_text())
    import polars as pl

    verdicts = pl.read_parquet(next(out.rglob("verdicts.parquet")))
    return wall, {"pass@1": summary["overall"]["pass_at"]["1"],
                  "verdicts": dict(sorted(zip(verdicts["sample_index"].to_list(), verdicts["verdict"].to_list())))}


def main() -> int:
    base = public_dir("ibench-crossing-launch-")
    try:
        stalls = build(base, "stalls", {"a_honest.cpp": solver(), "b_vfork.cpp": VFORK,
                                        "c_vfork.cpp": VFORK + "// 2\n", "d_no_flush.cpp": NO_FLUSH}, [777, 3, 640])
        cache = build(base, "cache", {"a_publisher.cpp": PUBLISHER, "b_consumer.cpp": CONSUMER,
                                      "c_consumer.cpp": CONSUMER + "// 2\n", "d_consumer.cpp": CONSUMER + "// 3\n"}, [777])
        make_public(base)
        for name, tasks in (("stalls", stalls), ("cache", cache)):
            out = Path(tempfile.mkdtemp(prefix=f"ibench-{name}-out-"))
            wall, got = launch(tasks, out)
            print(f"{name}: pass@1 {got['pass@1']:.3f} in {wall:.0f} s (launch, start-up included)")
            names = sorted(json.loads((tasks / "guess" / "solutions" / "expected.json").read_text()))
            for index, verdict in got["verdicts"].items():  # the reference model's sample i: the i-th by name
                print(f"    sample {index} ({names[index]}): {verdict}")
            shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
