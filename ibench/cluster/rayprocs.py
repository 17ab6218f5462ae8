"""Ray process control from the host that brings a cluster up: each node's ``ray start --block``
process (started through a launcher, in its own session, recorded in the job folder), waiting
until every node joined, the environment a driver needs (address, token), and stopping it all.
What runs *on* a node is :mod:`ibench.cluster.raynode`.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .hostlists import BringupError
from .launchers import Launcher, LocalLauncher

log = logging.getLogger("ibench.cluster.bringup")

ENV_CLUSTER_DIR = "IBENCH_CLUSTER_DIR"
ENV_CLUSTER_NODES = "IBENCH_CLUSTER_NODES"
CLUSTER_ENV = "cluster.env"


# -- small helpers ------------------------------------------------------------------------------------
def free_port(host: str = "") -> int:
    return free_ports(1, host)[0]


def free_ports(n: int, host: str = "") -> list[int]:
    """``n`` distinct free ports: every socket is held until all are picked (a port freed by one
    pick can be handed out again by the next, and Ray refuses two components on one port)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(s)
            s.bind((host, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def detect_ip(towards: str | None = None) -> str:
    """The address other nodes reach this one at: the source address of a route towards
    ``towards`` (the head) or a public address (no packet is sent), else the host name's."""
    for target in filter(None, [towards, "8.8.8.8"]):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((target, 80))
                ip = s.getsockname()[0]
                if ip and not ip.startswith("0."):
                    return ip
        except OSError:
            continue
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def tcp_ready(address: str, timeout: float = 1.0) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def ensure_token(job_dir: Path) -> Path:
    """The cluster's token file (created once, 0600). Ray >= 2.59 turns token auth on for a head
    started by ``ray start``; workers and drivers must then present the same token."""
    path = job_dir / "auth_token"
    if not path.exists():
        job_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path


def ray_env(job_dir: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env["RAY_AUTH_MODE"] = "token"
    env["RAY_AUTH_TOKEN_PATH"] = str(ensure_token(job_dir))
    env.pop("RAY_AUTH_TOKEN", None)  # the file is the one source
    env.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    env.pop("RAY_ADDRESS", None)  # `ray start --head` must not join some other cluster
    return env


def apply_auth_env(env: dict[str, str]) -> None:
    """Make this process present the cluster's token: set ``RAY_AUTH_MODE`` /
    ``RAY_AUTH_TOKEN_PATH`` from ``env`` and, when Ray is already imported (it reads them once),
    refresh its configuration and drop its cached token."""
    changed = False
    for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH"):
        if env.get(key) and os.environ.get(key) != env[key]:
            os.environ[key] = env[key]
            changed = True
    if env.get("RAY_AUTH_TOKEN_PATH") and os.environ.pop("RAY_AUTH_TOKEN", None) is not None:
        changed = True
    if changed and "ray._raylet" in sys.modules:
        try:
            from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]

            Config.initialize("")
            AuthenticationTokenLoader.instance().reset_cache()
        except (ImportError, AttributeError):  # a Ray without token authentication
            pass


def session_pids(sid: int) -> list[int]:
    """Processes in session ``sid`` (every node process is started as a session leader, and
    Ray's own processes stay in it), found by reading /proc."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # state, ppid, pgrp, session, ...
        if len(fields) > 3 and int(fields[3]) == sid and fields[0] not in ("Z", "X"):  # zombies are dead
            pids.append(int(entry))
    return pids


def kill_session(sid: int, sig: int = signal.SIGKILL) -> int:
    n = 0
    for pid in session_pids(sid):
        try:
            os.kill(pid, sig)
            n += 1
        except ProcessLookupError:
            pass
    return n


# -- the cluster --------------------------------------------------------------------------------------
@dataclass
class NodeProc:
    name: str
    role: str  # head | worker
    node: str  # host the launcher targets
    command: list[str]
    log: Path
    pid: int
    proc: subprocess.Popen | None = field(default=None, repr=False)

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        try:
            os.kill(self.pid, 0)
            return True
        except OSError:
            return False


@dataclass
class ClusterSpec:
    """How to bring a cluster up. ``cpus``/``gpus`` of None: what Ray detects on the node
    (on Slurm: the step's CPUs; GPUs from CUDA_VISIBLE_DEVICES)."""

    job_dir: Path
    nodes: list[str]
    launcher: Launcher = field(default_factory=LocalLauncher)
    cpus: int | None = None  # per node
    gpus: int | None = None  # per node
    head_cpus: int | None = None  # head node's CPUs if different (e.g. leave one to the driver)
    head_gpus: int | None = None
    temp_dir: str | None = None  # Ray's temp root on each node (node-local, short: socket paths)
    object_store_bytes: int | None = None
    ip: str | None = None  # the head's address (default: detected on the head)
    port: int | None = None  # the head's GCS port (default: a free one)
    timeout_s: float = 600.0
    python: str = sys.executable
    ray_args: list[str] = field(default_factory=list)  # extra `ray start` flags, every node
    env: dict[str, str] = field(default_factory=dict)  # extra environment, every node
    die_with_parent: bool = False  # local node processes end when the process that started them dies
    # A heterogeneous cluster (vLLM on GPU nodes, judging on CPU-only nodes): the nodes in
    # ``cpu_nodes`` advertise no GPU; every other node advertises ``gpu_node_cpus`` CPUs, or (None)
    # ``cpus_per_gpu`` per GPU it sees: what the vLLM replicas' bundles take
    # (``model.cpus_per_bundle``), so the judge tasks, which need free CPUs, run on the CPU nodes.
    cpu_nodes: list[str] = field(default_factory=list)
    gpu_node_cpus: int | None = None
    cpus_per_gpu: float = 1.0

    def __post_init__(self) -> None:
        self.job_dir = Path(self.job_dir).resolve()
        if not self.nodes:
            raise BringupError("no nodes")
        unknown = [n for n in self.cpu_nodes if n not in self.nodes]
        if unknown:
            raise BringupError(f"cpu_nodes {unknown} are not in the node list {self.nodes}")

    def resources(self, node: str) -> tuple[int | None, int | None, float | None]:
        """(CPUs, GPUs, CPUs per GPU) for ``node``'s ``ray start``; None: Ray detects it. A GPU node
        of a heterogeneous cluster (CPUs per GPU set) advertises the GPUs its step was given
        (:func:`ibench.cluster.raynode.visible_gpus`) and, unless ``gpu_node_cpus``, that many
        times CPUs per GPU."""
        head = node == self.nodes[0]
        cpus = self.head_cpus if head and self.head_cpus is not None else self.cpus
        gpus = self.head_gpus if head and self.head_gpus is not None else self.gpus
        if not self.cpu_nodes:
            return cpus, gpus, None
        if node in self.cpu_nodes:
            return cpus, 0, None
        return self.gpu_node_cpus, gpus, self.cpus_per_gpu


class RayCluster:
    """A cluster brought up from here: its address, environment for drivers, and its nodes."""

    def __init__(self, spec: ClusterSpec) -> None:
        self.spec = spec
        self.job_dir = spec.job_dir
        self.procs: dict[str, NodeProc] = {}
        self.address: str | None = None

    # -- environment for drivers -------------------------------------------------------------
    @property
    def env(self) -> dict[str, str]:
        """What a driver needs (on top of its own environment) to connect."""
        out = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(self.job_dir / "auth_token"),
               ENV_CLUSTER_DIR: str(self.job_dir), ENV_CLUSTER_NODES: str(len(self.alive_nodes()))}
        if self.address:
            out["RAY_ADDRESS"] = self.address
        return out

    def driver_env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        env.pop("RAY_AUTH_TOKEN", None)
        env.update(self.env)
        return env

    def write_env_file(self) -> Path:
        path = self.job_dir / CLUSTER_ENV
        lines = [f"export {k}={shlex.quote(v)}" for k, v in sorted(self.env.items())]
        path.write_text("\n".join(lines) + "\n")
        return path

    # -- nodes -------------------------------------------------------------------------------
    def alive_nodes(self) -> list[str]:
        return [n for n, p in self.procs.items() if p.alive()]

    def _node_argv(self, role: str, name: str, cpus: int | None, gpus: int | None,
                   cpus_per_gpu: float | None = None) -> list[str]:
        s = self.spec
        argv = [s.python, "-m", "ibench.cluster.bringup", "node", "--role", role, "--job-dir", str(self.job_dir),
                "--name", name, "--timeout", str(int(s.timeout_s))]
        if cpus is not None:
            argv += ["--num-cpus", str(cpus)]
        if cpus_per_gpu is not None:
            argv += ["--cpus-per-gpu", f"{cpus_per_gpu:g}"]
        if gpus is not None:
            argv += ["--num-gpus", str(gpus)]
        if s.temp_dir:
            argv += ["--temp-dir", s.temp_dir]
        if s.object_store_bytes:
            argv += ["--object-store-memory", str(s.object_store_bytes)]
        if role == "head":
            if s.ip:
                argv += ["--ip", s.ip]
            if s.port:
                argv += ["--port", str(s.port)]
        if s.ray_args:
            argv += ["--ray-args", shlex.join(s.ray_args)]
        return argv

    def start_node(self, name: str, role: str = "worker", node: str | None = None, cpus: int | None = None,
                   gpus: int | None = None, cpus_per_gpu: float | None = None) -> NodeProc:
        """Start one node process (its launcher runs in its own session: killable as a unit)."""
        node = node or name
        if name in self.procs and self.procs[name].alive():
            raise BringupError(f"node {name} is already running (pid {self.procs[name].pid})")
        cmd = self.spec.launcher.wrap(node, self._node_argv(role, name, cpus, gpus, cpus_per_gpu))
        logf = self.job_dir / "logs" / f"{name}.log"
        logf.parent.mkdir(parents=True, exist_ok=True)
        env = ray_env(self.job_dir, {**os.environ, **self.spec.env})
        with open(logf, "ab") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                    start_new_session=True, cwd=str(Path.cwd()),
                                    preexec_fn=_die_with_parent if self.spec.die_with_parent else None)
        np = NodeProc(name, role, node, cmd, logf, proc.pid, proc)
        self.procs[name] = np
        _write_json(self.job_dir / "nodes" / f"{name}.json",
                    {"name": name, "role": role, "node": node, "pid": proc.pid, "command": cmd, "log": str(logf),
                     "started_at": time.time()})
        log.info("started %s %s (pid %d): %s", role, name, proc.pid, shlex.join(cmd))
        return np

    def up(self) -> "RayCluster":
        s = self.spec
        s.job_dir.mkdir(parents=True, exist_ok=True)
        ensure_token(s.job_dir)
        (s.job_dir / "head.json").unlink(missing_ok=True)
        deadline = time.monotonic() + s.timeout_s
        try:
            head = s.nodes[0]
            self.start_node(head, "head", head, *s.resources(head))
            self.address = self._wait_head(deadline)
            for node in s.nodes[1:]:
                self.start_node(node, "worker", node, *s.resources(node))
            rows = self.wait_nodes(len(s.nodes), deadline - time.monotonic())
        except BaseException:
            self.down(grace_s=2.0)
            raise
        self._record_nodes(rows)
        self.write_env_file()
        return self

    def _record_nodes(self, rows: list[dict]) -> None:
        """``ray_nodes.json`` in the job folder: each Ray node's name, id and CPUs/GPUs as the
        cluster sees them (which node generates, which judge; the verdicts' ``node`` column
        holds the id's first characters), and one log line per node."""
        for r in rows:
            r["judges_only"] = r.get("name") in self.spec.cpu_nodes
        _write_json(self.job_dir / "ray_nodes.json", {"nodes": rows})
        for r in sorted(rows, key=lambda r: r.get("name", "")):
            log.info("ray node %s (%s): %g CPU, %g GPU%s", r.get("name") or "?", str(r.get("node_id", ""))[:12],
                     r.get("cpus", 0), r.get("gpus", 0), " (judging only)" if r["judges_only"] else "")

    def _wait_head(self, deadline: float) -> str:
        path = self.job_dir / "head.json"
        head = self.procs[self.spec.nodes[0]]
        while time.monotonic() < deadline:
            info = _read_json(path)
            if info and tcp_ready(info["address"]):
                return info["address"]
            if not head.alive():
                raise BringupError(f"the head node process exited; see {head.log}:\n{_tail(head.log)}")
            time.sleep(0.2)
        raise BringupError(f"the head did not come up within {self.spec.timeout_s:.0f}s; see {head.log}")

    def wait_nodes(self, n: int, timeout_s: float) -> list[dict]:
        """Block until ``n`` nodes are alive in the cluster (asked from a separate driver process,
        so this process never holds a Ray connection)."""
        assert self.address
        cmd = [self.spec.python, "-m", "ibench.cluster.bringup", "wait", "--address", self.address,
               "--nodes", str(n), "--timeout", str(max(1, int(timeout_s)))]
        deadline = time.monotonic() + max(1.0, timeout_s) + 60
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.driver_env())
        while True:
            try:
                out, err = proc.communicate(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                dead = [p for p in self.procs.values() if not p.alive()]
                if dead or time.monotonic() > deadline:
                    proc.kill()
                    proc.communicate()
                    if dead:
                        raise BringupError("node process(es) exited while joining: " + "; ".join(
                            f"{p.name} (see {p.log}):\n{_tail(p.log)}" for p in dead)) from None
                    raise BringupError(f"timed out waiting for {n} node(s)") from None
        if proc.returncode != 0:
            raise BringupError(f"waiting for {n} node(s) failed: {err.strip()[-2000:]}")
        return json.loads(out.strip().splitlines()[-1])

    def kill_node(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Kill one node's processes (a node failure, for tests; or a clean stop with SIGTERM)."""
        p = self.procs[name]
        kill_session(p.pid, sig)
        if p.proc is not None and sig == signal.SIGKILL:
            p.proc.wait(timeout=30)

    def down(self, grace_s: float = 10.0) -> None:
        """Stop every node process started from here: SIGTERM, then SIGKILL after ``grace_s``.
        Only processes in the node processes' own sessions are signalled."""
        procs = list(self.procs.values())
        for p in reversed(procs):  # workers first, the head last
            kill_session(p.pid, signal.SIGTERM if grace_s > 0 else signal.SIGKILL)
        end = time.monotonic() + grace_s
        while time.monotonic() < end and any(session_pids(p.pid) for p in procs):
            time.sleep(0.2)
        for p in procs:
            kill_session(p.pid, signal.SIGKILL)
            if p.proc is not None:
                try:
                    p.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
        end = time.monotonic() + 10
        while time.monotonic() < end and any(session_pids(p.pid) for p in procs):
            time.sleep(0.05)
        if self.spec.launcher.local and self.spec.temp_dir and Path(self.spec.temp_dir).is_dir():
            shutil.rmtree(self.spec.temp_dir, ignore_errors=True)
        elif self.spec.temp_dir and procs:
            self._clean_remote_temp([p.node for p in procs])

    def _clean_remote_temp(self, nodes: list[str]) -> None:
        """Ray's node-local temp folder on each node (a node process killed before it could
        remove it leaves it there): one short step per node, ``bringup clean``, which removes
        only a folder ibench made and no live node process uses. Best effort."""
        argv = [self.spec.python, "-m", "ibench.cluster.bringup", "clean", "--temp-dir", str(self.spec.temp_dir)]
        for node in dict.fromkeys(nodes):
            cmd = self.spec.launcher.wrap(node, argv)
            if cmd and cmd[0] == "srun" and "--overlap" not in cmd:
                cmd.insert(1, "--overlap")
            try:
                subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=60, cwd=str(Path.cwd()))
            except (OSError, subprocess.SubprocessError) as exc:
                log.warning("could not clean %s on %s: %s", self.spec.temp_dir, node, exc)

    @classmethod
    def from_job_dir(cls, job_dir: str | Path) -> "RayCluster":
        """The node processes recorded in ``job_dir`` (to stop a cluster ``up`` left running)."""
        job_dir = Path(job_dir).resolve()
        c = cls(ClusterSpec(job_dir=job_dir, nodes=["?"]))
        for f in sorted((job_dir / "nodes").glob("*.json")):
            d = _read_json(f)
            if d:
                c.procs[d["name"]] = NodeProc(d["name"], d["role"], d["node"], d["command"], Path(d["log"]), d["pid"])
        info = _read_json(job_dir / "head.json")
        c.address = info["address"] if info else None
        return c

    def __enter__(self) -> "RayCluster":
        return self.up()

    def __exit__(self, *exc) -> None:
        self.down()


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """PR_SET_PDEATHSIG: SIGKILL when the parent dies. It survives the exec into `ray start`,
    whose reaper then takes the node's other processes down with it."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except OSError:
        pass


def _tail(path: Path, n: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""
