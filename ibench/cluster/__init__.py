"""Where the work runs: Ray clusters, built from ``conf/cluster/*.yaml`` by their ``_target_``.

- :class:`LocalCluster` (``cluster=local``): a Ray instance on this machine, or join one.
- :class:`~ibench.cluster.slurm.SlurmCluster` (``cluster=slurm``): connect to the multi-node Ray
  cluster that ``slurm/ibench.sbatch`` brought up (:mod:`ibench.cluster.bringup`), or, inside a
  Slurm job without one (a hydra-submitit sweep job), start it over the job's nodes.
- :mod:`ibench.cluster.judging`: the Ray judge task with node/sandbox identity, and per-node
  sandbox surveys; :mod:`ibench.cluster.judge_loop`: the one bounded judging loop (the
  pipeline's, the benchmarks', the tests').

The single-machine classes live in :mod:`ibench.cluster.local`.
"""

from __future__ import annotations

from .local import Cluster, LocalCluster


def __getattr__(name: str):  # lazy: importing ibench.cluster must not import Ray
    if name == "SlurmCluster":
        from .slurm import SlurmCluster

        return SlurmCluster
    raise AttributeError(name)


__all__ = ["Cluster", "LocalCluster", "SlurmCluster"]
