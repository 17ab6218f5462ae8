"""The judge service under load, against the judge's own in-process rate, in one run.

    python scripts/bench_serve.py [--batch 64] [--seconds 15] [--max-submissions 1024] [--replicas 2] [--rounds 3]

Starts a local Ray (``--cpus``, default the machine's) and the service (``--replicas`` judge
replicas, default one per CPU), then for each workload sends batches of ``--batch`` submissions
(accepted and failing programs alternating) from ``--clients`` concurrent HTTP clients for at
most ``--seconds`` and ``--max-submissions``; then judges the same number of the same
submissions with ``Judge`` directly, in as many processes as there are replicas (the same
parallelism, no HTTP, no Ray). Workloads: ``light`` (guess-the-number's first case, 0 queries:
the lightest interactive case), ``q10`` (one case of 12 queries, an inline task with the
same interactor) and ``runcode`` (SandboxFusion's /run_code as verl sends it, one request per
test case, ``--batch`` callers at once). Prints verdicts/s both ways, their ratio, and the
latency percentiles of a submission (its request's round trip, batched) and of the service's own
measure (admitted to answered). ``--gzip`` sends every /v1/judge body gzip'd, compressed anew
for each request by the load generator. ``--rounds`` runs the service and the in-process phase in turn
that many times and reports the median of the rounds' ratios (on a machine shared with other
jobs the load moves between phases). Bounded: every phase stops at its time or count."""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ibench.serve.metrics import percentile  # noqa: E402
from ibench.serve.settings import ServeSettings  # noqa: E402

TASK = ROOT / "tasks" / "guess-the-number"
GOOD = (TASK / "solutions" / "ok_binary_search.cpp").read_text()
BAD = (TASK / "solutions" / "re_exit_code_3.cpp").read_text()  # answers, then exits 3: RE on every case
TOKEN = "bench-token-0123456789abcdef"


def workloads() -> dict[str, tuple[object, dict]]:
    q10 = {"kind": "interactive", "cpu_time_limit_ms": 1000, "memory_limit_mb": 256,
           "cases": [{"input": (TASK / "cases" / "022.in").read_text()}],  # 12 queries (budget 13)
           "interactor": (TASK / "interactor" / "non_adaptive.cpp").read_text()}
    return {"light": ("guess-the-number", {"cases": 1}), "q10": (q10, {}), "runcode": ("run_code", {})}


def submissions(task, n: int) -> list[dict]:
    return [{"task": task, "source": GOOD if i % 2 == 0 else BAD} for i in range(n)]


# runcode: SandboxFusion's /run_code as verl's sandbox_fusion reward sends it, one test case a request
# (its call_sandbox_api payload), an accepted a+b and one that exits 3, from --batch concurrent callers
A_PLUS_B = "#include <cstdio>\nint main(){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b);}\n"
A_PLUS_B_RE = A_PLUS_B.replace("a+b);}", "a+b);return 3;}")


def run_code_requests(n: int) -> list[dict]:
    return [{"compile_timeout": 10, "run_timeout": 1, "code": A_PLUS_B if i % 2 == 0 else A_PLUS_B_RE,
             "stdin": f"{i} 1\n", "memory_limit_MB": 256, "language": "cpp", "files": {}, "fetch_files": []}
            for i in range(n)]


# -- in process ----------------------------------------------------------------------------------
_CORE = None  # an in-process worker's JudgeCore, made once (the pool lives through every round)


def _init_worker(inline_dir: str) -> None:
    global _CORE
    from ibench.serve.core import JudgeCore
    from ibench.serve.settings import ServeSettings

    _CORE = JudgeCore(ServeSettings(tasks_dir=str(ROOT / "tasks"), task_ids=["guess-the-number"],
                                    allow_inline_programs=True, inline_dir=inline_dir))


def _inproc_worker(args) -> tuple[int, dict]:
    task_ref, opts, n = args
    core = _CORE
    assert core is not None
    counts: dict[str, int] = {}
    if task_ref == "run_code":
        reqs = run_code_requests(n)
        for r in reqs[:2]:
            core.run_code(r)  # warm: the compile, the slot's supervisor
        t0 = time.perf_counter()
        for r in reqs:
            v = core.run_code(r)["ibench_verdict"]
            counts[v] = counts.get(v, 0) + 1
        return int((time.perf_counter() - t0) * 1e6), counts
    subs = submissions(task_ref, n)
    for s in subs[:2]:
        core.judge(s, opts)  # warm: compiles, the slot's supervisor
    t0 = time.perf_counter()
    for s in subs:
        v = core.judge(s, opts)["verdict"]
        counts[v] = counts.get(v, 0) + 1
    return int((time.perf_counter() - t0) * 1e6), counts


def in_process(pool, task_ref, opts: dict, n: int, procs: int) -> tuple[float, dict]:
    """Verdicts/s of ``procs`` processes, each judging n/procs submissions with its own Judge."""
    share = [n // procs + (1 if i < n % procs else 0) for i in range(procs)]
    out = pool.map(_inproc_worker, [(task_ref, opts, k) for k in share], chunksize=1)
    wall = max(us for us, _ in out) / 1e6
    counts: dict[str, int] = {}
    for _, c in out:
        for k, v in c.items():
            counts[k] = counts.get(k, 0) + v
    return n / wall, counts


# -- through the service -------------------------------------------------------------------------
def run_code_through_service(url: str, callers: int, seconds: float, max_reqs: int) -> tuple[float, int, list[float], dict]:
    """``callers`` concurrent /run_code callers (one request each at a time, as verl's thread pool
    of max_concurrent), on one event loop: the load generator's own CPU kept small."""
    import asyncio

    import httpx

    reqs = run_code_requests(2)
    lat: list[float] = []
    counts: dict[str, int] = {}

    async def go() -> float:
        limits = httpx.Limits(max_connections=callers, max_keepalive_connections=callers)
        async with httpx.AsyncClient(timeout=600, limits=limits) as c:
            target = url + f"/run_code?token={TOKEN}"
            await asyncio.gather(*(c.post(target, json=r) for r in reqs * max(1, callers // 2)))  # warm
            sent = [0]
            stop_at = time.perf_counter() + seconds

            async def caller(k: int) -> None:
                while time.perf_counter() < stop_at and sent[0] < max_reqs:
                    sent[0] += 1
                    t = time.perf_counter()
                    r = await c.post(target, json=reqs[k % 2])
                    if r.status_code == 429:
                        sent[0] -= 1
                        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                        continue
                    r.raise_for_status()
                    lat.append(time.perf_counter() - t)
                    v = r.json().get("ibench_verdict") or "SE"
                    counts[v] = counts.get(v, 0) + 1

            t0 = time.perf_counter()
            await asyncio.gather(*(caller(k) for k in range(callers)))
            return time.perf_counter() - t0

    wall = asyncio.run(go())
    return len(lat) / wall, len(lat), lat, counts


def through_service(url: str, task_ref, opts: dict, batch: int, clients: int, seconds: float,
                    max_subs: int, gzipped: bool = False) -> tuple[float, int, list[float], dict]:
    import gzip
    import json

    import httpx

    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
               **({"Content-Encoding": "gzip"} if gzipped else {})}
    body = {"submissions": submissions(task_ref, batch), **opts}

    def encoded() -> bytes:  # every request encoded (and compressed) anew, as a trainer's would be
        data = json.dumps(body, separators=(",", ":")).encode()
        return gzip.compress(data, compresslevel=1) if gzipped else data

    with httpx.Client(timeout=600) as c:  # warm every replica: compiles, supervisors
        c.post(url + "/v1/judge", content=encoded(), headers=headers).raise_for_status()
    lat: list[float] = []
    counts: dict[str, int] = {}
    sent = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client() -> None:
        with httpx.Client(timeout=600) as c:
            while True:
                with lock:
                    if time.perf_counter() >= stop_at or sent[0] + batch > max_subs:
                        return
                    sent[0] += batch
                t = time.perf_counter()
                r = c.post(url + "/v1/judge", content=encoded(), headers=headers)
                dt = time.perf_counter() - t
                if r.status_code == 429:
                    with lock:
                        sent[0] -= batch
                    time.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                r.raise_for_status()
                with lock:
                    for res in r.json()["results"]:
                        lat.append(dt)
                        counts[res["verdict"]] = counts.get(res["verdict"], 0) + 1

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return len(lat) / wall, len(lat), lat, counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=15.0, help="per phase, at most")
    ap.add_argument("--max-submissions", type=int, default=1024, help="per phase, at most")
    ap.add_argument("--cpus", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--replicas", type=int, default=None, help="default: --cpus")
    ap.add_argument("--workloads", default="light,q10")
    ap.add_argument("--chunk", type=int, default=ServeSettings.chunk, help="submissions per replica call")
    ap.add_argument("--replica-queue", type=int, default=ServeSettings.replica_queue, help="calls a replica holds")
    ap.add_argument("--rounds", type=int, default=1,
                    help="service and in-process phases in turn, this many times (the ratio: their median)")
    ap.add_argument("--nodes", type=int, default=1, help="Ray nodes on this machine (ray.cluster_utils), the CPUs split")
    ap.add_argument("--gzip", action="store_true", help="send every /v1/judge body gzip'd (Content-Encoding: gzip)")
    args = ap.parse_args()
    replicas = args.replicas or args.cpus

    import tempfile

    import httpx
    import ray
    from ray import serve

    from ibench.serve.app import build_app
    from ibench.serve.settings import LimitSettings

    inline_dir = tempfile.mkdtemp(prefix="ibench-bench-inline-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = ServeSettings(port=port, token=TOKEN, tasks_dir=str(ROOT / "tasks"), task_ids=["guess-the-number"],
                             replicas=str(replicas), allow_inline_programs=True, inline_dir=inline_dir, chunk=args.chunk,
                             replica_queue=args.replica_queue,
                             limits=LimitSettings(max_batch=max(256, args.batch),
                                                  max_pending=max(512, args.batch * args.clients)))
    from ibench.serve.__main__ import local_ray_env

    local_ray_env(settings)  # Ray's workers at the service's niceness, as python -m ibench.serve starts them
    t_start = time.perf_counter()
    print(f"load average at the start {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)", flush=True)
    cluster = None
    if args.nodes > 1:  # several raylets on this machine: replicas spread over nodes
        from ray.cluster_utils import Cluster

        per = args.cpus // args.nodes
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": per, "include_dashboard": False})
        for _ in range(args.nodes - 1):
            cluster.add_node(num_cpus=per)
        ray.init(address=cluster.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    rows = []
    # the in-process side: as many processes as replicas, each one JudgeCore kept for every round
    pool = mp.get_context("spawn").Pool(replicas, initializer=_init_worker, initargs=(inline_dir,))
    try:
        # one HTTP proxy (on the head): the nodes share this machine's ports
        serve.start(proxy_location="HeadOnly", http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app(settings), name="ibench-bench", route_prefix="/")
        url = f"http://127.0.0.1:{port}"
        print(f"service up in {time.perf_counter() - t_start:.1f} s: {replicas} judge replicas on {args.cpus} CPUs",
              flush=True)
        for name in args.workloads.split(","):
            task_ref, opts = workloads()[name]
            n_all, s_wall, b_wall, ratios, lat = 0, 0.0, 0.0, [], []
            for r in range(args.rounds):  # service and in process in turn: each pair sees the same load
                if name == "runcode":
                    rate, n, lat_r, counts = run_code_through_service(url, args.batch, args.seconds, args.max_submissions)
                else:
                    rate, n, lat_r, counts = through_service(url, task_ref, opts, args.batch, args.clients,
                                                             args.seconds, args.max_submissions, args.gzip)
                print(f"{name} round {r + 1}: service {n} verdicts {counts} at {rate:.1f}/s", flush=True)
                base, base_counts = in_process(pool, task_ref, opts, max(n, 2 * replicas), replicas)
                print(f"{name} round {r + 1}: in-process {base_counts} at {base:.1f}/s (ratio {rate / base:.2f}; "
                      f"load average {os.getloadavg()[0]:.1f})", flush=True)
                n_all += n
                s_wall += n / rate
                b_wall += max(n, 2 * replicas) / base
                ratios.append(rate / base)
                lat += lat_r
            stats = httpx.get(url + "/v1/stats", headers={"Authorization": f"Bearer {TOKEN}"}).json()
            rows.append((name, n_all, n_all / s_wall, (n_all + 0.0) / b_wall, sorted(ratios), percentile(lat, 50),
                         percentile(lat, 95), percentile(lat, 99), stats["latency_s"]))
    finally:
        pool.terminate()
        serve.shutdown()
        ray.shutdown()
        shutil.rmtree(inline_dir, ignore_errors=True)
        if cluster is not None:
            cluster.shutdown()
    print(f"\nbatch {args.batch} x {args.clients} clients{' (gzip bodies)' if args.gzip else ''}, chunk {args.chunk}, queue {args.replica_queue}, {replicas} replicas / {args.cpus} CPUs / {args.nodes} node(s); in-process: "
          f"{replicas} processes, one Judge each")
    print(f"{'workload':<9}{'n':>6}{'service/s':>11}{'in-proc/s':>11}{'ratio':>7}{'(range)':>12}"
          f"{'req p50':>9}{'req p95':>9}{'req p99':>9}{'srv p50':>9}{'srv p99':>9}")
    for name, n, rate, base, ratios, p50, p95, p99, srv in rows:
        mid = ratios[len(ratios) // 2] if len(ratios) % 2 else (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2]) / 2
        spread = f"{ratios[0]:.2f}-{ratios[-1]:.2f}" if len(ratios) > 1 else ""
        print(f"{name:<9}{n:>6}{rate:>11.1f}{base:>11.1f}{mid:>7.2f}{spread:>12}{p50:>9.3f}{p95:>9.3f}{p99:>9.3f}"
              f"{srv['p50']:>9.3f}{srv['p99']:>9.3f}")
    print(f"ratio: the median of the rounds' ratios (each round: the service, then the same submissions in "
          f"process); load average at the end {os.getloadavg()[0]:.1f}")
    print(f"total {time.perf_counter() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
