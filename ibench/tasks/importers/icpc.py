"""`python -m ibench.tasks import-icpc PACKAGE... --out DIR`: ICPC / Kattis problem packages.

A package (a folder or a zip) holds ``problem.yaml``, ``data/sample`` and ``data/secret``
(``.in`` / ``.ans``, groups as sub-folders with ``testdata.yaml``), an output validator
(``output_validators/`` or ``output_validator/``) and ``submissions/<verdict>/``. Each becomes
one task folder (docs/IMPORT.md has the whole mapping):

- pass-fail and scoring problems become batch tasks with ``"contract": "icpc"`` (the package's
  validator under the validator contract, or the default output validator with the package's
  flags); interactive problems become interactive tasks whose interactor is the validator,
  with every case numbered 001, 002, ... (``"case_pools": "open"``: no cap on their number) and
  its answer file beside it;
- the test order is the package's (``sample`` before ``secret``, paths in lexicographic order);
  sample tests are judged too, as the ICPC tools do;
- scoring groups become subtasks (``min`` aggregation: the group's ``accept_score`` when every
  test passes; ``sum`` with ``on_reject: continue``: one subtask per test); with a custom
  validator a group earns its least score.txt (``min-score``, out of the group's ``range``);
- every submission becomes a known solution with its expected verdict set
  (:mod:`.icpc_package`), ``@EXPECTED_RESULTS@`` honoured.
"""

from __future__ import annotations

import argparse
import configparser
import re
import shutil
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from . import UNSUPPORTED_DIR, ImportLog, safe_name, write_json
from .icpc_package import (
    ICPC_FOLDERS,
    PackageError,
    SolutionWriter,
    Submission,
    Unsupported,
    import_packages,
    SUBMISSIONS_DIR,
    keep_unsupported_submissions,
    submission_source,
    task_card,
    write_statement,
)

DEFAULT_TIME_LIMIT_MS = 2000  # when the package fixes none (problemtools derives it from its submissions)
DEFAULT_MEMORY_MB = 2048  # the ICPC package format's default
STATEMENTS = ("problem_statement/problem.en.tex", "problem_statement/problem.tex", "problem_statement/problem.en.md",
              "statement/problem.en.md", "statement/problem.en.tex", "problem_statement/problem.md")


def _yaml(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise PackageError(f"{path.name}: not valid YAML ({e})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PackageError(f"{path.name}: expected a mapping at the top")
    return data


def _words(value: Any) -> set[str]:
    if isinstance(value, list):
        return {str(v).strip() for v in value}
    return set(str(value or "").split())


def _flags(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value or "").split()


def _title(conf: dict, fallback: str) -> str:
    name = conf.get("name")
    if isinstance(name, dict):
        name = name.get("en") or next(iter(name.values()), None)
    return str(name).strip() if name else fallback


def _time_limit_ms(root: Path, conf: dict, default_ms: int, log: ImportLog, task_id: str) -> int:
    for source in (root / ".timelimit", root / "timelimit"):
        if source.is_file():
            try:
                return max(1, round(float(source.read_text().split()[0]) * 1000))
            except (ValueError, IndexError):
                raise PackageError(f"{source.name}: not a number of seconds") from None
    ini = root / "domjudge-problem.ini"
    if ini.is_file():
        parser = configparser.ConfigParser()
        parser.read_string("[p]\n" + ini.read_text(encoding="utf-8"))
        if parser.has_option("p", "timelimit"):
            return max(1, round(float(parser.get("p", "timelimit").strip("'\"")) * 1000))
    limits = conf.get("limits") or {}
    if isinstance(limits, dict) and limits.get("time_limit") is not None:
        return max(1, round(float(limits["time_limit"]) * 1000))
    log.warn(task_id, f"the package fixes no time limit (.timelimit, limits.time_limit); {default_ms} ms used "
                      "(--time-limit-ms sets it)")
    return default_ms


def _testdata(data: Path, folder: Path) -> dict:
    """testdata.yaml settings in force in ``folder``: data/ down to it, the nearest winning."""
    merged: dict = {}
    parts = folder.relative_to(data).parts
    for i in range(len(parts) + 1):
        merged.update(_yaml(data.joinpath(*parts[:i]) / "testdata.yaml"))
    return merged


def _tests(data: Path, interactive: bool, log: ImportLog, task_id: str) -> list[tuple[str, Path, Path, Path]]:
    """(package path, .in, .ans, group folder) in the package's order: sample, then secret."""
    out = []
    for top in ("sample", "secret"):
        base = data / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.in"), key=lambda p: p.relative_to(data).parts):
            ans = path.with_suffix(".ans")
            rel = str(path.relative_to(data).with_suffix(""))
            if not ans.is_file():
                if top == "sample" and interactive:
                    continue  # an interactive sample may be an .interaction transcript only
                log.warn(task_id, f"test {rel} has no .ans; skipped")
                continue
            out.append((rel, path, ans, path.parent))
    if not out:
        raise PackageError("no test data (data/sample, data/secret with .in and .ans)")
    return out


def _validator_dir(root: Path) -> Path | None:
    """The output validator's folder (2023: output_validator/; legacy: output_validators/<one>)."""
    folder = next((root / n for n in ("output_validator", "output_validators") if (root / n).is_dir()), None)
    if folder is None:
        return None
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")]
    dirs = [p for p in entries if p.is_dir()]
    if len(dirs) > 1:
        raise Unsupported(f"{len(dirs)} output validators ({', '.join(p.name for p in dirs)}); ibench runs one")
    files = [p for p in entries if p.is_file()]
    return dirs[0] if dirs and not files else folder


def _constants(conf: dict) -> dict[str, str]:
    """problem.yaml ``constants`` (2025-09): ``{{NAME}}`` is the value, ``{{NAME.VARIANT}}`` a
    variant's spelling (``FIVE: {value: 5, STRING: "5"}``, or ``SIX: 6`` for a value alone)."""
    raw = conf.get("constants")
    if not isinstance(raw, dict):
        return {}
    out: dict[str, str] = {}
    for name, spec in raw.items():
        if isinstance(spec, dict):
            for variant, value in spec.items():
                out[f"{name}.{variant}"] = str(value)
            if "value" in spec:
                out[str(name)] = str(spec["value"])
        else:
            out[str(name)] = str(spec)
    return out


def _substitute(folder: Path, constants: dict[str, str]) -> None:
    """Write the package's constants into a validator's text files, as the format's tools do
    for validators (submissions are left as they are)."""
    if not constants:
        return
    pattern = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = pattern.sub(lambda m: constants.get(m.group(1), m.group(0)), text)
        if new != text:
            path.write_text(new, encoding="utf-8")


def _copy_program(src: Path, dest: Path, constants: dict[str, str] | None = None) -> None:
    from ibench.judge.validator import program_sources

    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".*"))
    _substitute(dest, constants or {})
    try:
        program_sources(dest)
    except ValueError as e:
        reason = str(e).replace(str(dest), src.name)  # the package's name for it, not the staging path
        raise Unsupported(f"output validator: {reason} (ibench builds C++ and Python validators)") from None


# submissions/submissions.yaml (the 2025-09 format): a folder's or a file's permitted verdicts
PERMITTED = {"AC": ("OK",), "WA": ("WA", "PE"), "TLE": ("TLE", "IDLE"), "RTE": ("RE", "MLE")}


def _permitted(spec: Any) -> tuple[str, ...] | None:
    """The labels a submissions.yaml entry's ``permitted`` list allows (None without one)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("permitted"), list):
        return None
    out = [label for v in spec["permitted"] for label in PERMITTED.get(str(v).upper(), ())]
    return tuple(dict.fromkeys(out)) or None


def _glob(raw: str) -> re.Pattern[str]:
    """A submissions.yaml key as the 2025-09 format (and BAPCtools) reads it: ``{a,b}`` braces
    (spaces around each choice dropped), ``*`` matching anything but ``/``, matched from the start
    of a submission's path under ``submissions/`` and ending at a complete folder or file name (a
    folder's key covers what it holds)."""
    def star(text: str) -> str:
        return re.escape(text).replace(re.escape("*"), "[^/]*")

    parts = re.split(r"\{([^{}]*)\}", raw.removesuffix("/"))
    rx = "".join(star(part) if i % 2 == 0 else "(" + "|".join(star(c.strip()) for c in part.split(",")) + ")"
                 for i, part in enumerate(parts))
    return re.compile(f"^{rx}(/|$)")


def _expected(overrides: dict, folder: str, name: str) -> tuple[tuple[str, ...] | None, bool]:
    """The labels a submission (``folder/name``) may get: the verdicts every matching key of
    submissions.yaml permits (with the format's default for a verdict folder unless the file
    names that folder itself), and whether submissions.yaml had a say; None where nothing
    restricts them (a folder ibench does not know)."""
    sets: list[tuple[str, ...]] = []
    if folder in ICPC_FOLDERS and folder not in overrides and f"{folder}/" not in overrides:
        sets.append(ICPC_FOLDERS[folder])
    from_yaml = False
    for key, spec in overrides.items():
        permitted = _permitted(spec)
        if permitted is not None and _glob(str(key)).match(f"{folder}/{name}"):
            sets.append(permitted)
            from_yaml = True
    if not sets:
        return None, from_yaml
    return tuple(label for label in sets[0] if all(label in other for other in sets[1:])), from_yaml


def _entrypoint(overrides: dict, folder: str, name: str) -> str | None:
    """A submission folder's ``entrypoint`` from submissions.yaml (the first key naming one)."""
    for key, spec in overrides.items():
        if isinstance(spec, dict) and spec.get("entrypoint") and _glob(str(key)).match(f"{folder}/{name}"):
            return str(spec["entrypoint"])
    return None


def _subtasks(data: Path, groups: dict[Path, list[str]], by_validator: bool = False) -> tuple[dict, dict]:
    """subtasks.json of a scoring problem, one entry per test group (see the module's text), and
    where a custom validator scores (``by_validator``: score.txt) each case's group maximum and
    the points of an accept without score.txt (meta.json ``score_txt``)."""
    subtasks: dict = {}
    score_txt: dict = {}
    for folder, names in groups.items():
        rel = folder.relative_to(data)
        gid = safe_name("_".join(rel.parts))
        if rel.parts[0] == "sample":
            subtasks[gid] = {"score": 0, "testcases": names}
            continue
        settings = _testdata(data, folder)
        score = float(settings.get("accept_score", 1))
        flags = _words(settings.get("grader_flags"))
        if any(p.is_dir() and any(p.rglob("*.in")) for p in folder.iterdir()) and "min" in flags:
            raise Unsupported(f"group {rel} takes the min over sub-groups; ibench sums subtasks")
        if by_validator:  # the group's score is the least score.txt of its tests (min), an accept's being accept_score
            if "min" not in flags and len(names) > 1:
                raise Unsupported(f"group {rel} sums the scores its validator writes; ibench takes a group's least")
            bounds = str(settings.get("range", "")).split()
            top = float(bounds[1]) if len(bounds) == 2 else score
            subtasks[gid] = {"score": top, "testcases": names, "grading": "min-score"}
            score_txt.update({n: {"max": top, "accept": score} for n in names})
        elif "min" in flags or len(names) == 1:
            subtasks[gid] = {"score": score, "testcases": names}
        elif settings.get("on_reject") == "continue":
            for name in names:
                subtasks[f"{gid}-{name}"] = {"score": score, "testcases": [name]}
        else:
            raise Unsupported(f"group {rel} sums its tests' scores but stops at the first rejection "
                              "(on_reject: break); ibench's subtasks do not model that")
    return subtasks, score_txt


def build_icpc(root: Path, task_dir: Path, log: ImportLog, task_id: str, *, time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
               interactor_cpu_ms: int | None = None) -> None:
    conf_path = root / "problem.yaml"
    if not conf_path.is_file():
        raise PackageError("no problem.yaml: not an ICPC/Kattis problem package")
    conf = _yaml(conf_path)
    validation = _words(conf.get("validation", "default"))
    types = _words(conf.get("type", "pass-fail"))
    for t in ("multi-pass", "submit-answer"):
        if t in types:
            raise Unsupported(f"problem type {t!r}")
    interactive = "interactive" in validation or "interactive" in types
    scoring = "scoring" in types or "score" in validation
    if (root / "include").is_dir():
        log.warn(task_id, "include/ (files added to every submission) is not applied")
    limits = conf.get("limits") or {}
    if not isinstance(limits, dict):
        raise PackageError("problem.yaml limits: expected a mapping")
    memory = int(limits.get("memory", DEFAULT_MEMORY_MB))
    cpu_ms = _time_limit_ms(root, conf, time_limit_ms, log, task_id)
    data = root / "data"
    root_flags = _flags(conf.get("validator_flags")) + _flags(_testdata(data, data).get("output_validator_flags"))
    tests = _tests(data, interactive, log, task_id)
    for rel, _, _, folder in tests:
        group_flags = _flags(conf.get("validator_flags")) + _flags(_testdata(data, folder).get("output_validator_flags"))
        if group_flags != root_flags:
            raise Unsupported(f"test group of {rel} sets its own output_validator_flags ({' '.join(group_flags)}); "
                              "ibench gives one set of flags per task")

    validator = _validator_dir(root)
    custom = "custom" in validation or interactive or (root / "output_validator").is_dir()
    if custom and validator is None:
        raise PackageError("a custom (or interactive) problem without an output validator")
    if interactive:
        assert validator is not None
        _copy_program(validator, task_dir / "interactor", _constants(conf))
    elif custom and validator is not None:
        _copy_program(validator, task_dir / "checker", _constants(conf))

    width = max(3, len(str(len(tests))))
    names: list[str] = []
    groups: dict[Path, list[str]] = {}
    case_names: dict[str, str] = {}
    for i, (rel, src_in, src_ans, folder) in enumerate(tests, start=1):
        if interactive:
            name = f"{i:0{width}d}"
            (task_dir / "cases").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src_in, task_dir / "cases" / f"{name}.in")
            shutil.copyfile(src_ans, task_dir / "cases" / f"{name}.ans")
        else:
            name = f"{i:0{width}d}-{safe_name(rel.replace('/', '_'))}"
            (task_dir / "tests").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src_in, task_dir / "tests" / f"{name}.in")
            shutil.copyfile(src_ans, task_dir / "tests" / f"{name}.out")
        names.append(name)
        case_names[name] = rel
        groups.setdefault(folder, []).append(name)

    full_score = None
    extra_score: dict = {}
    if scoring:
        subtasks, score_txt = _subtasks(data, groups, by_validator=custom)
        write_json(task_dir / "subtasks.json", subtasks)
        if score_txt:
            extra_score["score_txt"] = score_txt
        full_score = sum(s["score"] for s in subtasks.values())

    extra: dict = {"contract": "icpc", "case_names": case_names, **extra_score}
    if root_flags:
        extra["validator_flags"] = root_flags
    if interactive:
        extra["case_pools"] = "open"
    budget = interactor_cpu_ms
    if budget is None and limits.get("validation_time") is not None:
        budget = round(float(limits["validation_time"]) * 1000)
    if budget is not None:
        extra["interactor_cpu_ms"] = int(budget)
    title = _title(conf, root.name)
    write_json(task_dir / "meta.json", task_card(task_id, kind="interactive" if interactive else "batch", cpu_ms=cpu_ms,
                                                 memory_mb=memory, title=title, source=str(conf.get("source") or "icpc package"),
                                                 **extra))
    statement = next((root / s for s in STATEMENTS if (root / s).is_file()), None)
    write_statement(task_dir, title, statement.read_text(encoding="utf-8", errors="replace") if statement else None, root.name)

    writer = SolutionWriter(task_dir, log, task_id)
    subs = root / "submissions"
    overrides = _yaml(subs / "submissions.yaml") if subs.is_dir() else {}
    unsupported: list[tuple[str, Path, str]] = []
    for folder in sorted(p for p in subs.iterdir() if p.is_dir()) if subs.is_dir() else []:
        for entry in sorted(p for p in folder.iterdir() if not p.name.startswith(".")):
            accepts, from_yaml = _expected(overrides, folder.name, entry.name)
            if accepts is None:
                log.warn(task_id, f"submission {folder.name}/{entry.name}: not in a verdict folder ibench knows and "
                                  "no permitted verdicts in submissions.yaml; skipped")
                continue
            if not accepts:
                log.warn(task_id, f"submission {folder.name}/{entry.name}: the keys of submissions.yaml that match it "
                                  "permit no verdict in common; skipped")
                continue
            if entry.name.endswith(".disabled"):
                log.warn(task_id, f"submission {folder.name}/{entry.name}: disabled; skipped")
                log.count("submissions skipped (disabled)")
                continue
            found = submission_source(entry, _entrypoint(overrides, folder.name, entry.name))
            if found.source is None and found.language:
                log.warn(task_id, f"submission {folder.name}/{entry.name}: {found.reason}; skipped")
                log.count("submissions skipped (language)")
                continue
            if found.source is None:
                log.warn(task_id, f"submission {folder.name}/{entry.name}: {found.reason}; skipped, kept under "
                                  f"{UNSUPPORTED_DIR}/{SUBMISSIONS_DIR}/{task_id}/")
                log.count("submissions skipped (several files)")
                unsupported.append((f"{folder.name}/{entry.name}", entry, found.reason))
                continue
            tag = f"{folder.name} (submissions.yaml)" if from_yaml else folder.name
            writer.add(Submission(found.source, tag, accepts, found.note, entry.stem if entry.is_dir() else ""),
                       score=full_score)
    writer.close()
    keep_unsupported_submissions(task_dir, unsupported)
    log.count("interactive" if interactive else "batch")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ibench.tasks import-icpc",
                                description="Import ICPC / Kattis problem packages (folders or zips) as task folders.")
    p.add_argument("packages", nargs="+", type=Path, metavar="PACKAGE")
    p.add_argument("--out", type=Path, required=True, help="the benchmark folder to write")
    p.add_argument("--only", nargs="*", help="import only these package names")
    p.add_argument("--time-limit-ms", type=int, default=DEFAULT_TIME_LIMIT_MS,
                   help=f"CPU limit for a package without .timelimit / limits.time_limit (default {DEFAULT_TIME_LIMIT_MS})")
    p.add_argument("--interactor-cpu-ms", type=int, default=None,
                   help="the validator's / interactor's own CPU budget (default: limits.validation_time, else the judge's)")
    return p


def import_icpc(packages: list[Path], out: Path, only: set[str] | None = None, time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
                interactor_cpu_ms: int | None = None) -> ImportLog:
    def build(root: Path, task_dir: Path, log: ImportLog, task_id: str) -> None:
        build_icpc(root, task_dir, log, task_id, time_limit_ms=time_limit_ms, interactor_cpu_ms=interactor_cpu_ms)

    return import_packages(packages, out, ImportLog("icpc"), build, only)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    missing = [str(p) for p in args.packages if not p.exists()]
    if missing:
        print(f"error: no such package: {', '.join(missing)}")
        return 2
    log = import_icpc(args.packages, args.out, set(args.only) if args.only else None, args.time_limit_ms,
                      args.interactor_cpu_ms)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
