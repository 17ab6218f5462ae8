"""The mutation probe (python -m ibench.tasks probe): facts, mutants, a deliberately weak
interactor against the strict original, and LLM mutants through a local OpenAI-compatible server.

Judging tests use a copy of guess-the-number cut down to a few cases and one small accepted
solution, so each runs in seconds."""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ibench.tasks.load import inspect_task, load_task
from ibench.tasks.model import TaskKind
from ibench.tasks.probe.facts import FactError, parse_facts, to_cpp
from ibench.tasks.probe.protocol import protocol_mutants
from ibench.tasks.probe.run import accept_equivalent, probe_tasks
from ibench.tasks.probe.source import source_mutants

ROOT = Path(__file__).resolve().parents[2]
GTN = ROOT / "tasks" / "guess-the-number"
CASES = ("001", "002", "005", "010")

# Three-way binary search; the answer is printed as `lo + 0`, so a +1 on that constant is an
# answer off by one, and `/ 2` -> `/ 3` spends more queries than the budget allows.
SOLUTION = """#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    if (!(cin >> T >> Q)) return 0;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long lo = 1, hi = n;
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            cout << "? " << mid << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        cout << "! " << lo + 0 << endl;
    }
    return 0;
}
"""


def copy_task(tmp: Path, name: str, weak: bool = False) -> Path:
    dst = tmp / name
    dst.mkdir()
    shutil.copy(GTN / "desc.md", dst / "desc.md")
    meta = json.loads((GTN / "meta.json").read_text())
    meta["problem_id"] = name
    meta["probe"].pop("equivalent", None)
    (dst / "meta.json").write_text(json.dumps(meta))
    (dst / "cases").mkdir()
    for c in CASES:
        shutil.copy(GTN / "cases" / f"{c}.in", dst / "cases" / f"{c}.in")
    inter = (GTN / "interactor" / "non_adaptive.cpp").read_text()
    if weak:
        # Tells the solver the right budget but does not enforce it (logs a limit nobody reaches
        # and never refuses), and accepts an answer one above the hidden number.
        for old, new in (('<< "query_limit=" << query_limit <<', '<< "query_limit=" << query_limit + 1000000 <<'),
                         ("if (queries > query_limit)", "if (false)"),
                         ("if (y != x[g])", "if (y != x[g] && y != x[g] + 1)")):
            assert old in inter
            inter = inter.replace(old, new)
        # ... also where x + 1 is past n: the answer's range check lets n + 1 through.
        head, sep, tail = inter.partition('} else if (cmd == "!") {')
        assert sep and "if (y < 1 || y > n[g])" in tail
        inter = head + sep + tail.replace("if (y < 1 || y > n[g])", "if (y < 1 || y > n[g] + 1)", 1)
    (dst / "interactor").mkdir()
    (dst / "interactor" / "non_adaptive.cpp").write_text(inter)
    (dst / "solutions").mkdir()
    (dst / "solutions" / "ok_search.cpp").write_text(SOLUTION)
    (dst / "solutions" / "expected.json").write_text(json.dumps({"ok_search.cpp": {"expected": "OK"}}))
    return dst


# --------------------------------------------------------------------------------------------
# Facts and mutants (no judge)


def test_facts_parse_and_compile_to_cpp():
    f = parse_facts({"query": "?", "answer": "!", "budget": "L(1,2) + clog2(P(1,1)) - 2",
                     "args": [{"on": "?", "token": 2, "min": "1", "max": "P(1,1)"}]})
    assert f.query == "?" and f.args[0].label == "PE"
    assert to_cpp("2 * L(2,1)", "x") == "(2LL * ibp_L(2LL, 1LL))"


@pytest.mark.parametrize("raw, field", [
    ({"budget": "L(1,2)"}, "probe.budget"),  # a budget needs the query word
    ({"query": "?", "budget": "__import__('os')"}, "probe.budget"),
    ({"query": "?", "budget": "L(x,1)"}, "probe.budget"),
    ({"query": "? !"}, "probe.query"),
    ({"args": [{"on": "?", "token": 1, "min": "1"}]}, "probe.args[0].token"),
    ({"args": [{"on": "?", "token": 2}]}, "probe.args[0]"),
    ({"args": [{"on": "?", "token": 2, "min": "1", "label": "OK"}]}, "probe.args[0].label"),
    ({"equivalent": {"A:x": ""}}, "probe.equivalent"),
    ({"colour": 1}, "probe.colour"),
])
def test_facts_rejected_with_the_field(raw, field):
    with pytest.raises(FactError) as e:
        parse_facts(raw)
    assert e.value.field == field


def test_check_reports_bad_facts(tmp_path):
    d = copy_task(tmp_path, "bad-facts")
    meta = json.loads((d / "meta.json").read_text())
    meta["probe"]["budget"] = "L(1,"
    (d / "meta.json").write_text(json.dumps(meta))
    report = inspect_task(d)
    assert any(p.field == "probe.budget" for p in report.problems), report.problems


def test_source_mutants_are_single_edits():
    ms = source_mutants("ok_search.cpp", SOLUTION)
    ops = {m.operator for m in ms}
    assert {"relop", "const", "reply_flip", "loop"} <= ops
    assert len({m.id for m in ms}) == len(ms)
    for m in ms:
        assert m.source != SOLUTION
        assert sum(1 for line in m.diff.splitlines() if line.startswith("-") and not line.startswith("---")) == 1
    # The refusal check and main's exit status are left alone.
    assert not any('"-1"' in m.description or "-1 ->" in m.description for m in ms)
    # A limit picks a deterministic subset.
    assert [m.id for m in source_mutants("ok_search.cpp", SOLUTION, limit=5, seed="t")] == \
           [m.id for m in source_mutants("ok_search.cpp", SOLUTION, limit=5, seed="t")]


def test_protocol_mutants_follow_the_facts():
    facts = parse_facts(json.loads((GTN / "meta.json").read_text())["probe"])
    kinds = {m.kind: m.required for m in protocol_mutants("ok.cpp", SOLUTION, facts)}
    assert kinds["extra_query"] == ("QLE",) and kinds["no_flush"] == ("IDLE",)
    assert {"arg_low", "arg_high", "unknown_command", "missing_token", "extra_token", "after_answer"} <= set(kinds)
    bare = {m.kind for m in protocol_mutants("ok.cpp", SOLUTION, parse_facts(None))}
    assert bare == {"unknown_command", "after_answer", "no_flush"}  # nothing that needs facts


# --------------------------------------------------------------------------------------------
# Judged: the weak interactor against the strict original


def test_weak_interactor_is_caught_and_the_strict_one_is_not(tmp_path):
    strict_dir, weak_dir = copy_task(tmp_path, "strict"), copy_task(tmp_path, "weak", weak=True)
    # `lo <= hi` asks for the last candidate too: still within floor(log2 n) + 1 queries a game.
    accept_equivalent(strict_dir, "A:ok_search.cpp:relop:b1d4f17f",
                      "the three-way search with lo <= hi still stays within floor(log2 n) + 1 queries")
    # `hi = mid` after '<' keeps a known non-candidate: ceil(log2 n) queries, still within budget.
    accept_equivalent(strict_dir, "A:ok_search.cpp:const:6ded1024",
                      "hi = mid halves the range to ceil(s/2): at most ceil(log2 n) <= floor(log2 n) + 1 queries")
    strict, weak = probe_tasks([load_task(strict_dir), load_task(weak_dir)], max_source=None, jobs=1)

    assert strict.b_compliant is True, [(r.kind, r.label) for r in strict.records if r.status != "compliant"]
    assert strict.survived == 0, [(r.id, r.description) for r in strict.records if r.status == "survived"]
    assert strict.equivalent == 2 and strict.ok

    assert weak.b_compliant is False
    bad = {r.kind: r.label for r in weak.records if r.category == "B" and r.status == "noncompliant"}
    assert bad.get("extra_query") == "OK", bad  # one query over the budget passes the weak one
    survivors = {r.id: r for r in weak.records if r.status == "survived"}
    killed_by_strict = {r.id for r in strict.records if r.status == "killed"}
    caught = set(survivors) & killed_by_strict
    # The answer printed one too high, and the search that overspends its budget.
    assert any("constant 0 -> 1" in survivors[i].description for i in caught), survivors
    assert any("constant 2 -> 3" in survivors[i].description for i in caught), survivors
    for i in caught:
        assert survivors[i].passed_cases.split() == list(CASES) and survivors[i].diff.startswith("---")
    assert not weak.ok


def test_accept_equivalent_and_cli(tmp_path, capsys):
    from ibench.tasks.cli import main

    d = copy_task(tmp_path, "cli-task")
    assert main(["probe", str(d), "--accept-equivalent", "A:x:relop:1", "--reason", " "]) == 2
    assert main(["probe", str(d), "--accept-equivalent", "A:x:relop:1", "--reason", "same code"]) == 0
    assert json.loads((d / "meta.json").read_text())["probe"]["equivalent"] == {"A:x:relop:1": "same code"}
    assert inspect_task(d).problems == []
    out = tmp_path / "rec"
    rc = main(["probe", str(d), "--only", "B", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    doc = json.loads((out / "probe.json").read_text())
    assert doc["tasks"][0]["b_compliant"] is True and doc["tasks"][0]["b_made"] >= 7
    import polars as pl

    assert pl.read_parquet(out / "mutants.parquet").height == len(doc["mutants"])
    assert "Category B compliance: 1/1 tasks" in text


# --------------------------------------------------------------------------------------------
# LLM mutants through a local OpenAI-compatible server


class MutantServer:
    """Answers every chat request with a fixed mutant: the flipped reply for Category A, output
    after the final answer for Category B."""

    def __init__(self):
        self.bodies: list[dict] = []
        server = self
        flipped = SOLUTION.replace('if (r == "<")', 'if (r == ">")')
        chatty = SOLUTION.replace("    return 0;\n}\n", '    cout << "! 1" << endl;\n    return 0;\n}\n')
        assert flipped != SOLUTION and chatty != SOLUTION

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                user = body["messages"][-1]["content"]
                code = flipped if "semantically wrong but protocol-valid" in user else chatty
                data = json.dumps({"model": body["model"], "choices": [{"message": {
                    "role": "assistant", "content": f"```cpp\n{code}```\n"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 5, "completion_tokens": 5}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def test_llm_mutants_from_a_local_server(tmp_path, capsys):
    from ibench.tasks.cli import main

    server = MutantServer()
    try:
        d = copy_task(tmp_path, "llm-task")
        out = tmp_path / "rec"
        rc = main(["probe", str(d), "--only", "none", "--out", str(out), "--model", "openai-api",
                   "--model-override", f"model.base_url={server.url}", "--model-override", "model.api_key_env=null",
                   "--model-override", "model.max_retries=0"])
        text = capsys.readouterr().out
    finally:
        server.close()
    assert rc == 0, text
    assert len(server.bodies) == 2
    doc = json.loads((out / "probe.json").read_text())
    recs = {r["category"]: r for r in doc["mutants"]}
    assert set(recs) == {"LLM-A", "LLM-B"}
    assert recs["LLM-A"]["status"] == "killed" and recs["LLM-A"]["label"] == "WA"
    assert recs["LLM-B"]["status"] == "killed" and recs["LLM-B"]["label"] == "PE"
    assert recs["LLM-A"]["fingerprint"] and recs["LLM-A"]["fingerprint"] != recs["LLM-B"]["fingerprint"]
    assert doc["llm"]["model"] == "openai-api" and doc["tasks"][0]["llm_made"] == 2


def test_hunt_reads_the_tasks_own_case_list(tmp_path):
    """--add-cases names a new case from the task's case list: past the highest for an
    open-numbered task (no cap at 100 or 200), the first free number of a SPEC pool."""
    from task_builders import make_interactive

    from ibench.tasks.load import load_task
    from ibench.tasks.probe.hunt import Found, _case_for, add_case, next_case_name

    many = [f"{i:03d}" for i in range(1, 259)]  # an imported olympiad task: 258 cases
    root = make_interactive(tmp_path / "open", cases=many, meta={"case_pools": "open"})
    task = load_task(root)
    assert task.open_cases and next_case_name(task, "non_adaptive") == "259"
    assert _case_for(task, "150", root / "x.in").interactor == "non_adaptive"  # its one interactor, not "adaptive"
    name = add_case(task, Found("m1", "non_adaptive", ["7", "--mode", "non"], b"10 4\n", "WA", "150"))
    assert name == "259" and (root / "cases" / "259.in").read_bytes() == b"10 4\n"
    assert (root / "generator" / "cases.txt").read_text().endswith("259 7 --mode non\n")
    task = load_task(root)
    assert len(task.cases) == 259 and next_case_name(task, "non_adaptive") == "260"

    spec = load_task(make_interactive(tmp_path / "spec", mode="both", cases=("001", "002", "101")))
    assert next_case_name(spec, "non_adaptive") == "003" and next_case_name(spec, "adaptive") == "102"
    assert _case_for(spec, "101", root / "x.in").interactor == "adaptive"
    full = load_task(make_interactive(tmp_path / "full", cases=[f"{i:03d}" for i in range(1, 101)]))
    assert next_case_name(full, "non_adaptive") is None


def test_gen_cases_accepts_open_numbers(tmp_path):
    from task_builders import make_interactive

    from ibench.tasks.errors import TaskError
    from ibench.tasks.gencases import _check_names, _open_pools, read_recipes

    root = make_interactive(tmp_path / "open", cases=("001", "250"), meta={"case_pools": "open"})
    recipes = read_recipes(root)
    assert _open_pools(root)
    _check_names(root / "generator" / "cases.txt", recipes, TaskKind.INTERACTIVE, open_pools=True)
    with pytest.raises(TaskError, match="001-100"):
        _check_names(root / "generator" / "cases.txt", recipes, TaskKind.INTERACTIVE)
