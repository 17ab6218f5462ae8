"""Import the published InteractBench release into ibench task folders.

    python -m ibench.tasks import-interactbench --problems problems.jsonl [--ioi ioi.jsonl] \\
        --cases DIR_OF_tar.zst --out DIR

Input (as published): ``problems.jsonl`` with one record per task (``problem_id, difficulty,
cate, cpu_time_limit_ms, memory_limit_mb, interactor_mode, description,
interactor_non_adaptive, interactor_adaptive, generator``); ``ioi.jsonl`` whose records add
``interactor_files`` (file name -> source), ``problem_json`` (dict or string) and
``materialization`` (``file_patches``: ``{path, replacements: [{match, replace}]}`` with every
match exact and unique; ``case_outputs``: ``{mode: "input_token_slice", input_glob,
output_suffix, length_index, start_index}``); and ``*.tar.zst`` archives holding
``<problem_id>/cases/NNN.in`` (``cases/NNN.in`` alone in an archive named after the task also
works). Archives are streamed, never unpacked whole.

Output (docs/CONVENTIONS.md): ``DIR/<problem_id>/`` with ``meta.json``, ``desc.md``,
``interactor/non_adaptive.cpp`` and/or ``interactor/adaptive.cpp``, ``generator/gen_cases.cpp``
and ``cases/NNN.in`` (names padded to three digits). Missing or invalid ``interactor_mode``,
``cpu_time_limit_ms`` and ``memory_limit_mb`` get the published defaults (``both``, 2000 ms,
256 MB) with a warning, except that a record without a valid mode that ships exactly one
interactor gets that interactor's mode (``both`` would need the other one). Gaps in case
numbering are allowed and reported. Cases outside the pools the mode serves are dropped with a
warning (the loader would reject them).

IOI records whose ``interactor_files`` hold a plain testlib interactor (stdin/stdout) become
ordinary interactive tasks (the interactor becomes ``interactor/non_adaptive.cpp``, cases are
numbered in name order and the original names are kept in ``meta.json`` ``case_names``). IOI
tasks judged through a manager over FIFOs, or a grader linked with the solution, do not fit
ibench's interactor contract (``interactor <case> <tout>`` on stdin/stdout); they are imported
whole, materialisation applied, under ``DIR/_unsupported/<problem_id>/`` for reference, which
the loader skips. Records that cannot become a valid task (no statement, no cases, a patch that
does not apply) go to ``DIR/_rejected/<problem_id>/`` with the reason in the summary.

Reading the release (JSONL records, streaming the case archives into the staged task folders)
is :mod:`.interactbench_archives`; this module builds the task folders and runs the import.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

from ibench.tasks.checks.cases import number_ranges
from ibench.tasks.model import ADAPTIVE_POOL, NON_ADAPTIVE_POOL

from . import (
    REJECTED_DIR,
    UNSUPPORTED_DIR,
    ImportLog,
    Staging,
    normalize_categories,
    normalize_difficulty,
    peak_rss_mb,
    positive_int,
    safe_name,
    write_json,
    write_text,
)
from .interactbench_archives import extract_cases, read_jsonl

DEFAULT_MODE = "both"
DEFAULT_CPU_MS = 2000
DEFAULT_MEMORY_MB = 256
DEFAULT_DIFFICULTY = "Medium"
MODES = ("non_adaptive", "adaptive", "both")
SUMMARY_FILE = "import_interactbench.json"
# Stems that a case glob may catch but that are not cases (InteractBench skips them too).
ANCILLARY_STEMS = frozenset({"groups", "license", "protocol", "readme", "notes"})


class RecordError(ValueError):
    """A record that cannot become a task; the message says why."""


# --------------------------------------------------------------------------------------------
# Building one task


def _mode_of(rec: dict, interactors: dict[str, Any], log: ImportLog, pid: str) -> str:
    mode = rec.get("interactor_mode")
    if isinstance(mode, str) and mode.strip().lower().replace("-", "_") in MODES:
        return mode.strip().lower().replace("-", "_")
    shipped = [m for m in ("non_adaptive", "adaptive") if interactors.get(m)]
    if len(shipped) == 1:
        log.warn(pid, f"interactor_mode {mode!r} missing or invalid; only the {shipped[0]} interactor is shipped, "
                      f"so using {shipped[0]!r} (the default {DEFAULT_MODE!r} would need both)")
        return shipped[0]
    log.warn(pid, f"interactor_mode {mode!r} missing or invalid; using the default {DEFAULT_MODE!r}")
    return DEFAULT_MODE


def _limits(rec: dict, log: ImportLog, pid: str) -> tuple[int, int]:
    cpu = positive_int(rec.get("cpu_time_limit_ms"))
    if cpu is None:
        log.warn(pid, f"cpu_time_limit_ms {rec.get('cpu_time_limit_ms')!r} missing or invalid; using {DEFAULT_CPU_MS}")
        cpu = DEFAULT_CPU_MS
    mem = positive_int(rec.get("memory_limit_mb"))
    if mem is None:
        log.warn(pid, f"memory_limit_mb {rec.get('memory_limit_mb')!r} missing or invalid; using {DEFAULT_MEMORY_MB}")
        mem = DEFAULT_MEMORY_MB
    return cpu, mem


def _card(rec: dict, pid: str, log: ImportLog) -> dict[str, Any]:
    """Common task-card fields (difficulty, categories, limits, source)."""
    diff = normalize_difficulty(rec.get("difficulty"))
    card: dict[str, Any] = {"problem_id": pid}
    cpu, mem = _limits(rec, log, pid)
    card["cpu_time_limit_ms"] = cpu
    card["memory_limit_mb"] = mem
    if diff is None:
        log.warn(pid, f"difficulty {rec.get('difficulty')!r} is not Easy/Medium/Hard; using {DEFAULT_DIFFICULTY!r}")
        diff = DEFAULT_DIFFICULTY
        card["difficulty_defaulted"] = True
    card["difficulty"] = diff
    cats, unknown = normalize_categories(rec.get("cate", rec.get("categorization")))
    if unknown:
        log.warn(pid, f"unknown categories {unknown} kept in meta.json 'tags', not in 'categorization'")
        card["tags"] = unknown
    card["categorization"] = cats
    card["source"] = "InteractBench" + (" (IOI)" if rec.get("_kind") == "ioi" else "")
    for key in ("title", "date"):
        if isinstance(rec.get(key), str) and rec[key].strip():
            card[key] = rec[key].strip()
    if "date" in card and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", card["date"]):
        card.pop("date")
    return card


def _case_number(stem: str) -> int | None:
    return int(stem) if stem.isdigit() else None


def normalize_cases(task_dir: Path, mode: str, log: ImportLog, pid: str) -> list[int]:
    """Rename ``cases/<n>.in`` to ``cases/NNN.in``, drop what the pools of ``mode`` cannot
    serve (with a warning), report gaps; return the case numbers kept."""
    cdir = task_dir / "cases"
    if not cdir.is_dir():
        return []
    allowed = set(NON_ADAPTIVE_POOL) if mode == "non_adaptive" else set(NON_ADAPTIVE_POOL) | set(ADAPTIVE_POOL)
    kept: dict[int, Path] = {}
    dropped_other: list[str] = []
    dropped_pool: list[int] = []
    for path in sorted(cdir.iterdir(), key=lambda p: p.name):
        n = _case_number(path.stem) if path.is_file() and path.suffix == ".in" else None
        if n is None:
            dropped_other.append(path.name)
            _remove(path)
            continue
        if n not in allowed:
            dropped_pool.append(n)
            path.unlink()
            continue
        if n in kept:
            log.warn(pid, f"cases {kept[n].name} and {path.name} are both case {n:03d}; keeping {kept[n].name}")
            path.unlink()
            continue
        kept[n] = path
    for n, path in kept.items():
        target = cdir / f"{n:03d}.in"
        if path != target:
            path.rename(target)
    if dropped_other:
        log.warn(pid, f"ignored {len(dropped_other)} file(s) in cases/ that are not <number>.in: "
                      f"{', '.join(dropped_other[:5])}{' ...' if len(dropped_other) > 5 else ''}")
    if dropped_pool:
        log.warn(pid, f"dropped case(s) {number_ranges(sorted(dropped_pool))}: outside the pools that "
                      f"interactor_mode {mode!r} serves")
    numbers = sorted(kept)
    for pool, label in ((NON_ADAPTIVE_POOL, "non-adaptive"), (ADAPTIVE_POOL, "adaptive")):
        used = [n for n in numbers if n in pool]
        if not used:
            continue
        missing = [n for n in range(pool.start, used[-1]) if n not in set(used)]
        if missing:
            log.warn(pid, f"gaps in {label} case numbering: {number_ranges(missing)} missing")
    return numbers


def _check_pools(mode: str, numbers: list[int], interactors: dict[str, bool]) -> None:
    if not numbers:
        raise RecordError("no cases (expected <problem_id>/cases/NNN.in in the archives)")
    need = {"non_adaptive": ("non_adaptive",), "adaptive": ("adaptive",), "both": ("non_adaptive", "adaptive")}[mode]
    for m in need:
        if not interactors.get(m):
            raise RecordError(f"interactor_mode {mode!r} needs interactor/{m}.cpp, which the record does not ship")
    if mode == "both":
        if not any(n in NON_ADAPTIVE_POOL for n in numbers):
            raise RecordError("interactor_mode 'both' but no case in 001-100")
        if not any(n in ADAPTIVE_POOL for n in numbers):
            raise RecordError("interactor_mode 'both' but no case in 101-200")


def build_standard(rec: dict, task_dir: Path, log: ImportLog) -> None:
    """A problems.jsonl record -> an interactive task folder (cases already staged)."""
    pid = task_dir.name
    card = _card(rec, pid, log)
    sources = {"non_adaptive": rec.get("interactor_non_adaptive"), "adaptive": rec.get("interactor_adaptive")}
    mode = _mode_of(rec, sources, log, pid)
    meta = {"problem_id": pid, "kind": "interactive", "interactor_mode": mode, **{k: v for k, v in card.items() if k != "problem_id"}}
    desc = rec.get("description")
    if not isinstance(desc, str) or not desc.strip():
        raise RecordError("no description (desc.md would be empty)")
    write_text(task_dir / "desc.md", desc)
    have: dict[str, bool] = {}
    for m, src in sources.items():
        if isinstance(src, str) and src.strip():
            write_text(task_dir / "interactor" / f"{m}.cpp", src)
            have[m] = True
            if "testlib.h" not in src:
                log.warn(pid, f"interactor {m}.cpp does not include testlib.h")
    unused = [m for m in have if m not in {"non_adaptive": ("non_adaptive",), "adaptive": ("adaptive",),
                                           "both": ("non_adaptive", "adaptive")}[mode]]
    for m in unused:
        (task_dir / "interactor" / f"{m}.cpp").unlink()
        log.warn(pid, f"interactor {m}.cpp dropped: interactor_mode {mode!r} never uses it")
    gen = rec.get("generator")
    if isinstance(gen, str) and gen.strip():
        write_text(task_dir / "generator" / "gen_cases.cpp", gen)
    numbers = normalize_cases(task_dir, mode, log, pid)
    _check_pools(mode, numbers, have)
    write_json(task_dir / "meta.json", meta)


# --------------------------------------------------------------------------------------------
# IOI records


def apply_file_patches(task_dir: Path, patches: Any) -> None:
    """Apply ``file_patches``: each replacement's ``match`` must occur exactly once."""
    if not patches:
        return
    if not isinstance(patches, list):
        raise RecordError("materialization.file_patches is not a list")
    for i, patch in enumerate(patches):
        if not isinstance(patch, dict) or not isinstance(patch.get("path"), str):
            raise RecordError(f"file_patches[{i}] needs a string 'path'")
        rel = PurePosixPath(patch["path"])
        if rel.is_absolute() or ".." in rel.parts:
            raise RecordError(f"file_patches[{i}] path {patch['path']!r} leaves the task folder")
        target = task_dir / rel
        if not target.is_file():
            raise RecordError(f"file_patches[{i}]: {patch['path']} does not exist")
        text = target.read_text(encoding="utf-8")
        reps = patch.get("replacements", [])
        if not isinstance(reps, list):
            raise RecordError(f"file_patches[{i}].replacements is not a list")
        for j, rep in enumerate(reps):
            match, replace = (rep or {}).get("match"), (rep or {}).get("replace")
            if not isinstance(match, str) or not isinstance(replace, str) or not match:
                raise RecordError(f"file_patches[{i}].replacements[{j}] needs string 'match' and 'replace'")
            found = text.count(match)
            if found != 1:
                raise RecordError(f"file_patches[{i}].replacements[{j}] on {patch['path']}: 'match' occurs "
                                  f"{found} times; expected exactly once")
            text = text.replace(match, replace, 1)
        write_text(target, text)


def apply_case_outputs(task_dir: Path, rules: Any) -> int:
    """Apply ``case_outputs`` rules (``input_token_slice``): the output of an input is the
    ``tokens[length_index]`` tokens starting at ``start_index``. Returns files written."""
    if not rules:
        return 0
    if not isinstance(rules, list):
        rules = [rules]
    written = 0
    for i, rule in enumerate(rules):
        if not isinstance(rule, dict) or rule.get("mode") != "input_token_slice":
            raise RecordError(f"case_outputs[{i}]: unsupported mode {(rule or {}).get('mode')!r}; expected 'input_token_slice'")
        glob = rule.get("input_glob", "cases/*")
        suffix = rule.get("output_suffix", ".out")
        try:
            li, si = int(rule["length_index"]), int(rule["start_index"])
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"case_outputs[{i}] needs integer length_index and start_index") from None
        if not isinstance(glob, str) or not isinstance(suffix, str) or ".." in glob:
            raise RecordError(f"case_outputs[{i}] needs string input_glob and output_suffix")
        inputs = [p for p in sorted(task_dir.glob(glob)) if p.is_file() and not p.name.endswith(suffix)
                  and p.stem.lower() not in ANCILLARY_STEMS]
        if not inputs:
            raise RecordError(f"case_outputs[{i}]: input_glob {glob!r} matches no input")
        for p in inputs:
            try:
                tokens = [int(t) for t in p.read_text(encoding="utf-8", errors="replace").split()]
            except ValueError:
                raise RecordError(f"case_outputs[{i}]: {p.relative_to(task_dir)} is not all integers") from None
            if li < 0 or si < 0 or li >= len(tokens) or tokens[li] < 0 or si + tokens[li] > len(tokens):
                raise RecordError(f"case_outputs[{i}]: indices out of range for {p.relative_to(task_dir)}")
            out = p.with_suffix(suffix) if p.suffix else p.parent / (p.name + suffix)
            write_text(out, " ".join(map(str, tokens[si:si + tokens[li]])) + "\n")
            written += 1
    return written


def classify_ioi(files: dict[str, str]) -> tuple[str, str | None]:
    """How an IOI task is judged, from its interactor files: ("stdio_interactive", file) for a
    plain testlib interactor; "grader_communication" (a manager), "grader_linked" (a grader or
    header linked with the solution) or "unknown" otherwise."""
    names = {n.lower(): n for n in files}
    if "manager.cpp" in names:
        return "grader_communication", None
    if any(n in names for n in ("grader.cpp", "grader.c", "stub.cpp")) or any(
            n.endswith(".h") and n != "testlib.h" for n in names):
        return "grader_linked", None
    for low, name in sorted(names.items()):
        if low.endswith((".cpp", ".cc")) and "registerInteraction" in files[name]:
            return "stdio_interactive", name
    return "unknown", None


def build_ioi(rec: dict, task_dir: Path, log: ImportLog) -> str:
    """An ioi.jsonl record -> a task folder; returns its destination ("" or _unsupported)."""
    pid = task_dir.name
    card = _card(rec, pid, log)
    desc = rec.get("description")
    if not isinstance(desc, str) or not desc.strip():
        raise RecordError("no description (desc.md would be empty)")
    write_text(task_dir / "desc.md", desc)
    files = rec.get("interactor_files") or {}
    if not isinstance(files, dict):
        raise RecordError("interactor_files is not an object of file name -> source")
    for name, content in files.items():
        if not isinstance(content, str) or safe_name(name) != name:
            raise RecordError(f"interactor_files entry {name!r} is not a plain file name with text content")
        write_text(task_dir / "interactor" / name, content)
    pj = rec.get("problem_json")
    if isinstance(pj, dict):
        write_text(task_dir / "problem.json", json.dumps(pj, ensure_ascii=False) + "\n")
    elif isinstance(pj, str) and pj.strip():
        write_text(task_dir / "problem.json", pj.strip() + "\n")
    mat = rec.get("materialization") or {}
    if not isinstance(mat, dict):
        raise RecordError("materialization is not an object")
    apply_file_patches(task_dir, mat.get("file_patches"))
    apply_case_outputs(task_dir, mat.get("case_outputs"))

    eval_type, interactor = classify_ioi(files)
    if eval_type != "stdio_interactive":
        meta = {**card, "kind": "grader", "ioi_eval_type": eval_type}
        write_json(task_dir / "meta.json", meta)
        log.warn(pid, f"IOI task judged as {eval_type}: not expressible with ibench's interactor contract; "
                      f"imported for reference under {UNSUPPORTED_DIR}/")
        return UNSUPPORTED_DIR

    # A plain testlib interactor: an ordinary interactive task.
    raw_mode = rec.get("interactor_mode")
    mode = raw_mode if raw_mode in ("non_adaptive", "adaptive") else "non_adaptive"
    if raw_mode not in (None, "non_adaptive", "adaptive"):
        log.warn(pid, f"interactor_mode {raw_mode!r} for an IOI task with one interactor; using {mode!r}")
    assert interactor is not None  # classify_ioi names it for stdio_interactive
    idir = task_dir / "interactor"
    (idir / interactor).rename(idir / "_main.cpp")
    for p in idir.iterdir():
        if p.suffix in (".cpp", ".cc", ".c") and p.name != "_main.cpp":
            p.unlink()
        elif p.name == "testlib.h":
            p.unlink()  # the judge supplies testlib.h
    (idir / "_main.cpp").rename(idir / f"{mode}.cpp")
    names = _renumber_ioi_cases(task_dir, mode, log, pid)
    if not names:
        raise RecordError("no cases (expected <problem_id>/cases/* in the archives)")
    meta = {"problem_id": pid, "kind": "interactive", "interactor_mode": mode,
            **{k: v for k, v in card.items() if k != "problem_id"}, "ioi_eval_type": eval_type}
    if any(k != v for k, v in names.items()):
        meta["case_names"] = names
    write_json(task_dir / "meta.json", meta)
    return ""


def _renumber_ioi_cases(task_dir: Path, mode: str, log: ImportLog, pid: str) -> dict[str, str]:
    """IOI cases may have any names: number inputs in natural name order (NNN.in), drop outputs.
    Returns {NNN: original name}."""
    cdir = task_dir / "cases"
    if not cdir.is_dir():
        return {}
    inputs = [p for p in cdir.iterdir() if p.is_file() and p.suffix in (".in", "") and p.stem.lower() not in ANCILLARY_STEMS]
    others = [p for p in cdir.iterdir() if p not in inputs]
    inputs.sort(key=lambda p: _natural_key(p.name))
    pool = NON_ADAPTIVE_POOL if mode == "non_adaptive" else range(1, 201)
    if len(inputs) > len(pool):
        log.warn(pid, f"{len(inputs)} cases; only the first {len(pool)} fit the case pools, the rest are dropped")
    tmp = cdir.parent / "_cases_tmp"
    tmp.mkdir()
    names: dict[str, str] = {}
    for n, p in zip(pool, inputs):
        p.rename(tmp / f"{n:03d}.in")
        names[f"{n:03d}"] = p.name
    shutil.rmtree(cdir)
    tmp.rename(cdir)
    if others:
        log.note(f"{pid}: {len(others)} non-input case file(s) (e.g. expected outputs) not used by the interactor")
    return names


# --------------------------------------------------------------------------------------------
# The import


def import_interactbench(
    problems: Path,
    out: Path,
    cases: Path | None = None,
    ioi: Path | None = None,
    only: set[str] | None = None,
) -> ImportLog:
    """Import the release; returns the log (warnings, counts). Idempotent over ``out``."""
    log = ImportLog("InteractBench")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records: dict[str, dict] = {}
    for path, kind in ((problems, "standard"), (ioi, "ioi")):
        if path is None:
            continue
        for rec in read_jsonl(Path(path), log, kind):
            pid = rec.get("problem_id")
            if not isinstance(pid, str) or not pid.strip():
                log.warn(rec["_where"], "record without problem_id; skipped")
                continue
            pid = pid.strip()
            folder = safe_name(pid)
            if folder != pid:
                log.warn(pid, f"problem_id is not a safe folder name; the folder is {folder!r}")
            if only and pid not in only and folder not in only:
                continue
            if folder in records:
                log.warn(pid, f"duplicate problem_id ({records[folder]['_where']} and {rec['_where']}); keeping the first")
                continue
            records[folder] = rec
    log.count("records", len(records))

    staging = Staging(out)
    try:
        for folder in records:
            staging.path(folder)
        if cases is not None:
            extract_cases(Path(cases), records, staging, log, only)
        for folder, rec in sorted(records.items()):
            task_dir = staging.path(folder)
            try:
                if rec["_kind"] == "ioi":
                    dest = build_ioi(rec, task_dir, log)
                else:
                    build_standard(rec, task_dir, log)
                    dest = ""
            except (RecordError, OSError, UnicodeDecodeError) as e:
                log.warn(folder, f"not imported: {e}; record kept under {REJECTED_DIR}/")
                _write_rejected(task_dir, rec, str(e))
                dest = REJECTED_DIR
            staging.commit(folder, dest)
            log.count({"": "imported", UNSUPPORTED_DIR: "unsupported (IOI, kept for reference)",
                       REJECTED_DIR: "rejected"}[dest])
    finally:
        staging.close()
    log.note(f"peak memory (RSS): {peak_rss_mb():.0f} MiB")
    write_json(out / SUMMARY_FILE, {k: v for k, v in log.to_dict().items() if k != "notes"})
    return log


def _write_rejected(task_dir: Path, rec: dict, reason: str) -> None:
    payload = {k: v for k, v in rec.items() if not k.startswith("_")}
    write_json(task_dir / "record.json", payload)
    write_text(task_dir / "REJECTED.txt", reason + "\n")
    (task_dir / "meta.json").unlink(missing_ok=True)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()


def _natural_key(name: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", name) if t)


# --------------------------------------------------------------------------------------------
# CLI


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ibench.tasks import-interactbench",
        description="Turn the published InteractBench release (problems.jsonl, ioi.jsonl, test_cases/*.tar.zst) "
                    "into ibench task folders.")
    p.add_argument("--problems", type=Path, required=True, help="problems.jsonl of the release")
    p.add_argument("--ioi", type=Path, help="ioi.jsonl of the release (optional)")
    p.add_argument("--cases", type=Path, required=True, help="folder holding the test_cases *.tar.zst archives")
    p.add_argument("--out", type=Path, required=True, help="output folder (one sub-folder per task)")
    p.add_argument("--only", nargs="+", metavar="ID", help="import only these problem ids")
    p.add_argument("--probe", action="store_true",
                   help="run the Category B mutation probe on the imported tasks and mark each card pass/fail")
    p.add_argument("--jobs", type=int, default=1, help="parallel judging processes for --probe (default 1)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for path in (args.problems, args.ioi):
        if path is not None and not path.is_file():
            print(f"error: {path} is not a file")
            return 2
    if not args.cases.is_dir():
        print(f"error: --cases {args.cases} is not a folder")
        return 2
    log = import_interactbench(args.problems, args.out, cases=args.cases, ioi=args.ioi,
                               only=set(args.only) if args.only else None)
    if args.probe and log.counts.get("imported", 0):
        from . import probe_imported

        probe_imported(args.out, log, jobs=args.jobs)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
