"""`python -m ibench.tasks validate`: prove each task's judging agrees with its known solutions.

The offline counterpart of InteractBench's validate step (paper §3.3): a task is trusted only if
everything compiles, every generated case is reproduced byte for byte by its generator, every
accepted solution is accepted on every case, and every known-bad probe is rejected with exactly
its expected label (and score, for scored batch tasks).

Work is split into independent jobs, one per task for its tools and cases plus one per known
solution, run inline (``--jobs 1``), in a process pool, or as Ray tasks (``--ray``).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import traceback
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from .errors import TaskError
from .load import CaseRecipe, load_tasks, read_case_recipes, solution_language
from .model import Case, KnownSolution, Task

if TYPE_CHECKING:  # the judge is imported only when validation actually runs
    from ibench.judge import Judge, JudgeSettings
    from ibench.judge.outcome import SampleResult

GENERATOR_TIMEOUT_S = 30.0
SCORE_TOLERANCE = 1e-6
MAX_CASE_ROWS = 10  # regenerated-case mismatches shown per task; the rest are counted


@dataclass
class Row:
    """One line of a task's table: a tool, a regenerated case or a known solution."""

    item: str
    expected: str
    got: str
    ok: bool | None  # None: a warning, shown but not a failure
    score: str = ""
    detail: str = ""
    tag: str = ""  # the package's own expectation (an imported solution's folder or Polygon tag)
    figures: str = ""  # the deciding case, its CPU, wall, memory and exits


@dataclass
class TaskValidation:
    task: str
    rows: list[Row]
    cases: str = ""  # e.g. "3 of 40 cases (sample)"; "" when every case ran

    @property
    def ok(self) -> bool:
        return all(r.ok is not False for r in self.rows)


# --------------------------------------------------------------------------------------------
# Case sampling (--cases N): deterministic per task, every interactor pool represented.


def sample_cases(task: Task, n: int | None) -> tuple[Case, ...]:
    """``n`` cases of ``task`` chosen by a seed derived from its id; all when ``n`` is None."""
    cases = task.cases
    if n is None or n >= len(cases):
        return cases
    if n <= 0:
        raise ValueError(f"--cases must be positive, got {n}")
    groups: dict[str | None, list[Case]] = defaultdict(list)
    for case in cases:
        groups[case.interactor].append(case)
    quotas = _quotas({k: len(v) for k, v in groups.items()}, n)
    rng = random.Random(f"ibench-validate:{task.task_id}")
    chosen = {c.name for key, members in groups.items() for c in rng.sample(members, quotas[key])}
    return tuple(c for c in cases if c.name in chosen)


def _quotas(sizes: dict, n: int) -> dict:
    """Split ``n`` over groups in proportion to their sizes, at least one each where possible."""
    total = sum(sizes.values())
    quotas = {k: min(s, max(1, n * s // total)) for k, s in sizes.items()}
    keys = sorted(sizes, key=lambda k: -sizes[k])  # adjust the biggest groups first
    while sum(quotas.values()) > n:
        k = max((k for k in keys if quotas[k] > 0), key=lambda k: quotas[k])
        quotas[k] -= 1
    while sum(quotas.values()) < n:
        k = next(k for k in keys if quotas[k] < sizes[k])
        quotas[k] += 1
    return quotas


# --------------------------------------------------------------------------------------------
# Jobs. Each is picklable (tasks are frozen dataclasses of paths) and builds its own Judge, so it
# runs the same inline, in a worker process or in a Ray task.


@dataclass(frozen=True)
class ToolsJob:
    """Compile the task's interactors, checker and generator; regenerate the chosen cases."""

    task: Task
    cases: tuple[str, ...]


@dataclass(frozen=True)
class SolutionJob:
    task: Task
    solution: KnownSolution
    cases: tuple[str, ...] | None  # None: every case


def _judge(settings: "JudgeSettings", all_cases: bool) -> "Judge":
    from ibench.judge import Judge

    return Judge.shared(dataclasses.replace(settings, all_cases=all_cases))


def run_job(job: ToolsJob | SolutionJob, settings: "JudgeSettings") -> list[Row]:
    """Run one job; never raises (an unexpected error becomes a failed row)."""
    try:
        if isinstance(job, ToolsJob):
            return _run_tools(job, settings)
        return [_run_solution(job, settings)]
    except Exception as e:  # report, do not lose the rest of the run
        item = job.solution.path.name if isinstance(job, SolutionJob) else "tools"
        tail = traceback.format_exc().strip().splitlines()[-1]
        return [Row(item, "", "ERROR", False, detail=f"{type(e).__name__}: {tail}")]


def _tool_sources(task: Task) -> list[Path]:
    tools = list(dict.fromkeys(task.interactors[k] for k in sorted(task.interactors)))  # one ICPC folder serves both
    if task.checker:
        tools.append(task.checker)
    if task.generator:
        tools.append(task.generator)
    return tools


def _run_tools(job: ToolsJob, settings: "JudgeSettings") -> list[Row]:
    task = job.task
    judge = _judge(settings, all_cases=False)
    rows: list[Row] = []
    binaries: dict[Path, Path] = {}
    for source in _tool_sources(task):
        rel = str(source.relative_to(task.root))
        try:
            binaries[source] = judge.compile_tool(task, source)
            rows.append(Row(f"compile {rel}", "compiles", "compiles", True, detail=_budget(task, source, settings)))
        except Exception as e:  # the judge's compile error carries the diagnostics
            rows.append(Row(f"compile {rel}", "compiles", "CE", False, detail=_short(str(e))))

    recipes = [r for r in read_case_recipes(task) if r.case in set(job.cases)]
    if not recipes:
        return rows
    gen = binaries.get(task.generator) if task.generator else None
    if gen is None:
        rows.append(Row(f"regenerate {len(recipes)} cases", "identical", "skipped", False,
                        detail="the generator did not compile"))
        return rows
    by_name = {c.name: c for c in task.cases}
    failures = [row for r in recipes if (row := _regenerate(gen, r, by_name[r.case])) is not None]
    if not failures:
        rows.append(Row(f"regenerate {len(recipes)} case{'s' if len(recipes) != 1 else ''}", "identical", "identical", True))
    rows.extend(failures[:MAX_CASE_ROWS])
    if len(failures) > MAX_CASE_ROWS:
        rows.append(Row(f"... {len(failures) - MAX_CASE_ROWS} more cases", "identical", "differ", False))
    return rows


def _budget(task: Task, source: Path, settings: "JudgeSettings") -> str:
    """The judge program's own CPU budget, recorded with the build (interactors; ICPC validators)."""
    if source not in task.interactors.values() and not (task.contract == "icpc" and source == task.checker):
        return ""
    from ibench.judge.limits import case_limits, interactor_cpu_ms, interactor_wall_ms

    wall = case_limits(task, settings).wall_ms
    where = "the task card's interactor_cpu_ms" if (task.interactor_cpu_ms or 0) >= settings.interactor_cpu_s * 1000 \
        else "judge.interactor_cpu_s"
    return (f"own CPU budget {interactor_cpu_ms(settings, task, wall)} ms ({where}), "
            f"wall {interactor_wall_ms(settings, task, wall)} ms while computing")


def _regenerate(gen: Path, recipe: CaseRecipe, case: Case) -> Row | None:
    """None when the generator reproduces the shipped case, else the failing row."""
    item = f"case {recipe.case}"
    expected = "identical"
    # A scratch cwd: a generator that writes files must not litter the task folder.
    with tempfile.TemporaryDirectory(prefix="ibench-gen-") as tmp:
        try:
            proc = subprocess.run([str(gen), *recipe.args], cwd=tmp, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=GENERATOR_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return Row(item, expected, "timeout", False, detail=f"gen {' '.join(recipe.args)} ran over {GENERATOR_TIMEOUT_S:.0f} s")
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip()
        return Row(item, expected, f"exit {proc.returncode}", False, detail=f"gen {' '.join(recipe.args)}: {_short(err)}")
    shipped = case.input_path.read_bytes()
    if proc.stdout == shipped:
        return None
    return Row(item, expected, "differs", False, detail=f"gen {' '.join(recipe.args)}: {_first_difference(shipped, proc.stdout)}")


def _first_difference(shipped: bytes, generated: bytes) -> str:
    a, b = shipped.splitlines(keepends=True), generated.splitlines(keepends=True)
    for i, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return f"line {i}: shipped {_clip(x)} vs generated {_clip(y)}"
    if len(a) != len(b):
        return f"shipped has {len(a)} lines, generated {len(b)}"
    return f"shipped {len(shipped)} bytes, generated {len(generated)} bytes"


def _clip(line: bytes, width: int = 40) -> str:
    text = line.decode(errors="replace")
    return repr(text if len(text) <= width else text[:width] + "...")


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _run_solution(job: SolutionJob, settings: "JudgeSettings") -> Row:
    """Judge one known solution with all_cases=True: every case runs, so a probe's label is the
    most severe over all its failing cases (SPEC §4), not whichever failing case came first."""
    task, sol = job.task, job.solution
    # A batch-variant solution (InteractBench C.1) is judged as that variant runs it: the hidden
    # case on its stdin first; every other one exactly as before.
    if sol.variant != settings.variant:
        settings = dataclasses.replace(settings, variant=sol.variant)
    source = sol.path.read_text(encoding="utf-8")
    language = solution_language(sol.path)
    if sol.tag:
        # An imported package's submission is judged as its own judge does: in case order, the
        # first failing case decides (its authors' tag names that verdict, not the most severe).
        chosen = None if job.cases is None else [c for c in task.cases if c.name in set(job.cases)]
        result = _judge(settings, all_cases=False).judge(task, source, language=language, cases=chosen)
        return _solution_row(task, sol, result, sampled=job.cases is not None)
    judge = _judge(settings, all_cases=True)
    if job.cases is None:
        full = judge.judge(task, source, language=language)
        row = _solution_row(task, sol, full, sampled=False)
        if row.ok and not sol.accepted:
            # The label a default (early-exit) run gives must be the one expected.json declares
            # for it, or the reference model's replay would disagree with the task card. The
            # full run holds every case's verdict: the early-exit walk over them is that label,
            # without judging the program a second time.
            early = judge.early_exit_view(task, full)
            if early.verdict.value != sol.expected_for(all_cases=False) and not (
                    sol.accepts and sol.expected_early_exit is None and sol.agrees(early.verdict.value)):
                return Row(sol.path.name, f"{sol.expected_for(all_cases=False)} (early exit)", early.verdict.value,
                           False, detail="set expected_early_exit in expected.json: with early exit the first "
                                         f"failing case decides ({early.message[:120]})")
        return row

    by_name = {c.name: c for c in task.cases}
    result = judge.judge(task, source, language=language, cases=[by_name[n] for n in job.cases])
    # The sample settles an accepted solution either way, and a probe that shows its expected
    # label. A probe that does not (passes the sample, or fails differently) may be exposed
    # only by cases outside the sample, so it gets the full, definitive run.
    if sol.accepted or sol.agrees(result.verdict.value):
        return _solution_row(task, sol, result, sampled=True)
    return _solution_row(task, sol, judge.judge(task, source, language=language), sampled=False)


def _solution_row(task: Task, sol: KnownSolution, result: "SampleResult", sampled: bool) -> Row:
    got = result.verdict.value
    ok = sol.agrees(got)
    detail = sol.note
    if got == "SE":
        detail = f"JUDGE ERROR: {result.message}"
    elif not ok:
        detail = result.message or sol.note
    score = ""
    scored = bool(task.subtasks)
    if scored and result.score is not None:
        score = _fmt(result.score)
        if sol.score is not None:
            if not sampled:  # a score over a sample of the tests says nothing about the task score
                score += f" / {_fmt(sol.score)}"
                if abs(result.score - sol.score) > SCORE_TOLERANCE:
                    ok = False
                    detail = f"score {_fmt(result.score)}, expected {_fmt(sol.score)}; {detail}"
            else:
                score += " (sampled)"
    expected = "|".join(sol.accepts) if sol.accepts else sol.expected
    return Row(sol.path.name, expected, got, ok, score=score, detail=detail, tag=sol.tag, figures=_figures(result))


def _figures(result: "SampleResult") -> str:
    """The deciding case's figures (a disagreement's evidence): the failing case, else the slowest."""
    if not result.cases:
        return ""
    failing = [c for c in result.cases if c.verdict.value == result.verdict.value and c.verdict.value != "OK"]
    c = failing[0] if failing else max(result.cases, key=lambda c: c.cpu_ms)
    return (f"case {c.case}: {c.verdict.value}, cpu {c.cpu_ms:.0f} ms, wall {c.wall_ms:.0f} ms, "
            f"{c.peak_kb // 1024} MB, solver {c.solver_exit or '-'}, judge {c.interactor_exit or '-'}")


def _fmt(x: float) -> str:
    return f"{x:g}"


# --------------------------------------------------------------------------------------------
# Orchestration


def plan_jobs(tasks: Sequence[Task], cases: int | None) -> list[ToolsJob | SolutionJob]:
    jobs: list[ToolsJob | SolutionJob] = []
    for task in tasks:
        chosen = sample_cases(task, cases)
        names = tuple(c.name for c in chosen)
        jobs.append(ToolsJob(task, names))
        subset = names if len(chosen) < len(task.cases) else None
        jobs.extend(SolutionJob(task, sol, subset) for sol in task.solutions)
    return jobs


def estimated_seconds(job: ToolsJob | SolutionJob, settings: "JudgeSettings") -> float:
    """A job's rough cost, to start the longest first: a probe expected to run out of CPU time
    spends its limit on every case, one that stalls waits for its wall cap (unless the deadlock
    look ends it), the rest a few milliseconds a case."""
    from ibench.languages import of_path

    if isinstance(job, ToolsJob):
        return 1.0 + 0.01 * len(job.cases)
    task, sol = job.task, job.solution
    n = len(job.cases) if job.cases is not None else len(task.cases)
    language = of_path(sol.path)
    cpu_s = task.cpu_time_limit_ms / 1000 * (language.time_factor if language else 1.0)
    wall_s = max(settings.wall_factor * cpu_s, cpu_s + settings.wall_extra_s)
    per_case = {"TLE": cpu_s, "IDLE": wall_s / 2, "MLE": 0.3}.get(sol.expected, 0.05)
    return 1.0 + n * per_case


def _execute(jobs: list, settings: "JudgeSettings", workers: int, use_ray: bool) -> Iterable[tuple[int, list[Row]]]:
    """Yield (job index, rows) as jobs finish. Jobs start longest first, so that a few long
    probes (every case to its CPU limit) are not left to run alone at the end."""
    order = sorted(range(len(jobs)), key=lambda i: -estimated_seconds(jobs[i], settings))
    if use_ray:
        yield from _execute_ray(jobs, order, settings, workers)
    elif workers <= 1:
        for i, job in enumerate(jobs):
            yield i, run_job(job, settings)
    else:
        # A probe expected IDLE mostly waits for the clock (a solver that sleeps forever holds its
        # case to the wall cap): those run in a lane of their own, so that they never hold one of
        # the workers the CPU-bound jobs need.
        waiting = [i for i in order if _waits_for_the_clock(jobs[i])]
        working = [i for i in order if not _waits_for_the_clock(jobs[i])]
        with ProcessPoolExecutor(max_workers=workers) as pool, \
                ProcessPoolExecutor(max_workers=max(1, workers // 2)) as wall_pool:
            futures = {pool.submit(run_job, jobs[i], settings): i for i in working}
            # unpinned: the working judges then take a CPU each (ibench.judge.sandbox.host.pick_cpu)
            waiting_settings = dataclasses.replace(settings, pin_cpu=False)
            futures.update({wall_pool.submit(run_job, jobs[i], waiting_settings): i for i in waiting})
            for future in as_completed(futures):
                yield futures[future], future.result()


def _waits_for_the_clock(job: ToolsJob | SolutionJob) -> bool:
    return isinstance(job, SolutionJob) and job.solution.expected == "IDLE"


def _execute_ray(jobs: list, order: list[int], settings: "JudgeSettings",
                 workers: int) -> Iterable[tuple[int, list[Row]]]:
    import ray

    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS")
        # A local instance gets --jobs CPUs; an existing cluster brings its own.
        ray.init(address=address, num_cpus=None if address else max(1, workers),
                 include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=1)(run_job)
        index = {remote.remote(jobs[i], settings): i for i in order}
        pending = list(index)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield index[done[0]], ray.get(done[0])
    finally:
        if started:  # leave a caller's Ray session alone, end only the one started here
            ray.shutdown()


def validate_tasks(tasks: Sequence[Task], settings: "JudgeSettings | None" = None, cases: int | None = None,
                   jobs: int = 1, use_ray: bool = False, on_task=None, on_job=None) -> list[TaskValidation]:
    """Validate ``tasks``; ``on_task(TaskValidation)`` is called as each task completes,
    ``on_job(done, total)`` as each job does (the longest start first, so tasks complete late)."""
    if settings is None:
        from ibench.judge import JudgeSettings

        settings = JudgeSettings()
    planned = plan_jobs(tasks, cases)
    remaining: dict[str, int] = defaultdict(int)
    for job in planned:
        remaining[job.task.task_id] += 1
    done: dict[str, list[tuple[int, list[Row]]]] = defaultdict(list)
    results: dict[str, TaskValidation] = {}
    for finished, (index, rows) in enumerate(_execute(planned, settings, jobs, use_ray), start=1):
        if on_job:
            on_job(finished, len(planned))
        task = planned[index].task
        done[task.task_id].append((index, rows))
        remaining[task.task_id] -= 1
        if remaining[task.task_id]:
            continue
        # Rows in plan order (tools first, then solutions by name), whatever finished first.
        ordered = [row for _, rs in sorted(done[task.task_id], key=lambda t: t[0]) for row in rs]
        if not any(s.accepted for s in task.solutions):
            ordered.append(Row("(known solutions)", "an OK solution", "none", None,
                               detail="no accepted solution: nothing shows the task is solvable"))
        n = len(sample_cases(task, cases))
        note = f"{n} of {len(task.cases)} cases sampled" if n < len(task.cases) else ""
        results[task.task_id] = TaskValidation(task.task_id, ordered, note)
        if on_task:
            on_task(results[task.task_id])
    return [results[t.task_id] for t in tasks]


# --------------------------------------------------------------------------------------------
# Console


def print_task(console, result: TaskValidation) -> None:
    from rich.markup import escape
    from rich.table import Table

    status = "[green]OK" if result.ok else "[red]MISMATCH"
    sampled = f"  [dim]({result.cases})[/dim]" if result.cases else ""
    table = Table(title=f"{result.task}  {status}{sampled}", title_justify="left")
    for col in ("solution", "expected", "got", "score", ""):
        table.add_column(col, no_wrap=col != "")
    table.add_column("detail", overflow="fold")
    for r in result.rows:
        mark = "[green]✓" if r.ok else ("[yellow]–" if r.ok is None else "[red]✗")
        table.add_row(escape(r.item), escape(r.expected), escape(r.got), r.score, mark, escape(r.detail))
    console.print(table)


def print_summary(console, results: list[TaskValidation]) -> None:
    bad = [r for r in results if not r.ok]
    mismatches = sum(1 for r in results for row in r.rows if row.ok is False)
    if bad:
        console.print(f"[red]{len(bad)} of {len(results)} tasks failed validation "
                      f"({mismatches} mismatches): {', '.join(r.task for r in bad)}")
    else:
        console.print(f"[green]all {len(results)} tasks validated")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="a task folder or a folder of task folders")
    parser.add_argument("--ids", help="comma-separated task ids to validate (default: all)")
    parser.add_argument("--cases", type=int, default=None, metavar="N",
                        help="a deterministic sample of N cases per task (CI); default: every case")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel jobs (default: the host's cores, %(default)s here)")
    parser.add_argument("--agreement-dir", type=Path, default=None, metavar="DIR",
                        help="where imported tasks' agreement.csv and confusion.csv go (default: DIR/_validate)")
    parser.add_argument("--ray", action="store_true", help="run jobs as Ray tasks (falls back to processes)")
    parser.add_argument("--probe", action="store_true",
                        help="also run the mutation probe (python -m ibench.tasks probe): Category B must be met "
                             "and every Category A survivor recorded as equivalent")


def run_from_args(args: argparse.Namespace) -> int:
    from rich.console import Console

    # Piped output (CI logs) gets a wide fixed width so the detail column stays readable.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    try:
        ids = [i for i in args.ids.split(",") if i] if args.ids else None
        tasks = load_tasks(args.dir, ids=ids)
    except TaskError as e:
        console.print(str(e), markup=False)
        return 2
    if not tasks:
        console.print(f"{args.dir}: no tasks to validate")
        return 1
    use_ray = args.ray
    if use_ray and importlib.util.find_spec("ray") is None:
        print("ray is not importable; using a process pool", file=sys.stderr)
        use_ray = False
    try:
        results = validate_tasks(tasks, cases=args.cases, jobs=args.jobs, use_ray=use_ray,
                                 on_task=lambda r: print_task(console, r), on_job=_progress_printer())
    except ValueError as e:
        console.print(f"validate: {e}", markup=False)
        return 2
    print_summary(console, results)
    _agreement(console, results, args.agreement_dir or (args.dir / "_validate"))
    ok = all(r.ok for r in results)
    if getattr(args, "probe", False):
        ok = _probe(console, tasks, args.jobs) and ok
    return 0 if ok else 1


def _progress_printer(every_s: float = 10.0):
    """A line on stderr at most every ``every_s`` (and at the end): jobs done of all, elapsed."""
    import time

    started = time.monotonic()
    last = [started]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= every_s:
            last[0] = now
            print(f"validate: {done} of {total} jobs done, {now - started:.0f} s", file=sys.stderr, flush=True)
    return show


def _agreement(console, results: list[TaskValidation], folder: Path) -> None:
    """Imported tasks: the authors' tags against ibench's verdicts (ibench/tasks/agreement.py)."""
    from .agreement import collect, render, write_csv

    agreement = collect(results)
    if not agreement.rows:
        return
    console.print(render(agreement), markup=False, highlight=False)
    per, conf = write_csv(agreement, folder)
    console.print(f"wrote {per} and {conf}", markup=False)


def _probe(console, tasks: Sequence[Task], jobs: int) -> bool:
    """``validate --probe``: the mutation probe over the same tasks, every case of each pool."""
    import time

    from .probe.cli import print_summary as print_probe_summary
    from .probe.cli import print_task as print_probe_task
    from .probe.run import probe_tasks

    started = time.monotonic()
    probes = probe_tasks(tasks, jobs=jobs, on_task=lambda p: print_probe_task(console, p))
    print_probe_summary(console, probes, time.monotonic() - started)
    return all(p.ok for p in probes)
