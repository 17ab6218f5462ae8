"""Bring a Ray cluster up over a list of nodes, run a driver against it, tear it down.

The head goes on the first node, one worker on each other node; every node runs
``ray start --block`` in the foreground under a *launcher*:

- ``srun``: ``srun --nodes=1 --ntasks=1 --nodelist=NODE ...`` (inside a Slurm allocation);
- ``local``: the plain command on this machine (tests, benchmarks, a workstation). Several
  "nodes" on one host are several raylets: each gets its own node-manager, object-manager,
  dashboard-agent, metrics and runtime-env ports (picked free on the node) and its own socket
  names (Ray numbers them inside the shared session folder), so they never collide.

The node list comes from ``--nodes``, else ``$IBENCH_NODES`` (comma or space separated), else
``$SLURM_JOB_NODELIST`` expanded by ``scontrol show hostnames``, else this host.

Everything about one cluster lives in its *job folder* (on Slurm: on the shared filesystem)::

    auth_token     the cluster's Ray token (0600); RAY_AUTH_MODE=token on every node and driver
    head.json      the head's address, written by the head's node command
    nodes/<name>.json   pid, launcher command and log of each node process started from here
    logs/<name>.log     each node's ``ray start`` output
    cluster.env    ``export`` lines for a driver: RAY_ADDRESS, the token, IBENCH_CLUSTER_*

Command line (``slurm/ray_cluster.sh`` is a thin wrapper)::

    python -m ibench.cluster.bringup run  --job-dir D [--launcher srun|local] -- python -m ibench.launch cluster=slurm ...
    python -m ibench.cluster.bringup up   --job-dir D ...      # start, wait until every node joined, return
    python -m ibench.cluster.bringup down --job-dir D          # stop what ``up`` started (by pid)
    python -m ibench.cluster.bringup nodes                      # print the node list
    python -m ibench.cluster.bringup node --role head|worker --job-dir D --name N   # runs ON a node

``run`` re-runs a driver that died (``--driver-retries``): a driver resumes from its results store,
so a crashed driver costs only the samples in flight.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
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
from typing import Sequence

log = logging.getLogger("ibench.cluster.bringup")

ENV_NODES = "IBENCH_NODES"
ENV_CLUSTER_DIR = "IBENCH_CLUSTER_DIR"
ENV_CLUSTER_NODES = "IBENCH_CLUSTER_NODES"
ENV_SRUN_ARGS = "IBENCH_SRUN_ARGS"
CLUSTER_ENV = "cluster.env"


class BringupError(RuntimeError):
    pass


# -- the node list ------------------------------------------------------------------------------------
def expand_hostlist(spec: str) -> list[str]:
    """Slurm's compact host list (``gpu[01-03,07],cpu5``) as names, without Slurm.

    ``scontrol show hostnames`` is used when it exists (it is the authority); this expander is
    the fallback for machines without Slurm (tests, a login node without the client).
    """
    out: list[str] = []
    for item in _split_top(spec):
        m = re.fullmatch(r"([^\[\]]*)\[([^\]]+)\](.*)", item)
        if not m:
            if item:
                out.append(item)
            continue
        prefix, body, rest = m.groups()
        for part in body.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                width = len(lo) if lo.startswith("0") else 0
                for i in range(int(lo), int(hi) + 1):
                    for tail in (expand_hostlist(rest) if rest else [""]):
                        out.append(f"{prefix}{i:0{width}d}{tail}")
            else:
                for tail in (expand_hostlist(rest) if rest else [""]):
                    out.append(f"{prefix}{part}{tail}")
    return out


def _split_top(spec: str) -> list[str]:
    """Split on commas outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in spec.strip():
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def scontrol_hostnames(nodelist: str) -> list[str]:
    scontrol = shutil.which("scontrol")
    if scontrol:
        try:
            out = subprocess.run([scontrol, "show", "hostnames", nodelist], capture_output=True, text=True,
                                 timeout=60, check=True).stdout
            return [line.strip() for line in out.splitlines() if line.strip()]
        except (OSError, subprocess.SubprocessError) as exc:  # a client without a config or controller
            log.warning("scontrol show hostnames %s failed (%s); expanding the list without it", nodelist,
                        getattr(exc, "stderr", None) or exc)
    return expand_hostlist(nodelist)


def node_list(spec: str | Sequence[str] | None = None, env: dict[str, str] | None = None) -> list[str]:
    """``spec`` > ``$IBENCH_NODES`` > ``$SLURM_JOB_NODELIST`` (scontrol) > this host."""
    env = os.environ if env is None else env
    if spec:
        nodes = list(spec) if not isinstance(spec, str) else re.split(r"[,\s]+", spec.strip())
    elif env.get(ENV_NODES, "").strip():
        nodes = re.split(r"[,\s]+", env[ENV_NODES].strip())
    elif env.get("SLURM_JOB_NODELIST") or env.get("SLURM_NODELIST"):
        nodes = scontrol_hostnames(env.get("SLURM_JOB_NODELIST") or env["SLURM_NODELIST"])
    else:
        nodes = [socket.gethostname()]
    nodes = [n for n in nodes if n]
    if len(set(nodes)) != len(nodes):
        raise BringupError(f"node list has duplicates: {nodes} (one Ray node per name)")
    return nodes


# -- launchers ----------------------------------------------------------------------------------------
class Launcher:
    """Turns ``argv`` into the command that runs it on ``node``."""

    name = "launcher"
    local = False  # True: every node is this machine

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        raise NotImplementedError


class LocalLauncher(Launcher):
    name = "local"
    local = True

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        return list(argv)


class SrunLauncher(Launcher):
    """One task on one node of the allocation. ``extra`` (or ``$IBENCH_SRUN_ARGS``) adds flags,
    e.g. ``--gpus-per-task=8`` where steps do not inherit the job's GPUs."""

    name = "srun"

    def __init__(self, extra: Sequence[str] | None = None) -> None:
        self.extra = list(extra) if extra is not None else shlex.split(os.environ.get(ENV_SRUN_ARGS, ""))

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        return ["srun", "--nodes=1", "--ntasks=1", f"--nodelist={node}", "--kill-on-bad-exit=0", *self.extra,
                *argv]


class CommandLauncher(Launcher):
    """Any prefix with ``{node}`` in it (e.g. ``ssh {node}``); for clusters without Slurm."""

    name = "command"

    def __init__(self, template: str) -> None:
        self.template = template

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        return [*shlex.split(self.template.format(node=node)), *argv]


def make_launcher(kind: str | Launcher | None) -> Launcher:
    if isinstance(kind, Launcher):
        return kind
    if kind in (None, "", "auto"):
        kind = "srun" if os.environ.get("SLURM_JOB_ID") and shutil.which("srun") else "local"
    if kind == "srun":
        return SrunLauncher()
    if kind == "local":
        return LocalLauncher()
    if "{node}" in kind:
        return CommandLauncher(kind)
    raise BringupError(f"unknown launcher {kind!r}; expected srun, local, or a command with {{node}}")


# -- small helpers ------------------------------------------------------------------------------------
def free_port(host: str = "") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


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
            from ray._raylet import AuthenticationTokenLoader, Config

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

    def __post_init__(self) -> None:
        self.job_dir = Path(self.job_dir).resolve()
        if not self.nodes:
            raise BringupError("no nodes")


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

    def _node_argv(self, role: str, name: str, cpus: int | None, gpus: int | None) -> list[str]:
        s = self.spec
        argv = [s.python, "-m", "ibench.cluster.bringup", "node", "--role", role, "--job-dir", str(self.job_dir),
                "--name", name, "--timeout", str(int(s.timeout_s))]
        if cpus is not None:
            argv += ["--num-cpus", str(cpus)]
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
                   gpus: int | None = None) -> NodeProc:
        """Start one node process (its launcher runs in its own session: killable as a unit)."""
        node = node or name
        if name in self.procs and self.procs[name].alive():
            raise BringupError(f"node {name} is already running (pid {self.procs[name].pid})")
        cmd = self.spec.launcher.wrap(node, self._node_argv(role, name, cpus, gpus))
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
            self.start_node(head, "head", head, s.head_cpus if s.head_cpus is not None else s.cpus,
                            s.head_gpus if s.head_gpus is not None else s.gpus)
            self.address = self._wait_head(deadline)
            for node in s.nodes[1:]:
                self.start_node(node, "worker", node, s.cpus, s.gpus)
            self.wait_nodes(len(s.nodes), deadline - time.monotonic())
        except BaseException:
            self.down(grace_s=2.0)
            raise
        self.write_env_file()
        return self

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


# -- on a node ----------------------------------------------------------------------------------------
def node_main(args: argparse.Namespace) -> int:
    """Runs on the node: pick free ports here, find the head, exec ``ray start --block``."""
    job_dir = Path(args.job_dir)
    env = ray_env(job_dir)
    head_file = job_dir / "head.json"
    argv = ["ray", "start", "--block", "--disable-usage-stats"]
    deadline = time.monotonic() + args.timeout
    if args.role == "head":
        ip = args.ip or os.environ.get("IBENCH_RAY_NODE_IP") or detect_ip()
        port = args.port or free_port()
        argv += ["--head", f"--port={port}", "--include-dashboard=false", f"--ray-client-server-port={free_port()}"]
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
    # Every port a raylet opens, picked free on this node: several raylets on one host (tests,
    # shared Slurm nodes) never collide on Ray's fixed defaults (e.g. 52365).
    argv += [f"--node-ip-address={ip}", f"--node-manager-port={free_port()}",
             f"--object-manager-port={free_port()}", f"--dashboard-agent-listen-port={free_port()}",
             f"--dashboard-agent-grpc-port={free_port()}", f"--metrics-export-port={free_port()}",
             f"--runtime-env-agent-port={free_port()}"]
    if args.num_cpus is not None:
        argv.append(f"--num-cpus={args.num_cpus}")
    elif os.environ.get("SLURM_CPUS_ON_NODE"):
        argv.append(f"--num-cpus={os.environ['SLURM_CPUS_ON_NODE']}")
    if args.num_gpus is not None:
        argv.append(f"--num-gpus={args.num_gpus}")
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


# -- run: up, driver (re-run if it dies), down ---------------------------------------------------------
ENV_STOP_BEFORE_END = "IBENCH_STOP_BEFORE_END_S"
ENV_SLURM_POLL = "IBENCH_SLURM_POLL_S"  # how often the job's state is read (time left, preemption)


def _slurm_duration(text: str) -> float | None:
    """Slurm's ``[D-]HH:MM:SS`` / ``MM:SS`` / ``MM`` as seconds; None for UNLIMITED and the like."""
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", text.strip())
    if not m:
        return None
    days, a, b, c = m.groups()
    parts = [int(x) for x in (a, b, c) if x is not None]
    if len(parts) == 3:
        sec = parts[0] * 3600 + parts[1] * 60 + parts[2]
    elif len(parts) == 2:
        sec = parts[0] * 60 + parts[1] if days is None else parts[0] * 3600 + parts[1] * 60
    else:
        sec = parts[0] * 60 if days is None else parts[0] * 3600
    return float(sec + int(days or 0) * 86400)


class SlurmJob:
    """The Slurm job this process runs in, as ``scontrol show job`` reports it: its time left
    (the driver is stopped before the limit, whatever ``--time`` is) and whether it is being
    preempted (Slurm then ends the job's steps, the Ray nodes, at once and signals nothing to
    the batch script)."""

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self.preempted_seen = False  # run_driver stopped the driver because of a preemption

    def requeue(self) -> bool:
        """``scontrol requeue`` this job. After a preemption the driver stops in Slurm's grace
        time; a batch script that then exits on its own would end the job FAILED, not requeued."""
        try:
            proc = subprocess.run(["scontrol", "requeue", self.job_id], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("job %s: scontrol requeue failed: %s", self.job_id, exc)
            return False
        if proc.returncode != 0:
            log.error("job %s: scontrol requeue: %s", self.job_id, (proc.stderr or proc.stdout).strip())
            return False
        log.warning("job %s requeued (preempted): it resumes from its results store when it runs again", self.job_id)
        return True

    @classmethod
    def current(cls, env: dict[str, str] | None = None) -> "SlurmJob | None":
        env = os.environ if env is None else env
        job = env.get("SLURM_JOB_ID")
        return cls(job) if job and shutil.which("scontrol") else None

    def show(self) -> dict[str, str]:
        try:
            out = subprocess.run(["scontrol", "show", "job", "-o", self.job_id], capture_output=True, text=True,
                                 timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return {}
        return dict(re.findall(r"(\w+)=(\S*)", out))

    def seconds_left(self, info: dict[str, str] | None = None) -> tuple[float, float] | None:
        """(seconds left, the time limit) or None (no limit, or scontrol did not answer)."""
        info = self.show() if info is None else info
        limit, ran = _slurm_duration(info.get("TimeLimit", "")), _slurm_duration(info.get("RunTime", ""))
        if limit is None or ran is None:
            return None
        return limit - ran, limit

    def preempted(self, info: dict[str, str] | None = None) -> bool:
        info = self.show() if info is None else info
        return info.get("PreemptTime", "None") not in ("None", "", "Unknown") or info.get("JobState") in (
            "PREEMPTED", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD")


def stop_margin(limit_s: float, wanted: float | None = None) -> float:
    """How long before the time limit the driver is stopped: ``$IBENCH_STOP_BEFORE_END_S`` when
    set (as given), else 300 s but never more than a fifth of the limit (a 5-minute job still
    runs 4 minutes)."""
    if wanted is None and os.environ.get(ENV_STOP_BEFORE_END, "").strip():
        return max(0.0, float(os.environ[ENV_STOP_BEFORE_END]))
    return max(0.0, min(300.0 if wanted is None else wanted, limit_s / 5))


def run_driver(cluster: RayCluster, command: Sequence[str], retries: int = 1, job: "SlurmJob | None" = None) -> int:
    """Run ``command`` with the cluster's environment; re-run it if it fails while every node is
    still up (a driver that dies resumes from its results store). SIGTERM/SIGINT (scancel, the
    job's time limit) go to the driver, then the cluster is stopped.

    In a Slurm job (``job``): the driver gets SIGTERM :func:`stop_margin` before the job's time
    limit (read from scontrol, again every minute: a changed limit counts), and when a node's
    Ray process ends while the driver runs and Slurm says the job is being preempted, the
    driver gets SIGTERM at once: it stores what was judged, finishes W&B and exits 143, before
    Slurm requeues the job (the requeued job resumes)."""
    env = cluster.driver_env()
    stop: dict[str, object] = {"signal": None, "preempted": False}
    current: dict[str, subprocess.Popen | None] = {"proc": None}

    def forward(signum, _frame):
        stop["signal"] = signum
        p = current["proc"]
        if p is not None and p.poll() is None:
            p.send_signal(signum)

    deadline: float | None = None
    margin = 0.0
    next_check = 0.0

    def watch() -> None:
        nonlocal deadline, margin, next_check
        assert job is not None
        now = time.monotonic()
        if stop["signal"] is not None:
            return
        info: dict[str, str] = {}
        if now >= next_check:  # scontrol every poll; the deadline is checked every second
            next_check = now + float(os.environ.get(ENV_SLURM_POLL, "10"))
            info = job.show()
            left = job.seconds_left(info) if info else None
            if left is not None:
                remaining, limit = left
                margin = stop_margin(limit)
                deadline = now + remaining - margin
        if info and job.preempted(info):
            log.warning("job %s is being preempted (Slurm ends its Ray nodes; PreemptTime=%s): stopping the driver; "
                        "the job is requeued and resumes from its results store", job.job_id,
                        info.get("PreemptTime", "?"))
            stop["preempted"] = job.preempted_seen = True
            forward(signal.SIGTERM, None)
        elif deadline is not None and now >= deadline:
            log.warning("job %s reaches its time limit in %.0f s: stopping the driver (SIGTERM; $%s sets how long "
                        "before the limit)", job.job_id, max(0.0, deadline + margin - now), ENV_STOP_BEFORE_END)
            forward(signal.SIGTERM, None)

    old = {s: signal.signal(s, forward) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1)}
    rc = 1
    try:
        for attempt in range(retries + 1):
            log.info("driver attempt %d/%d: %s", attempt + 1, retries + 1, shlex.join(command))
            current["proc"] = subprocess.Popen(list(command), env=env)
            while True:
                try:
                    rc = current["proc"].wait(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    if job is not None:
                        watch()
            if rc < 0:  # killed by a signal (e.g. before its handler was installed): 128 + N, as a shell says
                rc = 128 - rc
            if rc == 0 or stop["signal"] is not None:
                break
            if len(cluster.alive_nodes()) < 1 or not cluster.procs[cluster.spec.nodes[0]].alive():
                if job is not None and job.preempted():
                    stop["preempted"] = job.preempted_seen = True
                    log.warning("job %s is being preempted; the driver exited %d; the job is requeued", job.job_id, rc)
                else:
                    log.error("driver exited %d and the head is gone; not retrying", rc)
                break
            log.warning("driver exited %d; re-running it (it resumes from its results store)", rc)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return rc


def _spec_from_args(args: argparse.Namespace) -> ClusterSpec:
    nodes = node_list(args.nodes)
    job_dir = Path(args.job_dir or os.environ.get(ENV_CLUSTER_DIR) or _default_job_dir())
    temp = args.temp_dir or _default_temp_dir()
    return ClusterSpec(job_dir=job_dir, nodes=nodes, launcher=make_launcher(args.launcher), cpus=args.cpus,
                       gpus=args.gpus, head_cpus=args.head_cpus, head_gpus=args.head_gpus, temp_dir=temp,
                       object_store_bytes=args.object_store_memory, ip=args.ip, port=args.port,
                       timeout_s=args.timeout, ray_args=shlex.split(args.ray_args or ""))


def _default_job_dir() -> str:
    job = os.environ.get("SLURM_JOB_ID") or f"local-{os.getpid()}"
    return os.path.join(os.getcwd(), "outputs", "ray-clusters", job)


def _default_temp_dir() -> str:
    job = os.environ.get("SLURM_JOB_ID") or f"local-{os.getpid()}"
    return f"/tmp/ibench-ray-{job}"  # node-local and short: Ray's socket paths must stay < 108 bytes


def _add_cluster_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--job-dir", help=f"the cluster's folder (default ${ENV_CLUSTER_DIR} or outputs/ray-clusters/<job>)")
    p.add_argument("--nodes", help=f"comma-separated node names (default ${ENV_NODES}, then the Slurm allocation)")
    p.add_argument("--launcher", default="auto", help="srun | local | a prefix with {node} (default: srun in a Slurm job)")
    p.add_argument("--cpus", type=int, help="CPUs per node (default: what Ray detects)")
    p.add_argument("--gpus", type=int, help="GPUs per node (default: what Ray detects)")
    p.add_argument("--head-cpus", type=int)
    p.add_argument("--head-gpus", type=int)
    p.add_argument("--temp-dir", help="Ray's node-local temp root (default /tmp/ibench-ray-<job>)")
    p.add_argument("--object-store-memory", type=int)
    p.add_argument("--ip", help="the head's address (default: detected on the head)")
    p.add_argument("--port", type=int, help="the head's GCS port (default: a free one)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds for every node to join")
    p.add_argument("--ray-args", help="extra `ray start` flags for every node")


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    argv = list(sys.argv[1:] if argv is None else argv)
    command: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog="python -m ibench.cluster.bringup", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_run = sub.add_parser("run", help="bring up, run the command after --, tear down")
    _add_cluster_args(p_run)
    p_run.add_argument("--driver-retries", type=int, default=int(os.environ.get("IBENCH_DRIVER_RETRIES", "1")))
    p_up = sub.add_parser("up", help="bring up and return (cluster.env in the job folder)")
    _add_cluster_args(p_up)
    p_down = sub.add_parser("down", help="stop the node processes `up` started")
    p_down.add_argument("--job-dir", required=True)
    p_down.add_argument("--grace", type=float, default=10.0)
    sub.add_parser("nodes", help="print the node list")
    p_node = sub.add_parser("node", help="(on a node) start its Ray node")
    p_node.add_argument("--role", choices=["head", "worker"], required=True)
    p_node.add_argument("--job-dir", required=True)
    p_node.add_argument("--name", required=True)
    p_node.add_argument("--num-cpus", type=int)
    p_node.add_argument("--num-gpus", type=int)
    p_node.add_argument("--temp-dir")
    p_node.add_argument("--object-store-memory", type=int)
    p_node.add_argument("--ip")
    p_node.add_argument("--port", type=int)
    p_node.add_argument("--timeout", type=float, default=600.0)
    p_node.add_argument("--same-host", action="store_true", help="advertise the head's address (one-host tests)")
    p_node.add_argument("--ray-args")
    p_clean = sub.add_parser("clean", help="(on a node) remove Ray's temp folder if ibench made it and it is unused")
    p_clean.add_argument("--temp-dir", required=True)
    p_wait = sub.add_parser("wait", help="wait until N nodes are alive")
    p_wait.add_argument("--address", required=True)
    p_wait.add_argument("--nodes", type=int, required=True)
    p_wait.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args(argv)

    if args.cmd == "nodes":
        print("\n".join(node_list()))
        return 0
    if args.cmd == "node":
        return node_main(args)
    if args.cmd == "wait":
        return wait_main(args)
    if args.cmd == "clean":
        _remove_temp_if_unused(Path(args.temp_dir))
        return 0
    if args.cmd == "down":
        RayCluster.from_job_dir(args.job_dir).down(grace_s=args.grace)
        return 0
    spec = _spec_from_args(args)
    spec.die_with_parent = args.cmd == "run"  # `run` owns its cluster; `up` leaves it running
    cluster = RayCluster(spec)
    log.info("bringing up Ray on %d node(s) with %s: %s (job folder %s)", len(spec.nodes), spec.launcher.name,
             ",".join(spec.nodes), spec.job_dir)
    if args.cmd == "up":
        cluster.up()
        print(spec.job_dir / CLUSTER_ENV)
        return 0
    if not command:
        ap.error("run: give the driver command after --")
    cluster.up()
    log.info("cluster up at %s: %s", cluster.address, ", ".join(cluster.alive_nodes()))
    job = SlurmJob.current()
    try:
        return run_driver(cluster, command, retries=args.driver_retries, job=job)
    finally:
        cluster.down()
        if job is not None and job.preempted_seen:
            job.requeue()


if __name__ == "__main__":
    sys.exit(main())
