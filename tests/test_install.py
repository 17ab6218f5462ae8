"""scripts/install.sh and README's first commands (issue 30): the commands CI's system-Python lane
reads from README.md call the install's environment, and a second install installs nothing."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LANE = REPO / ".ci" / "lanes" / "system_python.sh"


def readme_command(n: int) -> str:
    """The lane's own reading of README.md (its readme_command function, run by bash)."""
    script = f'source <(sed -n "/^readme_command()/,/^}}/p" {LANE}); cd {REPO}; readme_command {n}'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def test_readme_commands_use_the_installs_environment():
    install, tests = readme_command(1), readme_command(2)
    assert install.startswith("bash scripts/install.sh && .venv/bin/python -m ibench.launch"), install
    assert tests.startswith(".venv/bin/python -m pytest -q tests"), tests
    assert readme_command(3) == ""  # the block holds exactly the two commands


def test_a_second_install_installs_nothing():
    venv_py = REPO / ".venv" / "bin" / "python"
    stamp = REPO / ".venv" / ".ibench-installed"
    if not stamp.is_file() or not venv_py.exists():
        pytest.skip("no .venv made by scripts/install.sh here")
    version = subprocess.run([str(venv_py), "-c", "import sys; print(sys.version.split()[0])"], capture_output=True,
                             text=True, check=True).stdout.strip()
    want = f"{hashlib.sha256((REPO / 'pyproject.toml').read_bytes()).hexdigest()} {version} {REPO}"
    if stamp.read_text().strip() != want or not (shutil.which("g++") and shutil.which("javac")):
        pytest.skip("the environment is not up to date with pyproject.toml (a run now would install)")
    t0 = time.monotonic()
    out = subprocess.run(["bash", str(REPO / "scripts" / "install.sh")], capture_output=True, text=True, timeout=120)
    took = time.monotonic() - t0
    assert out.returncode == 0, out.stderr
    assert "up to date (.venv; nothing installed)" in out.stderr and "installed ibench" not in out.stderr
    assert took < 10, took
    assert stamp.read_text().strip() == want
