"""Per-case transcripts (issue 19, part 1): the judge keeps each interactive case's exchange turn
by turn — who, the bytes, ms since the interactor started — bounded by ``judge.transcript_bytes``
(the first and last halves kept, a marker of what was cut between), written by ibench's
testlib.h as length-prefixed records, so a program cannot make its own text read back as the
judge's. Real programs, the real sandbox, the real header."""

from __future__ import annotations

import dataclasses
import json

import pytest

from ibench.judge import Judge, JudgeSettings
from ibench.judge.interactive import read_transcript
from ibench.tasks.load import load_task

from judge_fixtures import HIDDEN_VALUES, build_guess_task, solver

LINEAR = r"""
#include <bits/stdc++.h>
using namespace std;
int main() {
    for (int m = 1; m <= 1000; m++) {
        cout << "? " << m << endl;
        string r; cin >> r;
        if (r == "=") { cout << "! " << m << endl; return 0; }
    }
}
"""


def binary_search_dialogue(x: int) -> list[tuple[str, str]]:
    """The exchange of judge_fixtures' binary search with the guess interactor (which speaks
    only when asked), turn by turn."""
    out, lo, hi = [], 1, 1000
    while lo < hi:
        m = (lo + hi) // 2
        out.append(("solver", f"? {m}\n"))
        r = "<" if m < x else ">" if m > x else "="
        out.append(("judge", f"{r}\n"))
        if r == "=":
            lo = hi = m
            break
        lo, hi = (m + 1, hi) if r == "<" else (lo, m - 1)
    out.append(("solver", f"! {lo}\n"))
    return out


def linear_dialogue(x: int) -> list[tuple[str, str]]:
    out = []
    for m in range(1, x + 1):
        out += [("solver", f"? {m}\n"), ("judge", ("<" if m < x else "=") + "\n")]
    return out + [("solver", f"! {x}\n")]


def bounded(turns: list[tuple[str, str]], cap: int) -> list[tuple]:
    """What the header keeps of ``turns`` under IBENCH_TRANSCRIPT_BYTES=cap, computed
    independently: the head takes turns (each costing its bytes + 16) while a new one still fits
    with a byte, the rest of the turn that fills it and everything after go to the tail, which
    keeps the longest suffix within its half (a turn cut at its front keeps its last bytes); a
    ("cut", bytes, whole turns) marker between when anything fell out."""
    H, T, C = cap // 2, cap - cap // 2, 16
    head: list[list] = []
    tail: list[list] = []  # [who, bytes, continues a head turn]
    cut_b = cut_t = 0
    hbytes, closed = 0, H // C == 0
    for who, text in turns:
        data = text.encode()
        cont = False
        if not closed:
            if len(head) >= H // C or hbytes + C * (len(head) + 1) + 1 > H:
                closed = True
            else:
                k = min(len(data), H - hbytes - C * (len(head) + 1))
                head.append([who, data[:k]])
                hbytes += k
                if k == len(data):
                    continue
                closed, cont, data = True, True, data[k:]
        tail.append([who, data, cont])
        while sum(len(r[1]) + C for r in tail) > T:
            over = sum(len(r[1]) + C for r in tail) - T
            f = tail[0]
            if len(tail) == 1 or len(f[1]) > over:
                k = min(over, len(f[1]))
                f[1] = f[1][k:]
                cut_b += k
                if len(tail) == 1:
                    break
            else:
                tail.pop(0)
                cut_b += len(f[1])
                cut_t += 0 if f[2] else 1
    out = [(w, d.decode()) for w, d in head]
    if cut_b or cut_t:
        out.append(("cut", cut_b, cut_t))
    for w, d, _ in tail:
        if out and out[-1][0] == w:  # nothing cut: the head's last turn goes on
            out[-1] = (w, out[-1][1] + d.decode())
        else:
            out.append((w, d.decode()))
    return out


def shape(transcript: list[dict]) -> list[tuple]:
    return [("cut", t["cut"], t["turns"]) if t["who"] == "cut" else (t["who"], t["text"]) for t in transcript]


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    return load_task(build_guess_task(tmp_path_factory.mktemp("tasks")))


def test_a_judged_case_turn_by_turn(task):
    r = Judge(JudgeSettings(all_cases=True)).judge(task, solver())
    assert r.verdict.value == "OK", r.message
    assert len(r.cases) == len(HIDDEN_VALUES)
    for case, x in zip(r.cases, HIDDEN_VALUES):
        tr = case.transcript
        assert shape(tr) == binary_search_dialogue(x), case.case
        times = [t["t_ms"] for t in tr]
        assert all(isinstance(t, float) and t >= 0 for t in times) and times == sorted(times)
        # the tails come from the same records: each direction's bytes, in order
        assert case.solver_to_judge_tail == "".join(t["text"] for t in tr if t["who"] == "solver")
        assert case.judge_to_solver_tail == "".join(t["text"] for t in tr if t["who"] == "judge")
    # the CLI's full JSON carries it; the compact one does not
    assert r.to_dict(full=True)["cases"][0]["transcript"] == r.cases[0].transcript
    assert "transcript" not in r.to_dict()["cases"][0]


@pytest.mark.parametrize("cap", [64, 100, 512, 1000, 4096])
def test_the_bound_keeps_head_and_tail_and_marks_the_cut(task, cap):
    x = HIDDEN_VALUES[0]  # 777 queries, about 7 KB both ways
    r = Judge(JudgeSettings(non_adaptive_cases=1, transcript_bytes=cap)).judge(task, LINEAR)
    case = r.cases[0]
    assert case.queries == x and r.verdict.value == "QLE"
    full = linear_dialogue(x)
    assert shape(case.transcript) == bounded(full, cap)
    cut = [t for t in case.transcript if t["who"] == "cut"]
    assert len(cut) == 1
    shown = sum(len(t["text"].encode()) for t in case.transcript if t["who"] != "cut")
    assert shown + cut[0]["cut"] == sum(len(t.encode()) for _, t in full)
    assert shown + 16 * (len(case.transcript) - 1) <= cap
    # the head is the exchange's start, the tail its end
    assert case.transcript[0] == {"who": "solver", "text": "? 1\n", "t_ms": case.transcript[0]["t_ms"]}
    assert case.transcript[-1]["text"].endswith(f"! {x}\n")
    # the tails are each direction's last tail_bytes, whatever the bound cut (the header's own
    # per-direction records in the same file)
    assert case.solver_to_judge_tail == "".join(t for w, t in full if w == "solver")[-2048:]
    assert case.judge_to_solver_tail == "".join(t for w, t in full if w == "judge")[-2048:]


def test_a_long_exchange_within_the_bound_is_whole(task):
    # 1555 turns, 7 KB: 32 KB with the turns' 16 bytes each
    r = Judge(JudgeSettings(non_adaptive_cases=1, transcript_bytes=40000)).judge(task, LINEAR)
    assert shape(r.cases[0].transcript) == linear_dialogue(HIDDEN_VALUES[0])
    # ... while the tails stay tail_bytes long
    assert len(r.cases[0].solver_to_judge_tail) == 2048


def test_a_turn_larger_than_the_bound_keeps_its_first_and_last_bytes(task):
    flood = r"""
#include <bits/stdc++.h>
int main() { std::string s(200000, 'a'); s += "Z\n"; fwrite(s.data(), 1, s.size(), stdout); fflush(stdout); }
"""
    r = Judge(JudgeSettings(non_adaptive_cases=1, transcript_bytes=1024)).judge(task, flood)
    tr = r.cases[0].transcript
    kinds = [t["who"] for t in tr]
    assert kinds[0] == "solver" and "cut" in kinds, kinds
    i = kinds.index("cut")
    assert tr[0]["text"].startswith("a" * 100)
    assert set(tr[0]["text"]) == {"a"}
    # the interactor read the whole token (and rejected it without a reply)
    assert [t["who"] for t in tr[i + 1:]] == ["solver"] and tr[-1]["text"].endswith("aZ\n")
    shown = sum(len(t["text"]) for t in tr if t["who"] != "cut")
    assert shown <= 1024 and shown + tr[i]["cut"] == 200002 and tr[i]["turns"] == 0  # one turn, cut in its middle


FORGED = "ok all games answered correctly"
# A solver's bytes dressed as the transcript file itself (the magic, a count, a judge record's
# header with its length, an end record, the payload), then the old text format's header line.
FORGER = r"""
#include <cstdio>
#include <cstring>
int main() {
    const char text[] = "FORGED";
    unsigned char rec[64];
    size_t n = 0;
    unsigned len = sizeof text - 1;
    memcpy(rec, "IBTR2\n", 6); n = 6;
    rec[n++] = 2; rec[n++] = 0; rec[n++] = 0; rec[n++] = 0;
    rec[n++] = 'J';
    for (int i = 0; i < 8; i++) rec[n++] = i == 0 ? 7 : 0;
    for (int i = 0; i < 4; i++) rec[n++] = (len >> (8 * i)) & 0xff;
    rec[n++] = 'E';
    for (int i = 0; i < 12; i++) rec[n++] = 0;
    fwrite(rec, 1, n, stdout);
    fwrite(text, 1, len, stdout);
    fputs("\n--- judge->solver ---\nFORGED\n", stdout);
    fflush(stdout);
    return 0;
}
""".replace('"FORGED"', f'"{FORGED}"').replace("\\nFORGED\\n", f"\\n{FORGED}\\n")


def test_a_program_cannot_forge_a_judge_turn():
    from pathlib import Path

    real = load_task(Path(__file__).resolve().parents[2] / "tasks" / "guess-the-number")
    r = Judge(JudgeSettings(non_adaptive_cases=1)).judge(real, FORGER)
    assert r.verdict.value == "PE", r.message
    tr = r.cases[0].transcript
    judge_text = "".join(t["text"] for t in tr if t["who"] == "judge")
    solver_text = "".join(t["text"] for t in tr if t["who"] == "solver")
    # the judge's own turns only: its first line, then (if the solver has not exited by then: a
    # race the solver wins now and then) its reply and the end marker, which then meet EPIPE
    said = judge_text.split()
    assert FORGED not in judge_text and len(said) >= 2 and said == ["1", "1", "1", "-1"][:len(said)], judge_text
    assert solver_text.count(FORGED) == 2 and solver_text.startswith("IBTR2\n\x02\x00\x00\x00J\x07")
    assert "--- judge->solver ---\n" + FORGED in solver_text  # the solver's bytes, as written
    assert r.cases[0].judge_to_solver_tail == judge_text and FORGED not in r.cases[0].judge_to_solver_tail


def test_reading_a_file_cut_short_keeps_what_is_whole(tmp_path):
    import struct

    recs = [(b"J", 100, b"5\n"), (b"S", 2500, b"? 3\n"), (b"s", 4, b"? 3\n"), (b"j", 2, b"5\n"), (b"E", 6, b"")]
    whole = (b"IBTR2\n" + struct.pack("<I", len(recs)) + b"".join(struct.pack("<cQI", k, a, len(p)) for k, a, p in recs)
             + b"".join(p for _, _, p in recs))
    (tmp_path / "t").write_bytes(whole)
    tr = read_transcript(tmp_path / "t")
    assert tr.complete and tr.turns == [{"who": "judge", "text": "5\n", "t_ms": 0.1},
                                        {"who": "solver", "text": "? 3\n", "t_ms": 2.5}]
    assert (tr.solver_to_judge_tail, tr.judge_to_solver_tail) == ("? 3\n", "5\n")
    (tmp_path / "t").write_bytes(whole[:-4])  # the interactor killed while writing it
    tr = read_transcript(tmp_path / "t")
    assert not tr.complete and [t["who"] for t in tr.turns] == ["judge", "solver", "cut"] and tr.turns[2]["cut"] is None
    (tmp_path / "t").write_bytes(whole[:30])  # ... or within the headers
    assert [t["who"] for t in read_transcript(tmp_path / "t").turns] == ["cut"]
    # bytes that are no UTF-8 are replaced, not lost
    bad = whole.replace(b"? 3\n", b"? \xff\n")
    (tmp_path / "t").write_bytes(bad)
    assert read_transcript(tmp_path / "t").turns[1]["text"] == "? \ufffd\n"
    (tmp_path / "t").write_bytes(b"--- solver->judge ---\n? 1\n--- judge->solver ---\n1\n")  # not ours
    assert read_transcript(tmp_path / "t").turns == []
    assert read_transcript(tmp_path / "missing").turns == []


def test_the_default_bound_keeps_existing_judge_keys():
    from ibench.generate.base import SamplingSettings
    from ibench.results.records import run_keys
    from ibench.results.store import fingerprint

    class Stub:
        def identity(self):
            return {"backend": "stub"}

        def fingerprint(self):
            return "p"

    def key(judge):
        return run_keys(Stub(), SamplingSettings(), Stub(), "cpp", False, judge).judge_key

    before = dataclasses.asdict(JudgeSettings())  # the settings as they were keyed before the field
    before.pop("transcript_bytes")
    before.pop("variant")
    before.pop("static_link")  # added later too, keyed only when off its default
    before.pop("interactor_wall_s")  # likewise
    assert key(JudgeSettings()) == fingerprint(before)
    assert key(JudgeSettings(transcript_bytes=1 << 20)) != key(JudgeSettings())


def test_settings_check_the_bound():
    assert any("judge.transcript_bytes" in p for p in JudgeSettings(transcript_bytes=10).problems())
    assert not JudgeSettings().problems() and not JudgeSettings(transcript_bytes=0).problems()


def test_a_zero_bound_keeps_no_turns_but_the_tails(task):
    r = Judge(JudgeSettings(non_adaptive_cases=1, transcript_bytes=0)).judge(task, solver())
    want = binary_search_dialogue(HIDDEN_VALUES[0])
    assert r.cases[0].transcript == []
    assert r.cases[0].solver_to_judge_tail == "".join(t for w, t in want if w == "solver")
    assert r.cases[0].judge_to_solver_tail == "".join(t for w, t in want if w == "judge")


def test_the_stored_record_holds_the_turns_as_json(task):
    from ibench.results.store import CaseRecord

    r = Judge(JudgeSettings(non_adaptive_cases=1)).judge(task, solver())
    d = r.to_dict(full=True)["cases"][0]
    rec = CaseRecord.from_case("s", "j", "guess", 0, d)
    assert json.loads(rec.transcript) == r.cases[0].transcript and json.loads(rec.extra_json) == {}
