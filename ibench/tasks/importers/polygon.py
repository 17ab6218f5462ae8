"""`python -m ibench.tasks import-polygon PACKAGE... --out DIR`: Codeforces Polygon packages.

A full package (a folder or a zip; the "linux" or "windows" package, which holds the tests)
has ``problem.xml``, ``tests/NN`` inputs with ``tests/NN.a`` answers, ``files/`` (the testlib
checker and interactor) and ``solutions/`` tagged in ``problem.xml``. Each becomes one task
folder (docs/IMPORT.md has the whole mapping):

- the ``tests`` testset's limits (ms, bytes → MB) and tests in their order; a package without
  its tests (a "standard" package: manual tests, generators and scripts) has them made at
  import, its generator commands run and its answers written by the main solution
  (:mod:`.polygon_tests`);
- the checker (testlib, ``checker in out ans``) becomes ``checker/checker.cpp``; an interactor
  makes the task interactive (``interactor in tout``, cases 001, 002, ... with no cap on their
  number, ``"case_pools": "open"``), and the checker then judges the interactor's ``tout``
  against the answer once the interactor accepted, as Polygon does;
- test groups and points become subtasks: a ``complete-group`` group earns its points when all
  its tests pass, and the tests of the groups it depends on join it; ``each-test`` groups and
  tests outside groups give each test its own points;
- every tagged solution becomes a known solution with its expected verdict set.
"""

from __future__ import annotations

import argparse
import math
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from . import ImportLog, safe_name, write_json
from .icpc_package import (
    POLYGON_TAGS,
    PackageError,
    SolutionWriter,
    Submission,
    Unsupported,
    import_packages,
    task_card,
    write_statement,
)
from .polygon_tests import PolygonTests

SKIPPED_TAGS = {"failed": "expects the checker to fail", "do-not-run": "tagged do-not-run"}
STATEMENT_SECTIONS = ("legend.tex", "input.tex", "output.tex", "interaction.tex", "notes.tex", "scoring.tex")


def _xml(root: Path) -> ET.Element:
    try:
        return ET.parse(root / "problem.xml").getroot()
    except (ET.ParseError, OSError) as e:
        raise PackageError(f"problem.xml: {e}") from None


def _int(el: ET.Element | None, what: str) -> int:
    if el is None:
        return -1
    try:
        return int(float((el.text or "").strip()))
    except ValueError:
        raise PackageError(f"problem.xml {what}: {el.text!r} is not a number") from None


def _pattern(pattern: str, n: int) -> str:
    return pattern % n


def _title(xml: ET.Element, fallback: str) -> str:
    names = xml.findall("names/name")
    english = next((n for n in names if n.get("language") == "english"), names[0] if names else None)
    return (english.get("value") if english is not None else None) or fallback


def _statement(root: Path) -> str | None:
    for lang in ("english", "russian"):
        sec = root / "statement-sections" / lang
        if sec.is_dir():
            parts = [(sec / n).read_text(encoding="utf-8", errors="replace").strip() for n in STATEMENT_SECTIONS
                     if (sec / n).is_file()]
            if parts:
                return "\n\n".join(parts)
        tex = root / "statements" / lang / "problem.tex"
        if tex.is_file():
            return tex.read_text(encoding="utf-8", errors="replace")
    return None


def _source(root: Path, asset: ET.Element | None) -> Path | None:
    if asset is None:
        return None
    src = asset.find("source")
    if src is None or not src.get("path"):
        return None
    path = root / str(src.get("path"))
    if not path.is_file():
        raise PackageError(f"{src.get('path')} is named in problem.xml but not in the package")
    if not str(src.get("type", "cpp")).startswith("cpp"):
        raise Unsupported(f"{src.get('path')}: a {src.get('type')} program; ibench builds C++ checkers and interactors")
    return path


def _copy_program(src: Path, dest_dir: Path, name: str) -> None:
    dest_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest_dir / name)
    for header in src.parent.glob("*.h"):  # the package's own headers; testlib.h comes from ibench
        if header.name != "testlib.h":
            shutil.copyfile(header, dest_dir / header.name)


def _subtasks(tests: list[ET.Element], names: list[str], groups: dict[str, ET.Element]) -> dict:
    """subtasks.json from points and groups (see the module's text)."""
    by_group: dict[str, list[str]] = {}
    loose: list[tuple[str, float]] = []
    for el, name in zip(tests, names):
        g = el.get("group")
        if g is not None:
            by_group.setdefault(g, []).append(name)
        else:
            loose.append((name, float(el.get("points", 0) or 0)))
    points = {name: float(el.get("points", 0) or 0) for el, name in zip(tests, names)}

    def closure(g: str, seen: set[str]) -> list[str]:
        out = list(by_group.get(g, []))
        for dep in groups[g].findall("dependencies/dependency") if g in groups else []:
            d = str(dep.get("group"))
            if d not in seen:
                seen.add(d)
                out += [t for t in closure(d, seen) if t not in out]
        return out

    subtasks: dict = {}
    for g, members in by_group.items():
        group = groups.get(g)
        policy = group.get("points-policy", "complete-group") if group is not None else "each-test"
        if policy == "complete-group":
            declared = group.get("points") if group is not None else None
            score = float(declared) if declared else sum(points[t] for t in members)
            subtasks[safe_name(f"group-{g}")] = {"score": score, "testcases": closure(g, {g})}
        else:
            if group is not None and group.findall("dependencies/dependency"):
                raise Unsupported(f"group {g} scores each test but depends on other groups; ibench cannot model it")
            for t in members:
                subtasks[f"group-{safe_name(g)}-{t}"] = {"score": points[t], "testcases": [t]}
    for name, p in loose:
        subtasks[f"test-{name}"] = {"score": p, "testcases": [name]}
    return subtasks


def build_polygon(root: Path, task_dir: Path, log: ImportLog, task_id: str, *, interactor_cpu_ms: int | None = None) -> None:
    if not (root / "problem.xml").is_file():
        raise PackageError("no problem.xml: not a Polygon package")
    xml = _xml(root)
    testset = next((t for t in xml.findall("judging/testset") if t.get("name") == "tests"), None)
    if testset is None:
        raise PackageError("problem.xml has no testset named 'tests'")
    judging = xml.find("judging")
    if judging is not None and (judging.get("input-file") or judging.get("output-file")):
        raise Unsupported("the problem reads or writes named files, not stdin / stdout")
    cpu_ms = _int(testset.find("time-limit"), "time-limit")
    mem_bytes = _int(testset.find("memory-limit"), "memory-limit")
    if cpu_ms <= 0 or mem_bytes <= 0:
        raise PackageError("problem.xml: the tests testset has no time-limit or memory-limit")
    tests = testset.findall("tests/test")
    count = _int(testset.find("test-count"), "test-count")
    if count >= 0 and count != len(tests):
        log.warn(task_id, f"test-count says {count}, {len(tests)} <test> elements; the elements are used")
    if not tests:
        raise PackageError("the tests testset has no tests")
    in_pat = (testset.findtext("input-path-pattern") or "tests/%02d").strip()
    ans_pat = (testset.findtext("answer-path-pattern") or "tests/%02d.a").strip()
    interactor = _source(root, xml.find("assets/interactor"))
    checker = _source(root, xml.find("assets/checker"))

    width = max(3, len(str(len(tests))))
    names: list[str] = []
    with PolygonTests(root, xml, tests, in_pat, ans_pat, interactor=interactor, checker=checker,
                      log=log, task_id=task_id) as sources:
        for i in range(1, len(tests) + 1):
            src_in = sources.input(i)
            src_ans = sources.answer(i, src_in)
            name = f"{i:0{width}d}"
            folder = task_dir / ("cases" if interactor is not None else "tests")
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src_in, folder / f"{name}.in")
            if src_ans is not None:
                shutil.copyfile(src_ans, folder / (f"{name}.ans" if interactor is not None else f"{name}.out"))
            names.append(name)
        if sources.generated or sources.answered:
            log.note(f"{task_id}: {sources.generated} test(s) generated, {sources.answered} answer(s) written "
                     "by a solution (main, else accepted)")
            log.count("tests generated at import", sources.generated)
    if interactor is not None:
        _copy_program(interactor, task_dir / "interactor", "non_adaptive.cpp")
    if checker is not None:
        _copy_program(checker, task_dir / "checker", "checker.cpp")
    elif interactor is None:
        log.warn(task_id, "no checker in problem.xml: outputs compared token by token")

    groups = {str(g.get("name")): g for g in testset.findall("groups/group")}
    scored = bool(groups) or any(float(t.get("points", 0) or 0) > 0 for t in tests)
    full_score = None
    if scored:
        subtasks = _subtasks(tests, names, groups)
        write_json(task_dir / "subtasks.json", subtasks)
        full_score = sum(s["score"] for s in subtasks.values())

    extra: dict = {"case_names": {n: _pattern(in_pat, i) for i, n in enumerate(names, start=1)}}
    if interactor is not None:
        extra["case_pools"] = "open"
    if interactor_cpu_ms is not None:
        extra["interactor_cpu_ms"] = interactor_cpu_ms
    title = _title(xml, root.name)
    kind = "interactive" if interactor is not None else "batch"
    card = task_card(task_id, kind=kind, cpu_ms=cpu_ms, memory_mb=math.ceil(mem_bytes / 2**20), title=title,
                     source=f"polygon:{xml.get('short-name') or root.name}", **extra)
    write_json(task_dir / "meta.json", card)
    write_statement(task_dir, title, _statement(root), root.name)

    writer = SolutionWriter(task_dir, log, task_id)
    for sol in xml.findall("assets/solutions/solution"):
        tag = str(sol.get("tag", ""))
        src = sol.find("source")
        if src is None or not src.get("path"):
            continue
        path = root / str(src.get("path"))
        if tag in SKIPPED_TAGS or tag not in POLYGON_TAGS:
            log.warn(task_id, f"solution {path.name} ({tag}): {SKIPPED_TAGS.get(tag, 'a tag ibench does not know')}; skipped")
            continue
        if not path.is_file():
            log.warn(task_id, f"solution {src.get('path')} is named in problem.xml but not in the package; skipped")
            continue
        if "python.2" in str(src.get("type", "")) or "pypy.2" in str(src.get("type", "")):
            log.warn(task_id, f"solution {path.name}: Python 2 (ibench runs Python 3); skipped")
            log.count("submissions skipped (language)")
            continue
        writer.add(Submission(path, tag, POLYGON_TAGS[tag]), score=full_score)
    writer.close()
    log.count(kind)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ibench.tasks import-polygon",
                                description="Import Codeforces Polygon packages (folders or zips) as task folders.")
    p.add_argument("packages", nargs="+", type=Path, metavar="PACKAGE")
    p.add_argument("--out", type=Path, required=True, help="the benchmark folder to write")
    p.add_argument("--only", nargs="*", help="import only these package names")
    p.add_argument("--interactor-cpu-ms", type=int, default=None,
                   help="the checker's / interactor's own CPU budget, recorded on the task (default: the judge's)")
    return p


def import_polygon(packages: list[Path], out: Path, only: set[str] | None = None,
                   interactor_cpu_ms: int | None = None) -> ImportLog:
    def build(root: Path, task_dir: Path, log: ImportLog, task_id: str) -> None:
        build_polygon(root, task_dir, log, task_id, interactor_cpu_ms=interactor_cpu_ms)

    return import_packages(packages, out, ImportLog("polygon"), build, only)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    missing = [str(p) for p in args.packages if not p.exists()]
    if missing:
        print(f"error: no such package: {', '.join(missing)}")
        return 2
    log = import_polygon(args.packages, args.out, set(args.only) if args.only else None, args.interactor_cpu_ms)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
