"""The judge service end to end: a local Ray Serve started once for the module (two judge
replicas, a token, small limits), spoken to over real HTTP (httpx): /v1/judge on bundled and
inline tasks, SandboxFusion's /run_code with the exact request verl's ``sandbox_fusion`` reward
sends (and verl's own reading of the reply), the token, the limits, back-pressure (429 +
Retry-After), metrics, and the verl reward module scoring an interactive task."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("ray.serve")
pytest.importorskip("fastapi")
import httpx  # noqa: E402

from ibench.serve.schema import JudgeReply, RunCodeResponse  # noqa: E402
from ibench.serve.settings import LimitSettings, ServeSettings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GUESS = ROOT / "tasks" / "guess-the-number" / "solutions"
DISTINCT = ROOT / "tasks" / "distinct-in-range" / "solutions"
TOKEN = "test-token-0123456789abcdef"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
A_PLUS_B = "#include <cstdio>\nint main(){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b);}\n"
SLOW_A_PLUS_B = "#include <cstdio>\n#include <unistd.h>\nint main(){usleep(800000);long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a+b);}\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    import ray
    from ray import serve

    from ibench.serve.app import build_app

    port = _free_port()
    settings = ServeSettings(
        port=port, token=TOKEN, tasks_dir=str(ROOT / "tasks"), task_ids=["guess-the-number", "distinct-in-range"],
        replicas="2", inline_dir=str(tmp_path_factory.mktemp("inline")),
        limits=LimitSettings(max_batch=4, max_pending=4, max_source_bytes=64 << 10, max_inline_cases=3,
                             max_body_bytes=256 << 10, retry_after_s=3))
    assert settings.problems() == []
    if ray.is_initialized():  # an earlier module's local Ray (tests/pipeline's session one): Serve gets its own
        ray.shutdown()
    from ibench.serve.__main__ import local_ray_env

    set_here = local_ray_env(settings)  # the workers' environment python -m ibench.serve gives them
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app(settings), name="ibench-test", route_prefix="/")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            yield client
    finally:
        serve.shutdown()
        ray.shutdown()
        for name in set_here:  # later modules start their own Ray
            os.environ.pop(name, None)


def _judge(client, subs, **opts):
    return client.post("/v1/judge", json={"submissions": subs, **opts}, headers=AUTH)


# -- /v1/judge ---------------------------------------------------------------------------------
def test_batch_of_interactive_submissions_gets_verdicts_queries_and_rewards(service):
    subs = [{"task": "guess-the-number", "source": (GUESS / f).read_text(), "id": f}
            for f in ("ok_binary_search.cpp", "qle_linear_scan.cpp", "wa_flipped_reply.cpp", "ce_syntax_error.cpp")]
    r = _judge(service, subs, cases=6)
    assert r.status_code == 200, r.text
    JudgeReply.model_validate(r.json())  # the gateway sends replies as built: they keep the documented shape
    got = {x["id"]: x for x in r.json()["results"]}
    assert [x["id"] for x in r.json()["results"]] == [s["id"] for s in subs]  # in the request's order
    ok, qle, wa, ce = (got[s["id"]] for s in subs)
    assert (ok["verdict"], ok["reward"]) == ("OK", 1.0)
    assert len(ok["cases"]) == 6 and all(c["verdict"] == "OK" for c in ok["cases"])
    assert ok["queries"] > 0 and ok["query_limit"] >= ok["queries"] and ok["max_query_ratio"] <= 1.0
    assert ok["cpu_ms"] > 0 and ok["peak_kb"] > 0 and ok["compile"]["ok"]
    assert (qle["verdict"], qle["reward"]) == ("QLE", 0.0) and qle["max_query_ratio"] > 1.0
    assert qle["cases"][-1]["verdict"] == "QLE"  # stops at its first failing case
    assert (wa["verdict"], wa["reward"]) == ("WA", 0.0)
    assert (ce["verdict"], ce["reward"], ce["compile"]["ok"]) == ("CE", 0.0, False) and ce["compile"]["message"]


def test_scored_task_and_inline_batch_task_and_python(service):
    subs = [{"task": "distinct-in-range", "source": (DISTINCT / "ok_offline_bit.cpp").read_text()},
            {"task": "distinct-in-range", "source": (DISTINCT / "wa_right_exclusive.cpp").read_text()},
            {"task": {"kind": "batch", "cases": [{"input": "1 2\n", "output": "3"}, {"input": "40 2", "output": "42\n"}]},
             "source": A_PLUS_B},
            {"task": {"kind": "batch", "cases": [{"input": "1 2\n", "output": "3"}]}, "language": "python",
             "source": "a, b = map(int, input().split())\nprint(a - b)\n"}]
    r = _judge(service, subs, all_cases=True)
    assert r.status_code == 200, r.text
    full, zero, inline, py = r.json()["results"]
    assert (full["score"], full["max_score"], full["reward"]) == (100, 100, 1.0)
    assert (zero["verdict"], zero["score"], zero["reward"]) == ("WA", 0, 0.0)
    assert inline["verdict"] == "OK" and [c["verdict"] for c in inline["cases"]] == ["OK", "OK"]
    assert inline["task"].startswith("inline-")
    assert (py["verdict"], py["reward"]) == ("WA", 0.0)


def test_requests_the_service_cannot_judge_are_4xx(service):
    src = (GUESS / "ok_binary_search.cpp").read_text()
    r = _judge(service, [{"task": "no-such-task", "source": src}])
    assert r.status_code == 404 and "no-such-task" in r.text
    r = _judge(service, [{"task": "guess-the-number", "source": src, "language": "cobol"}])
    assert r.status_code == 422 and "cobol" in r.text
    # an interactor is a program run outside the solver's box: refused unless allowed
    inline = {"kind": "interactive", "cases": [{"input": "1\n"}], "interactor": "int main(){}"}
    r = _judge(service, [{"task": inline, "source": src}])
    assert r.status_code == 422 and "allow_inline_programs" in r.text
    r = service.post("/v1/judge", json={"submissions": []}, headers=AUTH)
    assert r.status_code == 422


# -- SandboxFusion /run_code, as verl sends and reads it -----------------------------------------
def _verl_request(code: str, stdin: str, language: str, timeout: int = 3) -> dict:
    """verl.utils.reward_score.sandbox_fusion.utils.call_sandbox_api's payload, key for key."""
    return {"compile_timeout": timeout, "run_timeout": timeout, "code": code, "stdin": stdin,
            "memory_limit_MB": 1024, "language": language, "files": {}, "fetch_files": []}


def _verl_reads(resp: dict, expected: str):
    """verl's _process_single_case decision on a reply: True, False, or its error codes."""
    compile_result, run_result = resp.get("compile_result"), resp.get("run_result")
    if resp["status"] == "SandboxError":
        return -1
    if resp["status"] == "Failed":
        if compile_result and (compile_result["status"] in ("Error", "TimeLimitExceeded")
                               or (compile_result["status"] == "Finished" and compile_result["return_code"] != 0)):
            return -4
        if run_result:
            if run_result["status"] == "TimeLimitExceeded":
                return -3
            if run_result["status"] == "Error" or run_result["return_code"] != 0:
                return -2
        return -1
    if resp["status"] == "Success" and run_result and run_result["status"] == "Finished":
        return str(run_result["stdout"] or "").rstrip("\n") == str(expected).rstrip("\n")
    return -1


@pytest.mark.parametrize("code,language,stdin,expected,want", [
    (A_PLUS_B, "cpp", "2 3\n", "5", True),
    (A_PLUS_B, "cpp", "2 3\n", "6", False),
    ("import sys\nprint(sum(map(int, sys.stdin.read().split())))\n", "python", "2 3", "5", True),
    ("int main(){return 3;}", "cpp", "", "", -2),
    ("int main(){volatile long x=0;for(;;)x++;}", "cpp", "", "", -3),
    ("int main(){ this is not c++ }", "cpp", "", "", -4),
    ("print(1)", "ruby", "", "1", -1),
])
def test_sandbox_fusion_run_code_with_verls_request(service, code, language, stdin, expected, want):
    r = service.post("/run_code", content=json.dumps(_verl_request(code, stdin, language, timeout=1)),
                     headers={"Content-Type": "application/json", "Accept": "application/json", **AUTH})
    assert r.status_code == 200, r.text
    RunCodeResponse.model_validate(r.json())
    assert _verl_reads(r.json(), expected) == want, r.json()


def test_run_code_requests_at_once_each_get_their_own_run(service):
    """Concurrent /run_code calls are gathered into replica calls: each gets its own program's run."""
    import concurrent.futures as cf

    reqs = [_verl_request(A_PLUS_B if i % 2 else A_PLUS_B.replace("a+b", "a*b"), f"{i} 7", "cpp") for i in range(4)]
    with cf.ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda r: service.post("/run_code", json=r, headers=AUTH), reqs))
    assert [r.status_code for r in got] == [200] * 4
    assert [r.json()["run_result"]["stdout"] for r in got] == [f"{i * 7 if i % 2 == 0 else i + 7}\n" for i in range(4)]


# -- the token, the limits, back-pressure --------------------------------------------------------
def test_token_is_required_except_for_health(service):
    assert service.get("/health").status_code == 200
    body = {"submissions": [{"task": "guess-the-number", "source": "x"}]}
    assert service.post("/v1/judge", json=body).status_code == 401
    assert service.post("/v1/judge", json=body, headers={"Authorization": "Bearer wrong-token-0123456789"}).status_code == 401
    assert service.get("/metrics").status_code == 401
    # verl's sandbox_fusion client sends no header: /run_code also takes the token in its URL
    req = _verl_request(A_PLUS_B, "1 2", "cpp")
    assert service.post("/run_code", json=req).status_code == 401
    assert service.post("/run_code?token=wrong-token-0123456789", json=req).status_code == 401
    assert service.post(f"/run_code?token={TOKEN}", json=req).json()["run_result"]["stdout"] == "3\n"
    assert service.post(f"/v1/judge?token={TOKEN}", json=body).status_code == 401  # only there
    assert service.get("/openapi.json", headers=AUTH).json()["paths"].keys() >= {"/v1/judge", "/run_code", "/metrics"}


def test_token_is_required_to_bind_beyond_loopback():
    assert any("token" in p for p in ServeSettings(host="0.0.0.0").problems())
    assert ServeSettings(host="0.0.0.0", token=TOKEN).problems() == []
    assert any("16 characters" in p for p in ServeSettings(token="short").problems())


def test_request_size_limits(service):
    ok = (GUESS / "ok_binary_search.cpp").read_text()
    r = _judge(service, [{"task": "guess-the-number", "source": ok}] * 5)
    assert r.status_code == 413 and "max_batch" in r.text
    r = _judge(service, [{"task": "guess-the-number", "source": ok + "//" + "x" * (70 << 10)}])
    assert r.status_code == 413 and "max_source_bytes" in r.text
    r = _judge(service, [{"task": {"kind": "batch", "cases": [{"input": "1", "output": "1"}] * 4}, "source": ok}])
    assert r.status_code == 413 and "max_inline_cases" in r.text
    r = _judge(service, [{"task": "guess-the-number", "source": "x" * (300 << 10)}])
    assert r.status_code == 413 and "max_body_bytes" in r.text


def test_a_gzip_body_is_judged_as_the_plain_one_and_held_to_the_same_limits(service):
    import gzip

    subs = [{"task": "guess-the-number", "source": (GUESS / f).read_text(), "id": f}
            for f in ("ok_binary_search.cpp", "wa_flipped_reply.cpp")]
    body = json.dumps({"submissions": subs, "cases": 3}).encode()
    packed = {**AUTH, "Content-Encoding": "gzip", "Content-Type": "application/json"}
    plain, zipped = _judge(service, subs, cases=3), service.post("/v1/judge", content=gzip.compress(body), headers=packed)
    assert plain.status_code == zipped.status_code == 200, zipped.text
    assert [(r["id"], r["verdict"], [c["verdict"] for c in r["cases"]]) for r in zipped.json()["results"]] == \
           [(r["id"], r["verdict"], [c["verdict"] for c in r["cases"]]) for r in plain.json()["results"]]
    # 300 KB of source in a 1 KB gzip: refused by its inflated size (max_body_bytes: 256 KB here)
    bomb = json.dumps({"submissions": [{"task": "guess-the-number", "source": " " * (300 << 10)}]}).encode()
    r = service.post("/v1/judge", content=gzip.compress(bomb), headers=packed)
    assert r.status_code == 413 and "max_body_bytes" in r.text, r.text
    r = service.post("/v1/judge", content=gzip.compress(body)[:-12], headers=packed)
    assert r.status_code == 400 and "cut short" in r.text, r.text
    r = service.post("/v1/judge", content=b"not gzip at all", headers=packed)
    assert r.status_code == 400 and "inflate" in r.text, r.text
    r = service.post("/v1/judge", content=body, headers={**packed, "Content-Encoding": "br"})
    assert r.status_code == 415, r.text


def test_back_pressure_is_429_with_retry_after_never_an_unbounded_queue(service):
    slow = {"task": {"kind": "batch", "cases": [{"input": "1 2", "output": "3"}]}, "source": SLOW_A_PLUS_B}
    first: dict = {}
    t = threading.Thread(target=lambda: first.update(r=_judge(service, [slow] * 4)))
    t.start()
    deadline = time.monotonic() + 60
    while service.get("/v1/stats", headers=AUTH).json()["pending"] < 4:
        assert time.monotonic() < deadline and t.is_alive(), "the first batch was never admitted"
        time.sleep(0.05)
    r = _judge(service, [slow])
    assert r.status_code == 429 and r.headers["Retry-After"] == "3"
    r = service.post("/run_code", json=_verl_request(A_PLUS_B, "1 2", "cpp"), headers=AUTH)
    assert r.status_code == 429
    t.join(120)
    assert first["r"].status_code == 200
    assert [x["verdict"] for x in first["r"].json()["results"]] == ["OK"] * 4
    assert service.get("/v1/stats", headers=AUTH).json()["pending"] == 0
    assert _judge(service, [slow]).status_code == 200  # admitted again once the queue drained


def test_metrics_are_prometheus_text(service):
    text = service.get("/metrics", headers=AUTH).text
    for name in ("ibench_serve_queue_depth 0", 'ibench_serve_verdicts_total{verdict="OK"}',
                 "ibench_serve_judge_errors_total", "ibench_serve_verdicts_per_second",
                 'ibench_serve_latency_seconds{quantile="0.99"}', "ibench_serve_rejected_total"):
        assert name in text, name


# -- verl's reward function --------------------------------------------------------------------
def test_verl_reward_scores_an_interactive_task(service):
    from ibench.serve import verl_reward

    url = str(service.base_url)
    ok = "<think>binary search</think>\n```cpp\n" + (GUESS / "ok_binary_search.cpp").read_text() + "```\n"
    wa = "```cpp\n" + (GUESS / "wa_flipped_reply.cpp").read_text() + "```"
    truth = json.dumps({"task": "guess-the-number", "cases": 4})
    one = verl_reward.compute_score("ibench", ok, truth, {}, url=url, token=TOKEN)
    assert one["score"] == 1.0 and one["acc"] == 1.0 and one["judge_error"] == 0.0
    many = verl_reward.compute_score_batch(["ibench"] * 3, [ok, wa, "no code here"], [truth] * 3, [{}] * 3,
                                           url=url, token=TOKEN, max_batch=2)
    assert [m["score"] for m in many] == [1.0, 0.0, 0.0]
    assert [verl_reward.VERDICTS[m["verdict"]] for m in many] == ["OK", "WA", "CE"]
    zipped = verl_reward.judge_samples([wa, ok], [truth] * 2, url=url, token=TOKEN, gzip_over=0)  # every body gzip'd
    assert [verl_reward.VERDICTS[m["verdict"]] for m in zipped] == ["WA", "OK"]


def test_openrlhf_reward_func_scores_an_interactive_task(service, monkeypatch):
    """OpenRLHF's --remote_rm_url FILE.py: the file loaded by path as OpenRLHF does, and its
    reward_func called with (queries, prompts, labels), one sample a call, each query the prompt
    and the response together; the service named by the environment (OpenRLHF passes nothing)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("reward_func", ROOT / "ibench" / "serve" / "openrlhf_reward.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("IBENCH_SERVE_URL", str(service.base_url))
    monkeypatch.setenv("IBENCH_SERVE_TOKEN", TOKEN)
    # the prompt's own example block must not be taken for the answer
    prompt = "Guess the number.\n```cpp\nint main(){}\n```\nAnswer in C++.\n"
    ok = prompt + "<think>binary search</think>\n```cpp\n" + (GUESS / "ok_binary_search.cpp").read_text() + "```"
    truth = json.dumps({"task": "guess-the-number", "cases": 3})
    got = module.reward_func([ok], [prompt], [truth])
    assert list(got["rewards"]) == [1.0] and list(got["scores"]) == [1.0]
    assert list(got["extra_logs"]["ibench_accepted"]) == [1.0] and list(got["extra_logs"]["ibench_judge_error"]) == [0.0]
    wa = prompt + "```cpp\n" + (GUESS / "wa_flipped_reply.cpp").read_text() + "```"
    assert list(module.reward_func([wa, prompt], [prompt, prompt], [truth, "guess-the-number"])["rewards"]) == [0.0, 0.0]


# -- replicas lost mid-batch (last: Serve starts new ones after it) ---------------------------------
def test_replica_killed_mid_batch_every_submission_answered_once(service):
    import ray

    slow = [{"task": {"kind": "batch", "cases": [{"input": f"{i} 1", "output": str(i + 1)}]}, "source": SLOW_A_PLUS_B,
             "id": f"s{i}"} for i in range(4)]
    first: dict = {}
    t = threading.Thread(target=lambda: first.update(r=_judge(service, slow)))
    t.start()
    deadline = time.monotonic() + 60
    while service.get("/v1/stats", headers=AUTH).json()["pending"] < 4:
        assert time.monotonic() < deadline and t.is_alive(), "the batch was never admitted"
        time.sleep(0.05)
    time.sleep(1.0)  # the replicas are inside their chunks (2 submissions of 0.8 s each)
    names = [a for a in ray.util.list_named_actors(all_namespaces=True) if "JudgeReplica" in a["name"]]
    assert len(names) == 2, names
    for a in names:  # both: whichever holds the calls (Serve starts new replicas, the calls go again)
        ray.kill(ray.get_actor(a["name"], namespace=a["namespace"]), no_restart=True)
    t.join(180)
    r = first["r"]
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["id"] for x in results] == ["s0", "s1", "s2", "s3"]  # each once, in order
    assert [x["verdict"] for x in results] == ["OK"] * 4
    assert all(x["attempts"] > 1 for x in results)  # every call was lost once and sent again
    assert service.get("/v1/stats", headers=AUTH).json()["retries"] >= 1
