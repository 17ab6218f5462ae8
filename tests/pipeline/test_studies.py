"""The paper's study settings (issue 12): prompts as a config group (zero_shot, few_shot,
io_template) with bench.language, task release dates and time splits, and the study report.

Everything runs for real on the reference backend (the tasks' known solutions are the samples,
so every figure is computed by hand from the task cards below); the few-shot request is checked
against a local OpenAI-compatible server started here. W&B runs offline.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
CASES = 3
# Three bundled tasks, each given a release date and a small set of its known solutions
# (pass@1 by hand: 2/5, 1/5, 2/5 in C++; guess-the-number 1/2 in Python).
TASKS = {
    "rotated-array-minimum": ("2019-03-01", ["ok_compare_last.cpp", "ok_first_then_search.cpp", "wa_compare_first.cpp",
                                             "qle_budget_plus_one.cpp", "pe_query_past_end.cpp"]),
    "subtraction-set-duel": ("2021-06-30", ["ok_dp.cpp", "wa_always_first.cpp", "wa_misere.cpp",
                                            "pe_lowercase_side.cpp", "wa_ignores_reply.cpp"]),
    "guess-the-number": ("2023-01-15", ["ok_binary_search.cpp", "ok_bitwise.cpp", "wa_flipped_reply.cpp",
                                        "pe_malformed_token.cpp", "ce_syntax_error.cpp",
                                        "ok_binary_search.py", "re_python_index_error.py"]),
}
CPP_PASS1 = {"rotated-array-minimum": 0.4, "subtraction-set-duel": 0.2, "guess-the-number": 0.4}
PY_PASS1 = {"guess-the-number": 0.5}
SETTINGS = [("cpp", "zero_shot"), ("cpp", "few_shot"), ("cpp", "io_template"), ("python", "zero_shot"),
            ("python", "io_template")]


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    for name, (date, keep) in TASKS.items():
        d = root / name
        shutil.copytree(REPO / "tasks" / name, d)
        meta = json.loads((d / "meta.json").read_text())
        meta["date"] = date
        (d / "meta.json").write_text(json.dumps(meta, indent=1))
        expected = json.loads((d / "solutions" / "expected.json").read_text())
        for f in (d / "solutions").iterdir():
            if f.name != "expected.json" and f.name not in keep:
                f.unlink()
        (d / "solutions" / "expected.json").write_text(json.dumps({k: v for k, v in expected.items() if k in keep}))
    return root


def compose(*overrides: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def launch(run_dir: Path, *overrides: str):
    from ibench.run.driver import run

    cfg = compose(*overrides)
    return run(cfg, run_dir, console=Console(file=io.StringIO(), width=200), overrides=list(overrides))


@pytest.fixture(scope="module")
def runs(ray_session, tasks_dir, tmp_path_factory):
    """One reference run per (language, prompt); W&B offline for the first, off for the rest."""
    out = {}
    root = tmp_path_factory.mktemp("runs")
    for i, (language, prompt) in enumerate(SETTINGS):
        run_dir = root / f"{language}-{prompt}"
        args = [f"bench.tasks_dir={tasks_dir}", f"bench.non_adaptive_cases={CASES}", "pipeline.progress=false",
                f"bench.language={language}", f"prompt={prompt}", *([] if i == 0 else ["wandb=disabled"])]
        out[(language, prompt)] = (run_dir, launch(run_dir, *args), args)
    return out


def messages_of(run_dir: Path) -> dict[str, list[tuple[list[dict], dict]]]:
    from ibench.results import load

    s = load(run_dir).samples
    out: dict[str, list] = {}
    for row in s.iter_rows(named=True):
        out.setdefault(row["task_id"], []).append((json.loads(row["prompt"]), json.loads(row["extra_json"])))
    return out


def skeleton(language: str) -> str:
    import yaml

    return yaml.safe_load((REPO / "conf" / "prompt" / "io_template.yaml").read_text())["io_templates"][language]


def test_each_prompt_and_language_end_to_end(runs, tasks_dir):
    for (language, prompt), (run_dir, summary, _) in runs.items():
        want = CPP_PASS1 if language == "cpp" else PY_PASS1
        got = {t.task_id: t.pass_at[1] for t in summary.tasks if t.n}
        assert got == pytest.approx(want), (language, prompt)
        assert summary.overall.pass_at[1] == pytest.approx(sum(want.values()) / len(want))
        ident = summary.meta["identity"]
        assert ident["prompt"] == prompt and ident["language"] == language
        for task, turns in messages_of(run_dir).items():
            for messages, extra in turns:
                assert extra["prompt"]["name"] == prompt
                statement = (tasks_dir / task / "desc.md").read_text().strip()
                assert messages[-1]["role"] == "user" and statement in messages[-1]["content"]
                if prompt == "io_template":
                    assert skeleton(language).strip() in messages[-1]["content"]
                    other = "python" if language == "cpp" else "cpp"
                    assert skeleton(other).strip() not in messages[-1]["content"]
                if prompt == "zero_shot":
                    assert [m["role"] for m in messages] == ["system", "user"] and extra["prompt"]["example"] is None
                    assert "skeleton" not in messages[-1]["content"]
    # Different prompts never share stored samples: each has its own generation key.
    keys = {p: s.meta["gen_key"] for (lang, p), (_, s, _) in runs.items() if lang == "cpp"}
    assert len(set(keys.values())) == 3


def test_few_shot_shows_another_tasks_accepted_solution_and_records_it(runs, tasks_dir):
    run_dir, summary, args = runs[("cpp", "few_shot")]
    seen = set()
    for task, turns in messages_of(run_dir).items():
        for messages, extra in turns:
            ex = extra["prompt"]["example"]
            assert ex["task_id"] != task and ex["task_id"] in TASKS  # never the task under test
            assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
            ex_statement = (tasks_dir / ex["task_id"] / "desc.md").read_text().strip()
            own = (tasks_dir / task / "desc.md").read_text().strip()
            assert ex_statement in messages[1]["content"] and own not in messages[1]["content"]
            expected = json.loads((tasks_dir / ex["task_id"] / "solutions" / "expected.json").read_text())
            assert expected[ex["solution"]]["expected"] == "OK" and ex["solution"].endswith(".cpp")
            code = (tasks_dir / ex["task_id"] / "solutions" / ex["solution"]).read_text().strip()
            assert code in messages[2]["content"]
            seen.add((task, ex["task_id"], ex["solution"]))
    assert len({t for t, _, _ in seen}) == 3 and len(seen) == 3  # one example per task, the same for all its samples
    # Deterministic: the same command resumes the run, generating nothing and keeping the examples.
    again = launch(run_dir, *args)
    assert again.meta["generated"] == 0 and again.meta["reused_samples"] == summary.n_samples
    assert again.meta["gen_key"] == summary.meta["gen_key"]


def test_prompt_settings_that_cannot_work_fail_the_preflight(tasks_dir):
    from ibench.run.preflight import ConfigError, preflight

    base = [f"bench.tasks_dir={tasks_dir}", "wandb=disabled"]
    # Only guess-the-number has Python solutions: there is no *other* task to show it.
    with pytest.raises(ConfigError) as e:
        preflight(compose(*base, "prompt=few_shot", "bench.language=python"))
    assert "prompt.examples" in str(e.value) and "guess-the-number" in str(e.value)
    with pytest.raises(ConfigError) as e:
        preflight(compose(*base, "prompt=io_template", "bench.language=python", "~prompt.io_templates.python"))
    assert "prompt.io_templates: no I/O template for bench.language=python" in str(e.value)
    # Under the launch CLI: exit 2, one message, no traceback.
    r = subprocess.run([sys.executable, "-m", "ibench.launch", *base, "prompt=few_shot", "bench.language=python",
                        f"paths.output_dir={tasks_dir.parent / 'never'}"], cwd=REPO, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and "prompt.examples" in r.stderr and "Traceback" not in r.stderr
    never = tasks_dir.parent / "never"
    assert not never.exists() or not any(never.iterdir())  # no run folder left behind


def test_io_template_skeletons_compile():
    """Each language's skeleton is a program its toolchain accepts (Java and Go where installed)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "main.cpp"
        src.write_text(skeleton("cpp"))
        r = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(src)], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr
        py = Path(tmp) / "main.py"
        py.write_text(skeleton("python"))
        r = subprocess.run([sys.executable, str(py)], input="", capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and r.stdout == "", r.stderr  # stops on end of input, prints nothing
        if shutil.which("javac"):
            (Path(tmp) / "Main.java").write_text(skeleton("java"))
            r = subprocess.run(["javac", "Main.java"], cwd=tmp, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, r.stderr
        if shutil.which("go"):
            (Path(tmp) / "main.go").write_text(skeleton("go"))
            r = subprocess.run(["go", "vet", "main.go"], cwd=tmp, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, r.stderr


# -- time splits ----------------------------------------------------------------------------------------
def test_time_split_math_by_hand():
    from ibench.results.study import time_splits

    tasks = [("2018-05-01", 1.0), ("2019-12-31", 0.5), ("2020-01-01", 0.0), ("2020-07-07", 0.25),
             (None, 1.0), ("2022-02-02", None)]  # undated and unjudged tasks are left out
    rows = {r["cut_year"]: r for r in time_splits(tasks)}
    assert sorted(rows) == [2018, 2019, 2020]
    assert rows[2018] == {"cut_year": 2018, "n_pre": 0, "pass@1_pre": None, "n_post": 4, "pass@1_post": 1.75 / 4}
    assert rows[2019]["n_pre"] == 1 and rows[2019]["pass@1_pre"] == 1.0
    assert rows[2019]["pass@1_post"] == pytest.approx(0.75 / 3)
    assert rows[2020]["pass@1_pre"] == 0.75 and rows[2020]["pass@1_post"] == 0.125
    explicit = time_splits(tasks, years=[2021])
    assert explicit == [{"cut_year": 2021, "n_pre": 4, "pass@1_pre": 1.75 / 4, "n_post": 0, "pass@1_post": None}]


def test_refine_rounds_math_by_hand():
    """Table 11's shape: refine@r and each round's failure composition among the still-unsolved."""
    from ibench.results.metrics import refine_rounds

    rows = [  # task a: chain 0 solved at round 2, chain 1 never; task b: chain 0 solved at round 1
        {"task_id": "a", "chain": 0, "round": 1, "verdict": "WA"}, {"task_id": "a", "chain": 0, "round": 2, "verdict": "OK"},
        {"task_id": "a", "chain": 1, "round": 1, "verdict": "CE"}, {"task_id": "a", "chain": 1, "round": 2, "verdict": "WA"},
        {"task_id": "a", "chain": 1, "round": 3, "verdict": "PE"}, {"task_id": "b", "chain": 0, "round": 1, "verdict": "OK"},
        {"task_id": "b", "chain": 1, "round": 1, "verdict": "SE"}]  # a judge error: unsolved, not left out
    r = {x["round"]: x for x in refine_rounds(rows)}
    assert r[1]["refine@k"] == pytest.approx((0 / 2 + 1 / 2) / 2) and r[1]["n_unsolved"] == 3
    assert r[1]["WA"] == pytest.approx(1 / 3) and r[1]["CE"] == pytest.approx(1 / 3) and r[1]["SE"] == pytest.approx(1 / 3)
    assert r[2]["refine@k"] == pytest.approx((1 / 2 + 1 / 2) / 2) and r[2]["n_unsolved"] == 1 and r[2]["WA"] == 1.0
    assert r[3]["refine@k"] == r[2]["refine@k"] and r[3]["PE"] == 1.0


def test_bad_release_date_is_named(tasks_dir, tmp_path):
    from ibench.tasks.errors import TaskError
    from ibench.tasks.load import load_task

    d = tmp_path / "rotated-array-minimum"
    shutil.copytree(tasks_dir / "rotated-array-minimum", d)
    assert load_task(d).date.isoformat() == "2019-03-01"
    meta = json.loads((d / "meta.json").read_text())
    meta["date"] = "2023-02-30"
    (d / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(TaskError) as e:
        load_task(d)
    assert f"{d / 'meta.json'}: date: '2023-02-30' is not a date; expected the release date as YYYY-MM-DD" in str(e.value)


# -- the study report -----------------------------------------------------------------------------------
def test_study_report_from_the_runs(runs, tmp_path):
    from ibench.results.cli import main

    out = tmp_path / "study"
    dirs = [str(d) for d, _, _ in runs.values()]
    assert main(["study", *dirs, "--out", str(out)]) == 0
    for name in ("time_split.csv", "time_split.png", "language_prompt.csv", "language_prompt.png", "mitigation.csv"):
        assert (out / name).stat().st_size > 0, name
    assert not (out / "refine_rounds.csv").exists()  # no run carries refinement rounds

    ts = pl.read_csv(out / "time_split.csv")
    cpp = ts.filter((pl.col("language") == "cpp") & (pl.col("prompt") == "zero_shot")).sort("cut_year")
    assert cpp["cut_year"].to_list() == [2019, 2020, 2021, 2022, 2023]
    # by hand from the dates: 2019 → 0.4, 2021 → 0.2, 2023 → 0.4
    want_post = [1 / 3, 0.3, 0.3, 0.4, 0.4]
    want_pre = [None, 0.4, 0.4, 0.3, 0.3]
    assert cpp["pass@1_post"].to_list() == pytest.approx(want_post)
    assert [None if v is None else round(v, 9) for v in cpp["pass@1_pre"].to_list()] == \
        [None if v is None else round(v, 9) for v in want_pre]
    assert cpp["n_post"].to_list() == [3, 2, 2, 1, 1]

    lp = {r["prompt"]: r for r in pl.read_csv(out / "language_prompt.csv").to_dicts()}
    # The tasks every run has: only guess-the-number has Python solutions.
    assert all(r["n_tasks"] == 1 for r in lp.values())
    assert lp["zero_shot"]["cpp"] == pytest.approx(0.4) and lp["zero_shot"]["python"] == pytest.approx(0.5)
    assert lp["io_template"]["python"] == pytest.approx(0.5) and lp["few_shot"]["python"] is None

    mit = pl.read_csv(out / "mitigation.csv").to_dicts()
    assert len(mit) == 1 and mit[0]["language"] == "cpp" and mit[0]["n_tasks"] == 3
    assert mit[0]["pass@5"] == 1.0 and mit[0]["pass@5 (few-shot)"] == 1.0 and mit[0]["refine@5"] is None

    # Bad input: a folder without runs is one line, exit 2.
    empty = tmp_path / "empty"
    empty.mkdir()
    r = subprocess.run([sys.executable, "-m", "ibench.results", "study", str(empty)], cwd=REPO, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "no run folder under it" in r.stderr and "Traceback" not in r.stderr


def test_launch_logs_the_study_figures_to_wandb(runs):
    from ibench.results.wandb_sink import read_offline_run

    run_dir, summary, _ = runs[("cpp", "zero_shot")]
    assert (run_dir / "plots" / "time_split.png").stat().st_size > 0
    rows = pl.read_csv(run_dir / "time_split.csv")
    assert rows.filter(pl.col("cut_year") == 2022)["pass@1_pre"].item() == pytest.approx(0.3)
    offline = sorted((run_dir / "wandb").glob("offline-run-*"))
    assert offline, "no offline W&B run"
    logged = {k: v for h in read_offline_run(offline[-1])["history"] for k, v in h.items()}
    assert logged["study/time_split/nrows"] == 5 and logged["study/language_prompt/nrows"] == 1
    assert logged["plots/time_split/_type"] == "image-file"
    table = json.loads(next((offline[-1] / "files" / "media" / "table" / "study").glob("time_split_*.table.json")).read_text())
    assert table["columns"] == ["cut_year", "n_pre", "pass@1_pre", "n_post", "pass@1_post"]
    assert table["data"][3][:3] == [2022, 2, pytest.approx(0.3)]
    cell = json.loads(next((offline[-1] / "files" / "media" / "table" / "study").glob("language_prompt_*.table.json")).read_text())
    row = dict(zip(cell["columns"], cell["data"][0]))
    assert row["language"] == "cpp" and row["prompt"] == "zero_shot" and row["pass@1"] == pytest.approx(1 / 3)


# -- the few-shot request against an OpenAI-compatible server -----------------------------------------------
def test_few_shot_request_to_an_openai_compatible_server(ray_session, tasks_dir, tmp_path):
    bodies: list[dict] = []
    good = (tasks_dir / "rotated-array-minimum" / "solutions" / "ok_compare_last.cpp").read_text()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            bodies.append(body)
            payload = {"choices": [{"message": {"content": f"```cpp\n{good}\n```"}, "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 5, "completion_tokens": 6}}
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    ids = ["rotated-array-minimum", "subtraction-set-duel"]
    try:
        summary = launch(tmp_path / "run", "model=vllm-server", f"model.base_url=http://127.0.0.1:{httpd.server_address[1]}/v1",
                         "model.preflight=false", "prompt=few_shot", "sampling.n=2", f"bench.tasks_dir={tasks_dir}",
                         f"bench.ids=[{','.join(ids)}]", f"bench.non_adaptive_cases={CASES}", "pipeline.progress=false",
                         "metrics.ks=[1]", "wandb=disabled")
    finally:
        httpd.shutdown()
    assert len(bodies) == 4 and summary.n_samples == 4
    statements = {t: (tasks_dir / t / "desc.md").read_text().strip() for t in TASKS}
    for body in bodies:
        m = body["messages"]
        assert [x["role"] for x in m] == ["system", "user", "assistant", "user"]
        under_test = [t for t in ids if statements[t] in m[-1]["content"]]
        shown = [t for t in TASKS if statements[t] in m[1]["content"]]
        assert len(under_test) == 1 and len(shown) == 1 and shown != under_test  # never the task under test
        expected = json.loads((tasks_dir / shown[0] / "solutions" / "expected.json").read_text())
        accepted = sorted(f for f, e in expected.items() if e["expected"] == "OK" and f.endswith(".cpp"))
        assert (tasks_dir / shown[0] / "solutions" / accepted[0]).read_text().strip() in m[2]["content"]
    # The sample records the example the request showed.
    for task, turns in messages_of(tmp_path / "run").items():
        for messages, extra in turns:
            ex = extra["prompt"]["example"]["task_id"]
            assert ex != task and statements[ex] in messages[1]["content"]
    assert summary.overall.pass_at[1] == pytest.approx((1.0 + 0.0) / 2)  # rotated's own solution; WA elsewhere
    assert math.isclose(summary.tasks[0].pass_at[1] + summary.tasks[1].pass_at[1], 1.0)
