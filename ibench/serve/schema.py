"""The service's request and reply shapes (pydantic: FastAPI checks them and publishes them as
the OpenAPI schema at ``/openapi.json``). ``RunCode*`` are SandboxFusion's own shapes, field for
field, as verl's ``sandbox_fusion`` reward sends and reads them."""

from __future__ import annotations

from enum import Enum
from typing import Literal, Optional

from pydantic import BaseModel, Field


# -- /v1/judge ---------------------------------------------------------------------------------
class InlineCase(BaseModel):
    input: str = Field(..., description="interactive: the hidden case the interactor reads; batch: the solver's stdin")
    output: Optional[str] = Field(None, description="batch: the expected output (tokens compared, or the checker's answer file)")


class InlineTask(BaseModel):
    """A task carried in the request (no statement): its limits and cases, and for an
    interactive task its interactor's source. Written once per content, loaded like a folder."""

    kind: Literal["interactive", "batch"] = "batch"
    cpu_time_limit_ms: int = Field(1000, ge=1, le=60000)
    memory_limit_mb: int = Field(256, ge=16, le=8192)
    cases: list[InlineCase] = Field(..., min_length=1)
    interactor: Optional[str] = Field(None, description="interactive: a testlib interactor's C++ source (SPEC §3)")
    checker: Optional[str] = Field(None, description="batch, optional: a testlib checker's C++ source")


class Submission(BaseModel):
    task: str | InlineTask = Field(..., description="the id of a task the service loaded, or an inline task")
    language: str = Field("cpp", description="cpp, python, java or go")
    source: str = Field(..., description="the program's source")
    id: Optional[str] = Field(None, description="echoed back in the reply")


class JudgeRequest(BaseModel):
    submissions: list[Submission] = Field(..., min_length=1)
    all_cases: bool = Field(False, description="run every case instead of stopping at the first failure")
    variant: Literal["interactive", "batch"] = Field(
        "interactive", description="batch: the batch variant (the hidden case first on the solver's stdin)")
    cases: Optional[int] = Field(None, ge=0, description="run only the first N cases of each interactive pool")
    stderr: bool = Field(False, description="send each case's solver stderr tail back (judge.tail_bytes)")


class CaseReply(BaseModel):
    case: str
    verdict: str
    cpu_ms: float
    wall_ms: float
    peak_kb: int
    queries: Optional[int] = None
    query_limit: Optional[int] = None
    score: Optional[float] = None
    message: str = ""
    stderr_tail: Optional[str] = Field(None, description="with stderr=true: the solver's stderr, its last bytes")


class SubmissionReply(BaseModel):
    id: Optional[str] = None
    task: str = Field(..., description="the task's id (inline: inline-<digest>)")
    verdict: str = Field(..., description="the sample's label (SPEC §4); SE: a judge error, never the model's")
    message: str = ""
    reward: Optional[float] = Field(None, description="in [0, 1] (serve.reward); null for a judge error by default")
    score: Optional[float] = Field(None, description="scored tasks: points earned")
    max_score: Optional[float] = None
    cases: list[CaseReply] = []
    queries: Optional[int] = Field(None, description="queries made over the cases run (interactive)")
    query_limit: Optional[int] = Field(None, description="the budgets of those cases, summed")
    max_query_ratio: Optional[float] = Field(None, description="the highest queries / budget of a case")
    cpu_ms: float = 0.0
    peak_kb: int = 0
    compile: dict = {}
    judge_ms: float = 0.0
    attempts: int = 1


class JudgeReply(BaseModel):
    results: list[SubmissionReply]


# -- SandboxFusion /run_code -------------------------------------------------------------------
class RunCodeRequest(BaseModel):
    compile_timeout: float = 10
    run_timeout: float = 10
    memory_limit_MB: int = -1
    code: str
    stdin: Optional[str] = None
    language: str
    files: dict[str, Optional[str]] = {}
    fetch_files: list[str] = []


class RunStatus(str, Enum):
    Success = "Success"
    Failed = "Failed"
    SandboxError = "SandboxError"


class CommandRunStatus(str, Enum):
    Finished = "Finished"
    Error = "Error"
    TimeLimitExceeded = "TimeLimitExceeded"


class CommandRunResult(BaseModel):
    status: CommandRunStatus
    execution_time: Optional[float] = None
    return_code: Optional[int] = None
    stdout: Optional[str] = None
    stderr: Optional[str] = None


class RunCodeResponse(BaseModel):
    status: RunStatus
    message: str
    compile_result: Optional[CommandRunResult] = None
    run_result: Optional[CommandRunResult] = None
    executor_pod_name: Optional[str] = None
    files: dict[str, str] = {}
    ibench_verdict: Optional[str] = Field(None, description="ibench's own label of the run (an extension)")
