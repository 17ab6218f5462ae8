"""Weights & Biases as a sink (the store is the source of truth).

Mode ``auto``: ``WANDB_MODE`` when set, else online when credentials exist (``WANDB_API_KEY``
or a netrc entry for the W&B host), else offline. Nothing here may stop or stall an
evaluation: an online init that fails or takes longer than ``init_timeout_s`` falls back to
offline, and every call is guarded.
"""

from __future__ import annotations

import json
import logging
import netrc
import os
import struct
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import urlparse

from ibench.results.metrics import RunSummary

log = logging.getLogger(__name__)


def has_credentials() -> bool:
    if os.environ.get("WANDB_API_KEY"):
        return True
    host = urlparse(os.environ.get("WANDB_BASE_URL", "https://api.wandb.ai")).hostname or "api.wandb.ai"
    path = os.environ.get("NETRC") or os.path.expanduser("~/.netrc")
    try:
        return netrc.netrc(path).authenticators(host) is not None
    except (FileNotFoundError, netrc.NetrcParseError, OSError):
        return False


def resolve_mode(mode: str) -> str:
    if mode != "auto":
        return mode
    env = os.environ.get("WANDB_MODE")
    if env:
        return {"dryrun": "offline", "run": "online"}.get(env, env)
    if os.environ.get("WANDB_DISABLED", "").lower() in ("1", "true", "yes"):
        return "disabled"
    return "online" if has_credentials() else "offline"


# The modes wandb.init accepts; resolve_mode passes WANDB_MODE through unchecked (wandb checks it).
WandbMode = Literal["online", "offline", "disabled", "shared"]

SAMPLE_COLUMNS = ["task_id", "sample_index", "verdict", "message", "failing_case", "solver_to_judge_tail",
                  "judge_to_solver_tail", "compile_message", "code"]


class WandbSink:
    def __init__(self, mode: str = "auto", project: str = "ibench", entity: str | None = None,
                 group: str | None = None, job_type: str = "eval", name: str | None = None,
                 tags: list[str] | None = None, init_timeout_s: float = 60.0, log_every_s: float = 10.0,
                 config: dict | None = None, dir: str | Path | None = None, run_id: str | None = None,
                 **_: object) -> None:
        self.mode = resolve_mode(mode)
        self.project, self.entity, self.group, self.job_type = project, entity, group, job_type
        self.name, self.tags = name, list(tags or [])
        self.init_timeout_s = init_timeout_s
        self.log_every_s = log_every_s
        self.config = config or {}
        self.dir = Path(dir) if dir else None
        self.run_id = run_id  # the run folder's own id: a resumed run continues the same W&B run
        self.run: Any = None
        self._last_log = 0.0
        self._step = 0

    @property
    def active(self) -> bool:
        return self.run is not None

    def start(self) -> None:
        if self.mode == "disabled":
            return
        try:
            import wandb
        except ImportError:
            log.warning("wandb is not installed; W&B logging is off")
            return
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = dict(project=self.project, entity=self.entity, group=self.group,
                                      job_type=self.job_type, name=self.name, tags=self.tags or None,
                                      config=self.config, dir=str(self.dir) if self.dir else None,
                                      reinit="create_new")
        if self.run_id:
            kwargs.update(id=self.run_id, resume="allow")
        for mode in ([self.mode, "offline"] if self.mode == "online" else [self.mode]):
            try:
                settings = wandb.Settings(init_timeout=self.init_timeout_s, silent=True, console="off")
                self.run = wandb.init(mode=cast(WandbMode, mode), settings=settings, **kwargs)
                self.mode = mode
                log.info("W&B run %s (%s)", self.run.id, mode)
                return
            except Exception as exc:  # noqa: BLE001 - W&B must never stop an evaluation
                log.warning("wandb.init(mode=%s) failed: %s", mode, exc)
        self.run = None

    def record_spec(self, record: dict[str, Any]) -> None:
        """The run's spec.json (:mod:`ibench.results.runspec`) in the W&B run's config under
        ``spec``: versions, keys, the task set, code and toolchain versions."""
        if not self.run:
            return
        try:
            self.run.config.update({"spec": {k: record.get(k) for k in ("file_version", "spec_version", "key_version",
                                                                        "keys", "tasks", "code_version", "toolchains")}},
                                   allow_val_change=True)
        except Exception as exc:  # noqa: BLE001 - W&B is a sink; the run goes on
            log.warning("W&B: spec not recorded: %s", exc)

    def progress(self, values: dict[str, Any], force: bool = False) -> None:
        import time

        if not self.run:
            return
        now = time.monotonic()
        if not force and now - self._last_log < self.log_every_s:
            return
        self._last_log = now
        try:
            self.run.log({k: v for k, v in values.items() if v is not None})
        except Exception as exc:  # noqa: BLE001
            log.warning("wandb log failed: %s", exc)

    def summary(self, summary: RunSummary, per_task: list[dict], files: dict[str, Path] | None = None,
                samples: Any = None, tables: dict[str, list[dict]] | None = None) -> None:
        """The summary metrics, the per-task table, the failure composition, the plots, and
        (``samples``, a polars frame from :meth:`ibench.results.RunLog.sample_table`) one row
        per sample — task, sample, verdict, failing case, transcript tails, code; ``tables``:
        more tables by key (the study rows, :func:`ibench.results.study.run_study`)."""
        if not self.run:
            return
        try:
            import wandb

            flat = {k: v for k, v in summary.flat().items() if v is not None}
            self.run.summary.update(flat)
            cols = list(per_task[0]) if per_task else ["task_id"]
            tasks = wandb.Table(columns=cols, data=[[row.get(c) for c in cols] for row in per_task])
            comp = wandb.Table(columns=["label", "fraction", "count"],
                               data=[[k, summary.failure_composition[k], summary.failure_counts[k]]
                                     for k in summary.failure_composition])
            payload: dict[str, Any] = {
                "per_task": tasks,
                "failure_composition": wandb.plot.bar(comp, "label", "fraction",
                                                      title=f"Failure composition — {summary.model}"),
            }
            if summary.cost:  # what the run spent (ibench.results.cost): the cost/... summary keys, and this table
                from ibench.results.cost import TOTALS

                payload["cost_table"] = wandb.Table(
                    columns=["figure", "total", "per_sample", "per_solved_task"],
                    data=[[k, summary.cost.get(k), summary.cost.get(f"{k}/sample"), summary.cost.get(f"{k}/solved_task")]
                          for k in TOTALS if summary.cost.get(k) is not None])
            if samples is not None and samples.height:
                cols = [c for c in SAMPLE_COLUMNS if c in samples.columns]
                payload["samples"] = wandb.Table(columns=cols, data=samples.select(cols).rows())
            for key, rows in (tables or {}).items():
                if rows:
                    cols = list(rows[0])
                    payload[key] = wandb.Table(columns=cols, data=[[r.get(c) for c in cols] for r in rows])
            for key, path in (files or {}).items():
                if path.suffix == ".png" and path.exists():
                    payload[f"plots/{key}"] = wandb.Image(str(path))
            self.run.log(payload)
        except Exception as exc:  # noqa: BLE001
            log.warning("wandb summary failed: %s", exc)

    def finish(self, exit_code: int = 0, status: str | None = None) -> None:
        """Finish the run; ``status`` (finished / interrupted / failed) goes to its summary as
        ``ibench/status``."""
        if not self.run:
            return
        try:
            if status:
                self.run.summary["ibench/status"] = status
                self.run.summary["ibench/exit_code"] = exit_code
            self.run.finish(exit_code=exit_code)
        except Exception as exc:  # noqa: BLE001
            log.warning("wandb finish failed: %s", exc)
        finally:
            self.run = None


# -- reading an offline run back (tests, and a quick look without syncing) ---------------------------
_BLOCK = 32 * 1024


def read_offline_run(path: str | Path) -> dict[str, Any]:
    """Summary, config and history of an offline run folder (``.../offline-run-*``) or ``.wandb`` file.

    Parses the run file's record log (LevelDB-style 32 KiB blocks of protobuf ``Record``s).
    """
    from wandb.proto import wandb_internal_pb2 as pb

    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("run-*.wandb"))  # Path.glob: a `[` in the folder's name is no pattern
        if not files:
            raise FileNotFoundError(f"no run-*.wandb in {path}")
        path = Path(files[0])
    data = path.read_bytes()
    ident, _magic, _version = struct.unpack("<4sHB", data[:7])
    if ident != b":W&B":
        raise ValueError(f"{path} is not a W&B run file")
    chunks: list[bytes] = []
    pending = b""
    pos = 7
    while pos + 7 <= len(data):
        left = _BLOCK - pos % _BLOCK
        if left < 7:
            pos += left
            continue
        _crc, length, kind = struct.unpack("<IHB", data[pos:pos + 7])
        if kind == 0 and length == 0:
            pos += left
            continue
        body = data[pos + 7:pos + 7 + length]
        pos += 7 + length
        if kind == 1:
            chunks.append(body)
        elif kind == 2:
            pending = body
        elif kind == 3:
            pending += body
        elif kind == 4:
            chunks.append(pending + body)
            pending = b""
    summary: dict[str, Any] = {}
    config: dict[str, Any] = {}
    history: list[dict[str, Any]] = []
    run_info: dict[str, Any] = {}

    def key_of(item: Any) -> str:
        return item.key or "/".join(item.nested_key)

    for chunk in chunks:
        # wandb's pb2 modules build Record from a descriptor at import time (after a star import
        # chosen by protobuf version), so mypy finds no static definition of it.
        rec = pb.Record()  # type: ignore[attr-defined]
        rec.ParseFromString(chunk)
        kind = rec.WhichOneof("record_type")
        if kind == "summary":
            for item in rec.summary.update:
                summary[key_of(item)] = json.loads(item.value_json)
        elif kind == "history":
            history.append({key_of(i): json.loads(i.value_json) for i in rec.history.item})
        elif kind in ("run", "config"):
            updates = rec.run.config.update if kind == "run" else rec.config.update
            for item in updates:
                config[key_of(item)] = json.loads(item.value_json)
            if kind == "run":
                run_info = {"project": rec.run.project, "entity": rec.run.entity, "group": rec.run.run_group,
                            "job_type": rec.run.job_type, "id": rec.run.run_id}
    return {"summary": summary, "config": config, "history": history, "run": run_info}
