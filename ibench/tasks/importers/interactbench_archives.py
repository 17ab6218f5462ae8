"""Read the InteractBench release: JSONL records and the ``*.tar.zst`` case archives.

Archives are streamed member by member (never unpacked whole) and each case file is copied
into the staged folder of its task; see :func:`locate_member` for the layouts recognised.
"""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path, PurePosixPath
from typing import Any, Iterator

from . import ImportLog, Staging


def read_jsonl(path: Path, log: ImportLog, kind: str) -> Iterator[dict[str, Any]]:
    """Records of a JSONL file; malformed lines are reported and skipped."""
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                log.warn(f"{path.name}:{lineno}", f"invalid JSON ({e.msg}); line skipped")
                continue
            if not isinstance(rec, dict):
                log.warn(f"{path.name}:{lineno}", "not a JSON object; line skipped")
                continue
            rec["_kind"] = kind
            rec["_where"] = f"{path.name}:{lineno}"
            yield rec


def iter_archive(path: Path) -> Iterator[tuple[tarfile.TarInfo, Any]]:
    """Members of a ``.tar.zst`` archive with a reader for each regular file, streamed."""
    import zstandard

    dctx = zstandard.ZstdDecompressor(max_window_size=2**31)
    with open(path, "rb") as raw, dctx.stream_reader(raw) as stream:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                yield member, (tar.extractfile(member) if member.isfile() else None)


def _archive_stem(path: Path) -> str:
    name = path.name
    for suffix in (".tar.zst", ".tzst", ".tar.zstd"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def locate_member(name: str, known: set[str], archive_stem: str) -> tuple[str, tuple[str, ...]] | None:
    """(problem id, path inside the task) of an archive member, or None when it belongs to no
    task. Layouts: ``<pid>/...``, ``<anything>/<pid>/cases/...``, ``cases/...`` (the archive is
    named after the task)."""
    parts = tuple(p for p in PurePosixPath(name).parts if p not in ("", "."))
    if not parts:
        return None
    if parts[0] in known and len(parts) > 1:
        return parts[0], parts[1:]
    if "cases" in parts:
        k = parts.index("cases")
        if k >= 1:
            return parts[k - 1], parts[k:]
        return archive_stem, parts
    return None


def extract_cases(cases_dir: Path, records: dict, staging: Staging, log: ImportLog, only: set[str] | None) -> None:
    """Stream the case files of every ``*.tar.zst`` / ``*.tzst`` under ``cases_dir`` into the
    staged folders of the tasks in ``records`` (links, members that leave their folder and
    members of unknown tasks are reported and skipped)."""
    archives = sorted(cases_dir.glob("*.tar.zst")) + sorted(cases_dir.glob("*.tzst"))
    if not archives:
        log.warn(str(cases_dir), "no *.tar.zst archive found")
    known = set(records)
    unknown: dict[str, int] = {}
    seen: dict[tuple[str, tuple[str, ...]], str] = {}
    unmatched = 0
    for archive in archives:
        stem = _archive_stem(archive)
        try:
            for member, reader in iter_archive(archive):
                if not member.isfile():
                    if member.issym() or member.islnk():
                        log.warn(archive.name, f"link {member.name} ignored")
                    continue
                loc = locate_member(member.name, known, stem)
                if loc is None:
                    unmatched += 1
                    continue
                pid, rel = loc
                if ".." in rel or PurePosixPath(member.name).is_absolute():
                    log.warn(archive.name, f"member {member.name} leaves its folder; ignored")
                    continue
                if pid not in known:
                    if not only:
                        unknown[pid] = unknown.get(pid, 0) + 1
                    continue
                key = (pid, rel)
                if key in seen:
                    log.warn(pid, f"{'/'.join(rel)} appears in {seen[key]} and {archive.name}; the later one is kept")
                seen[key] = archive.name
                target = staging.path(pid).joinpath(*rel)
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "wb") as fh:
                    shutil.copyfileobj(reader, fh, 1 << 20)
                log.count("case files extracted")
        except (tarfile.TarError, OSError) as e:
            log.warn(archive.name, f"archive unreadable ({e}); its remaining members are skipped")
    for pid, n in sorted(unknown.items()):
        log.warn(pid, f"{n} case file(s) in the archives for a problem with no record; ignored")
    if unmatched:
        log.warn(str(cases_dir), f"{unmatched} archive member(s) belong to no task folder; ignored")
