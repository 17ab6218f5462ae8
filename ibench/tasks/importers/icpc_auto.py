"""`python -m ibench.tasks import PACKAGE... --out DIR`: problem packages recognised by their
files (``problem.xml``: Polygon; ``problem.yaml``: ICPC / Kattis), each handed to its importer."""

from __future__ import annotations

from pathlib import Path

from . import ImportLog
from .icpc import DEFAULT_TIME_LIMIT_MS, build_icpc, build_parser
from .icpc_package import PackageError, import_packages


def package_format(root: Path) -> str:
    """"polygon" or "icpc" for a package folder (its root or its only top folder)."""
    if (root / "problem.xml").is_file():
        return "polygon"
    if (root / "problem.yaml").is_file():
        return "icpc"
    raise PackageError("neither problem.xml (Polygon) nor problem.yaml (ICPC / Kattis) at the package's top")


def import_any(packages: list[Path], out: Path, only: set[str] | None = None, time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
               interactor_cpu_ms: int | None = None) -> ImportLog:
    from .polygon import build_polygon

    def build(root: Path, task_dir: Path, log: ImportLog, task_id: str) -> None:
        if package_format(root) == "polygon":
            build_polygon(root, task_dir, log, task_id, interactor_cpu_ms=interactor_cpu_ms)
        else:
            build_icpc(root, task_dir, log, task_id, time_limit_ms=time_limit_ms, interactor_cpu_ms=interactor_cpu_ms)

    return import_packages(packages, out, ImportLog("packages"), build, only)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    parser.prog = "python -m ibench.tasks import"
    parser.description = "Import ICPC / Kattis and Polygon packages (folders or zips), recognised by their files."
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.packages if not p.exists()]
    if missing:
        print(f"error: no such package: {', '.join(missing)}")
        return 2
    log = import_any(args.packages, args.out, set(args.only) if args.only else None, args.time_limit_ms,
                     args.interactor_cpu_ms)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
