"""`python -m ibench.serve [serve=NAME] [serve.key=value ...]`: the judge as a Ray Serve service.
`python -m ibench.serve --openapi` prints the API's OpenAPI schema (no Ray started).

Composes ``conf/serve/<NAME>.yaml`` (default: ``default``; ``serve.judge`` is the evaluation's
``judge/default``), checks it (exit 2 with every problem), starts or joins Ray
(``serve.address``), deploys the application and serves until SIGINT/SIGTERM."""

from __future__ import annotations

import signal
import sys
import time

from omegaconf import OmegaConf

from .settings import ServeSettings


def register() -> None:
    from hydra.core.config_store import ConfigStore

    import ibench.run.config  # noqa: F401  (registers base_judge and the ibench.root resolver)

    ConfigStore.instance().store(group="serve", name="base_serve", node=ServeSettings)


def compose(overrides: list[str]) -> ServeSettings:
    """The settings from ``conf/`` and command-line overrides, as the typed dataclass."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    register()
    chosen = [o for o in overrides if o.startswith(("serve=", "+serve="))]
    rest = [o for o in overrides if o not in chosen]
    group = [o.lstrip("+").replace("serve=", "+serve=", 1) for o in chosen] or ["+serve=default"]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = hydra_compose(overrides=group + rest)
    settings = OmegaConf.to_object(cfg.serve)
    assert isinstance(settings, ServeSettings)
    return settings


# Ray Serve's own throughput mode (ray/serve/_private/constants.py): gRPC from the gateway to the
# replicas instead of Ray actor calls, user code and the router on the replica's main event loop,
# buffered request logs, the garbage collector frozen after start-up. Its direct ingress is left
# off: it moves the HTTP port to one Serve allocates and holds shutdown for its drain period.
# Measured with scripts/bench_serve.py (docs/SERVE.md, "Figures").
SERVE_THROUGHPUT_ENV = {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1", "RAY_SERVE_ENABLE_DIRECT_INGRESS": "0"}


def local_ray_env(settings: ServeSettings) -> dict[str, str]:
    """The environment a local Ray started here gives its workers (Serve's proxy, controller,
    gateway, replicas): Serve's throughput mode (``serve.throughput_mode``), and niceness
    ``serve.judge_nice`` instead of Ray's 15, at which the HTTP proxy and the gateway wait behind
    every other job on a busy node while the replicas idle for the next chunk. A cluster joined
    with ``serve.address`` keeps what its ``ray start`` was given (the same variables; docs/SERVE.md).
    Returns what it set (a variable already in the environment is left as it is)."""
    import os

    if settings.address is not None:
        return {}
    wanted = dict(SERVE_THROUGHPUT_ENV) if settings.throughput_mode else {}
    if settings.judge_nice is not None:
        wanted["RAY_worker_niceness"] = str(settings.judge_nice)
    set_here = {k: v for k, v in wanted.items() if k not in os.environ}
    os.environ.update(set_here)
    return set_here


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    if "--openapi" in argv:  # the API's OpenAPI schema, without Ray
        import json

        from .app import api

        print(json.dumps(api.openapi(), indent=1))
        return 0
    try:
        settings = compose(argv)
    except Exception as e:  # Hydra's own message: the key, the group, the value
        print(f"error: {e}", file=sys.stderr)
        return 2
    problems = settings.problems()
    if problems:
        print("error: the service's settings:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2

    import ray
    from ray import serve

    from .app import build_app

    local_ray_env(settings)
    ray.init(address=settings.address, num_cpus=None if settings.address else settings.num_cpus,
             include_dashboard=False, log_to_driver=False)
    serve.start(http_options={"host": settings.host, "port": settings.port})
    serve.run(build_app(settings), name="ibench", route_prefix="/")
    print(f"ibench judge service on http://{settings.host}:{settings.port} (API: /docs, /openapi.json; "
          f"health: /health; metrics: /metrics){' — bearer token required' if settings.resolved_token() else ''}",
          flush=True)
    stop = False

    def _stop(*_):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        while not stop:
            time.sleep(0.5)
    finally:
        serve.shutdown()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
