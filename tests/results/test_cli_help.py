"""``python -m ibench.results -h`` names every command, the analyses of issue 31 included, and
each command's own ``-h`` answers (each has a parser of its own)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ibench.results.analyses.cli import ANALYSES

COMMANDS = ("show", "compare", "sample", "sweep", "study", "view", "behaviors", "analyse", "rejudge", "familiarity")


def test_the_top_help_lists_every_command_and_every_analysis():
    out = subprocess.run([sys.executable, "-m", "ibench.results", "-h"], capture_output=True, text=True, check=True).stdout
    flat = " ".join(out.split())
    for c in COMMANDS:
        assert f"\n    {c} " in out or f"\n    {c}\n" in out, c
    for a in ANALYSES:
        assert a in flat, a


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_answers_its_own_help(command):
    from ibench.results.cli import main

    with pytest.raises(SystemExit) as e:
        main([command, "-h"])
    assert e.value.code == 0
