"""The Ray Serve application: a FastAPI gateway (``Gateway``, no CPU of its own) in front of judge
replicas (``JudgeReplica``, one :class:`~ibench.serve.core.JudgeCore` each, ``judge_cpus`` CPUs
each, one submission at a time). The gateway checks the token and the limits, admits a request
only while the submissions in flight stay under ``limits.max_pending`` (else 429 + Retry-After),
fans a batch out one submission per replica call, and sends a submission again when its replica
died (each answered exactly once)."""


import asyncio
import hmac
import json
import time
import zlib

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from ray import serve
from ray.serve.handle import DeploymentHandle

from .core import JudgeCore, SubmissionError
from .metrics import Metrics
from .runcode import sandbox_error
from .schema import JudgeReply, JudgeRequest, RunCodeRequest, RunCodeResponse
from .settings import ServeSettings

OPEN_PATHS = ("/health",)  # answered without a token (a load balancer's probe)

api = FastAPI(
    title="ibench judge service",
    version="1",
    description="Exact, sandboxed judging of interactive and batch programs (docs/SERVE.md). "
                "POST /v1/judge: a batch of submissions; POST /run_code: SandboxFusion's endpoint.",
)


class _Guard:
    """This process's gateway settings, read by the middleware (set by the Gateway replica)."""

    token: str | None = None
    max_body: int = 8 << 20


class _GuardMiddleware:
    """Token and body-size checks as a plain ASGI middleware (Starlette's ``BaseHTTPMiddleware``,
    which ``@app.middleware("http")`` builds, runs every request through an extra task and memory
    streams: a cost per request the gateway pays on a shared CPU)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            request = Request(scope)
            refused = _refusal(request)
            if refused is not None:
                return await refused(scope, receive, send)
            encoding = request.headers.get("content-encoding", "identity").strip().lower()
            if request.method == "POST" and encoding != "identity":
                return await self._inflated(scope, receive, send, encoding)
        await self.app(scope, receive, send)

    async def _inflated(self, scope, receive, send, encoding: str):
        """A gzip body (``Content-Encoding: gzip``) handed on inflated. A batch sends its inline
        task with every submission: gzip takes a 330 KB q10 batch to 16 KB, and the gateway
        fetches a body from Serve's proxy in calls, each taking what has arrived so far. The
        inflated size is held to ``limits.max_body_bytes`` as a plain body is."""
        if encoding != "gzip":
            return await JSONResponse({"detail": f"Content-Encoding {encoding!r}: expected gzip or none"},
                                      status_code=415)(scope, receive, send)
        packed = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            packed += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            body = inflater.decompress(bytes(packed), _Guard.max_body + 1)
            complete = inflater.eof and not inflater.unconsumed_tail and not inflater.unused_data
        except zlib.error as e:
            return await JSONResponse({"detail": f"the gzip body does not inflate: {e}"},
                                      status_code=400)(scope, receive, send)
        if len(body) > _Guard.max_body:
            return await _too_big(f"inflated body over serve.limits.max_body_bytes={_Guard.max_body}")(scope, receive, send)
        if not complete:
            return await JSONResponse({"detail": "the gzip body is cut short, or goes on after its end"}, status_code=400)(scope, receive, send)
        headers = [(k, v) for k, v in scope["headers"] if k not in (b"content-encoding", b"content-length")]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        sent = False

        async def inflated_receive():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, inflated_receive, send)


def _refusal(request: Request) -> JSONResponse | None:
    if request.url.path not in OPEN_PATHS and _Guard.token is not None:
        header = request.headers.get("authorization", "")
        got = header[7:] if header.startswith("Bearer ") else None
        if got is None and request.url.path == "/run_code":
            # verl's sandbox_fusion client sends no header: its URL may carry the token instead
            got = request.query_params.get("token")
        if got is None or not hmac.compare_digest(got.encode(), _Guard.token.encode()):
            return JSONResponse({"detail": "a bearer token is required (Authorization: Bearer <serve.token>)"},
                                status_code=401, headers={"WWW-Authenticate": "Bearer"})
    if request.method == "POST":
        size = request.headers.get("content-length")
        if size is None:
            return JSONResponse({"detail": "Content-Length is required"}, status_code=411)
        if not size.isdigit() or int(size) > _Guard.max_body:
            return JSONResponse({"detail": f"body of {size} bytes > serve.limits.max_body_bytes={_Guard.max_body}"},
                                status_code=413)
    return None


api.add_middleware(_GuardMiddleware)


def _json(content: dict) -> Response:
    """A reply already in the documented shape (the dicts ``core.reply`` and ``runcode`` build),
    sent as it is: FastAPI would otherwise validate it against ``response_model`` and walk it
    through ``jsonable_encoder``, about 5 ms of the gateway's CPU for a 64-submission reply. The
    ``response_model`` still documents it in the OpenAPI schema; tests/serve check the shape."""
    return Response(json.dumps(content, separators=(",", ":")).encode(), media_type="application/json")


def _too_big(detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=413)


def _dead_replica_errors() -> tuple[type[BaseException], ...]:
    from ray.exceptions import ActorUnavailableError, RayActorError

    return (RayActorError, ActorUnavailableError)


def _renice(value: int) -> None:
    """Ray starts its workers at niceness 15: a judge replica (and the supervisor, interactor and
    solver it starts, which inherit it) would then lose the CPU to anything else on the node and
    measure its latency in someone else's time. Lowering it needs root (CAP_SYS_NICE); without,
    the replica keeps Ray's value."""
    import os

    try:
        os.setpriority(os.PRIO_PROCESS, 0, value)
    except OSError:
        pass


@serve.deployment(health_check_period_s=10)
class JudgeReplica:
    """One judge: tasks loaded once, compiles cached (memo and the judge's disk cache). Every
    call runs on the replica's one judging thread, as in an evaluation's worker (Ray Serve would
    run a sync method on any thread of its pool): the niceness set on it holds for every run
    (Linux keeps it per thread), and the judge's slot and supervisor server are used by one
    thread (seen once with an older judge: the box's clone() failing, exit 125, reported as RE,
    a few runs per hundred, while calls moved between pool threads)."""

    def __init__(self, settings: ServeSettings):
        from concurrent.futures import ThreadPoolExecutor

        self._thread = ThreadPoolExecutor(1, thread_name_prefix="ibench-judge")
        if settings.judge_nice is not None:
            self._thread.submit(_renice, settings.judge_nice).result()  # per thread, as Linux keeps it
        self.core = self._thread.submit(JudgeCore, settings).result()

    async def _on_thread(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    def _judge(self, subs: list[dict], opts: dict) -> list[dict]:
        out = []
        for sub in subs:
            try:
                out.append(self.core.judge(sub, opts))
            except SubmissionError as e:
                out.append({"error": str(e)})
        return out

    async def judge(self, subs: list[dict], opts: dict) -> list[dict]:
        """A chunk of a batch's submissions, judged in turn (results in their order)."""
        return await self._on_thread(self._judge, subs, opts)

    async def run_code(self, reqs: list[dict]) -> list[dict]:
        """Several /run_code requests (gathered by the gateway), run in turn."""
        return await self._on_thread(lambda: [self.core.run_code(r) for r in reqs])

    async def task_ids(self) -> list[str]:
        return sorted(self.core.tasks)


@serve.deployment(ray_actor_options={"num_cpus": 0})
@serve.ingress(api)
class Gateway:
    def __init__(self, judge: DeploymentHandle, settings: ServeSettings, replicas: int = 1,
                 max_replicas: int | None = None):
        if settings.judge_nice is not None:
            _renice(settings.judge_nice)
        self.judge_handle = judge
        self.replicas = replicas
        self.settings = settings
        self.metrics = Metrics()
        self._task_ids: set[str] | None = None
        # Replica calls in flight, at most what the replicas hold (replica_queue each): beyond,
        # a call waits here, not in Ray Serve's router, which backs off while every replica is
        # full (seen: /run_code at 64 concurrent callers, one call each, 0.10 of the in-process
        # rate). /run_code requests that wait are sent together, up to `chunk` a call.
        # (autoscaling: as many as the most replicas hold, so the calls never cap the scale-up)
        self._slots = asyncio.Semaphore(max(1, max(replicas, max_replicas or 0) * settings.replica_queue))
        self._run_queue: list[tuple[dict, asyncio.Future]] = []
        self._run_waiting = False  # a dispatcher is waiting for a slot
        self._tasks: set[asyncio.Task] = set()
        _Guard.token = settings.resolved_token()
        _Guard.max_body = settings.limits.max_body_bytes

    # -- admission -------------------------------------------------------------------------
    def _count(self, endpoint: str, status: int) -> None:
        self.metrics.requests[f"{endpoint} {status}"] += 1

    def _admit(self, n: int, endpoint: str) -> JSONResponse | None:
        lim = self.settings.limits
        if self.metrics.pending + n > lim.max_pending:
            self.metrics.rejected += 1
            self._count(endpoint, 429)
            return JSONResponse({"detail": f"busy: {self.metrics.pending} submissions in flight, limit "
                                           f"{lim.max_pending}; retry after {lim.retry_after_s} s"},
                                status_code=429, headers={"Retry-After": str(lim.retry_after_s)})
        self.metrics.pending += n
        return None

    async def _call(self, method: str, *args) -> tuple:
        """A replica call, once a slot is free."""
        async with self._slots:
            return await self._send(method, *args)

    async def _send(self, method: str, *args) -> tuple:
        """A replica call (its slot held), sent again (``retries``) when the replica died under it."""
        dead = _dead_replica_errors()
        for attempt in range(self.settings.retries + 1):
            try:
                return await getattr(self.judge_handle, method).remote(*args), attempt
            except dead as e:
                if attempt == self.settings.retries:
                    return {"error_se": f"judge replica lost {attempt + 1} times: {type(e).__name__}"}, attempt
                self.metrics.retries += 1
        raise AssertionError("unreachable")

    async def _chunk(self, subs: list[dict], opts: dict) -> list[dict]:
        t0 = time.perf_counter()
        got, retried = await self._call("judge", subs, opts)
        if isinstance(got, dict):  # the replica was lost every time: a judge error each
            got = [{"id": s.get("id"), "task": s["task"] if isinstance(s["task"], str) else "inline", "verdict": "SE",
                    "message": got["error_se"], "reward": self.settings.reward.judge_error} for s in subs]
        for out in got:
            if "verdict" in out:
                out["attempts"] = out.get("attempts", 1) + retried
                self.metrics.verdict(out["verdict"], time.perf_counter() - t0)
        return got

    async def _run_code(self, req: dict) -> dict:
        """One /run_code request, sent with the others waiting for a slot (one replica call)."""
        fut = asyncio.get_running_loop().create_future()
        self._run_queue.append((req, fut))
        if not self._run_waiting:
            self._spawn_run_code_dispatch()
        return await fut

    def _spawn_run_code_dispatch(self) -> None:
        self._run_waiting = True
        task = asyncio.ensure_future(self._run_code_dispatch())
        self._tasks.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self._tasks.discard)

    async def _run_code_dispatch(self) -> None:
        """Waits for a slot (one dispatcher waits at a time), then takes up to ``chunk`` queued
        requests into one replica call; a dispatcher for the rest waits for the next slot."""
        try:
            await self._slots.acquire()
        finally:
            self._run_waiting = False
        part, self._run_queue = self._run_queue[:self.settings.chunk], self._run_queue[self.settings.chunk:]
        if self._run_queue:
            self._spawn_run_code_dispatch()
        try:
            got, _ = await self._send("run_code", [r for r, _ in part])
        except Exception as e:  # noqa: BLE001 - the callers get it, each once
            got = {"error_se": f"{type(e).__name__}: {e}"}
        finally:
            self._slots.release()
        for i, (_, fut) in enumerate(part):
            if not fut.done():
                fut.set_result(got[i] if isinstance(got, list) else got)

    def _chunks(self, n: int) -> list[tuple[int, int]]:
        """A batch cut into chunks of at most ``serve.chunk`` (fewer replica calls), but into at
        least as many pieces as there are replicas' worth of work, so every replica gets some."""
        size = max(1, min(self.settings.chunk, -(-n // max(1, self.replicas))))
        return [(i, min(n, i + size)) for i in range(0, n, size)]

    async def _known_tasks(self) -> set[str]:
        if self._task_ids is None:
            ids, _ = await self._call("task_ids")
            self._task_ids = set(ids) if isinstance(ids, list) else set()
        return self._task_ids

    def _limits_problem(self, body: JudgeRequest) -> str | None:
        lim = self.settings.limits
        if len(body.submissions) > lim.max_batch:
            return f"{len(body.submissions)} submissions > serve.limits.max_batch={lim.max_batch}"
        for i, s in enumerate(body.submissions):
            if len(s.source.encode()) > lim.max_source_bytes:
                return f"submissions[{i}].source: {len(s.source.encode())} bytes > serve.limits.max_source_bytes={lim.max_source_bytes}"
            if not isinstance(s.task, str):
                if len(s.task.cases) > lim.max_inline_cases:
                    return f"submissions[{i}].task.cases: {len(s.task.cases)} > serve.limits.max_inline_cases={lim.max_inline_cases}"
                for j, c in enumerate(s.task.cases):
                    if max(len(c.input.encode()), len((c.output or "").encode())) > lim.max_case_bytes:
                        return f"submissions[{i}].task.cases[{j}]: over serve.limits.max_case_bytes={lim.max_case_bytes}"
        return None

    # -- endpoints -------------------------------------------------------------------------
    @api.get("/health")
    async def health(self) -> dict:
        return {"status": "ok", "pending": self.metrics.pending, "max_pending": self.settings.limits.max_pending}

    @api.get("/metrics", response_class=PlainTextResponse)
    async def metrics_text(self) -> str:
        return self.metrics.prometheus()

    @api.get("/v1/stats")
    async def stats(self) -> dict:
        return self.metrics.snapshot()

    @api.post("/v1/judge", response_model=JudgeReply)
    async def judge(self, body: JudgeRequest):
        problem = self._limits_problem(body)
        if problem:
            self._count("judge", 413)
            return _too_big(problem)
        known = await self._known_tasks()
        for i, s in enumerate(body.submissions):
            if isinstance(s.task, str) and s.task not in known:
                self._count("judge", 404)
                return JSONResponse({"detail": f"submissions[{i}].task: unknown task {s.task!r}"}, status_code=404)
        refused = self._admit(len(body.submissions), "judge")
        if refused is not None:
            return refused
        opts = {"all_cases": body.all_cases, "variant": body.variant, "cases": body.cases, "stderr": body.stderr}
        try:
            subs = [s.model_dump() for s in body.submissions]
            parts = await asyncio.gather(*(self._chunk(subs[a:b], opts) for a, b in self._chunks(len(subs))))
            results = [r for part in parts for r in part]
        finally:
            self.metrics.pending -= len(body.submissions)
        errors = [f"submissions[{i}]: {r['error']}" for i, r in enumerate(results) if "error" in r]
        if errors:
            self._count("judge", 422)
            return JSONResponse({"detail": "; ".join(errors)}, status_code=422)
        self._count("judge", 200)
        return _json({"results": results})

    @api.post("/run_code", response_model=RunCodeResponse)
    async def run_code(self, body: RunCodeRequest):
        lim = self.settings.limits
        if len(body.code.encode()) > lim.max_source_bytes:
            self._count("run_code", 413)
            return _too_big(f"code: over serve.limits.max_source_bytes={lim.max_source_bytes}")
        if len((body.stdin or "").encode()) > lim.max_stdin_bytes:
            self._count("run_code", 413)
            return _too_big(f"stdin: over serve.limits.max_stdin_bytes={lim.max_stdin_bytes}")
        refused = self._admit(1, "run_code")
        if refused is not None:
            return refused
        t0 = time.perf_counter()
        try:
            out = await self._run_code(body.model_dump())
        finally:
            self.metrics.pending -= 1
        if "error_se" in out:
            out = sandbox_error(out["error_se"])
        self.metrics.verdict(out.get("ibench_verdict") or "SE", time.perf_counter() - t0)
        self._count("run_code", 200)
        return _json(out)


def replica_count(settings: ServeSettings) -> int:
    """``replicas``: a number, or ``auto``: the cluster's CPUs over ``judge_cpus`` (at least 1)."""
    if settings.replicas != "auto":
        return int(settings.replicas)
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1) // settings.judge_cpus))


def build_app(settings: ServeSettings):
    """The application ``serve.run`` deploys (Ray must be initialised: ``auto`` reads its CPUs)."""
    lim = settings.limits
    n = replica_count(settings)
    opts: dict = {"ray_actor_options": {"num_cpus": settings.judge_cpus},
                  "max_ongoing_requests": settings.replica_queue}
    most = n
    if settings.autoscale:
        most = settings.max_replicas or max(n, settings.min_replicas)
        opts["autoscaling_config"] = {"min_replicas": settings.min_replicas, "initial_replicas": n,
                                      "max_replicas": most, "target_ongoing_requests": 1}
    else:
        opts["num_replicas"] = n
    judge = JudgeReplica.options(**opts).bind(settings)  # type: ignore[attr-defined]  # serve.deployment's class
    # The gateway's own bound (Ray Serve's back-pressure) behind the admission check above: a
    # request beyond it is refused by Ray Serve itself with 429 and Retry-After.
    import inspect

    known = inspect.signature(serve.deployment).parameters  # an older Ray Serve lacks the last two
    gw: dict = {"max_ongoing_requests": lim.max_pending + 64}
    if "max_queued_requests" in known:
        gw["max_queued_requests"] = 64
    if "backpressure_config" in known:
        gw["backpressure_config"] = {"status_code": 429, "retry_after_s": lim.retry_after_s}
    gateway = Gateway.options(**gw)  # type: ignore[attr-defined]
    return gateway.bind(judge, settings, n, most)
