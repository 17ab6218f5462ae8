"""What the interactor writes each case (its query log, transcript, stderr) lives in the slot's
case-files dir: on a tmpfs of the judge's own where the runtime dir is on a disk
(host.case_files_base). A directory someone else made there is never used, and a dir a clean-up
of /dev/shm removed is made again for the same slot, so the next case is judged as before."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from judge_fixtures import solver

from ibench.judge import Judge, JudgeSettings
from ibench.judge.sandbox import host


def test_a_removed_case_files_dir_is_made_again_for_the_same_slot(guess_task):
    judge = Judge(JudgeSettings())
    first = judge.judge(guess_task, solver("/* a */"), "cpp")
    assert first.verdict.value == "OK", first.message
    slot = judge.sandbox.slot()
    files = judge.sandbox.case_files_dir()
    assert (files / "tout").exists(), "the interactor's log was not written where the judge reads it"
    if host.case_files_base() is None:
        pytest.skip("the case files live beside the runtime dir on this host")
    assert files.parent == host.case_files_base() and files.name == f"slot{slot.index}"
    shutil.rmtree(files)
    again = judge.judge(guess_task, solver("/* b */"), "cpp")
    assert again.verdict.value == "OK", again.message
    assert judge.sandbox.slot().index == slot.index
    assert (judge.sandbox.case_files_dir() / "tout").exists()


def test_a_case_files_dir_of_another_user_is_never_used(tmp_path, monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("needs root to make a directory another user owns")
    theirs = tmp_path / "ibench-shm"
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    monkeypatch.setattr(host, "case_files_base", lambda: theirs)
    fallback = tmp_path / "work"
    assert host._case_files_dir(3, fallback) == fallback
    assert not (theirs / "slot3").exists()
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    monkeypatch.setattr(host, "case_files_base", lambda: link)
    assert host._case_files_dir(3, fallback) == fallback


def test_the_case_files_dir_is_the_judges_own(tmp_path, monkeypatch):
    base = tmp_path / "shm"
    monkeypatch.setattr(host, "case_files_base", lambda: base)
    d = host._case_files_dir(5, tmp_path / "work")
    assert d == base / "slot5"
    for p in (base, d):
        st = os.lstat(p)
        assert st.st_uid == os.geteuid() and st.st_mode & 0o7777 == 0o700, (p, oct(st.st_mode))
    assert Path(d).is_dir()
