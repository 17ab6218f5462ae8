"""The judge as a service for RL trainers (docs/SERVE.md): ``python -m ibench.serve``.

``settings`` (ServeSettings, ``conf/serve/``), ``core`` (one replica's work, no Ray), ``app`` (the
Ray Serve application: gateway and judge replicas), ``runcode`` (SandboxFusion's /run_code),
``inline`` (tasks carried in a request), ``metrics`` (Prometheus text), ``verl_reward`` (a verl
reward function calling the service)."""

from .settings import ServeSettings

__all__ = ["ServeSettings"]
