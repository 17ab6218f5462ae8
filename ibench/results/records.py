"""What a run writes for each sample, and under which keys: the bridge from a backend's
:class:`~ibench.generate.base.Completion` and the judge's :class:`~ibench.judge.outcome.SampleResult`
to the store's typed rows.

The keys the records carry (``gen_key``, ``judge_key``, ``sample_id``) are computed in
:mod:`ibench.run.keys`.
"""

from __future__ import annotations

import json
import time

from ibench.generate.base import Completion
from ibench.generate.extract import NO_CODE, extract_code, split_reasoning
from ibench.judge.diagnostics import first_error_line
from ibench.judge.outcome import CompileInfo, SampleResult
from ibench.judge.verdict import Verdict
from ibench.run.keys import RunKeys, fingerprint, run_keys, sample_id  # noqa: F401 - RunKeys, run_keys, fingerprint: importable here as before
from ibench.results.store import CaseRecord, SampleRecord, VerdictRecord


# -- records ----------------------------------------------------------------------------------------
def make_sample_record(c: Completion, keys: RunKeys, model: str, language: str, reasoning_format: str = "think",
                       accept_untagged: bool = False, task_fp: str = "", round_: int = 1, parent_id: str = "",
                       sid: str | None = None) -> SampleRecord:
    reasoning, final = split_reasoning(c.response, reasoning_format)
    if c.reasoning:
        reasoning = c.reasoning if not reasoning else c.reasoning + "\n" + reasoning
    ext = extract_code(final, language, accept_untagged) if not c.error else None
    code = ext.code if ext else None
    reason = (ext.reason if ext else NO_CODE)
    extra = dict(c.extra)
    if ext is not None:
        extra["code_blocks"] = ext.blocks
    return SampleRecord(
        sample_id=sid or sample_id(keys.gen_key, c.task_id, c.sample_index, task_fp), gen_key=keys.gen_key,
        task_id=c.task_id,
        sample_index=c.sample_index, model=model, language=language, prompt=c.prompt, response=c.response,
        reasoning=reasoning, code=code, extract_error="" if code else reason, prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens, reasoning_tokens=c.reasoning_tokens, finish_reason=c.finish_reason,
        seed=c.seed, latency_s=float(c.latency_s), error=c.error, source=c.source, attempts=c.attempts,
        created_at=time.time(), extra_json=json.dumps(extra, default=str), round=round_, parent_id=parent_id)


def no_code_result(rec: SampleRecord) -> SampleResult:
    """SPEC §4: a sample without code counts, as a failure: CE with the reason "no code block"."""
    reason = NO_CODE if not rec.error else f"{NO_CODE} (generation failed: {rec.error})"
    return SampleResult(verdict=Verdict.CE, cases=[], compile=CompileInfo(ok=False, ms=0.0, cached=False,
                        message=reason), sandbox="", message=reason)


def error_result(message: str) -> SampleResult:
    return SampleResult(verdict=Verdict.SE, cases=[], compile=CompileInfo(ok=False, ms=0.0, cached=False),
                        sandbox="", message=message, warnings=[message])


def verdict_rows(rec: SampleRecord, result: SampleResult, judge_key: str, wall_s: float, attempts: int,
                 node: str) -> tuple[VerdictRecord, list[CaseRecord]]:
    full = result.to_dict(full=True)
    message = result.message
    if result.verdict is Verdict.CE and result.compile.message and rec.code is not None:
        message = first_error_line(result.compile.message)  # the first error, not the last line
    cases = [CaseRecord.from_case(rec.sample_id, judge_key, rec.task_id, rec.sample_index, c)
             for c in full.get("cases", [])]
    for c in full.get("cases", []):
        c.pop("transcript", None)  # kept once, in the cases table's own column
    v = VerdictRecord(
        sample_id=rec.sample_id, judge_key=judge_key, gen_key=rec.gen_key, task_id=rec.task_id,
        sample_index=rec.sample_index, model=rec.model, verdict=result.verdict.value, score=result.score,
        message=message, compile_ok=bool(result.compile.ok), compile_ms=float(result.compile.ms),
        compile_cached=bool(result.compile.cached), sandbox=result.sandbox, n_cases=len(result.cases),
        n_failed_cases=sum(1 for c in result.cases if c.verdict is not Verdict.OK),
        warnings_json=json.dumps(result.warnings), result_json=json.dumps(full, default=str),
        judge_wall_s=wall_s, judge_attempts=attempts, node=node, judged_at=time.time(), round=rec.round or 1)
    return v, cases


def sample_from_row(row: dict) -> SampleRecord:
    """A stored samples row as its record."""
    rec = SampleRecord(**row)
    rec.round = rec.round or 1  # rows stored before rounds existed
    rec.parent_id = rec.parent_id or ""
    return rec
