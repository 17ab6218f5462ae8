"""``spec.json``: the whole :class:`~ibench.run.spec.RunSpec` of a run, versioned, at the head of its
run log (written by the launch before anything is generated).

It holds what a run is, in one place: the record's own version (:data:`FILE_VERSION`), the spec's
and the keys' versions (``SPEC_VERSION``, ``KEY_VERSION``), the run's keys (gen, judge, feedback),
the spec itself (model, sampling, prompt, feedback, judge, task selection, language, variant), the
task set (each task's id and a fingerprint of its files), the code version (``git describe`` of
the checkout, else the package version), the toolchains (g++, java, go, python), the command's
overrides, and the identity the reports label runs by. :class:`~ibench.results.runlog.RunLog`
reads it (``run.spec``) and every report after it; a folder made before it existed is migrated
once (:func:`migrate`: built from ``identity.json``, ``summary.json`` and the saved config,
marked ``"migrated": true``, with a message).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping

log = logging.getLogger(__name__)

SPEC_FILE = "spec.json"
FILE_VERSION = 1  # this file's layout
_SKIP_DIRS = {"solutions", "__pycache__", ".git"}  # the task's own content only (solutions: the reference model's)


# -- what goes in ---------------------------------------------------------------------------------
def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, Mapping):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, Path):
        return str(obj)
    return obj if isinstance(obj, (str, int, float, bool)) or obj is None else str(obj)


def task_fingerprint(root: Path) -> str:
    """A hash of a task folder's files (names and bytes; its known solutions left out)."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if _SKIP_DIRS.intersection(rel.parts[:-1]) or rel.name.startswith("."):
            continue
        h.update(rel.as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]


def task_set(tasks: Iterable[Any]) -> list[dict[str, str]]:
    """The run's tasks: id and content fingerprint, by id."""
    return sorted(({"id": t.task_id, "fingerprint": task_fingerprint(Path(t.root))} for t in tasks),
                  key=lambda t: t["id"])


def _first_line(cmd: list[str]) -> str | None:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    text = (proc.stdout or proc.stderr).strip()
    return text.splitlines()[0] if text else None


def code_version() -> str:
    """``git describe --always --dirty`` of the checkout ibench runs from, else the package's version."""
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        got = _first_line(["git", "-C", str(root), "describe", "--always", "--dirty", "--tags"])
        if got and "fatal" not in got:
            return got
    try:
        from importlib.metadata import version

        return f"ibench {version('ibench')}"
    except Exception:  # noqa: BLE001 - not installed as a package
        return "unknown"


def _version_command(setting: str, value: str) -> tuple[str, list[str]]:
    """(the record's name for it, the command printing its version) of the toolchain that the
    judge setting ``setting`` (a language's ``toolchain``, ibench/languages.py) names ``value``."""
    if setting == "compiler":
        return Path(value).name, [value, "--version"]
    if setting == "javac":  # the JVM that runs the programs, beside that javac
        java = str(Path(value).with_name("java")) if "/" in value else "java"
        return "java", [java, "-version"]
    tool = setting if value == "auto" else value
    return setting, [tool, "version" if setting == "go" else "--version"]


def toolchains(judge: Any) -> dict[str, str | None]:
    """The first line of each language's toolchain version, as the judge settings name them (None:
    not found), and the driver's own Python."""
    from ibench.languages import LANGUAGES

    out: dict[str, str | None] = {}
    for lang in LANGUAGES.values():
        name, command = _version_command(lang.toolchain, str(getattr(judge, lang.toolchain, lang.toolchain)))
        out[name] = _first_line(command)
    out["driver_python"] = sys.version.split()[0]
    return out


def build(spec: Any, identity: Mapping[str, Any], keys: Mapping[str, str], tasks: Iterable[Any],
          overrides: Iterable[str] = ()) -> dict[str, Any]:
    """The record written as spec.json."""
    from ibench.run.keys import KEY_VERSION
    from ibench.run.spec import SPEC_VERSION

    return {"file_version": FILE_VERSION, "spec_version": SPEC_VERSION, "key_version": KEY_VERSION,
            "keys": dict(keys), "spec": _plain(spec), "tasks": task_set(tasks), "code_version": code_version(),
            "toolchains": toolchains(getattr(spec, "judge", None)), "overrides": [str(o) for o in overrides],
            "identity": _plain(dict(identity))}


def write(run_dir: Path, record: Mapping[str, Any]) -> Path:
    """spec.json; a resumed run keeps the code and toolchains it was made with, the resume's
    own appended under ``resumed_with``."""
    path = Path(run_dir) / SPEC_FILE
    try:
        old = read(Path(run_dir))
    except SpecError:
        old = None
    if old and not old.get("migrated") and record.get("code_version") is not None:
        record = {**record, "code_version": old.get("code_version"), "toolchains": old.get("toolchains"),
                  "resumed_with": [*(old.get("resumed_with") or []),
                                   {"code_version": record.get("code_version"), "toolchains": record.get("toolchains")}]}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1, default=str) + "\n")
    tmp.replace(path)
    return path


# -- reading, and older folders -------------------------------------------------------------------
class SpecError(ValueError):
    """spec.json is unreadable or newer than this version of ibench reads."""


def read(run_dir: Path) -> dict[str, Any] | None:
    """spec.json of a run folder, or None when it has none."""
    path = Path(run_dir) / SPEC_FILE
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SpecError(f"{path}: unreadable ({exc})") from None
    if int(record.get("file_version", 0)) > FILE_VERSION:
        raise SpecError(f"{path}: file_version {record.get('file_version')} is newer than this ibench reads "
                        f"({FILE_VERSION}); update ibench")
    return record


def migrate(run_dir: Path, summary: Mapping[str, Any], config: Mapping[str, Any],
            announce: Any = None, persist: bool = True) -> dict[str, Any]:
    """spec.json for a folder made before it existed, from what the folder recorded
    (``identity.json`` or ``summary.json`` ``meta.identity``, the saved config, the summary's
    tasks); written once (``persist``, where the folder is writable) with a message, and
    returned. A run still going (no summary yet) is read so, never written."""
    run_dir = Path(run_dir)
    if not config and (run_dir / ".hydra" / "config.yaml").is_file():
        from omegaconf import OmegaConf

        loaded = OmegaConf.to_container(OmegaConf.load(run_dir / ".hydra" / "config.yaml"), resolve=False)
        config = {str(k): v for k, v in loaded.items()} if isinstance(loaded, dict) else {}
    meta = dict(summary.get("meta") or {})
    ident_file = run_dir / "identity.json"
    identity = dict(meta.get("identity") or {})
    if not identity and ident_file.is_file():
        try:
            identity = json.loads(ident_file.read_text())
        except (OSError, json.JSONDecodeError):
            identity = {}
    spec = {k: config.get(k) for k in ("model", "sampling", "prompt", "feedback", "judge") if k in config}
    bench = dict(config.get("bench") or {})
    spec["tasks"] = {k: bench.get(k) for k in ("tasks_dir", "ids", "difficulties", "categories", "limit")}
    spec["language"] = identity.get("language") or bench.get("language")
    spec["variant"] = identity.get("variant") or bench.get("variant") or "interactive"
    record = {"file_version": FILE_VERSION, "spec_version": None, "key_version": None, "migrated": True,
              "keys": {k: meta[k] for k in ("gen_key", "judge_key") if k in meta}, "spec": _plain(spec),
              "tasks": [{"id": t["task_id"], "fingerprint": None} for t in sorted(summary.get("tasks") or [],
                                                                                 key=lambda t: t["task_id"])],
              "code_version": None, "toolchains": {}, "overrides": list(identity.get("overrides") or []),
              "identity": identity}
    if not persist:
        return record
    try:
        write(run_dir, record)
        text = f"{run_dir}: no spec.json (a run made before it was written); migrated once from its identity, " \
               "summary and config (task fingerprints, code and toolchain versions unknown)"
    except OSError:
        text = f"{run_dir}: no spec.json, and the folder is read-only; read from its identity, summary and config"
    (announce or log.warning)(text)
    return record


def task_ids(record: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The task ids a spec record lists (empty when it lists none)."""
    return tuple(t["id"] for t in (record or {}).get("tasks") or ())
