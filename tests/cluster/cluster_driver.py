"""Driver programs for the multi-node tests, run as separate processes against a running
cluster (RAY_ADDRESS and the token come from the environment, as ``cluster.env`` gives them), so
the test process itself never holds a Ray connection. Each prints one JSON line on stdout, after RESULT_MARK
(Ray may forward its own warnings to the same stdout).

    python tests/cluster/cluster_driver.py nodes
    python tests/cluster/cluster_driver.py judge    --tasks DIR --samples N
    python tests/cluster/cluster_driver.py pipeline --tasks DIR --samples N --store DIR --exec-log FILE
    python tests/cluster/cluster_driver.py vllm     --tasks DIR --marker FILE
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for p in (str(REPO), str(REPO / "tests" / "judge"), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from cluster_fixtures import RESULT_MARK  # noqa: E402
from judge_fixtures import solver  # noqa: E402

SLOW = "usleep(150000);"  # after answering: each case takes >= 150 ms of wall time, no CPU
EXEC_LOG = ""  # set by the pipeline command; shipped with the traced judge function (by value)


def connect():
    import ray

    ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False, configure_logging=False)
    return ray


def alive():
    import ray

    return [n for n in ray.nodes() if n.get("Alive")]


def cmd_nodes(args) -> dict:
    connect()
    from ibench.cluster.slurm import SlurmCluster

    out = {"nodes": [{"id": n["NodeID"], "resources": n["Resources"]} for n in alive()]}
    c = SlurmCluster(survey=True)
    c.check_sandboxes()
    out["survey"] = [{"node": i.node, "sandbox": i.sandbox, "node_id": i.node_id} for i in c.nodes]
    out["mismatches"] = c.mismatches
    return out


def cmd_judge(args) -> dict:
    connect()
    from ibench.cluster.judge_loop import JudgeJob, judge_all
    from ibench.judge import JudgeSettings
    from ibench.tasks.load import load_tasks

    tasks = load_tasks(args.tasks)
    jobs = [JudgeJob(f"{t.task_id}-{i}", t, solver(SLOW if args.slow else "")) for i in range(args.samples)
            for t in tasks]
    jobs.append(jobs[0])  # submitted twice: recorded once
    run = judge_all(jobs, JudgeSettings(non_adaptive_cases=args.cases), max_retries=3)
    return {"keys": sorted(run.outcomes), "verdicts": sorted({o.verdict for o in run.outcomes.values()}),
            "by_node": dict(run.by_node()), "duplicates": run.duplicates, "failed": run.failed,
            "sandboxes": sorted({o.result.sandbox for o in run.outcomes.values()}),
            "node_ids": sorted({n["NodeID"] for n in alive()})}


class SlowBackend:
    """A backend whose every sample is the (slow) binary-search solver: judging takes a while."""

    def __init__(self, n):
        from ibench.generate.base import Backend

        class _B(Backend):
            name = "slow-solver"

            def generate(self, requests):
                from ibench.generate.base import Completion

                for r in requests:
                    for i in r.indices:
                        code = f"// sample {i}\n" + solver(SLOW).lstrip()
                        yield Completion(task_id=r.task_id, sample_index=i, prompt="[]",
                                         response=f"```cpp\n{code}\n```", finish_reason="stop")

            def samples_per_task(self, task, n_):
                return n

        self.backend = _B()


def traced_judge_sample(task, code, language, settings):
    """``ibench.cluster.judging.judge_sample``, logging each execution's start and end (one line
    each, appended to EXEC_LOG) so the test can see runs cut short by a node death."""
    from ibench.cluster.judging import judge_sample, node_label

    log = EXEC_LOG
    key = f"{task.task_id}:{code.splitlines()[0]}"
    node = node_label()
    with open(log, "a") as fh:
        fh.write(json.dumps({"event": "start", "key": key, "node": node, "pid": os.getpid(), "t": time.time()}) + "\n")
    out = judge_sample(task, code, language, settings)
    with open(log, "a") as fh:
        fh.write(json.dumps({"event": "end", "key": key, "node": node, "pid": os.getpid(), "t": time.time()}) + "\n")
    return out


def cmd_pipeline(args) -> dict:
    global EXEC_LOG
    EXEC_LOG = args.exec_log
    ray = connect()
    import ibench.cluster.judging as judging
    import ibench.run.pipeline as pl
    from ibench.generate.base import SamplingSettings
    from ibench.generate.feedback import FeedbackSettings
    from ibench.generate.prompt import PromptTemplate
    from ibench.judge import JudgeSettings
    from ibench.results.store import RunStore
    from ibench.run.spec import ModelSpec, RunSpec, TaskSelection
    from ibench.tasks.load import load_tasks

    # The node label with the Ray node id (two raylets on one host are told apart); the
    # execution log shows retries. The judge loop looks the task body up when a round starts.
    judging.judge_sample = traced_judge_sample
    tasks = load_tasks(args.tasks)
    store = RunStore(Path(args.store), flush_rows=4, flush_seconds=0.5)
    spec = RunSpec(model=ModelSpec("slow-solver", "cluster_driver.SlowBackend"), sampling=SamplingSettings(n=args.samples),
                   prompt=PromptTemplate(), feedback=FeedbackSettings(),
                   judge=JudgeSettings(non_adaptive_cases=args.cases), tasks=TaskSelection(args.tasks))
    pipe = pl.Pipeline(spec, SlowBackend(args.samples).backend, tasks, store,
                       pl.Execution(judge_cpus=1.0, task_retries=3), progress=False)
    t0 = time.time()
    plan = pipe.run()
    wall = time.time() - t0
    store.close(compact=False)
    verdicts = pipe.verdicts_by_task(plan.expected)
    return {"expected": plan.expected, "verdicts": verdicts, "wall_s": wall,
            "alive": len([n for n in ray.nodes() if n.get("Alive")])}


def cmd_vllm(args) -> dict:
    connect()
    from ibench.generate.base import GenerationRequest, SamplingSettings
    from ibench.generate.vllm_backend import VLLMBackend
    from ibench.tasks.load import load_tasks

    tasks = load_tasks(args.tasks)
    backend = VLLMBackend(name="crashy", model="fake/model", tensor_parallel_size=1, replicas=args.replicas,
                          engine_kwargs={"crash_marker": args.marker}, tasks_per_call=1, cpus_per_bundle=0,
                          engine_module="crashy_vllm", placement_timeout_s=120, max_restarts=args.max_restarts,
                          max_task_retries=args.max_restarts + 1 if args.max_restarts else 0)
    try:
        backend.setup(SamplingSettings(n=2, max_tokens=64))
        reqs = [GenerationRequest(task=t, messages=[{"role": "user", "content": t.task_id}], indices=[0, 1], seed=7)
                for t in tasks]
        got = list(backend.generate(reqs))
    finally:
        backend.close()
    return {"completions": sorted([c.task_id, c.sample_index] for c in got),
            "errors": [c.error for c in got if c.error],
            "engine_nodes": sorted({json.loads(c.response.split("\n", 1)[0])["node"] for c in got if not c.error}),
            "engine_pids": sorted({json.loads(c.response.split("\n", 1)[0])["pid"] for c in got if not c.error})}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["nodes", "judge", "pipeline", "vllm"])
    ap.add_argument("--tasks")
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--cases", type=int, default=2)
    ap.add_argument("--slow", action="store_true")
    ap.add_argument("--store")
    ap.add_argument("--exec-log")
    ap.add_argument("--marker")
    ap.add_argument("--replicas", type=int, default=1)
    ap.add_argument("--max-restarts", type=int, default=2)
    args = ap.parse_args()
    out = {"nodes": cmd_nodes, "judge": cmd_judge, "pipeline": cmd_pipeline, "vllm": cmd_vllm}[args.cmd](args)
    print(RESULT_MARK + json.dumps(out, default=str), flush=True)


if __name__ == "__main__":
    main()
