"""README's benchmark table is generated from the task cards and must not drift."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_readme_task_table_is_current():
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "task_table.py"), "--check"], cwd=REPO,
                       capture_output=True, text=True)
    assert r.returncode == 0, (r.stdout + r.stderr + "\nrun: python scripts/task_table.py --write")
