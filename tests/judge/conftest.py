"""Fixtures for judging real programs end to end."""

from __future__ import annotations

import shutil

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir

from ibench.judge import Judge, JudgeSettings
from ibench.tasks.load import load_task


@pytest.fixture(scope="session")
def guess_task():
    """Built outside /tmp and readable by everyone, so the hostile readers test the judge's
    hiding, not the solver's fresh /tmp."""
    base = public_dir()
    root = build_guess_task(base)
    make_public(base)
    yield load_task(root)
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def judge():
    return Judge(JudgeSettings())
