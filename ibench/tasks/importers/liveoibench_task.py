"""Build one LiveOIBench task folder from its problem row and its tests.

Kinds. Batch tasks become ``kind: batch`` (``tests/<name>.in/.out``, ``subtasks.json``; a
testlib ``checker.cpp`` shipped in ``grader_code`` becomes ``checker/checker.cpp``; tests that
belong to no subtask carry no points and are left out). Interactive tasks with a testlib
interactor become ``kind: interactive``: the interactor is ``interactor/non_adaptive.cpp``
(``adaptive.cpp`` and the 001-200 pool when there are more than 100 tests), tests are numbered
``cases/NNN.in`` in name order, ``meta.json`` ``case_names`` keeps the original names and
``subtasks.json`` is written with the new names. Tasks ibench cannot judge yet -- a grader
linked with a batch solution (unless ``--grader-batch import``), script-judged tasks
(``evaluation_script``), manager/stub communication tasks, Python interactors, output-only
tasks -- are written under ``_unsupported/``.

Task cards carry ``contest``, ``competition`` and ``date`` (YYYY-MM-DD, from the contest),
``title`` (task name), ``difficulty`` (the numeric LiveOIBench difficulty bucketed as in the
paper, the raw value in ``difficulty_score``), ``categorization`` (algorithm tags mapped onto
ibench's categories by keyword; all tags kept in ``algorithms``).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import UNSUPPORTED_DIR, ImportLog, safe_name, write_json, write_text
from .jsonstream import ParsedTests, write_tests
from .liveoibench_fields import (
    code_map,
    difficulty_bucket,
    is_null,
    json_field,
    map_algorithms,
    parse_date,
    task_limits,
    to_number,
)

DEFAULT_TASK_POINTS = 100.0  # max score of a task without subtasks (olympiad tasks are out of 100)


@dataclass
class ProblemMeta:
    """One row of the problems file, the folder its task goes to and its contest."""

    row: dict[str, Any]
    folder: str
    contest_id: str | None = None


@dataclass(frozen=True)
class GraderFiles:
    """The judging files a problem row ships, and what they say about how it is judged."""

    graders: dict[str, str]  # grader_code: file name -> source
    starters: dict[str, str]  # starter_code: file name -> source (given to the model too)
    setup: Any  # setup_script (judged by the release's scripts when set)
    evaluate: Any  # evaluation_script
    lower: dict[str, str]  # lower-cased grader file name -> its name
    has_scripts: bool
    grader_linked: bool  # a grader compiled with the solution (not a manager over pipes)
    testlib_interactor: str | None  # the grader file that is a testlib interactor, if any


def grader_files(row: dict[str, Any], extra: dict[str, Any]) -> GraderFiles:
    """The row's grader and starter files (from the tests file's columns when the problems
    file has none)."""
    graders = code_map(row.get("grader_code")) or code_map(extra.get("grader_codes"))
    starters = code_map(row.get("starter_code")) or code_map(extra.get("starter_codes"))
    setup, evaluate = row.get("setup_script"), row.get("evaluation_script")
    lower = {n.lower(): n for n in graders}
    return GraderFiles(
        graders=graders, starters=starters, setup=setup, evaluate=evaluate, lower=lower,
        has_scripts=any(isinstance(s, str) and s.strip() for s in (setup, evaluate)),
        grader_linked=any(n in lower for n in ("grader.cpp", "grader.c")) and "manager.cpp" not in lower,
        testlib_interactor=next((n for low, n in sorted(lower.items()) if low.endswith((".cpp", ".cc"))
                                 and "registerInteraction" in graders[n]), None))


def _is_interactive(task_type: str) -> bool:
    return task_type.startswith("interactive") or "communication" in task_type


def build_task(pm: ProblemMeta, value: Any, subtasks_raw: Any, extra: dict, contest_by_id: dict,
               task_dir: Path, log: ImportLog, grader_batch: str) -> tuple[str, float | None]:
    """Write one task folder in ``task_dir``; returns (destination, max points). Raises
    ValueError (or JsonShapeError, OSError) when the row cannot become a task."""
    row, pid = pm.row, pm.row["problem_id"].strip()
    if value is None:
        raise ValueError("tests value is null")
    statement = row.get("problem_statement")
    if is_null(statement) or not str(statement).strip():
        raise ValueError("no problem_statement")
    parsed, subtasks, max_points = _tests_and_subtasks(value, subtasks_raw, task_dir, pid, log)
    meta = _task_card(pm, pid, contest_by_id, log)
    meta["max_score"] = max_points

    files = grader_files(row, extra)
    for name, src in sorted(files.starters.items()):
        write_text(task_dir / "attachments" / safe_name(name), src)
    task_type = meta["task_type"]
    dest, reason = _unsupported_reason(task_type, files, grader_batch)
    write_text(task_dir / "desc.md", _statement(statement, files))
    if dest:
        _finish_unsupported(task_dir, meta, files, subtasks, reason, log, pid)
        return UNSUPPORTED_DIR, max_points
    if _is_interactive(task_type):
        dest = _finish_interactive(task_dir, meta, files.graders, files.testlib_interactor, parsed, subtasks, log, pid)
        return dest, max_points
    _finish_batch(task_dir, meta, files, subtasks, log, pid)
    return "", max_points


def _tests_and_subtasks(value: Any, subtasks_raw: Any, task_dir: Path, pid: str,
                        log: ImportLog) -> tuple[ParsedTests, dict[str, dict], float]:
    """Tests straight from the buffer into ``tests/``; subtasks renamed to the file stems, tests
    in no subtask left out. Returns (the tests, the subtasks, the task's max points)."""
    parsed = write_tests(value, task_dir / "tests")
    if not parsed.names:
        raise ValueError("no tests")
    if parsed.missing_output:
        log.note(f"{pid}: {len(parsed.missing_output)} test(s) without output (empty .out written)")
    subtasks = _subtasks(subtasks_raw, parsed, pid, log)
    if not subtasks:
        log.warn(pid, f"no subtasks: the task is all-or-nothing, worth {DEFAULT_TASK_POINTS:g} points")
        return parsed, subtasks, DEFAULT_TASK_POINTS
    referenced = {t for s in subtasks.values() for t in s["testcases"]}
    unref = [parsed.files[n] for n in parsed.names if parsed.files[n] not in referenced]
    if unref:
        log.warn(pid, f"{len(unref)} test(s) in no subtask carry no points and are left out: "
                      f"{', '.join(unref[:5])}{' ...' if len(unref) > 5 else ''}")
        for stem in unref:
            for ext in ("in", "out"):
                (task_dir / "tests" / f"{stem}.{ext}").unlink(missing_ok=True)
    return parsed, subtasks, float(sum(s["score"] for s in subtasks.values()))


def _task_card(pm: ProblemMeta, pid: str, contest_by_id: dict, log: ImportLog) -> dict[str, Any]:
    """``meta.json`` of the task, all but ``max_score`` and what its kind adds."""
    row = pm.row
    cpu, mem = task_limits(row, log, pid)
    if cpu is None or mem is None:
        raise ValueError(f"invalid limits time_limit={row.get('time_limit')!r} memory_limit={row.get('memory_limit')!r}")
    diff, dscore = difficulty_bucket(row.get("difficulty"))
    meta: dict[str, Any] = {"problem_id": pm.folder}
    try:
        algos = json_field(row.get("algorithms")) or []
    except json.JSONDecodeError:
        algos = [a.strip() for a in str(row.get("algorithms")).split(",") if a.strip()]
    if not isinstance(algos, list):
        algos = [str(algos)]
    task_type = str(row.get("task_type") or "batch").strip().lower()
    meta.update({"kind": "batch", "cpu_time_limit_ms": cpu, "memory_limit_mb": mem})
    if diff is None:
        log.warn(pid, f"difficulty {row.get('difficulty')!r} missing or invalid; using 'Medium'")
        diff = "Medium"
        meta["difficulty_defaulted"] = True
    meta["difficulty"] = diff
    if dscore is not None:
        meta["difficulty_score"] = dscore
    meta["categorization"] = map_algorithms(algos)
    meta["algorithms"] = [str(a) for a in algos]
    meta["title"] = str(row.get("task_name") or pid.split("-", 3)[-1])
    meta["source"] = "LiveOIBench"
    meta["liveoibench_id"] = pid
    meta["task_type"] = task_type
    if pm.folder != pid:
        log.warn(pid, f"problem_id is not a safe folder name; the folder is {pm.folder!r}")
    crow = contest_by_id.get(pm.contest_id or "")
    competition = row.get("competition")
    meta["competition"] = str(competition) if not is_null(competition) else pid.split("-")[0]
    if pm.contest_id:
        meta["contest"] = pm.contest_id
    date = parse_date(crow.get("date")) if crow else None
    if date is None and crow and not is_null(crow.get("date")):
        log.warn(pid, f"contest date {crow.get('date')!r} is not a date; left out")
    if date:
        meta["date"] = date
    if crow and not is_null(crow.get("division")):
        meta["division"] = str(crow.get("division"))
    return meta


def _unsupported_reason(task_type: str, files: GraderFiles, grader_batch: str) -> tuple[str, str]:
    """(UNSUPPORTED_DIR, why) for a task ibench cannot judge yet; ("", "") otherwise."""
    if "output" in task_type:
        return UNSUPPORTED_DIR, "output-only task"
    if _is_interactive(task_type):
        if files.has_scripts:
            return UNSUPPORTED_DIR, "judged by the release's setup/evaluation scripts"
        if "manager.cpp" in files.lower:
            return UNSUPPORTED_DIR, "manager/stub communication task"
        if files.testlib_interactor is None:
            return UNSUPPORTED_DIR, ("Python interactor" if any(n.endswith(".py") for n in files.lower)
                                     else "no testlib interactor in grader_code")
        return "", ""
    if files.grader_linked and grader_batch != "import":
        return UNSUPPORTED_DIR, ("grader linked with a batch solution (ibench's loader links graders only "
                                 "for kind 'grader'; use --grader-batch import once it does)")
    if files.has_scripts:
        return UNSUPPORTED_DIR, "judged by the release's setup/evaluation scripts"
    return "", ""


def _statement(statement: Any, files: GraderFiles) -> str:
    """``desc.md``: the statement, and for a grader task the files the solution must fit."""
    desc = str(statement).rstrip() + "\n"
    if not (files.graders and files.grader_linked):
        return desc
    headers = [n for n in files.graders if n.endswith(".h") and n != "testlib.h"]
    grader = files.lower.get("grader.cpp")
    shown = sorted(files.starters) + sorted(headers) + ([grader] if grader else [])
    if shown:
        desc += "\n## Files your solution is compiled with\n"
        for n in shown:
            src = files.starters.get(n) or files.graders.get(n, "")
            desc += f"\n`{n}`:\n\n```cpp\n{src.rstrip()}\n```\n"
    return desc


def _finish_unsupported(task_dir: Path, meta: dict, files: GraderFiles, subtasks: dict[str, dict], reason: str,
                        log: ImportLog, pid: str) -> None:
    """Keep the release's judging files under ``grader/`` for reference."""
    for name, src in sorted(files.graders.items()):
        write_text(task_dir / "grader" / safe_name(name), src)
    for name, src in (("setup.sh", files.setup), ("evaluate.sh", files.evaluate)):
        if isinstance(src, str) and src.strip():
            write_text(task_dir / "grader" / name, src)
    meta["unsupported"] = reason
    _write_subtasks(task_dir, subtasks)
    write_json(task_dir / "meta.json", meta)
    log.warn(pid, f"{reason}: imported under {UNSUPPORTED_DIR}/, not held for contest scoring")


def _finish_batch(task_dir: Path, meta: dict, files: GraderFiles, subtasks: dict[str, dict],
                  log: ImportLog, pid: str) -> None:
    """A testlib checker, and the grader files when the task is linked with one."""
    checker = next((files.graders[n] for low, n in files.lower.items() if low in ("checker.cpp", "checker.cc")), None)
    if checker is not None:
        if "testlib.h" in checker:
            write_text(task_dir / "checker" / "checker.cpp", checker)
        else:
            log.warn(pid, "checker.cpp is not a testlib checker (`checker <in> <out> <ans>`); outputs compared as tokens")
    if files.grader_linked:
        for name, src in sorted(files.graders.items()):
            if name.lower() not in ("checker.cpp", "checker.cc", "testlib.h"):
                write_text(task_dir / "grader" / safe_name(name), src)
        meta["grader_linked"] = True
    _write_subtasks(task_dir, subtasks)
    write_json(task_dir / "meta.json", meta)


def _subtasks(raw: Any, parsed: ParsedTests, pid: str, log: ImportLog) -> dict[str, dict]:
    """The ``subtasks`` column with test names turned into file stems; what is not valid is
    dropped with a warning."""
    try:
        data = json_field(raw)
    except json.JSONDecodeError:
        log.warn(pid, "subtasks column is not JSON; ignored")
        return {}
    if not data:
        return {}
    if isinstance(data, list):  # [{"score", "testcases"}] -> numbered
        data = {str(i + 1): s for i, s in enumerate(data)}
    if not isinstance(data, dict):
        log.warn(pid, "subtasks is not an object; ignored")
        return {}
    out: dict[str, dict] = {}
    by_name = dict(parsed.files)
    for sid in data:
        sub = data[sid]
        if not isinstance(sub, dict):
            log.warn(pid, f"subtask {sid} is not an object; ignored")
            continue
        score = to_number(sub.get("score"))
        if score is None or score < 0:
            log.warn(pid, f"subtask {sid} has no valid score; ignored")
            continue
        names = sub.get("testcases") or []
        if isinstance(names, str):
            names = [names]
        tests: list[str] = []
        missing: list[str] = []
        for n in names:
            stem = by_name.get(str(n))
            (tests if stem else missing).append(stem or str(n))
        if missing:
            log.warn(pid, f"subtask {sid} names {len(missing)} test(s) not in the tests: "
                          f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}; dropped from it")
        entry: dict[str, Any] = {"score": int(score) if float(score).is_integer() else score, "testcases": tests}
        grading = sub.get("grading")
        if grading in ("min-score", "all"):
            if grading == "min-score":
                entry["grading"] = grading
        elif grading is not None:
            log.warn(pid, f"subtask {sid} grading {grading!r} unknown; treated as all-or-nothing")
        out[str(sid)] = entry
    return out


def _write_subtasks(task_dir: Path, subtasks: dict[str, dict]) -> None:
    if subtasks:
        write_json(task_dir / "subtasks.json", subtasks)


def _finish_interactive(task_dir: Path, meta: dict, graders: dict[str, str], interactor: str | None,
                        parsed: ParsedTests, subtasks: dict[str, dict], log: ImportLog, pid: str) -> str:
    """Tests -> cases/NNN.in served by a testlib interactor."""
    tdir = task_dir / "tests"
    stems = [parsed.files[n] for n in parsed.names if (tdir / f"{parsed.files[n]}.in").exists()]
    if len(stems) > 200:
        meta["unsupported"] = f"{len(stems)} tests, more than the 200 interactive case slots"
        write_json(task_dir / "meta.json", meta)
        log.warn(pid, f"{meta['unsupported']}: imported under {UNSUPPORTED_DIR}/")
        return UNSUPPORTED_DIR
    mode = "non_adaptive" if len(stems) <= 100 else "adaptive"
    cdir = task_dir / "cases"
    cdir.mkdir()
    rename: dict[str, str] = {}
    for i, stem in enumerate(sorted(stems, key=_natural_key), start=1):
        (tdir / f"{stem}.in").rename(cdir / f"{i:03d}.in")
        rename[stem] = f"{i:03d}"
    shutil.rmtree(tdir)
    assert interactor is not None
    write_text(task_dir / "interactor" / f"{mode}.cpp", graders[interactor])
    meta.update({"kind": "interactive", "interactor_mode": mode,
                 "case_names": {v: k for k, v in rename.items()}})
    if mode == "adaptive":
        log.note(f"{pid}: {len(stems)} tests (> 100): served as the 001-200 pool of interactor/adaptive.cpp")
    if subtasks:
        log.note(f"{pid}: subtasks.json written for an interactive task (the loader scores subtasks of batch tasks only)")
        _write_subtasks(task_dir, {sid: {**s, "testcases": [rename[t] for t in s["testcases"] if t in rename]}
                                   for sid, s in subtasks.items()})
    write_json(task_dir / "meta.json", meta)
    return ""


def _natural_key(name: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", name) if t)
