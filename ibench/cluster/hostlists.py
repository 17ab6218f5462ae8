"""The bring-up's node list: Slurm's compact host lists (``gpu[01-03,07],cpu5``) expanded, and
which nodes a cluster runs on (``--nodes`` > ``$IBENCH_NODES`` > the Slurm allocation > this host).

A heterogeneous Slurm job (``#SBATCH hetjob``: GPU nodes in one component, CPU-only nodes in
another) lists each component's nodes in ``$SLURM_JOB_NODELIST_HET_GROUP_<i>``;
:func:`het_groups` reads them (node -> component), for the launcher (``srun --het-group=I``) and
for per-component Ray resources.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import subprocess
from typing import Mapping, Sequence

log = logging.getLogger("ibench.cluster.bringup")

ENV_NODES = "IBENCH_NODES"


class BringupError(RuntimeError):
    """A cluster that cannot be brought up as asked (any bring-up module raises it)."""


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
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
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


def het_groups(env: Mapping[str, str] | None = None) -> dict[str, int]:
    """In a heterogeneous Slurm job: each node's component (``$SLURM_HET_SIZE`` components, the
    nodes of component ``I`` in ``$SLURM_JOB_NODELIST_HET_GROUP_I``); ``{}`` in any other job."""
    e: Mapping[str, str] = os.environ if env is None else env
    try:
        size = int(e.get("SLURM_HET_SIZE") or 0)
    except ValueError:
        size = 0
    out: dict[str, int] = {}
    for group in range(size):
        spec = e.get(f"SLURM_JOB_NODELIST_HET_GROUP_{group}", "").strip()
        for node in scontrol_hostnames(spec) if spec else []:
            out.setdefault(node, group)
    return out


def node_list(spec: str | Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """``spec`` > ``$IBENCH_NODES`` > the Slurm allocation (a heterogeneous job's components in
    order: component 0's nodes first, so the head goes on its first node, where the batch script
    runs) > this host."""
    e: Mapping[str, str] = os.environ if env is None else env
    groups = het_groups(e) if not spec and not e.get(ENV_NODES, "").strip() else {}
    if spec:
        nodes = list(spec) if not isinstance(spec, str) else re.split(r"[,\s]+", spec.strip())
    elif e.get(ENV_NODES, "").strip():
        nodes = re.split(r"[,\s]+", e[ENV_NODES].strip())
    elif groups:
        nodes = sorted(groups, key=lambda n: groups[n])  # stable: each component in Slurm's order
    elif e.get("SLURM_JOB_NODELIST") or e.get("SLURM_NODELIST"):
        nodes = scontrol_hostnames(e.get("SLURM_JOB_NODELIST") or e["SLURM_NODELIST"])
    else:
        nodes = [socket.gethostname()]
    nodes = [n for n in nodes if n]
    if len(set(nodes)) != len(nodes):
        raise BringupError(f"node list has duplicates: {nodes} (one Ray node per name)")
    return nodes


def cpu_nodes_from(spec: str | None, nodes: list[str], env: Mapping[str, str] | None = None) -> list[str]:
    """``--cpu-nodes``: a list of node names, or ``het`` (the nodes outside component 0 of a
    heterogeneous Slurm job: the GPU nodes are component 0, where the batch script runs)."""
    if not spec:
        return []
    if spec.strip() == "het":
        groups = het_groups(env)
        if not groups:
            raise BringupError("--cpu-nodes het: this is not a heterogeneous Slurm job (no $SLURM_HET_SIZE / "
                               "$SLURM_JOB_NODELIST_HET_GROUP_<i>); submit slurm/ibench-hetero.sbatch, or name the "
                               "CPU nodes")
        return [n for n in nodes if groups.get(n, 0) > 0]
    return [n for n in re.split(r"[,\s]+", spec.strip()) if n]
