"""What runs on a node: ``bringup node`` (pick free ports here, find the head, run
``ray start --block``), Ray's node-local temp folder (made, marked, removed when unused) and
``bringup wait`` (a short-lived driver that waits until N nodes joined)."""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Mapping

from .rayprocs import _die_with_parent, _read_json, _write_json, detect_ip, free_ports, ray_env, tcp_ready


# -- on a node ----------------------------------------------------------------------------------------
def node_main(args: argparse.Namespace) -> int:
    """Runs on the node: pick free ports here, find the head, exec ``ray start --block``."""
    job_dir = Path(args.job_dir)
    env = ray_env(job_dir)
    head_file = job_dir / "head.json"
    argv = ["ray", "start", "--block", "--disable-usage-stats"]
    deadline = time.monotonic() + args.timeout
    # Every port a raylet opens, picked free on this node and distinct: several raylets on one host
    # (tests, shared Slurm nodes) never collide on Ray's fixed defaults (e.g. 52365).
    ports = iter(free_ports(8))
    if args.role == "head":
        ip = args.ip or os.environ.get("IBENCH_RAY_NODE_IP") or detect_ip()
        port = args.port or next(ports)
        argv += ["--head", f"--port={port}", "--include-dashboard=false", f"--ray-client-server-port={next(ports)}"]
    else:
        info = None
        while time.monotonic() < deadline:
            info = _read_json(head_file)
            if info and tcp_ready(info["address"]):
                break
            time.sleep(0.5)
        else:
            print(f"no head at {head_file} within {args.timeout}s", file=sys.stderr)
            return 3
        assert info is not None
        head_ip = info["address"].rsplit(":", 1)[0]
        ip = args.ip or os.environ.get("IBENCH_RAY_NODE_IP") or (head_ip if args.same_host else detect_ip(head_ip))
        argv += [f"--address={info['address']}"]
    argv += [f"--node-ip-address={ip}", f"--node-manager-port={next(ports)}",
             f"--object-manager-port={next(ports)}", f"--dashboard-agent-listen-port={next(ports)}",
             f"--dashboard-agent-grpc-port={next(ports)}", f"--metrics-export-port={next(ports)}",
             f"--runtime-env-agent-port={next(ports)}"]
    num_gpus = args.num_gpus
    gpu_node = getattr(args, "cpus_per_gpu", None) is not None  # a GPU node of a heterogeneous cluster
    if gpu_node and num_gpus is None:
        num_gpus = visible_gpus()  # what Slurm gave the step (Ray itself counts only GPUs it can open)
    if args.num_cpus is not None:
        argv.append(f"--num-cpus={args.num_cpus}")
    elif gpu_node:
        argv.append(f"--num-cpus={math.ceil(args.cpus_per_gpu * (num_gpus or 0))}")
    elif os.environ.get("SLURM_CPUS_ON_NODE"):
        argv.append(f"--num-cpus={os.environ['SLURM_CPUS_ON_NODE']}")
    if num_gpus is not None:
        argv.append(f"--num-gpus={num_gpus}")
    if args.temp_dir:
        _make_temp_dir(Path(args.temp_dir))
        argv.append(f"--temp-dir={args.temp_dir}")
    if args.object_store_memory:
        argv.append(f"--object-store-memory={args.object_store_memory}")
    argv.append("--resources=" + json.dumps({f"ibench_node:{args.name}": 1}))
    if args.ray_args:
        argv += shlex.split(args.ray_args)
    if args.role == "head":
        _write_json(head_file, {"address": f"{ip}:{port}", "ip": ip, "port": port, "name": args.name,
                                "host": socket.gethostname(), "pid": os.getpid(), "time": time.time()})
    print("exec:", shlex.join(argv), flush=True)
    ray_bin = shutil.which("ray", path=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""))
    if not ray_bin:
        print("the `ray` command is not on PATH", file=sys.stderr)
        return 3
    if not args.temp_dir:
        os.execve(ray_bin, [ray_bin, *argv[1:]], env)
    return _run_node(ray_bin, argv, env, Path(args.temp_dir), args.name)


def visible_gpus(env: Mapping[str, str] | None = None) -> int:
    """The GPUs this node's process may use: ``$CUDA_VISIBLE_DEVICES`` (Slurm sets it for a
    step that was given GPUs), else ``$SLURM_GPUS_ON_NODE``, else what ``nvidia-smi -L`` lists
    (a node reached without Slurm, e.g. ``--launcher 'ssh {node}'``), else 0."""
    e = os.environ if env is None else env
    visible = e.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([v for v in visible.split(",") if v.strip() and v.strip() != "-1"])
    try:
        if e.get("SLURM_GPUS_ON_NODE"):
            return int(e["SLURM_GPUS_ON_NODE"])
    except ValueError:
        pass
    smi = shutil.which("nvidia-smi")
    if smi and env is None:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20).stdout
            return sum(1 for line in out.splitlines() if line.startswith("GPU "))
        except (OSError, subprocess.SubprocessError):
            pass
    return 0


def _run_node(ray_bin: str, argv: list[str], env: dict[str, str], temp_dir: Path, name: str) -> int:
    """``ray start --block`` as a child (signals forwarded; it dies with this process), then
    remove Ray's temp folder once no other node process on this host uses it: a job leaves
    nothing in /tmp. Several "nodes" on one host share the folder; each registers its pid in
    ``.ibench-nodes/``."""
    users = temp_dir / ".ibench-nodes"
    users.mkdir(parents=True, exist_ok=True)
    mine = users / f"{name}.{os.getpid()}"
    mine.write_text(str(os.getpid()))
    proc = subprocess.Popen([ray_bin, *argv[1:]], env=env, preexec_fn=_die_with_parent)

    def forward(signum, _frame):
        if proc.poll() is None:
            proc.send_signal(signum)

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(s, forward)
    try:
        while True:
            try:
                rc = proc.wait()
                break
            except InterruptedError:  # pragma: no cover - PEP 475 retries wait() itself
                continue
    finally:
        mine.unlink(missing_ok=True)
        _remove_temp_if_unused(temp_dir)
    return rc


TEMP_OWNED = ".ibench-owned"


def _make_temp_dir(temp_dir: Path) -> None:
    """Create Ray's temp folder; one made here is marked (``.ibench-owned``), and only a marked
    folder is ever removed (a ``--temp-dir /tmp`` is used, never deleted)."""
    if not temp_dir.exists():
        temp_dir.mkdir(parents=True, exist_ok=True)
        (temp_dir / TEMP_OWNED).touch()


def _remove_temp_if_unused(temp_dir: Path) -> bool:
    """rm -r ``temp_dir`` (only one made by :func:`_make_temp_dir`) when no registered node
    process (``.ibench-nodes/<name>.<pid>``) lives."""
    if not (temp_dir / TEMP_OWNED).is_file():
        return False
    users = temp_dir / ".ibench-nodes"
    for f in users.glob("*.*") if users.is_dir() else []:
        try:
            os.kill(int(f.name.rsplit(".", 1)[1]), 0)
            return False  # another node on this host still runs in it
        except (ValueError, ProcessLookupError):
            f.unlink(missing_ok=True)
        except PermissionError:
            return False
    shutil.rmtree(temp_dir, ignore_errors=True)
    return True


def wait_main(args: argparse.Namespace) -> int:
    """A short-lived driver: wait until ``--nodes`` nodes are alive; print them as JSON."""
    import ray

    ray.init(address=args.address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        deadline = time.monotonic() + args.timeout
        while True:
            alive = [n for n in ray.nodes() if n.get("Alive")]
            if len(alive) >= args.nodes:
                break
            if time.monotonic() > deadline:
                print(f"only {len(alive)} of {args.nodes} node(s) joined within {args.timeout}s", file=sys.stderr)
                return 1
            time.sleep(0.25)
        rows = [{"node_id": n["NodeID"], "ip": n["NodeManagerAddress"], "host": n.get("NodeManagerHostname", ""),
                 "cpus": n["Resources"].get("CPU", 0), "gpus": n["Resources"].get("GPU", 0),
                 "name": next((k.split(":", 1)[1] for k in n["Resources"] if k.startswith("ibench_node:")), "")}
                for n in alive]
        print(json.dumps(rows))
        return 0
    finally:
        ray.shutdown()
