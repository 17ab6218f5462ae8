"""Execution feedback for iterative refinement (InteractBench C.2, after ICPC-Eval).

After a failed round the model is shown, in the same conversation, what the judge saw, under a
stated policy (``FeedbackSettings``, ``conf/feedback/*.yaml``). By default, what the paper's
refinement study gives — the verdict and the limits — and only what the program itself could see:

- always: the verdict; for a compile error the compiler's first lines (of its own source); the
  first failing test's number and its limits; the program's CPU time, memory and query count as
  coarse shares of the limit and budget, and how it ended (a non-zero exit or a signal, not
  which): ``figures=exact`` shows the exact figures and exit code. Every exact figure is a value
  the program sets itself, from whatever it read: a program of the batch variant, which reads its
  hidden case, could spend x ms of CPU, hold y MB and exit with code x mod 256 and so pass about
  24 bits of the case to the next round's model through the feedback alone;
- ``judge_replies``: the tail of what the interactor sent the program (it read those bytes);
- ``program_output`` / ``program_stderr``: the tails of what the program wrote and of its stderr,
  only when its input held nothing hidden: an interactive task's program, which saw only the
  interactor's replies. A batch task's program (its stdin is the hidden test), a program of the
  batch variant (``bench.variant=batch``: the hidden case comes first on its stdin) and a
  grader-linked task's transcripts (the grader's own traffic) are left out, since a program can
  echo hidden input there (``tails_from_hidden_input=true`` shows them);
- never by default (``judge_message=true`` shows it): the interactor's or checker's own message
  and the judge's reasons that quote it ("answered 5, hidden number is 7", a checker's "expected
  …", the token comparison's expected token): the task's private channel, which quotes hidden data.

Every part is cut to a bound so a long transcript cannot crowd out the context, and the whole
turn has a cap of its own.

The wording and the policy live in ``conf/feedback/*.yaml``; :meth:`FeedbackSettings.fingerprint`
(policy included) goes into the keys of every later round's samples, so changed feedback never
reuses samples made with the old.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ibench.roles import Keyed, keyed_dict, left_out_of, short_hash
from ibench.tasks.model import Task, TaskKind
from ibench.variants import Variant
from ibench.roles import LABEL, MEASURED, role

# Bumped when the way details are laid out changes (it is part of the feedback fingerprint).
# 2: the policy (issue 21): the judge's message and hidden-input-derived tails left out by default.
# 3: coarse figures by default (issue 28): shares of the limits in buckets, how the program ended.
FORMAT_VERSION = 3
FIGURES = ("coarse", "exact")
# Coarse figures: the share of a limit, in these buckets (a few bits a round at most, whatever
# the program does), and how the program ended without its code or signal number.
SHARE_BUCKETS = ((0.1, "under 10% of"), (0.5, "10-50% of"), (1.0, "50-100% of"))

VERDICT_WORDS: dict[str, str] = {
    "WA": "Wrong Answer — the program followed the protocol, but its answer is wrong",
    "PE": "Protocol Error — the program sent something the protocol does not allow (a malformed "
          "query or answer, a value out of range, or output after the end)",
    "QLE": "Query Limit Exceeded — the program used more queries than the budget allows",
    "IDLE": "Idleness Limit Exceeded — the program and the judge were both waiting: a query "
            "not flushed, or a read of a reply that never comes",
    "TLE": "Time Limit Exceeded — the program used more CPU time than the limit",
    "MLE": "Memory Limit Exceeded — the program used more memory than the limit",
    "RE": "Runtime Error — the program crashed or exited with a non-zero status",
    "CE": "Compilation Error — the program did not compile",
}


@dataclass
class FeedbackSettings:
    """Mirrored by ``conf/feedback/*.yaml``. Placeholders in ``template``: ``{feedback}`` (the
    details below), ``{verdict}`` (the label, e.g. ``WA``), ``{language}``, ``{fence}``,
    ``{round}`` (the round just judged) and ``{next_round}``."""

    name: str = role(LABEL, "default")
    template: str = (role(MEASURED, "Your program was not accepted.\n\n{feedback}\n\nFix the program. Answer with exactly one "
                     "fenced code block tagged `{fence}` that holds the whole corrected program, and nothing else."))
    message_chars: int = role(MEASURED, 1500)  # a compiler's or the judge's message
    tail_chars: int = role(MEASURED, 600)  # each transcript or stderr tail
    max_chars: int = role(MEASURED, 6000)  # the whole feedback turn
    # The policy: what the model is shown beyond the verdict and the figures (module docstring).
    judge_message: bool = role(MEASURED, False)  # the interactor's / checker's own message: it may quote hidden data
    judge_replies: bool = role(MEASURED, True)  # what the interactor sent the program (it saw these bytes)
    program_output: bool = role(MEASURED, True)  # what the program wrote, when its input held nothing hidden
    program_stderr: bool = role(MEASURED, True)  # the program's stderr, when its input held nothing hidden
    tails_from_hidden_input: bool = role(MEASURED, False)  # also output / stderr of a program that read hidden data, grader transcripts
    figures: str = role(MEASURED, "coarse")  # coarse: shares of the limits in buckets, "non-zero exit"; exact: the figures and code
    variant: str = role(MEASURED, "interactive")  # bench.variant (conf/feedback/default.yaml: ${bench.variant}); batch (the
    #                               batch variant): the solver's stdin starts with the hidden case

    def problems(self) -> list[str]:
        out = []  # the variant is checked once, as bench.variant (ibench.run.spec.RunSpec.from_config)
        for name in ("message_chars", "tail_chars", "max_chars"):
            if int(getattr(self, name)) <= 0:
                out.append(f"feedback.{name}: {getattr(self, name)!r}; expected a positive number of characters")
        if self.figures not in FIGURES:
            out.append(f"feedback.figures: {self.figures!r}; expected one of {', '.join(FIGURES)}")
        if "{feedback}" not in self.template:
            out.append("feedback.template: has no {feedback} placeholder, so the model would never see what failed")
        return out

    def shown_tails(self, task: Task) -> list[tuple[str, str]]:
        """The failing test's tails the policy shows for ``task``: (result key, title)."""
        stdio = task.stdio_interactive
        # Could the program's input hold hidden data? A batch test, the batch variant's case, a
        # grader's traffic (the stub links into the program and may carry what the API hides).
        hidden_input = task.kind is TaskKind.BATCH or not stdio or self.variant != Variant.INTERACTIVE
        own = self.tails_from_hidden_input or not hidden_input
        out = []
        if task.kind is not TaskKind.BATCH:
            if self.program_output and own:
                out.append(("solver_to_judge_tail", "What your program wrote"))
            if self.judge_replies and (stdio or self.tails_from_hidden_input):
                out.append(("judge_to_solver_tail", "What the judge replied"))
        elif self.program_output and own:
            out.append(("solver_to_judge_tail", "Your program's output"))
        if self.program_stderr and own:
            out.append(("solver_stderr_tail", "Your program's stderr"))
        return out

    def fingerprint(self) -> str:
        """The feedback turn's wording and policy (part of every later round's sample keys), by
        its rule (:func:`key_rule`)."""
        return short_hash([FORMAT_VERSION, keyed_dict(self, key_rule())], 12, ascii_only=True)

    # -- the feedback turn ------------------------------------------------------------------------
    def render(self, task: Task, language: str, verdict: str, result: dict[str, Any], round_: int) -> str:
        """The user turn that follows a failed answer in ``language`` (a judge language, e.g.
        ``cpp``): ``verdict`` and the judge's full result (``SampleResult.to_dict(full=True)``)
        of round ``round_``."""
        from ibench.generate.prompt import language_info

        lang = language_info(language)
        details = self.details(task, verdict, result, _time_factor(language))
        values = {"feedback": details, "verdict": verdict, "language": lang.name, "fence": lang.fence,
                  "round": round_, "next_round": round_ + 1}
        text = re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
                      self.template).strip()
        return _cut_middle(text, self.max_chars)

    def details(self, task: Task, verdict: str, result: dict[str, Any], time_factor: float = 1.0) -> str:
        words = VERDICT_WORDS.get(verdict, verdict)
        compile_info = result.get("compile") or {}
        message = str(result.get("message") or "")
        if verdict == "CE":
            text = str(compile_info.get("message") or message or "")
            if text.startswith("no code block"):
                return ("Verdict: no program — the answer held no fenced code block in the requested language"
                        + (f" ({text})" if text != "no code block" else "") + ".")
            return f"Verdict: {words}.\n\nCompiler output:\n{_block(_head_tail(text, self.message_chars))}"
        cases = result.get("cases") or []
        failing = next((c for c in cases if c.get("verdict") not in ("OK", None)), None)
        lines = [f"Verdict: {words}."]
        if failing is None:
            if message and self.judge_message:
                lines.append(f"Judge: {_head_tail(message, self.message_chars)}")
            return "\n".join(lines)
        position = next((i for i, c in enumerate(cases) if c is failing), 0) + 1
        lines.append(f"First failing test: test #{position} ({len(cases)} test(s) were run), verdict "
                     f"{failing.get('verdict')}.")
        if failing.get("message") and self.judge_message:
            lines.append(f"Judge's message: {_head_tail(str(failing['message']), self.message_chars)}")
        cpu_limit = task.cpu_time_limit_ms * time_factor
        if self.figures == "exact":
            lines.append(f"CPU time: {_num(failing.get('cpu_ms'))} ms (limit {_num(cpu_limit)} ms); memory: "
                         f"{_kb_to_mb(failing.get('peak_kb'))} MB (limit {task.memory_limit_mb} MB).")
            if failing.get("queries") is not None:
                limit = failing.get("query_limit")
                lines.append(f"Queries: {failing['queries']}" + (f" (budget {limit})." if limit is not None else "."))
            if failing.get("solver_exit"):
                lines.append(f"Your program's exit: {failing['solver_exit']}.")
        else:
            peak_mb = _float(failing.get("peak_kb")) / 1024 if failing.get("peak_kb") is not None else None
            lines.append(f"CPU time: {_share(failing.get('cpu_ms'), cpu_limit)} the limit ({_num(cpu_limit)} ms); "
                         f"memory: {_share(peak_mb, task.memory_limit_mb)} the limit ({task.memory_limit_mb} MB).")
            if failing.get("queries") is not None and failing.get("query_limit") is not None:
                lines.append(f"Queries: {_share(failing['queries'], failing['query_limit'])} the budget "
                             f"({failing['query_limit']}).")
            ended = _how_it_ended(str(failing.get("solver_exit") or ""))
            if ended:
                lines.append(f"Your program {ended}.")
        for key, title in self.shown_tails(task):
            text = str(failing.get(key) or "")
            if text.strip():
                lines.append(f"\n{title} (last {min(len(text), self.tail_chars)} characters):\n"
                             f"{_block(text[-self.tail_chars:])}")
        return "\n".join(lines)


def _time_factor(language: str) -> float:
    from ibench.languages import lookup

    try:
        return float(lookup(language).time_factor)
    except ValueError:
        return 1.0


def assistant_turn(final_text: str) -> str:
    """What a round's answer contributes to the conversation: its final text, reasoning left out
    (as chat templates of reasoning models do with earlier turns)."""
    return final_text.strip() or "(no answer: the response ended before a final answer)"


def _block(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}\n{text.rstrip()}\n{fence}"


def _head_tail(text: str, limit: int) -> str:
    return _cut_middle(text.strip(), limit)


def _cut_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    marker = f"\n[… {len(text) - limit} characters cut …]\n"
    keep = max(0, limit - len(marker))
    head = keep * 2 // 3
    return text[:head] + marker + text[len(text) - (keep - head):]


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _share(value: Any, limit: Any) -> str:
    """``value`` as a coarse share of ``limit``: a bucket, never the figure."""
    v, cap = _float(value), _float(limit)
    if not (v == v and cap == cap and cap > 0):  # NaN: not measured
        return "unknown share of"
    for bound, words in SHARE_BUCKETS:
        if v <= bound * cap:
            return words
    return "over"


def _how_it_ended(status: str) -> str:
    """How the program ended, without a code or signal number it could have chosen."""
    if not status or status == "exit 0":
        return ""
    if status.startswith("exit"):
        return "exited with a non-zero status"
    if status.startswith("signal"):
        return "was ended by a signal (a crash)"
    return ""


def _num(v: Any) -> str:
    try:
        return f"{float(v):.0f}"
    except (TypeError, ValueError):
        return "?"


def _kb_to_mb(v: Any) -> str:
    try:
        return f"{float(v) / 1024:.1f}"
    except (TypeError, ValueError):
        return "?"


@functools.cache
def key_rule() -> Keyed:
    """How the feedback settings enter a refinement round's keys (:class:`ibench.roles.Keyed`); what
    they leave out is derived from their fields' roles."""
    return Keyed(base=("template", "message_chars", "tail_chars", "max_chars", "judge_message", "judge_replies",
                       "program_output", "program_stderr", "tails_from_hidden_input", "variant"),
                 left_out=left_out_of(FeedbackSettings))
