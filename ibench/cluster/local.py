"""Where the work runs: a Ray cluster, built from ``conf/cluster/*.yaml`` by its ``_target_``.

``local`` starts a Ray instance on this machine (or joins one at ``address``). Other clusters
(Slurm, a later issue) subclass :class:`Cluster` and override :meth:`start` / :meth:`stop`.
A Ray instance that was already running when the run began (a test session, a notebook) is
reused and left running.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


class Cluster:
    name = "cluster"

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        pass

    def resources(self) -> dict[str, float]:
        import ray

        return dict(ray.cluster_resources())

    def __enter__(self) -> "Cluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class LocalCluster(Cluster):
    def __init__(self, name: str = "local", address: str | None = None, num_cpus: int | None = None,
                 num_gpus: int | None = None, include_dashboard: bool = False,
                 runtime_env: dict[str, Any] | None = None, **_: object) -> None:
        self.name = name
        self.address = address
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus
        self.include_dashboard = include_dashboard
        self.runtime_env = dict(runtime_env or {})
        self._owned = False

    def start(self) -> None:
        import ray

        if ray.is_initialized():
            log.info("reusing the Ray instance already initialised in this process")
            return
        kwargs: dict[str, Any] = {"include_dashboard": self.include_dashboard, "log_to_driver": True,
                                  "configure_logging": False}
        if self.runtime_env:
            kwargs["runtime_env"] = self.runtime_env
        if self.address:
            ray.init(address=self.address, **kwargs)
        else:
            ray.init(num_cpus=self.num_cpus, num_gpus=self.num_gpus, **kwargs)
        self._owned = True
        log.info("Ray started: %s", ray.cluster_resources())

    def stop(self) -> None:
        if self._owned:
            import ray

            ray.shutdown()
            self._owned = False
