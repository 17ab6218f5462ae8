"""LiveOIBench contests: which contest each problem belongs to, and the contest metadata and
human results that contest scoring compares the model with (``contests.json``).

The contests file has one row per contest: ``contest_id, gold_cutoff, silver_cutoff,
bronze_cutoff, division, date, num_contestants, problems`` (JSON list of problem ids) and
``contestants_ranking`` (JSON rows with ``Rank, Contestant, Country``, one column per task,
``Total, Medal, CF_Rating``). Only *held* tasks (imported and judgeable, not under
``_unsupported/``) take part in the comparison (the scorer: :mod:`ibench.results.contest`; the
data model written here: :mod:`ibench.tasks.contest`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ibench.tasks.contest import ContestInfo, Contestant, normalize_name

from . import UNSUPPORTED_DIR, ImportLog, safe_name
from .liveoibench_fields import is_null, json_field, parse_date, to_number
from .liveoibench_task import DEFAULT_TASK_POINTS, ProblemMeta

CONTESTANT_FIELDS = {
    "rank": "rank", "contestant": "name", "name": "name", "country": "country", "total": "total",
    "medal": "medal", "cf_rating": "cf_rating", "cfrating": "cf_rating",
}
NON_TASK_COLUMNS = {"rank", "contestant", "name", "country", "total", "recalculatedtotal", "medal", "cfrating",
                    "division", "team", "nationality", "scorerel", "day1", "day2", "user", "username"}


@dataclass
class Held:
    """An imported task as contest scoring sees it."""

    max_points: float
    dest: str  # "" (judgeable) or _unsupported


def match_contests(contest_rows: list[dict], metas: dict[str, ProblemMeta], selected: set[str],
                   log: ImportLog) -> dict[str, dict]:
    """The contest rows by id; sets each problem's ``contest_id`` (from the contest's problem
    list, else the ``COMP-YEAR-ROUND`` prefix of its id)."""
    contest_by_id: dict[str, dict] = {}
    for crow in contest_rows:
        cid = crow.get("contest_id")
        if isinstance(cid, str) and cid:
            contest_by_id[cid] = crow
    problem_contest: dict[str, str] = {}
    for cid, crow in sorted(contest_by_id.items()):
        try:
            plist = json_field(crow.get("problems")) or []
        except json.JSONDecodeError:
            log.warn(cid, "problems column is not JSON; contest tasks matched by id prefix only")
            plist = []
        for p in plist if isinstance(plist, list) else []:
            problem_contest.setdefault(str(p), cid)
    for pid, pm in metas.items():
        found = problem_contest.get(pid)
        if found is None:
            prefix = "-".join(pid.split("-")[:3])
            found = prefix if prefix in contest_by_id else None
        pm.contest_id = found
        if found is None and pid in selected:
            log.warn(pid, "belongs to no contest of the contests file")
    return contest_by_id


def held_in_output(out: Path, metas: dict[str, ProblemMeta], held: dict[str, Held]) -> None:
    """Add to ``held`` the tasks of ``out`` that this run did not import (an import of a few
    tasks, ``--only``, keeps the earlier ones in the contests), read back from their cards."""
    for pid, pm in metas.items():
        if pid in held:
            continue
        for dest in ("", UNSUPPORTED_DIR):
            meta_path = (out / dest / pm.folder if dest else out / pm.folder) / "meta.json"
            if meta_path.is_file():
                try:
                    card = json.loads(meta_path.read_text(encoding="utf-8"))
                    held[pid] = Held(float(card.get("max_score", DEFAULT_TASK_POINTS)), dest)
                except (ValueError, TypeError):
                    pass
                break


def contest_infos(contest_by_id: dict[str, dict], metas: dict[str, ProblemMeta], held: dict[str, Held],
                  log: ImportLog) -> list[ContestInfo]:
    """One :class:`ContestInfo` per contest, in contest id order."""
    by_contest: dict[str, list[str]] = {}
    for pid, pm in metas.items():
        if pm.contest_id:
            by_contest.setdefault(pm.contest_id, []).append(pid)
    infos = []
    for cid, crow in sorted(contest_by_id.items()):
        info = _contest_info(cid, crow, sorted(by_contest.get(cid, [])), metas, held, log)
        infos.append(info)
        if not info.held:
            log.note(f"{cid}: the benchmark holds none of its tasks")
    return infos


def _contest_info(cid: str, crow: dict, own: list[str], metas: dict[str, ProblemMeta], held: dict[str, Held],
                  log: ImportLog) -> ContestInfo:
    try:
        plist = [str(p) for p in (json_field(crow.get("problems")) or [])]
    except json.JSONDecodeError:
        plist = []
    problems = list(dict.fromkeys(plist + own))
    try:
        ranking = json_field(crow.get("contestants_ranking")) or []
    except json.JSONDecodeError:
        log.warn(cid, "contestants_ranking is not JSON; no human comparison")
        ranking = []
    contestants, columns = _contestants(ranking)
    task_columns = _task_columns(problems, metas, columns)
    held_here = [p for p in problems if p in held and held[p].dest == ""]
    unmatched = [p for p in held_here if p not in task_columns]
    if unmatched and contestants:
        log.warn(cid, f"no ranking column for held task(s) {', '.join(unmatched)}; humans are compared on "
                      f"their official totals")
    competition = crow.get("competition")
    if is_null(competition):
        competition = cid.split("-")[0]
    num_contestants = to_number(crow.get("num_contestants"))
    # Ids as the task folders (and so the results store) spell them.
    fid = {p: (metas[p].folder if p in metas else safe_name(p)) for p in problems}
    return ContestInfo(
        contest_id=cid,
        competition=str(competition),
        date=parse_date(crow.get("date")),
        division=None if is_null(crow.get("division")) else str(crow.get("division")),
        gold_cutoff=to_number(crow.get("gold_cutoff")),
        silver_cutoff=to_number(crow.get("silver_cutoff")),
        bronze_cutoff=to_number(crow.get("bronze_cutoff")),
        num_contestants=None if num_contestants is None else int(num_contestants),
        problems=tuple(fid[p] for p in problems),
        held=tuple(fid[p] for p in held_here),
        task_columns={fid[p]: c for p, c in task_columns.items()},
        max_scores={fid[p]: held[p].max_points for p in problems if p in held},
        contestants=tuple(contestants),
    )


def _contestants(ranking: Any) -> tuple[list[Contestant], set[str]]:
    """The human contestants of a ranking, and the ranking's task columns (as spelt there)."""
    contestants = []
    columns: set[str] = set()
    for r in ranking if isinstance(ranking, list) else []:
        if not isinstance(r, dict):
            continue
        fields: dict[str, Any] = {}
        scores: dict[str, float | None] = {}
        recalc = None
        for k, v in r.items():
            nk = normalize_name(k)
            if nk == "recalculatedtotal":
                recalc = to_number(v)
            elif nk in CONTESTANT_FIELDS:
                fields[CONTESTANT_FIELDS[nk]] = v
            elif nk not in NON_TASK_COLUMNS:
                scores[str(k)] = to_number(v)
                columns.add(str(k))
        total = recalc if recalc is not None else to_number(fields.get("total"))
        medal = fields.get("medal")
        rank = to_number(fields.get("rank"))
        contestants.append(Contestant(
            name=str(fields.get("name") or ""), total=total, scores=scores,
            rank=None if rank is None else int(rank),
            country=None if is_null(fields.get("country")) else str(fields.get("country")),
            medal=None if is_null(medal) or str(medal).strip() == "" else str(medal).strip(),
            cf_rating=to_number(fields.get("cf_rating"))))
    return contestants, columns


def _task_columns(problems: list[str], metas: dict[str, ProblemMeta], columns: set[str]) -> dict[str, str]:
    """Problem id -> its ranking column, matched by normalised task name (or the task part of
    the id)."""
    col_by_norm = {normalize_name(c): c for c in sorted(columns)}
    task_columns = {}
    for p in problems:
        pm = metas.get(p)
        cands = [pm.row.get("task_name")] if pm else []
        cands.append(p.split("-", 3)[-1])
        for cand in cands:
            if cand and normalize_name(str(cand)) in col_by_norm:
                task_columns[p] = col_by_norm[normalize_name(str(cand))]
                break
    return task_columns
