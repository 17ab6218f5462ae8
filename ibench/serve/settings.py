"""Service settings: one dataclass, mirrored by ``conf/serve/*.yaml`` (``serve.judge`` holds the
same :class:`~ibench.judge.JudgeSettings` an evaluation uses)."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field

from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict

TOKEN_ENV = "IBENCH_SERVE_TOKEN"


def default_reward() -> dict[str, float]:
    """The documented default mapping of a sample's verdict to a reward in [0, 1]: accepted 1,
    every failure 0 (SE is not in it: a judge error is never charged to the model, below)."""
    return {v.value: (1.0 if v is Verdict.OK else 0.0) for v in Verdict if v is not Verdict.SE}


@dataclass
class RewardSettings:
    by_verdict: dict[str, float] = field(default_factory=default_reward)
    # Scored tasks (subtasks): the reward is the task's score over its maximum instead.
    use_score: bool = True
    # A judge error (SE, re-judged first) is the judge's fault: null by default, so a trainer
    # drops the sample instead of learning from it; a number here is sent instead.
    judge_error: float | None = None

    def problems(self) -> list[str]:
        out = []
        known = {v.value for v in Verdict}
        for k, r in self.by_verdict.items():
            if k not in known:
                out.append(f"serve.reward.by_verdict: unknown verdict {k!r}; expected one of {', '.join(sorted(known))}")
            if not 0.0 <= float(r) <= 1.0:
                out.append(f"serve.reward.by_verdict.{k}: {r!r}; expected a reward in [0, 1]")
        if self.judge_error is not None and not 0.0 <= self.judge_error <= 1.0:
            out.append(f"serve.reward.judge_error: {self.judge_error!r}; expected null or a reward in [0, 1]")
        return out


@dataclass
class LimitSettings:
    max_body_bytes: int = 8 << 20  # one request's body
    max_batch: int = 256  # submissions in one /v1/judge request
    max_source_bytes: int = 256 << 10  # one program's source
    max_inline_cases: int = 64  # cases of an inline task
    max_case_bytes: int = 1 << 20  # one inline case's input (and its expected output)
    max_stdin_bytes: int = 4 << 20  # /run_code: stdin
    max_stdout_bytes: int = 8 << 20  # /run_code: stdout and stderr sent back (more is cut, and said so)
    max_run_timeout_s: float = 10.0  # /run_code: run_timeout is clamped to this (CPU seconds)
    max_memory_mb: int = 2048  # /run_code: memory_limit_MB is clamped to this
    default_memory_mb: int = 1024  # /run_code: memory_limit_MB -1 (SandboxFusion's "no limit")
    # Back-pressure: submissions admitted and not yet answered, over all requests. A request that
    # would pass it is refused at once with 429 and Retry-After, never queued without bound.
    max_pending: int = 512
    retry_after_s: int = 2

    def problems(self) -> list[str]:
        return [f"serve.limits.{k}: {v!r}; expected a positive number"
                for k, v in vars(self).items() if not v > 0]


@dataclass
class ServeSettings:
    host: str = "127.0.0.1"  # anything but a loopback address needs a token
    port: int = 8000
    token: str | None = None  # bearer token; null: read $IBENCH_SERVE_TOKEN (none: no check, loopback only)
    address: str | None = None  # Ray: null starts a local Ray; "auto" joins the running cluster
    num_cpus: int | None = None  # a local Ray's CPUs (null: all of this machine's)
    tasks_dir: str = "tasks"  # tasks loaded once per replica, addressed by id
    task_ids: list[str] | None = None  # only these (null: every task under tasks_dir)
    # Judge replicas: one judge each, judge_cpus CPUs each. "auto": as many as the cluster's CPUs
    # allow at start; or a number. autoscale: Ray Serve scales between min and max replicas on
    # the submissions in flight (target_ongoing_requests per replica).
    replicas: str = "auto"
    judge_cpus: float = 1.0
    autoscale: bool = False
    min_replicas: int = 1
    max_replicas: int | None = None  # null: the cluster's CPUs over judge_cpus
    # A replica judges one submission at a time on its one judging thread; it holds up to
    # replica_queue chunks (calls) so it never waits on the router between two, and a batch is
    # sent in chunks of up to `chunk` submissions (fewer calls; spread over every replica).
    replica_queue: int = 4
    chunk: int = 16
    # a local Ray's workers in Ray Serve's throughput mode (__main__.SERVE_THROUGHPUT_ENV)
    throughput_mode: bool = True
    judge_nice: int | None = 0  # a replica's niceness (Ray starts workers at 15); null: leave Ray's
    retries: int = 2  # a submission whose replica died is sent again (answered exactly once)
    rejudge_se: int = 1  # a judge error (SE) is judged again this many times
    # Inline tasks may carry cases; an interactor or checker is a program the judge runs outside
    # the solver's box (as a task's own programs are), so only a trusted client may send one.
    allow_inline_programs: bool = False
    inline_dir: str | None = None  # where inline tasks are written (null: the judge cache's inline/)
    limits: LimitSettings = field(default_factory=LimitSettings)
    reward: RewardSettings = field(default_factory=RewardSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)

    def resolved_token(self) -> str | None:
        return self.token or os.environ.get(TOKEN_ENV) or None

    def loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def problems(self) -> list[str]:
        out = []
        if not self.loopback() and not self.resolved_token():
            out.append(f"serve.host: {self.host!r} is reachable from other machines; set serve.token "
                       f"(or ${TOKEN_ENV}) to require a bearer token, or bind 127.0.0.1")
        tok = self.resolved_token()
        if tok is not None and len(tok) < 16:
            out.append("serve.token: shorter than 16 characters; expected a long random token")
        if not 0 < self.port < 65536:
            out.append(f"serve.port: {self.port!r}; expected 1-65535")
        if self.replicas != "auto" and not (str(self.replicas).isdigit() and int(self.replicas) > 0):
            out.append(f"serve.replicas: {self.replicas!r}; expected auto or a positive count")
        if not self.judge_cpus > 0:
            out.append(f"serve.judge_cpus: {self.judge_cpus!r}; expected a positive number")
        if self.replica_queue < 1 or self.chunk < 1:
            out.append("serve.replica_queue / serve.chunk: expected at least 1")
        if self.retries < 0 or self.rejudge_se < 0:
            out.append("serve.retries / serve.rejudge_se: expected zero or more")
        if self.limits.max_batch > self.limits.max_pending:
            out.append(f"serve.limits.max_batch: {self.limits.max_batch} > max_pending {self.limits.max_pending}; "
                       f"expected a batch that can be admitted")
        out += self.limits.problems() + self.reward.problems()
        out += [f"serve.{p}" for p in self.judge.problems()]
        return out
