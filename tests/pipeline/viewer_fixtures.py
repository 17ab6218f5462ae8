"""Shared by the viewer and behaviors tests: a local OpenAI-compatible server that plays both the
evaluated model (reasoning + a program) and the behaviors judge (labels), and small launches."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TASK = "guess-the-number"
GOOD = (REPO / "tasks" / TASK / "solutions" / "ok_binary_search.cpp").read_text()
BAD = (REPO / "tasks" / TASK / "solutions" / "wa_early_stop.cpp").read_text()
LABELS = ["algorithm_analysis", "complexity_analysis", "problem_restatement", "subgoal_setting", "backtracking",
          "dead_end_recognition", "pseudo_implementation", "test_case_verification"]


def reasoning_text(seed: int) -> str:
    """About 26k characters: two segments at the default 5000 tokens x 4 characters. A sample
    whose seed is 1 mod 4 asks the judge for nonsense (its segments come back unparseable)."""
    para = ("Let me restate the problem: we must find the hidden number with few queries. "
            "A binary search halves the range each time, so about log2(n) queries suffice. ") * 4
    marker = "NONSENSE-PLEASE " if seed % 4 == 1 else ""
    return "\n\n".join(f"{marker}Step {i}. {para}" for i in range(40))


class ApiServer:
    """Model answers (``reasoning_content`` + a program): odd seeds the accepted binary search,
    even seeds a wrong one; seeds divisible by 4 come without reasoning. Judge answers (system
    prompt about labelling segments): ``{"behavior": ...}`` chosen from the segment's text, or
    nonsense for a segment holding NONSENSE-PLEASE."""

    def __init__(self) -> None:
        self.model_calls = 0
        self.judge_calls = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                msgs = body["messages"]
                if msgs and msgs[0]["role"] == "system" and "label segments" in msgs[0]["content"]:
                    server.judge_calls += 1
                    seg = msgs[-1]["content"]
                    if "NONSENSE-PLEASE" in seg:
                        content = "banana banana, I would rather not say"
                    else:
                        m = re.search(r"segment (\d+) of (\d+)", seg)
                        k = (int(m.group(1)) * 3 + int(m.group(2))) % len(LABELS) if m else 0
                        content = json.dumps({"behavior": LABELS[k]})
                    message = {"role": "assistant", "content": content}
                else:
                    server.model_calls += 1
                    seed = int(body.get("seed") or 0)
                    code = GOOD if seed % 2 else BAD
                    message = {"role": "assistant", "content": f"Here is my program.\n```cpp\n{code}\n```\n"}
                    if seed % 4:
                        message["reasoning_content"] = reasoning_text(seed)
                data = json.dumps({"model": body["model"], "choices": [{"message": message, "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 100, "completion_tokens": 900}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def compose(*overrides: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def api_model_overrides(url: str) -> list[str]:
    return ["model=openai-api", "model.name=api-model", "model.model=m1", f"model.base_url={url}",
            "model.api_key_env=null", "model.preflight=false", "model.max_retries=0"]


def launch(run_dir: Path, tasks_dir: Path, *extra: str) -> Path:
    """One real launch in this process (the caller holds the ray_session fixture)."""
    import io

    from rich.console import Console

    from ibench.run.driver import run

    cfg = compose(f"bench.tasks_dir={tasks_dir}", "bench.non_adaptive_cases=3", "pipeline.progress=false",
                  "wandb.mode=offline", *extra)
    # the recorded overrides (the run's label) leave out the model's wiring to the test server
    run(cfg, run_dir, console=Console(file=io.StringIO(), width=200),
        overrides=[x for x in extra if not x.startswith("model")])
    return run_dir


# -- the browser ---------------------------------------------------------------------------------------
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]


def start_browser(user_data_dir: Path):
    """Debian's headless Chromium through selenium and chromedriver (no browser download)."""
    import os
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = os.environ.get("IBENCH_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("IBENCH_CHROMEDRIVER") or shutil.which("chromedriver")
    if not binary or not driver:
        raise RuntimeError(f"no chromium ({binary}) or chromedriver ({driver}) on PATH")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for a in CHROMIUM_FLAGS:
        opts.add_argument(a)
    opts.add_argument(f"--user-data-dir={user_data_dir}")
    return webdriver.Chrome(options=opts, service=Service(driver))


def add_transcripts(run_dir: Path) -> int:
    """Stand-in for the judge's per-turn transcripts (issue 19 part 1) where the run has none:
    every failed case of the run gets a ``transcript`` (turns rebuilt from its two tails, judge
    line first, then alternating, with a cut marker) in its ``extra_json``. Returns the cases
    changed (0 when the run's cases already carry transcripts)."""
    import polars as pl

    path = run_dir / "results" / "cases.parquet"
    df = pl.read_parquet(path, glob=False)
    if "transcript" in df.columns and df["transcript"].drop_nulls().len():
        return 0

    def turns(row: dict) -> str:
        extra = json.loads(row["extra_json"] or "{}")
        if row["verdict"] == "OK" or "transcript" in extra:
            return row["extra_json"]
        judge = [x for x in (row["judge_to_solver_tail"] or "").splitlines() if x]
        solver = [x for x in (row["solver_to_judge_tail"] or "").splitlines() if x]
        out, t = [{"who": "cut", "cut": 128, "t_ms": 0.0}], 0.0
        for i in range(max(len(judge), len(solver))):
            for who, lines in (("judge", judge), ("solver", solver)):
                if i < len(lines):
                    t += 0.25
                    out.append({"who": who, "text": lines[i] + "\n", "t_ms": round(t, 2)})
        extra["transcript"] = out
        return json.dumps(extra)

    changed = int((df["verdict"] != "OK").sum())
    df = df.with_columns(pl.Series("extra_json", [turns(r) for r in df.iter_rows(named=True)]))
    df.write_parquet(path)
    return changed
