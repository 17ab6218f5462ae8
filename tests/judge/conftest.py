"""Fixtures for judging real programs end to end."""

from __future__ import annotations

import pytest
from judge_fixtures import build_guess_task

from ibench.judge import Judge, JudgeSettings
from ibench.tasks.load import load_task


@pytest.fixture(scope="session")
def guess_task(tmp_path_factory):
    return load_task(build_guess_task(tmp_path_factory.mktemp("tasks")))


@pytest.fixture(scope="session")
def judge():
    return Judge(JudgeSettings())
